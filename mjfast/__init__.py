"""mjfast: a fast, exact analyzer for Chinese Official Mahjong (MCR, 国标麻将).

    from mjfast import parse_hand, shanten, useful_tiles, best_discards
    best_discards("123m456p789s1357sE")[0].tile

The analysis calls live in mjfast.api and load numba when first used, so that importing
mjfast (for parsing, or for a command that needs no kernel) stays quick.
"""

from .kernel_cache import drop_stale_kernels

drop_stale_kernels()  # before any kernel loads: see kernel_cache

from .errors import HandError  # noqa: E402
from .lazy import lazy_attributes  # noqa: E402
from .hand import Hand, Meld, parse_hand, parse_meld, visible_counts  # noqa: E402
from .tiles import TILE_NAMES, counts_of, parse_tiles  # noqa: E402

__version__ = "0.1.0"

# Names loaded on first use, by module.
_LOADED_LATER = {
    "api": ("DiscardOption", "WaitFans", "acceptance", "best_discards", "shanten", "shanten_by_form",
            "useful_by_form", "useful_tiles", "waits"),
    "fan": ("FANS", "BatchScores", "Fan", "FanInfo", "FanResult", "JUDGE", "Ruleset", "fan_by_name",
            "hands_to_arrays", "score", "score_batch", "settle", "winning_tiles"),
}
__getattr__, __dir__ = lazy_attributes(__name__, _LOADED_LATER)

__all__ = ["Hand", "HandError", "Meld", "TILE_NAMES", "counts_of", "parse_hand", "parse_meld", "parse_tiles",
           "visible_counts", *(name for names in _LOADED_LATER.values() for name in names)]
