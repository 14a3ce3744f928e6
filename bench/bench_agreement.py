"""Advice against strong play: how often each ranking's first choice (and first three) is the
discard strong players made, by the hand's shanten, and the throughput of the analysis.

    pytest bench/bench_agreement.py -s

The games: the 16 Botzone matches of tests/data/logs (2021, strong bots) and the three 2026
Botzone matches of tests/data/logs/botzone_json, analysed by `mjfast logs --value` on one
worker (every discard ranked by efficiency, by the fan-aware ranking and by value).
"""

from __future__ import annotations

import json
import time

from mjfast.logs import analyse_logs
from tests.data import LOGS

SOURCES = {"16 matches (2021)": [LOGS / "botzone_mahjong_gb_16matches.txt"],
           "3 matches (2026)": sorted((LOGS / "botzone_json").glob("*.json"))}


def bench_agreement_with_strong_play(benchmark, tmp_path):
    results = {}

    def run():
        for name, paths in SOURCES.items():
            start = time.perf_counter()
            summary = analyse_logs(paths, tmp_path / name.split()[0], workers=1, value=True, progress=False)
            results[name] = (summary, time.perf_counter() - start)

    benchmark.pedantic(run, rounds=1, iterations=1)
    for name, (summary, seconds) in results.items():
        print(f"\n{name}: {summary['discard_decisions']} discards, {summary['games_analysed']} games in "
              f"{seconds:.1f} s ({summary['games_analysed'] / seconds:.2f} games/s with the value ranking)")
        print(f"{'shanten':>8s} {'discards':>9s} " + " ".join(f"{r + ' top1/top3':>22s}" for r in
                                                             ("plain", "fan_aware", "value")))
        for band, f in summary["by_shanten"].items():
            cells = [f"{100 * f[r + '_top1']:10.1f}% {100 * f[r + '_top3']:10.1f}%"
                     for r in ("plain", "fan_aware", "value")]
            print(f"{band:>8s} {f['discards']:9d} " + " ".join(cells))
        print(f"{'all':>8s} {summary['discard_decisions']:9d}   value {100 * summary['value_agreement']:.1f}%, "
              f"fan-aware {100 * summary['fan_aware_agreement']:.1f}%, plain {100 * summary['plain_agreement']:.1f}%")
        benchmark.extra_info[name] = json.dumps(summary["by_shanten"])
