"""The fan kernels' building blocks against plain enumerations: every split of a hand into
sets and a pair (and the judge's order of splits), and the wait sets."""

from __future__ import annotations

import itertools
import random

import numpy as np

from mjfast.fan.decompose import MAX_SPLITS, SEARCH_LEN, SPLIT_SETS, split_regular
from mjfast.fan.layout import CHOW_SET, PUNG_SET
from mjfast.fan.waits import regular_waits

from .test_fan_support import _splits_into_sets, random_regular


def _all_splits(counts: list[int], n_sets: int) -> list[tuple]:
    """Every split, by brute force: each (sorted sets, pair) once."""
    found = set()
    sets = [(PUNG_SET, t) for t in range(34) if counts[t] >= 3]
    sets += [(CHOW_SET, t) for t in range(27) if t % 9 <= 6 and counts[t] and counts[t + 1] and counts[t + 2]]
    for combo in itertools.combinations_with_replacement(sets, n_sets):
        rest = list(counts)
        for kind, t in combo:
            for x in ([t] * 3 if kind == PUNG_SET else [t, t + 1, t + 2]):
                rest[x] -= 1
        if min(rest) >= 0 and sum(rest) == 2 and max(rest) == 2:
            found.add((tuple(sorted(combo, key=lambda s: (s[1], s[0] != PUNG_SET))), rest.index(2)))
    return sorted(found, key=lambda split: [(t, kind != PUNG_SET) for kind, t in split[0]])


def _kernel_splits(counts: list[int], n_sets: int) -> list[tuple]:
    kinds = np.zeros(MAX_SPLITS * SPLIT_SETS, np.int64)
    tiles = np.zeros(MAX_SPLITS * SPLIT_SETS, np.int64)
    pairs = np.zeros(MAX_SPLITS, np.int64)
    work = np.array(counts, np.int64)
    n = split_regular(work, n_sets, kinds, tiles, pairs, np.zeros(SEARCH_LEN, np.int64))
    assert list(work) == counts  # restored
    sets = [(int(kind), int(tile)) for kind, tile in zip(kinds, tiles)]
    return [(tuple(sets[k * SPLIT_SETS:k * SPLIT_SETS + n_sets]), int(pairs[k])) for k in range(n)]


def test_splits_match_brute_force_in_the_judges_order():
    rng = random.Random(11)
    hands = [random_regular(rng)[0] for _ in range(400)]
    # Single-suit hands have the most splits.
    hands_counts = [(list(map(int, h.counts)), 4 - h.n_melds) for h in hands]
    for pattern in ("11122233344455", "66677778888999", "11123456789999", "22334455667788"):
        c = [0] * 34
        for ch in pattern:
            c[int(ch) - 1] += 1
        hands_counts.append((c, 4))
    for counts, n_sets in hands_counts:
        assert _kernel_splits(counts, n_sets) == _all_splits(counts, n_sets), counts


def test_split_of_a_non_win_is_empty():
    c = [0] * 34
    for t in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 28, 29, 30):
        c[t] += 1
    assert _kernel_splits(c, 4) == []


def _waits_by_brute_force(counts: list[int]) -> int:
    mask = 0
    for x in range(34):
        trial = list(counts)
        trial[x] += 1
        if _splits_into_sets(trial, True):
            mask |= 1 << x
    return mask


def test_regular_waits_match_brute_force():
    rng = random.Random(5)
    held = np.zeros(34, np.int64)
    for _ in range(600):
        hand = random_regular(rng)[0]
        counts = [int(x) for x in hand.counts]
        # Take a random tile out (a ready hand), or two out and one random in (often not ready).
        counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
        if rng.random() < 0.5:
            counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
            counts[rng.randrange(34)] += 1
        got = int(regular_waits(np.array(counts, np.int64), held, False, -1))
        assert got == _waits_by_brute_force(counts), counts


def test_live_waits_leave_out_tiles_held_four_times():
    counts = np.zeros(34, np.int64)
    for t in (1, 2, 9, 10, 11, 18, 19, 20, 31, 31):  # 23m 123p 123s CC (+ a kong of 1m)
        counts[t] += 1
    held = counts.copy()
    held[0] += 4
    assert regular_waits(counts, held, False, -1) == (1 << 0) | (1 << 3)
    assert regular_waits(counts, held, True, -1) == 1 << 3
