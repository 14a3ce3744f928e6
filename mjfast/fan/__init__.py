"""Fan scoring for Chinese Official Mahjong (MCR): the 81 fans, the judge's rulings as named
switches, settlement, and batch scoring on all cores.

    from mjfast.fan import score, settle, winning_tiles
    r = score("[123m1]456p789s123s5m5m")            # the tile written last wins
    r.total, r.fans, r.meets_minimum
    settle(r, winner=0, discarder=2)                 # four score deltas

Modules: names (the fan table), ruleset (switches), tileprops, layout and encode (kernel
input), waits, decompose, combos, rules, exclusions, state, wait_fans, forms, kernel, batch
(numba kernels), conditions, result, settlement, api (the Python layer). docs/fan.md explains
every rule and ruling. Importing this package compiles nothing: each entry point compiles (or loads from
numba's cache) on its first call.
"""

from ..runtime.lazy import lazy_attributes

# Names loaded on first use, by module: the fan-aware discard advice imports the scoring
# kernel's modules only, not the Python layer and the parallel batch kernels.
_LOADED_LATER = {
    "api": ("BatchScores", "hands_to_arrays", "score", "score_batch", "score_best_tile", "winning_tiles"),
    "names": ("FANS", "N_FANS", "FanInfo", "fan_by_name"), "result": ("Fan", "FanResult"),
    "ruleset": ("JUDGE", "RULESETS", "Ruleset", "TZIAKCHA", "WMO_2014", "ruleset_named"), "settlement": ("settle",),
}
__getattr__, __dir__ = lazy_attributes(__name__, _LOADED_LATER)
__all__ = [name for names in _LOADED_LATER.values() for name in names]
