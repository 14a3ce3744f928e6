"""mjfast: a fast, exact analyzer for Chinese Official Mahjong (MCR, 国标麻将).

    from mjfast import parse_hand, shanten, useful_tiles, best_discards
    best_discards("123m456p789s1357sE")[0].tile

The analysis calls live in mjfast.api and load numba when first used, so that importing
mjfast (for parsing, or for a command that needs no kernel) stays quick.
"""

from .errors import HandError
from .hand import Hand, Meld, parse_hand, parse_meld, visible_counts
from .tiles import TILE_NAMES, counts_of, parse_tiles

__version__ = "0.1.0"

_API = (
    "DiscardOption",
    "WaitFans",
    "acceptance",
    "best_discards",
    "shanten",
    "shanten_by_form",
    "useful_by_form",
    "useful_tiles",
    "waits",
)


def __getattr__(name):
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'mjfast' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_API))


__all__ = [
    "DiscardOption",
    "Hand",
    "HandError",
    "Meld",
    "WaitFans",
    "TILE_NAMES",
    "acceptance",
    "best_discards",
    "counts_of",
    "parse_hand",
    "parse_meld",
    "parse_tiles",
    "shanten",
    "shanten_by_form",
    "useful_by_form",
    "useful_tiles",
    "visible_counts",
    "waits",
]
