"""The shipped lookup table is what tables/build.py's definition says it is."""

from __future__ import annotations

import numpy as np
from numba import njit

from mjfast.efficiency import lookup_table as lookup
from mjfast.efficiency.group_dp import (
    INF,
    N_ENTRIES,
    enumerate_patterns,
    group_distances,
    group_distances_and_masks,
    merge_rows,
    rank_offsets,
)


def test_ranks_enumerate_patterns_in_order():
    for width, count in ((9, lookup.N_SUIT_PATTERNS), (7, lookup.N_HONOR_PATTERNS)):
        patterns = enumerate_patterns(width)
        assert len(patterns) == count
        offsets = rank_offsets(width)
        rng = np.random.default_rng(width)
        for i in rng.choice(count, 3000, replace=False):
            p = patterns[i].astype(np.int64)
            prefix = np.concatenate([[0], np.cumsum(p)[:-1]])
            assert offsets[np.arange(width), prefix, p].sum() == i


def test_sampled_entries_match_the_group_dp():
    table = lookup.load_table()
    rng = np.random.default_rng(7)
    for g, width in ((0, 9), (3, 7)):
        patterns = enumerate_patterns(width)
        caps = np.full(width, 4, np.int64)
        dist, masks, keeps = (np.empty(N_ENTRIES, np.int32) for _ in range(3))
        for i in rng.choice(len(patterns), 1500, replace=False):
            counts34 = np.zeros(34, np.uint8)
            start = 27 if g == 3 else 0
            counts34[start:start + width] = patterns[i]
            group_distances_and_masks(patterns[i].astype(np.int64), caps, g != 3, dist, masks, keeps)
            rank = lookup.group_rank(table, counts34, g)
            assert rank == i
            row = lookup.masked_row(table, g, rank)
            assert list(table[row:row + N_ENTRIES] & 0xFF) == list(dist)
            assert list(table[row:row + N_ENTRIES] >> 8) == list(masks)
            drow = lookup.distance_row(table, g, rank)
            assert list(table[drow:drow + N_ENTRIES]) == list(dist)


def test_group_dp_small_cases_by_hand():
    out = np.empty(N_ENTRIES, np.int32)
    caps = np.full(9, 4, np.int64)
    group_distances(np.array([1, 1, 1, 0, 0, 0, 0, 0, 0]), caps, True, out)
    # one set: complete; a pair: one more copy; a set and a pair (1123, 1223, ...): two more
    assert out[1] == 0 and out[5] == 1 and out[6] == 2
    group_distances(np.array([0, 0, 0, 0, 1, 0, 0, 0, 0]), np.array([4, 4, 4, 4, 1, 4, 4, 4, 4]), True, out)
    # 5 capped at one copy: no pair of 5 possible, but pairing anything else costs 2
    assert out[5] == 2
    assert out[1] == 2  # 456/345/567 with the one 5
    group_distances(np.zeros(7, np.int64), np.array([1, 4, 4, 4, 4, 4, 4]), False, out)
    assert out[5] == 2 and out[9] == 14


def test_group_move_masks_with_caps_are_the_probes_by_definition():
    """With caps below 4 (the DP's run-time case, melded tiles), each bit of the move masks
    is what its definition says: drawing the tile lowers the entry (masks), discarding it
    leaves the entry as it is (keeps). The masks share the DP's prefix states between
    probes; the probes here run the DP afresh."""
    rng = np.random.default_rng(11)
    dist, masks, keeps, probe = (np.empty(N_ENTRIES, np.int32) for _ in range(4))
    checked = [0, 0]
    for _ in range(400):
        width = 9 if rng.random() < 0.8 else 7
        caps = 4 - rng.choice([0, 0, 0, 1, 3, 4], width)
        counts = np.minimum(rng.integers(0, 4, width) * (rng.random(width) < 0.4), caps)
        group_distances_and_masks(counts, caps, width == 9, dist, masks, keeps)
        group_distances(counts, caps, width == 9, probe)
        assert list(probe) == list(dist)
        for j in range(width):
            for change, found in ((1, masks), (-1, keeps)):
                expected = np.zeros(N_ENTRIES, np.int64)
                if 0 <= counts[j] + change <= caps[j]:
                    moved = counts.copy()
                    moved[j] += change
                    group_distances(moved, caps, width == 9, probe)
                    expected = ((probe < dist) if change == 1 else ((probe == dist) & (dist < INF))).astype(np.int64)
                assert list((found >> j) & 1) == list(expected), (counts, caps, j, change)
                checked[change == -1] += int(expected.sum())
    assert min(checked) > 1000


