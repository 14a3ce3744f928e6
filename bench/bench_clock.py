"""The bot on the clock: its answer times at every decision of real games, and what the time
budget costs the advice.

    pytest bench/bench_clock.py -s

The games: the 16 Botzone matches of tests/data/logs and the three 2026 matches of
tests/data/logs/botzone_json, replayed; at every decision of every player (a discard after a
draw or a claim, every claim opportunity), MjfastBot answers the position as it would in play:
once on Botzone's clock (bots.BOTZONE_CLOCK: 1 s an answer, at most budget_ms of value engine),
once without a clock (the value ranking unbounded, as before the clock). The table gives the
answer times; then the agreement of the value ranking's first choice (and first three) with
the player's discard, by the shanten of the hand after the discard, with the bot's budget and
without one, on the same discards.
"""

from __future__ import annotations

import time

import numpy as np

from mjfast.advice.model import draws_left
from mjfast.advice.options import best_discards
from mjfast.bots import BOTZONE_CLOCK, MjfastBot
from mjfast.game import Replay, read_games
from mjfast.game.state import CLAIM, DISCARD, DISCARD_AFTER_CLAIM
from mjfast.tiles import TILE_NAMES
from tests.data import LOGS

SOURCES = [LOGS / "botzone_mahjong_gb_16matches.txt"] + sorted((LOGS / "botzone_json").glob("*.json"))


def _games():
    return [game for path in SOURCES for game in read_games(path) if not hasattr(game, "reason")]


def _answer_times(clock) -> dict:
    """{"discard": [...], "claim": [...]} seconds of MjfastBot's answers at every decision."""
    bot = MjfastBot(clock=clock)
    bot.on_start()  # the game's first answer loads the kernels
    times = {"discard": [], "claim": []}
    for game in _games():
        bot.wall = game.wall
        for step in Replay(game):
            table = step.table
            if table.phase == DISCARD and step.action.kind == "Play":
                seats, decide, kind = [table.turn], bot.on_draw, "discard"
            elif table.phase == CLAIM:
                seats, decide, kind = [p for p in range(4) if p != table.pending[0]], bot.on_discard, "claim"
            else:
                continue
            for seat in seats:
                bot.attach(table, seat)
                started = time.perf_counter()
                bot.on_the_clock(BOTZONE_CLOCK.later, started)
                decide()
                times[kind].append(time.perf_counter() - started)
    return times


def _agreement(budget_ms) -> dict:
    """{shanten band: [top1, top3]} of the value ranking over every discard of the games."""
    found: dict = {}
    for game in _games():
        for step in Replay(game):
            table = step.table
            if table.phase not in (DISCARD, DISCARD_AFTER_CLAIM) or step.action.kind != "Play":
                continue
            p = table.turn
            options = best_discards(table.hand(p), visible=table.visible_to(p), seat_wind=p,
                                    prevalent_wind=table.prevalent_wind, flowers=table.seats[p].flowers,
                                    draws=draws_left(table.own_draws_left(p)), drawn=table.drawn(p),
                                    budget_ms=budget_ms)
            tiles = [o.tile for o in options]
            played = TILE_NAMES[step.action.tile]
            band = min(options[0].shanten, 4)
            for key in (band, "all"):
                found.setdefault(key, []).append((tiles[0] == played, played in tiles[:3]))
    return {key: np.mean(np.array(rows), axis=0) for key, rows in found.items()}


def bench_bot_on_the_clock(benchmark):
    results = {}

    def run():
        results["times"] = {"clock": _answer_times(BOTZONE_CLOCK), "none": _answer_times(None)}
        results["agreement"] = {"clock": _agreement(BOTZONE_CLOCK.budget_ms), "none": _agreement(None)}

    benchmark.pedantic(run, rounds=1, iterations=1)
    print("\nMjfastBot's answers at every decision of the 19 real matches of tests/data (ms)")
    print(f"{'clock':>8s} {'decision':>9s} {'answers':>8s} {'p50':>7s} {'p90':>7s} {'p99':>7s} {'max':>7s} "
          f"{'over 1 s':>9s}")
    for name, times in results["times"].items():
        for kind, seconds in times.items():
            ms = 1000 * np.array(seconds)
            p50, p90, p99, top = np.percentile(ms, [50, 90, 99, 100])
            print(f"{name:>8s} {kind:>9s} {len(ms):8d} {p50:7.1f} {p90:7.1f} {p99:7.1f} {top:7.1f} "
                  f"{int((ms > 1000).sum()):9d}")
            benchmark.extra_info[f"{name} {kind}"] = f"p50 {p50:.1f} p99 {p99:.1f} max {top:.1f} ms"
    print(f"\nthe value ranking's agreement with the players' discards (top 1 / top 3), budget "
          f"{BOTZONE_CLOCK.budget_ms:g} ms and none")
    clock, none = results["agreement"]["clock"], results["agreement"]["none"]
    for band in sorted(none, key=str):
        print(f"{str(band):>8s}  budget {100 * clock[band][0]:5.1f}% / {100 * clock[band][1]:5.1f}%   "
              f"none {100 * none[band][0]:5.1f}% / {100 * none[band][1]:5.1f}%")
