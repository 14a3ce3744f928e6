"""Speed of shanten, useful tiles and best discards, mjfast beside PyMahjongGB on the same hands.

    pytest bench/bench_shanten.py

Hands are concealed and drawn from a shuffled wall (seeded). PyMahjongGB answers one hand
per call from Python; mjfast is measured both in batch (all cores) and per call.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import MahjongGB
import numpy as np
import pytest

import mjfast
from mjfast.efficiency import batch
from mjfast.efficiency.lookup_table import load_table
from mjfast.tiles import TILE_NAMES, botzone_token
from tests.hands import wall_hand

N_BATCH = 200_000
N_LOOP = 2_000
N_DISCARD = 300
FORMS = (
    MahjongGB.RegularShanten,
    MahjongGB.SevenPairsShanten,
    MahjongGB.ThirteenOrphansShanten,
    MahjongGB.HonorsAndKnittedTilesShanten,
    MahjongGB.KnittedStraightShanten,
)


def _hands(n, drawn=False, seed=2026):
    rng = np.random.default_rng(seed + drawn)
    return np.array([wall_hand(rng, 0, drawn)[0] for _ in range(n)], np.uint8)


HANDS13 = _hands(N_BATCH)
HANDS14 = _hands(N_DISCARD, drawn=True)
TILES13 = [tuple(botzone_token(t) for t in range(34) for _ in range(int(c[t]))) for c in HANDS13[:N_LOOP]]
STRINGS13 = [mjfast.parse_hand(c).to_compact() for c in HANDS13[:N_LOOP]]


def _info(benchmark, task, lib, hands):
    benchmark.extra_info.update(task=task, lib=lib, hands=hands)


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Compile every kernel before timing (compilation is measured separately)."""
    batch.shanten(HANDS13[:10])
    batch.regular_shanten(HANDS13[:10])
    batch.useful(HANDS13[:10])
    mjfast.shanten(HANDS13[0])
    mjfast.useful_tiles(HANDS13[0])
    mjfast.best_discards(HANDS14[0], fan_aware=False)


# --- all-forms shanten -------------------------------------------------------------------

def bench_all_forms_shanten_batch(benchmark):
    _info(benchmark, "all-forms shanten (mjfast batch)", "mjfast", N_BATCH)
    out = benchmark(batch.shanten, HANDS13)
    assert out.shape == (N_BATCH,)


def bench_all_forms_shanten_pymahjonggb(benchmark):
    _info(benchmark, "all-forms shanten (mjfast batch)", "pymahjonggb", N_LOOP)
    benchmark(lambda: [MahjongGB.MahjongShanten((), t) for t in TILES13])


def bench_regular_shanten_batch(benchmark):
    _info(benchmark, "regular-form shanten (mjfast batch; PyMahjongGB w/ useful)", "mjfast", N_BATCH)
    benchmark(batch.regular_shanten, HANDS13)


def bench_regular_shanten_pymahjonggb(benchmark):
    _info(benchmark, "regular-form shanten (mjfast batch; PyMahjongGB w/ useful)", "pymahjonggb", N_LOOP)
    benchmark(lambda: [MahjongGB.RegularShanten(t) for t in TILES13])


# --- per call from Python ------------------------------------------------------------------

def bench_per_call_counts(benchmark):
    _info(benchmark, "all-forms shanten, one call from Python (count array)", "mjfast", N_LOOP)
    hands = list(HANDS13[:N_LOOP])
    benchmark(lambda: [mjfast.shanten(h) for h in hands])


def bench_per_call_pymahjonggb(benchmark):
    _info(benchmark, "all-forms shanten, one call from Python (count array)", "pymahjonggb", N_LOOP)
    benchmark(lambda: [MahjongGB.MahjongShanten((), t) for t in TILES13])


def bench_per_call_string(benchmark):
    _info(benchmark, "all-forms shanten, one call from Python (string)", "mjfast", N_LOOP)
    benchmark(lambda: [mjfast.shanten(s) for s in STRINGS13])


# --- shanten + useful tiles ------------------------------------------------------------------

def bench_useful_batch(benchmark):
    _info(benchmark, "all-forms shanten + useful tiles (mjfast batch)", "mjfast", N_BATCH)
    benchmark(batch.useful, HANDS13)


def bench_useful_pymahjonggb(benchmark):
    _info(benchmark, "all-forms shanten + useful tiles (mjfast batch)", "pymahjonggb", N_LOOP)
    benchmark(lambda: [[f(t) for f in FORMS] for t in TILES13])


def bench_useful_per_call(benchmark):
    _info(benchmark, "all-forms useful tiles, one call from Python", "mjfast", N_LOOP)
    hands = list(HANDS13[:N_LOOP])
    benchmark(lambda: [mjfast.useful_tiles(h) for h in hands])


