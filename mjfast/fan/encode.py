"""Python-side preparation of kernel input: melds as the kernels read them."""

from __future__ import annotations

from ..hand import CHOW, KONG
from .kernel import MELD_BITS, MELD_COUNT_SHIFT
from .layout import CHOW_SET, KONG_SET, PUNG_SET

_KIND_CODE = {CHOW: CHOW_SET, KONG: KONG_SET}


def meld_code(meld) -> tuple[int, int, int]:
    """(kind, tile, open) of a Meld as the kernels read it: open is 0 only for a concealed kong."""
    return _KIND_CODE.get(meld.kind, PUNG_SET), meld.tile, 0 if meld.concealed else 1


def pack_melds(melds) -> int:
    """The melds as one integer, as kernel.score_hand reads them (MELD_BITS per meld)."""
    packed = len(melds) << MELD_COUNT_SHIFT
    for i, m in enumerate(melds):
        kind = _KIND_CODE.get(m.kind, PUNG_SET)
        is_open = 0 if (kind == KONG_SET and m.offer == 0) else 1
        packed |= (kind | m.tile << 2 | is_open << 8) << (MELD_BITS * i)
    return packed
