"""The speed of `mjfast review`: one game, all four seats, the page included, once the kernels
are loaded; by value (the default: every discard and claim valued, each game analysed once)
and fan-aware (--fan-aware).

    pytest bench/bench_review.py -s

The games: every game of tests/data/logs that keeps the rules (the 16 text matches, the three
real Botzone matches, the four judge games with flowers). Each game's time is the best of two,
its queries on one thread as the command runs them (review_game alone runs them on every core).
A run over many games (`mjfast review FOLDER`, e.g. 50 games of the judge harness) is timed
by the command itself: its seconds over the games it reviewed.
"""

from __future__ import annotations

import statistics
import time

from mjfast.game import BrokenGame, read_games
from mjfast.game.gamelog import LogError
from mjfast.review import render_page, review_game
from tests.data import LOGS

PATHS = ([LOGS / "botzone_mahjong_gb_16matches.txt"] + sorted((LOGS / "botzone_json").glob("*.json"))
         + sorted((LOGS / "botzone_json" / "judge").glob("*.json")))


def _games():
    games = []
    for path in PATHS:
        for game in read_games(path):
            if isinstance(game, BrokenGame):
                continue
            try:
                review_game(game)  # loads the kernels; the judge's WA games break a rule
            except LogError:
                continue
            games.append(game)
    return games


def _seconds_per_game(games, value: bool) -> list:
    found = []
    for game in games:
        best = float("inf")
        for _ in range(2):
            start = time.perf_counter()
            render_page(review_game(game, value=value, threads=1))  # as the command runs a game
            best = min(best, time.perf_counter() - start)
        found.append(best)
    return found


def bench_review_per_game(benchmark):
    games = _games()
    results = {}

    def run():
        for value in (True, False):
            results[value] = _seconds_per_game(games, value)

    benchmark.pedantic(run, rounds=1, iterations=1)
    for value, seconds in results.items():
        ms = sorted(1e3 * s for s in seconds)
        print(f"\nreview of one game ({'by value' if value else '--fan-aware'}), {len(ms)} games: "
              f"{ms[0]:.0f}-{ms[-1]:.0f} ms, median {statistics.median(ms):.0f} ms")