def test_group_dp_with_fewer_sets_keeps_those_entries_exact():
    """A hand with melds needs fewer sets from its standing tiles, so the run-time DP leaves
    out the states with more: the entries it keeps are the full DP's, distances and move masks,
    and the rest are INF with no mask (a path's sets only grow, so none is lost)."""
    rng = np.random.default_rng(13)
    full_dist, full_masks, full_keeps, dist, masks, keeps = (np.empty(N_ENTRIES, np.int32) for _ in range(6))
    for _ in range(300):
        width = 9 if rng.random() < 0.8 else 7
        caps = 4 - rng.choice([0, 0, 0, 1, 3, 4], width)
        counts = np.minimum(rng.integers(0, 4, width) * (rng.random(width) < 0.4), caps)
        group_distances_and_masks(counts, caps, width == 9, full_dist, full_masks, full_keeps)
        for max_sets in range(5):
            group_distances_and_masks(counts, caps, width == 9, dist, masks, keeps, max_sets)
            kept = np.array([k % 5 <= max_sets for k in range(N_ENTRIES)])
            assert list(dist[kept]) == list(full_dist[kept]) and list(masks[kept]) == list(full_masks[kept])
            assert list(keeps[kept]) == list(full_keeps[kept])
            assert (dist[~kept] == INF).all() and (masks[~kept] == 0).all() and (keeps[~kept] == 0).all()
            group_distances(counts, caps, width == 9, dist, max_sets)
            assert list(dist[kept]) == list(full_dist[kept]) and (dist[~kept] == INF).all()


@njit(cache=True)
def _first_wrong_merge(table, suit_classes):
    """The first (a, b, c) of suit classes whose merged class, looked up twice as the kernels
    do, is not the merge of the three rows (groups.merge_rows); (-1, -1, -1) if none."""
    two = np.empty(N_ENTRIES, np.int64)
    three = np.empty(N_ENTRIES, np.int64)
    for a in suit_classes:
        for b in suit_classes:
            at_a, at_b = lookup.class_row(a), lookup.class_row(b)
            merge_rows(table[at_a:at_a + N_ENTRIES].astype(np.int64), table[at_b:at_b + N_ENTRIES].astype(np.int64),
                       two)
            ab = lookup.merged_class(table, a, b)
            for c in suit_classes:
                at_c = lookup.class_row(c)
                merge_rows(two, table[at_c:at_c + N_ENTRIES].astype(np.int64), three)
                at = lookup.class_row(lookup.merged_class(table, ab, c))
                for k in range(N_ENTRIES):
                    if table[at + k] != three[k]:
                        return a, b, c
    return -1, -1, -1


def test_merged_classes_are_the_merge_of_their_rows():
    """Every triple of suit distance classes (126^3): the merge table gives what merging the
    rows gives, so regular shanten by lookups equals regular shanten by merges."""
    table = lookup.load_table()
    suit_classes = np.unique([lookup.distance_class(table, 0, r) for r in range(lookup.N_SUIT_PATTERNS)])
    assert len(suit_classes) > 100
    assert _first_wrong_merge(table, suit_classes.astype(np.int64)) == (-1, -1, -1)
