"""Compile (or load from numba's cache) every kernel a user may call, in one go.

The first call of each kernel in a fresh environment compiles it; `mjfast warmup` (or
`mjfast.warmup.warm_up()`) pays that once, up front, and the cache keeps it for later runs.
"""

from __future__ import annotations

import numpy as np


def warm_up(only: "list[str] | None" = None, skip: "tuple[str, ...]" = ()) -> list[str]:
    """Run each public entry point once on a small input (those named in `only` if given,
    but not those in `skip`: the names of `calls` below); returns the names warmed."""
    import mjfast
    import mjfast.batch as batch
    from mjfast.fan import score, score_batch, winning_tiles

    hand13 = mjfast.parse_hand("123m456p789s1357s")
    hand14 = mjfast.parse_hand("123m456p789s1357sE")
    melded = mjfast.parse_hand("[555m1]46m123p456p99s")
    calls = {
        "shanten": lambda: mjfast.shanten(hand13),
        "shanten (melds)": lambda: mjfast.shanten(melded),
        "shanten_by_form": lambda: mjfast.shanten_by_form(hand13),
        "useful_tiles": lambda: mjfast.useful_tiles(hand13),
        "useful_by_form": lambda: mjfast.useful_by_form(hand13),
        "acceptance": lambda: mjfast.acceptance(hand13),
        "best_discards": lambda: mjfast.best_discards(hand14),
        "best_discards (plain)": lambda: mjfast.best_discards(hand14, fan_aware=False),
        "best_discards (melds)": lambda: mjfast.best_discards("[555m1]46m123p456p99s9s"),
        "fan.score": lambda: score("123m456p789s123sEE"),
        "fan.winning_tiles": lambda: winning_tiles(hand13),
        "fan.score_batch": lambda: score_batch(np.array(mjfast.parse_hand("123m456p789s123sEE").counts)[None, :],
                                               np.array([27])),
        "batch.shanten": lambda: batch.shanten(hand13.counts[None, :]),
        "batch.regular_shanten": lambda: batch.regular_shanten(hand13.counts[None, :]),
        "batch.shanten_by_form": lambda: batch.shanten_by_form(hand13.counts[None, :]),
        "batch.useful": lambda: batch.useful(hand13.counts[None, :]),
        "batch.discards": lambda: batch.discards(np.array(hand14.counts)[None, :], next_step=True),
        "logs analysis": _analyse_a_game,
    }
    unknown = sorted(set(only or ()).union(skip) - set(calls))
    if unknown:
        raise ValueError(f"no warm-up call named {', '.join(unknown)}; the names are: {', '.join(calls)}")
    calls = {name: call for name, call in calls.items() if (only is None or name in only) and name not in skip}
    for call in calls.values():
        call()
    return list(calls)


def _analyse_a_game() -> None:
    """`mjfast logs`' analysis (and `mjfast review`'s) of one seeded game of four ShantenBots."""
    from mjfast.game import InProcessAgent, ShantenBot, play_game
    from mjfast.game.walls import deal_walls
    from mjfast.logs.analysis import GameAnalyser

    log = play_game([InProcessAgent(ShantenBot()) for _ in range(4)], deal_walls(1), 0).log
    GameAnalyser(fan_aware=True).analyse(log, 0)
