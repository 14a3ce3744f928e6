"""Python-side preparation of kernel input: melds as the kernels read them."""

from __future__ import annotations

import numpy as np

from ..melds import CHOW, KONG, PUNG
from . import layout
from .kernel import MELD_BITS, MELD_COUNT_SHIFT

_KIND_CODE = {CHOW: layout.CHOW_SET, KONG: layout.KONG_SET}


def meld_code(meld) -> tuple[int, int, int]:
    """(kind, tile, open) of a Meld as the kernels read it: open is 0 only for a concealed kong."""
    return _KIND_CODE.get(meld.kind, layout.PUNG_SET), meld.tile, 0 if meld.concealed else 1


# A meld's packed code by kind, open (see pack_melds); a concealed kong clears _OPEN_BIT.
_OPEN_BIT = 1 << 8
_OPEN_CODE = {CHOW: layout.CHOW_SET | _OPEN_BIT, PUNG: layout.PUNG_SET | _OPEN_BIT, KONG: layout.KONG_SET | _OPEN_BIT}


def pack_melds(melds) -> int:
    """The melds as one integer, as kernel.score_hand reads them: MELD_BITS per meld, each
    kind | tile << 2 | open << 8 (open 0 only for a concealed kong), the count at
    MELD_COUNT_SHIFT."""
    packed = len(melds) << MELD_COUNT_SHIFT
    shift = 0
    for m in melds:
        code = _OPEN_CODE[m.kind] | m.tile << 2
        if m.offer == 0 and m.kind == KONG:
            code ^= _OPEN_BIT
        packed |= code << shift
        shift += MELD_BITS
    return packed


def hand_vectors(counts, wins, melds, conditions=0, seat=0, prevalent=0, flowers=0) -> np.ndarray:
    """Hand vectors (N x layout.VEC_LEN int16, see layout) for the batch kernel, from checked arrays:
    counts N x 34, winning tiles N, melds N x 4 x 3 (kind, tile, open); the other values are
    scalars or arrays of N."""
    vecs = np.zeros((counts.shape[0], layout.VEC_LEN), np.int16)
    vecs[:, :34] = counts
    vecs[:, layout.AT_N_MELDS] = (melds[:, :, 0] > 0).sum(axis=1)
    vecs[:, layout.AT_MELD_KIND:layout.AT_MELD_KIND + 4] = melds[:, :, 0]
    vecs[:, layout.AT_MELD_TILE:layout.AT_MELD_TILE + 4] = melds[:, :, 1]
    vecs[:, layout.AT_MELD_OPEN:layout.AT_MELD_OPEN + 4] = melds[:, :, 2]
    vecs[:, layout.AT_WIN_TILE] = wins
    vecs[:, layout.AT_CONDITIONS] = conditions
    vecs[:, layout.AT_SEAT_WIND] = seat
    vecs[:, layout.AT_PREVALENT_WIND] = prevalent
    vecs[:, layout.AT_FLOWERS] = flowers
    return vecs
