"""The value figures' speed, by the hand's shanten, beside the riichi reference.

    pytest bench/bench_value.py -s

For each band, random 14-tile concealed hands dealt from a shuffled wall (tests/hands.py) are
valued once each with 18 draws left and the default model (exchanges within one step; four
or more steps without exchanges), as hand_values runs under best_discards. The table
gives the median and 90th percentile per hand and the graph's size, beside the figures of
nekobean's mahjong-cpp (default mode: exchanges and backtracking within one extra step, every
win priced) measured on this kind of machine on one core, 40 riichi hands a band, 18 draws:
the anchor of issue 20 (value figures at most that, with the 8-fan rule on top).
"""

from __future__ import annotations

import time

import numpy as np

import mjfast
from mjfast.advice.model import VALUE_MODEL
from mjfast.advice.value.entry import hand_values
from mjfast.advice.value.query import Figures, Position, Risk, new_query
from mjfast.efficiency import api
from mjfast.fan.ruleset import JUDGE
from tests.hands import wall_hand

DRAWS = 18
# (median, p90) ms per hand of mahjong-cpp's default mode, by shanten (issue 20)
ANCHOR = {0: None, 1: (1.55, 3.3), 2: (15.5, 35.0), 3: (424.0, 818.0)}
GOAL = {0: 0.5, 1: 1.5, 2: 15.0, 3: 400.0, 4: 400.0}
HANDS = {0: 40, 1: 40, 2: 40, 3: 20, 4: 10}


def _hands():
    rng = np.random.default_rng(20)
    found = {band: [] for band in HANDS}
    while any(len(found[b]) < n for b, n in HANDS.items()):
        counts = np.array(wall_hand(rng, 0, True)[0], np.uint8)
        band = mjfast.shanten(counts)
        if band in found and len(found[band]) < HANDS[band]:
            found[band].append(counts)
    return found


def bench_value_figures_by_shanten(benchmark):
    table, work = api.kernel_context()
    model = VALUE_MODEL
    hands = _hands()
    ready, win, score = np.empty((34, DRAWS)), np.empty((34, DRAWS)), np.empty(34)

    def value(counts):
        position = Position(table, counts, api.NO_MELDS, 0, 0, 14, np.zeros(34, np.uint8), 0, 0, JUDGE.code,
                            JUDGE.minimum, 0)
        query = new_query(position, model._replace(draws=DRAWS), Risk(np.zeros(34), np.zeros(34), np.ones(DRAWS + 1)),
                          mjfast.shanten(counts))
        hand_values(query, np.zeros(1, np.int64), Figures(ready, win, score), work)

    value(hands[1][0])  # compiled or loaded before the clock
    results = {}

    def run():
        for band, group in hands.items():
            times = []
            for counts in group:
                start = time.perf_counter()
                value(counts)
                times.append(1e3 * (time.perf_counter() - start))
            results[band] = times

    benchmark.pedantic(run, rounds=1, iterations=1)
    print(f"\nvalue figures of every discard, 14 concealed tiles, {DRAWS} draws (ms per hand)")
    print(f"{'shanten':>8s} {'hands':>6s} {'median':>8s} {'p90':>8s} {'goal':>8s} {'anchor median/p90':>18s}")
    for band, times in results.items():
        anchor = ANCHOR.get(band)
        shown = f"{anchor[0]:.2f} / {anchor[1]:.1f}" if anchor else "-"
        median, p90 = np.median(times), np.percentile(times, 90)
        print(f"{band:>8d} {len(times):6d} {median:8.2f} {p90:8.2f} {GOAL[band]:8.1f} {shown:>18s}")
        benchmark.extra_info[f"shanten {band}"] = f"median {median:.2f} ms, p90 {p90:.2f} ms"
