"""Python-side preparation of kernel input: a Hand and its win conditions as a hand vector."""

from __future__ import annotations

import numpy as np

from ..hand import CHOW, KONG, Hand
from .layout import (
    AT_CONDITIONS,
    AT_FLOWERS,
    AT_MELD_KIND,
    AT_MELD_OPEN,
    AT_MELD_TILE,
    AT_N_MELDS,
    AT_PREVALENT_WIND,
    AT_SEAT_WIND,
    AT_WIN_TILE,
    CHOW_SET,
    KONG_SET,
    PUNG_SET,
    VEC_LEN,
)

_KIND_CODE = {CHOW: CHOW_SET, KONG: KONG_SET}


def meld_code(meld) -> tuple[int, int, int]:
    """(kind, tile, open) of a Meld as the kernels read it: open is 0 only for a concealed kong."""
    return _KIND_CODE.get(meld.kind, PUNG_SET), meld.tile, 0 if meld.concealed else 1


def encode_hand(hand: Hand, win_tile: int, conditions: int, seat: int, prevalent: int, flowers: int,
                out: "np.ndarray | None" = None) -> np.ndarray:
    """The kernel vector (int16, VEC_LEN) of `hand` with its winning tile and conditions."""
    vec = np.zeros(VEC_LEN, np.int16) if out is None else out
    vec[:34] = hand.counts
    melds = hand.melds
    vec[AT_N_MELDS] = len(melds)
    for i, m in enumerate(melds):
        vec[AT_MELD_KIND + i], vec[AT_MELD_TILE + i], vec[AT_MELD_OPEN + i] = meld_code(m)
    vec[AT_WIN_TILE] = win_tile
    vec[AT_CONDITIONS] = conditions
    vec[AT_SEAT_WIND] = seat
    vec[AT_PREVALENT_WIND] = prevalent
    vec[AT_FLOWERS] = flowers
    return vec
