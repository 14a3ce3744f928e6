"""Reading the win conditions a caller gives (flags, winds, flowers) into kernel values."""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError
from .layout import WIN_KONG, WIN_LAST_COPY, WIN_LAST_TILE, WIN_SELF_DRAWN

WIND_LETTERS = "ESWN"
_WIND_INDEX = {}
for _i, (_letter, _chinese, _token) in enumerate(zip(WIND_LETTERS, "东南西北", ("F1", "F2", "F3", "F4"))):
    for _key in (_letter, _letter.lower(), _chinese, _token, _i):
        _WIND_INDEX[_key] = _i
# String spellings only (ints and bools are checked by wind_index: True == 1 as a dict key).
WIND_BY_LETTER = {key: i for key, i in _WIND_INDEX.items() if isinstance(key, str)}
MAX_FLOWERS = 8


def wind_index(wind, what: str) -> int:
    """0-3 for a wind given as E/S/W/N (any case), 东/南/西/北, F1-F4 or 0-3."""
    if isinstance(wind, bool):
        raise ArgumentError(f"{what} must be a wind (E, S, W, N or 0-3), got {wind!r}")
    if isinstance(wind, np.integer):
        wind = int(wind)
    try:
        return _WIND_INDEX[wind]
    except (KeyError, TypeError):
        raise ArgumentError(f"{what} must be a wind (E, S, W, N or 0-3), got {wind!r}") from None


def flag(value, what: str) -> bool:
    """A yes/no condition: True/False (or 0/1)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    raise ArgumentError(f"{what} must be True or False, got {value!r}")


def flower_count(flowers) -> int:
    """The number of flowers, 0-8."""
    if flowers.__class__ is int and 0 <= flowers <= MAX_FLOWERS:
        return flowers
    if isinstance(flowers, (bool, np.bool_)) or not isinstance(flowers, (int, np.integer)):
        raise ArgumentError(f"flowers must be a count 0-{MAX_FLOWERS}, got {flowers!r}")
    if not 0 <= flowers <= MAX_FLOWERS:
        raise ArgumentError(f"flowers must be a count 0-{MAX_FLOWERS}, got {flowers}")
    return int(flowers)


def condition_bits(self_drawn, last_copy, kong, last_tile) -> int:
    """The kernel's bit set of win conditions."""
    if self_drawn.__class__ is bool and last_copy.__class__ is bool and kong.__class__ is bool \
            and last_tile.__class__ is bool:  # the common case, without the checks below
        return self_drawn * WIN_SELF_DRAWN | last_copy * WIN_LAST_COPY | kong * WIN_KONG | last_tile * WIN_LAST_TILE
    return (
        (WIN_SELF_DRAWN if flag(self_drawn, "self_drawn") else 0)
        | (WIN_LAST_COPY if flag(last_copy, "last_copy") else 0)
        | (WIN_KONG if flag(kong, "kong") else 0)
        | (WIN_LAST_TILE if flag(last_tile, "last_tile") else 0)
    )
