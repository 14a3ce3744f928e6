"""Speed of fan scoring, mjfast beside PyMahjongGB's MahjongFanCalculator on the same hands.

    pytest bench/bench_fan.py

Hands are the random winning hands of the differential test (every form, 0-4 melds, random
win conditions, winds and flowers), seeded. PyMahjongGB gets its arguments prepared in
advance, so its figures are the calculator alone; mjfast's per-call figures include its
Python layer (conditions, result object). The summary at the end prints both per hand and
the ratio; the first-call figures run in fresh processes with their own numba cache.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from gb_work import winning_tiles as gb_winning_tiles
from MahjongGB import MahjongFanCalculator

from mjfast.fan import hands_to_arrays, score, score_batch, winning_tiles
from mjfast.fan.batch import score_rows
from mjfast.fan.encode import hand_vectors
from mjfast.hand import Hand
from mjfast.tiles import botzone_token
from tests.fan.test_fan_support import random_win

N_LOOP = 2_000
N_BATCH = 100_000
SEED = 99

_rng = random.Random(SEED)
WINS = [random_win(_rng) for _ in range(N_BATCH)]
LOOP = WINS[:N_LOOP]


def _gb_args(hand: Hand, c: dict) -> tuple:
    packs, tiles = hand.to_pymahjonggb()
    tiles = list(tiles)
    tiles.remove(botzone_token(hand.last_tile))
    return (packs, tuple(tiles), botzone_token(hand.last_tile), c["flowers"], c["self_drawn"], c["last_copy"],
            c["kong"], c["last_tile"], "ESWN".index(c["seat_wind"]), "ESWN".index(c["prevalent_wind"]))


GB_ARGS = [_gb_args(h, c) for h, c in LOOP]


def _ready(hand: Hand) -> Hand:
    """The hand before its winning tile."""
    counts = hand.counts.copy()
    counts[hand.last_tile] -= 1
    return Hand(counts, hand.melds)


READY = [(_ready(h), {k: v for k, v in c.items() if k != "last_copy"}) for h, c in LOOP[:500]]
READY_GB = [(h.to_pymahjonggb(), c) for h, c in READY]

RESULTS: dict[str, dict[str, float]] = {}


def _info(benchmark, task, lib, hands):
    benchmark.extra_info.update(task=task, lib=lib, hands=hands)


def _record(benchmark, task, lib, hands):
    stats = benchmark.stats.stats
    RESULTS.setdefault(task, {})[lib] = (stats.median / hands * 1e6, stats.min / hands * 1e6)


@pytest.fixture(scope="module", autouse=True)
def warm_and_report():
    """Compile before timing (the first-call benchmarks measure compilation); print the
    figures with two decimals at the end."""
    score(LOOP[0][0])
    winning_tiles(READY[0][0])
    score_batch(*hands_to_arrays([LOOP[0][0]]))
    yield
    # Medians, and the fastest round beside them: on a shared machine the minimum is the
    # better estimate of the code's own speed, the median of what a busy machine gives.
    print("\n\nfan scoring, microseconds per hand, median (min), same hands, same run:")
    print(f"{'task':48s} {'mjfast':>16s} {'PyMahjongGB':>16s} {'ratio':>14s}")
    def cell(v):
        return f"{v[0]:7.2f} ({v[1]:6.2f})" if v else ""

    for task, libs in RESULTS.items():
        ours, theirs = libs.get("mjfast"), libs.get("pymahjonggb")
        ratio = f"{theirs[0] / ours[0]:5.2f}x ({theirs[1] / ours[1]:5.2f}x)" if ours and theirs else ""
        print(f"{task:48s} {cell(ours):>16s} {cell(theirs):>16s} {ratio:>14s}")


# --- one hand per call from Python --------------------------------------------------------

def bench_score_per_call(benchmark):
    task = "score one parsed Hand per call"
    _info(benchmark, task, "mjfast", N_LOOP)
    benchmark(lambda: [score(h, **c) for h, c in LOOP])
    _record(benchmark, task, "mjfast", N_LOOP)


def bench_score_per_call_pymahjonggb(benchmark):
    task = "score one parsed Hand per call"
    _info(benchmark, task, "pymahjonggb", N_LOOP)
    benchmark(lambda: [MahjongFanCalculator(*a) for a in GB_ARGS])
    _record(benchmark, task, "pymahjonggb", N_LOOP)


def bench_score_per_call_with_fan_list(benchmark):
    task = "score one Hand per call, fan list built"
    _info(benchmark, task, "mjfast", N_LOOP)
    benchmark(lambda: [score(h, **c).fans for h, c in LOOP])
    _record(benchmark, task, "mjfast", N_LOOP)


def bench_score_per_call_with_fan_list_pymahjonggb(benchmark):
    task = "score one Hand per call, fan list built"
    _info(benchmark, task, "pymahjonggb", N_LOOP)
    benchmark(lambda: [MahjongFanCalculator(*a, verbose=True) for a in GB_ARGS])
    _record(benchmark, task, "pymahjonggb", N_LOOP)


# --- batch -------------------------------------------------------------------------------

ARRAYS = hands_to_arrays([h for h, _ in WINS])
CONDITIONS = {key: np.array([c[key] for _, c in WINS]) for key in WINS[0][1]}


def bench_batch(benchmark):
    task = "batch scoring (mjfast all cores; PyMahjongGB loop)"
    _info(benchmark, task, "mjfast", N_BATCH)
    out = benchmark(lambda: score_batch(*ARRAYS, **CONDITIONS))
    assert (out.totals > 0).all()
    _record(benchmark, task, "mjfast", N_BATCH)


def bench_batch_pymahjonggb(benchmark):
    task = "batch scoring (mjfast all cores; PyMahjongGB loop)"
    _info(benchmark, task, "pymahjonggb", N_LOOP)
    benchmark(lambda: [MahjongFanCalculator(*a) for a in GB_ARGS])
    _record(benchmark, task, "pymahjonggb", N_LOOP)


def bench_batch_kernel_only(benchmark):
    """The parallel kernel on ready-made hand vectors (score_batch without its input checks)."""
    task = "batch kernel only, hand vectors prepared"
    vecs = hand_vectors(*ARRAYS)
    _info(benchmark, task, "mjfast", N_BATCH)
    benchmark(score_rows, vecs, 0)
    _record(benchmark, task, "mjfast", N_BATCH)


# --- winning tiles of a ready hand ---------------------------------------------------------

def bench_winning_tiles(benchmark):
    task = "winning_tiles of a ready hand"
    _info(benchmark, task, "mjfast", len(READY))
    benchmark(lambda: [winning_tiles(h, **c) for h, c in READY])
    _record(benchmark, task, "mjfast", len(READY))


def bench_winning_tiles_pymahjonggb(benchmark):
    task = "winning_tiles of a ready hand"
    _info(benchmark, task, "pymahjonggb", len(READY_GB))
    benchmark(lambda: [gb_winning_tiles(p, c) for p, c in READY_GB])
    _record(benchmark, task, "pymahjonggb", len(READY_GB))


# --- first call in a fresh process ---------------------------------------------------------

FIRST_CALLS = (
    "import time; t0 = time.perf_counter(); from mjfast.fan import score, winning_tiles, score_batch, "
    "hands_to_arrays; t1 = time.perf_counter(); score('123m456p789s123s55p'); t2 = time.perf_counter(); "
    "winning_tiles('123m456p789s123s5p'); t3 = time.perf_counter(); "
    "score_batch(*hands_to_arrays(['123m456p789s123s55p'])); t4 = time.perf_counter(); "
    "print(f'import {t1 - t0:.2f}s, first score {t2 - t1:.2f}s, first winning_tiles {t3 - t2:.2f}s, "
    "first score_batch {t4 - t3:.2f}s')"
)


def _fresh_process(cache_dir: str) -> str:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    done = subprocess.run([sys.executable, "-c", FIRST_CALLS], check=True, capture_output=True, text=True, env=env)
    return done.stdout.strip()


def bench_first_calls_cold_and_warm_cache(benchmark):
    """Compilation: a fresh process with an empty numba cache, then one with that cache."""
    with tempfile.TemporaryDirectory() as cache_dir:
        cold = _fresh_process(cache_dir)
        warm = benchmark.pedantic(lambda: _fresh_process(cache_dir), rounds=3, iterations=1)
    print(f"\ncold cache: {cold}\nwarm cache: {warm}")
    benchmark.extra_info.update(cold=cold, warm=warm)