# --- best discard ---------------------------------------------------------------------------

def _gb_analysis(tiles13):
    """What PyMahjongGB offers a best-discard tool: every form's shanten and useful tiles."""
    results = [f(tiles13) for f in FORMS if True]
    best = min(s for s, _ in results)
    useful = set()
    for s, u in results:
        if s == best:
            useful.update(u)
    return best, useful


def _gb_best_discard(counts14, next_step=False):
    options = []
    unseen = 4 - counts14.astype(int)
    for t in np.flatnonzero(counts14):
        c = counts14.copy()
        c[t] -= 1
        tiles = tuple(botzone_token(x) for x in range(34) for _ in range(int(c[x])))
        s, useful = _gb_analysis(tiles)
        ids = [mjfast.parse_tiles(u)[0] for u in useful]
        acc = sum(max(0, unseen[u]) for u in ids)
        nxt = 0.0
        if next_step and s > 0:
            total = 0
            for u in ids:
                if unseen[u] <= 0:
                    continue
                c[u] += 1
                best = 0
                for k in np.flatnonzero(c):
                    c[k] -= 1
                    tiles2 = tuple(botzone_token(x) for x in range(34) for _ in range(int(c[x])))
                    s2, useful2 = _gb_analysis(tiles2)
                    if s2 == s - 1:
                        best = max(best, sum(max(0, unseen[mjfast.parse_tiles(v)[0]]) for v in useful2))
                    c[k] += 1
                c[u] -= 1
                total += unseen[u]
                nxt += unseen[u] * best
            nxt = nxt / total if total else 0.0
        options.append((s, -acc, -nxt, TILE_NAMES[t]))
    return sorted(options)


def bench_best_discard(benchmark):
    _info(benchmark, "best discard + acceptance, all forms, 14 tiles", "mjfast", N_DISCARD)
    hands = list(HANDS14)
    benchmark(lambda: [mjfast.best_discards(h, fan_aware=False, next_step=False) for h in hands])


def bench_best_discard_pymahjonggb(benchmark):
    _info(benchmark, "best discard + acceptance, all forms, 14 tiles", "pymahjonggb", 30)
    hands = list(HANDS14[:30])
    benchmark.pedantic(lambda: [_gb_best_discard(h) for h in hands], rounds=3, iterations=1)


def bench_best_discard_next(benchmark):
    _info(benchmark, "best discard + acceptance + next_acceptance, 14 tiles", "mjfast", 100)
    hands = list(HANDS14[:100])
    benchmark.pedantic(lambda: [mjfast.best_discards(h, fan_aware=False) for h in hands], rounds=3, iterations=1)


def bench_best_discard_next_pymahjonggb(benchmark):
    _info(benchmark, "best discard + acceptance + next_acceptance, 14 tiles", "pymahjonggb", 2)
    hands = list(HANDS14[:2])
    benchmark.pedantic(lambda: [_gb_best_discard(h, True) for h in hands], rounds=1, iterations=1)


def bench_batch_discards(benchmark):
    _info(benchmark, "all discards + acceptance (mjfast batch, no next step)", "mjfast", N_DISCARD)
    benchmark(batch.discards, HANDS14)


# --- start-up and memory ---------------------------------------------------------------------

def _first_query(call: str) -> str:
    return f"import mjfast; mjfast.{call}"


@pytest.mark.parametrize("call", ["shanten('123m456p789s1357s')",
                                  "best_discards('123m456p789s1357sE', fan_aware=False)",
                                  "best_discards('123m456p789s1357sE')"])
def bench_first_query_warm_cache(benchmark, call):
    """A fresh process: import, load the table, load the cached kernels, answer one query."""
    # As an installed package runs: with its bytecode cached (pip writes it at install; a
    # PYTHONDONTWRITEBYTECODE in the developer's shell would add ~0.2 s of compiling sources).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", _first_query(call)], check=True, env=env)  # warm both caches
    _info(benchmark, f"fresh process: import + {call.split('(')[0]}"
          f"{' (plain)' if 'fan_aware' in call else ''}, warm cache", "mjfast", 1)
    benchmark.extra_info["unscaled"] = True
    benchmark.pedantic(lambda: subprocess.run([sys.executable, "-c", _first_query(call)], check=True,
                                              capture_output=True, env=env), rounds=5, iterations=1)


def bench_table_memory(benchmark):
    table = load_table()
    benchmark.extra_info.update(table_megabytes=round(table.nbytes / 1e6, 2))
    print(f"\nlookup table: {table.nbytes / 1e6:.2f} MB in memory")
    benchmark(lambda: time.sleep(0))
