"""Slow, obviously-correct reference computations the fast kernels are checked against.

Deficiency straight from its definition: the fewest tiles to draw so that some complete
hand fits inside the hand, i.e. the minimum over every target T (n sets + a pair, no tile
kind used more than 4 times counting the hand's melds) of sum(max(0, T - hand)). Targets are
enumerated exhaustively with numpy; nothing is shared with mjfast's tables or DP.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

N = 34


@lru_cache(maxsize=None)
def _set_vectors() -> np.ndarray:
    """The 55 sets (21 chows, 34 pungs) as 34-count rows."""
    rows = []
    for suit in range(3):
        for r in range(7):
            v = np.zeros(N, np.int16)
            v[9 * suit + r: 9 * suit + r + 3] = 1
            rows.append(v)
    for t in range(N):
        v = np.zeros(N, np.int16)
        v[t] = 3
        rows.append(v)
    return np.array(rows)


@lru_cache(maxsize=None)
def _set_multisets(n_sets: int) -> np.ndarray:
    """Every multiset of n_sets sets, summed into 34-count rows."""
    sets = _set_vectors()
    combos = list(itertools.combinations_with_replacement(range(len(sets)), n_sets))
    if n_sets == 0:
        return np.zeros((1, N), np.int16)
    idx = np.array(combos)
    return sets[idx].sum(axis=1).astype(np.int16)


def _targets(n_sets: int, extra=None):
    """Every target body (n_sets sets, plus `extra` counts) with each possible pair added,
    one chunk of rows per pair."""
    bodies = _set_multisets(n_sets)
    if extra is not None:
        bodies = bodies + extra
    for pair in range(N):
        targets = bodies.copy()
        targets[:, pair] += 2
        yield targets


def _deficiency_and_useful(chunks, counts, meld_counts) -> tuple[int, set[int]]:
    """min over targets of sum(max(0, T - counts)), and the tiles t with a copy left whose
    draw lowers it (some optimal-after-draw target needs more t than the hand holds)."""
    counts = np.asarray(counts, np.int16)
    caps = 4 - np.asarray(meld_counts, np.int16)
    best = 99
    best_after = np.full(N, 99)
    for targets in chunks:
        targets = targets[(targets <= caps).all(axis=1)]
        if not len(targets):
            continue
        cost = np.maximum(targets - counts, 0).sum(axis=1)
        best = min(best, int(cost.min()))
        short = targets > counts  # drawing t saves one tile for these targets
        best_after = np.minimum(best_after, (cost[:, None] - short).min(axis=0))
    drawable = (counts + np.asarray(meld_counts, np.int16)) < 4
    return best, {t for t in range(N) if drawable[t] and best_after[t] < best}


def regular_deficiency(counts, meld_counts, n_sets: int) -> int:
    """Regular form: n_sets sets and a pair (fast enough for n_sets <= 3)."""
    return _deficiency_and_useful(_targets(n_sets), counts, meld_counts)[0]


def _knitted_chunks(n_melds: int):
    for perm in itertools.permutations(range(3)):
        k = np.zeros(N, np.int16)
        for part, suit in enumerate(perm):
            k[[9 * suit + part, 9 * suit + part + 3, 9 * suit + part + 6]] = 1
        yield from _targets(1 - n_melds, k)


def knitted_deficiency(counts, meld_counts, n_melds: int) -> int:
    """组合龙 + (1 - n_melds) sets + a pair, enumerated over the six knitted straights."""
    return _deficiency_and_useful(_knitted_chunks(n_melds), counts, meld_counts)[0]


def melded_deficiency_and_useful(counts, meld_counts, n_melds: int) -> tuple[int, set[int]]:
    """Best deficiency of a hand with at least one meld and its useful tiles: the regular
    form, and the knitted straight when there is exactly one meld (the other forms need a
    concealed hand)."""
    chunks = _targets(4 - n_melds)
    if n_melds == 1:
        chunks = itertools.chain(chunks, _knitted_chunks(1))
    return _deficiency_and_useful(chunks, counts, meld_counts)
