"""PyMahjongGB doing mjfast's work: the anchors the benches time mjfast beside (bench_fan,
record). Only PyMahjongGB's own calls, with the glue a user of it would write."""

from __future__ import annotations

from MahjongGB import (
    HonorsAndKnittedTilesShanten,
    KnittedStraightShanten,
    MahjongFanCalculator,
    RegularShanten,
    SevenPairsShanten,
    ThirteenOrphansShanten,
)

FORMS = (RegularShanten, SevenPairsShanten, ThirteenOrphansShanten, HonorsAndKnittedTilesShanten,
         KnittedStraightShanten)


def winning_tiles(packs_tiles: tuple, c: dict) -> dict:
    """mjfast.fan.winning_tiles from PyMahjongGB: the waits of every form, then the calculator
    on each. `packs_tiles`: Hand.to_pymahjonggb() of the ready hand; `c`: its conditions."""
    packs, tiles = packs_tiles
    waits = set()
    for form in FORMS:
        try:
            shanten, useful = form(tiles)
        except Exception:  # the special forms refuse hands with melds
            continue
        if shanten == 0:
            waits.update(useful)
    out = {}
    for w in waits:
        try:
            out[w] = MahjongFanCalculator(packs, tiles, w, c["flowers"], c["self_drawn"], False, c["kong"],
                                          c["last_tile"], "ESWN".index(c["seat_wind"]),
                                          "ESWN".index(c["prevalent_wind"]))
        except Exception:  # a win under PyMahjongGB's minimum
            pass
    return out
