"""mjfast: a fast, exact analyzer for Chinese Official Mahjong (MCR, 国标麻将).

    from mjfast import parse_hand, shanten, useful_tiles, best_discards
    best_discards("123m456p789s1357sE")[0].tile

Where each layer lives:

- notation and hands: tile_ids (the 34 kinds), tiles (notations: the checked reader),
  compact_kernel (the fast reader), tileprops (tile facts), melds (Meld), hand (Hand,
  parse_hand and the one validation path), errors (HandError, each fault's message);
- the shanten core: efficiency/; fan scoring: fan/; numba's runtime: runtime/ (nothing of
  numba's changes until one of mjfast's kernels compiles or loads);
- advice on top of both (discard rankings, values, claims, the clock, the danger): advice/;
- the game at the table, Botzone's protocol and logs: game/; bots: bots/; log analysis:
  logs/; reviews: review/; the JSON service: service/; the page: web/;
- the faces: this package's names (the per-hand calls are efficiency.api's, the discard
  rankings advice's), batch (many hands on all cores; efficiency.batch answers), cli (the command).

The analysis calls load numba when first used (the names below are loaded on first use), so
that importing mjfast (for parsing, or for a command that needs no kernel) stays quick.
"""

from .errors import ArgumentError, GameError, HandError, MjfastError
from .hand import Hand, parse_hand, visible_counts
from .melds import Meld, parse_meld
from .runtime.lazy import lazy_attributes
from .tiles import TILE_NAMES, counts_of, parse_tiles

__version__ = "0.1.0"

# Names loaded on first use, by module.
_LOADED_LATER = {
    "efficiency.api": ("acceptance", "shanten", "shanten_by_form", "useful_by_form", "useful_tiles", "waits"),
    "batch": ("batch",),
    "advice.options": ("DiscardOption", "WaitFans", "best_discards"),
    "advice.model": ("ValueModel",),
    "advice.waiting": ("HandValue", "hand_value"),
    "advice.claims": ("ClaimOption", "claim_options"),
    "fan": ("FANS", "BatchScores", "Fan", "FanInfo", "FanResult", "JUDGE", "Ruleset", "fan_by_name",
            "hands_to_arrays", "score", "score_batch", "score_best_tile", "settle", "winning_tiles"),
}
__getattr__, __dir__ = lazy_attributes(__name__, _LOADED_LATER)

__all__ = ["ArgumentError", "GameError", "Hand", "HandError", "Meld", "MjfastError", "TILE_NAMES", "counts_of",
           "parse_hand", "parse_meld", "parse_tiles", "visible_counts",
           *(name for names in _LOADED_LATER.values() for name in names)]
