"""A hand's deficiency and its moves in one pass over the table's rows: of a 3n+1 hand, the
draws that lower it (its useful tiles); of a 3n+2 hand, the fewest a discard leaves and the
discards that leave it. No draw or discard is tried.

The table gives each group pattern ten entries, one per part (p pairs, m sets) a group may
take in the hand's split, each a distance and the group's draws that lower it (group_dp). The
regular form's deficiency is the best split of the pair and the n_sets sets among the four
groups, and its useful draws are the union, over the splits that reach the best, of each
group's draws at its part. A group's part is in such a split exactly when its distance plus
the other three groups' best at the rest of the split equals the best: so the other groups'
merge is needed by distances alone (lookups in the merge table when every group's row is the
table's, else min-plus merges of ten entries), then a mask read per part in a best split. A
3n+2 hand's keeps (the discards that leave its deficiency) are those that keep some group's
part in a best split: read from the distance rows of the group's pattern less each tile.

The kernels allocate nothing and run without reference counts (mjfast.runtime: counting the
arrays in and out of each call cost more than a hand's moves). A hand's groups are loaded
once into `rows` (4 x N_ENTRIES packed entries, the table's
layout) and `classes` (each group's distance class, -1 where the melds' locked tiles made the
row the DP's, see regular.store_row): a caller that changes one group reloads only it. The
other forms come from presence bits (special_forms), each only where it can reach the best.
"""

from typing import NamedTuple

import numpy as np

from ..runtime.decorators import njit
from ..runtime.intrinsics import lowest_bit
from .group_dp import INF, N_ENTRIES
from .lookup_table import class_row, distance_class, distance_row, group_rank, masked_row, merged_class
from .regular import group_dp_entries
from .special_forms import (
    honors_knitted,
    honors_knitted_distance,
    keep_least,
    knitted_straight,
    knitted_straight_fast,
    most_knitted,
    presence_bits,
    seven_pairs,
    thirteen_orphans,
)

DRAWS = 8  # where each move mask starts in a packed entry: the draws that lower the distance
KEEPS = 17  # the discards that keep it (a row of the DP's only: a table group's come from its distance rows)


@njit(inline="always")
def load_group(table, counts, locked, check_bits, g, n_sets, rows, classes, work):
    """Group g of `counts` into rows[g] and classes[g]. A table entry assumes four copies of
    every tile: where a locked tile is among the draws of an entry the hand may use (at most
    n_sets sets), the DP's entries replace the row (regular.store_row says why that test
    suffices, and it suffices for the keeps too: a discard that keeps a distance keeps one
    of its best targets)."""
    rank = group_rank(table, counts, g)
    start = 27 if g == 3 else 9 * g
    local_check = (check_bits >> start) & (0x7F if g == 3 else 0x1FF)
    at = masked_row(table, g, rank)
    needs_dp = False
    for k in range(N_ENTRIES):
        e = table[at + k]
        rows[g, k] = e
        if (e >> DRAWS) & local_check and k % 5 <= n_sets:
            needs_dp = True
    if not needs_dp:
        classes[g] = distance_class(table, g, rank)
        return
    at = group_dp_entries(counts, locked, g, n_sets, True, work)
    for k in range(N_ENTRIES):
        rows[g, k] = work[at + 1 + k] | (work[at + 1 + N_ENTRIES + k] << DRAWS) | (
            work[at + 1 + 2 * N_ENTRIES + k] << KEEPS)
    classes[g] = -1


@njit(nrt=False)
def load_groups(table, counts, locked, check_bits, n_sets, rows, classes, work):
    """All four groups of `counts` (load_group)."""
    for g in range(4):
        load_group(table, counts, locked, check_bits, g, n_sets, rows, classes, work)


@njit(inline="always")
def _min_plus(x, y, out, n_sets):
    """out = the merge of two rows of distances: each part the best split between them."""
    for p in range(2):
        for m in range(n_sets + 1):
            best = INF
            for pa in range(p + 1):
                for ma in range(m + 1):
                    best = min(best, x[pa * 5 + ma] + y[(p - pa) * 5 + m - ma])
            out[p * 5 + m] = best


@njit(nrt=False)
def _rests(table, rows, classes, n_sets, rest):
    """rest[g] = the distances of the merge of the three groups other than g."""
    if classes[0] >= 0 and classes[1] >= 0 and classes[2] >= 0 and classes[3] >= 0:
        c0, c1, c2, c3 = classes[0], classes[1], classes[2], classes[3]
        with_honours = merged_class(table, c3, c0)
        at0 = class_row(merged_class(table, merged_class(table, c3, c1), c2))
        at1 = class_row(merged_class(table, with_honours, c2))
        at2 = class_row(merged_class(table, with_honours, c1))
        at3 = class_row(merged_class(table, merged_class(table, c0, c1), c2))
        for k in range(N_ENTRIES):
            rest[0, k] = table[at0 + k]
            rest[1, k] = table[at1 + k]
            rest[2, k] = table[at2 + k]
            rest[3, k] = table[at3 + k]
        return
    for g in range(4):  # the groups' distances, then the merges of groups 0-1 and 2-3
        for k in range(N_ENTRIES):
            rest[4 + g, k] = rows[g, k] & 0xFF
    _min_plus(rest[4], rest[5], rest[8], n_sets)
    _min_plus(rest[6], rest[7], rest[9], n_sets)
    _min_plus(rest[5], rest[9], rest[0], n_sets)
    _min_plus(rest[4], rest[9], rest[1], n_sets)
    _min_plus(rest[8], rest[7], rest[2], n_sets)
    _min_plus(rest[8], rest[6], rest[3], n_sets)


@njit(nrt=False)
def _regular_best(table, rows, classes, n_sets, rest):
    """The regular form's deficiency of the hand whose groups `rows` and `classes` hold, with
    each group's rest (_rests) in `rest`."""
    _rests(table, rows, classes, n_sets, rest)
    best = INF
    for p in range(2):
        for m in range(n_sets + 1):
            best = min(best, (rows[3, p * 5 + m] & 0xFF) + rest[3, (1 - p) * 5 + n_sets - m])
    return best


@njit(inline="always")
def _in_a_best_split(rows, rest, g, entry, n_sets, best):
    """Whether group g's part `entry` (p * 5 + m) is in a split that reaches `best`."""
    p, m = entry // 5, entry % 5
    return m <= n_sets and (rows[g, entry] & 0xFF) + rest[g, (1 - p) * 5 + n_sets - m] == best


@njit(nrt=False)
def regular_moves(table, rows, classes, n_sets, rest):
    """(deficiency, useful mask) of the regular form of the 3n+1 hand whose groups `rows` and
    `classes` hold: the union of the draws that lower each group's part in a best split, in
    global tile bits. `rest`: room for 10 rows of N_ENTRIES (int64)."""
    best = _regular_best(table, rows, classes, n_sets, rest)
    if best >= INF:
        return INF, np.int64(0)
    mask = np.int64(0)
    for g in range(4):
        for entry in range(N_ENTRIES):
            if _in_a_best_split(rows, rest, g, entry, n_sets, best):
                mask |= ((rows[g, entry] >> DRAWS) & 0x1FF) << (27 if g == 3 else 9 * g)
    return best, mask


@njit(nrt=False)
def regular_keeps(table, counts, rows, classes, n_sets, rest):
    """(deficiency, keeps) of the regular form of the 3n+2 hand `counts` whose groups `rows`
    and `classes` hold: the discards that leave it as it is, those that keep some group's
    part in a best split. A table group's keeps are read from the distance rows of its
    pattern less each tile it holds (small tables that stay in the cache: a group holds a
    few kinds); a group the DP made carries them in its row (group_dp). A complete hand's
    keeps are 0 (every discard leaves it one away). `counts` is restored on return."""
    best = _regular_best(table, rows, classes, n_sets, rest)
    if best >= INF:
        return INF, np.int64(0)
    keeps = np.int64(0)
    for g in range(4):
        start = 27 if g == 3 else 9 * g
        parts = 0
        for entry in range(N_ENTRIES):
            if _in_a_best_split(rows, rest, g, entry, n_sets, best):
                parts |= 1 << entry
                if classes[g] < 0:
                    keeps |= ((rows[g, entry] >> KEEPS) & 0x1FF) << start
        if classes[g] < 0 or parts == 0:
            continue
        for t in range(start, start + (7 if g == 3 else 9)):
            if counts[t] == 0:
                continue
            counts[t] -= 1
            at = distance_row(table, g, group_rank(table, counts, g))
            counts[t] += 1
            found = parts
            while found:
                entry = lowest_bit(found)
                found &= found - 1
                if table[at + entry] == rows[g, entry] & 0xFF:
                    keeps |= np.int64(1) << t
                    break
    return best, keeps


@njit(nrt=False)
def hand_moves(table, counts, meld_counts, n_melds, rows, classes, rest, work):
    """(deficiency, useful mask) of the 3n+1 hand `counts` over every form (the best form's,
    and the union of the masks of the forms reaching it), its groups already in rows and
    classes (load_groups): what all_forms and best_of give, in one pass."""
    best, mask = regular_moves(table, rows, classes, 4 - n_melds, rest)
    if n_melds > 1:
        return best, mask
    ge1, ge2, odd, eq4 = presence_bits(counts)
    if n_melds == 1:
        if 9 - most_knitted(ge1) <= best:
            d, m = knitted_straight(table, counts, meld_counts, n_melds, ge1, best, True, work)
            best, mask = keep_least(d, m, best, mask)
        return best, mask
    d, m = seven_pairs(ge2, odd, eq4)
    best, mask = keep_least(d, m, best, mask)
    d, m = thirteen_orphans(ge1, ge2)
    best, mask = keep_least(d, m, best, mask)
    d, m = honors_knitted(ge1, True)
    best, mask = keep_least(d, m, best, mask)
    if 9 - most_knitted(ge1) <= best:
        d, m = knitted_straight_fast(table, group_rank(table, counts, 0), group_rank(table, counts, 1),
                                     group_rank(table, counts, 2), group_rank(table, counts, 3), ge1, best, True)
        best, mask = keep_least(d, m, best, mask)
    return best, mask


@njit(nrt=False)
def _other_forms_after_discard(table, counts, meld_counts, n_melds, k, bound, work):
    """The least deficiency over the forms but the regular one of the 3n+2 hand `counts`
    less one k (INF where none is within `bound`); `counts` holds the hand less k."""
    ge1, ge2, odd, eq4 = presence_bits(counts)
    best = INF
    if n_melds == 0:
        best = min(seven_pairs(ge2, odd, eq4)[0], thirteen_orphans(ge1, ge2)[0], honors_knitted(ge1, False)[0])
    if 9 - most_knitted(ge1) <= min(best, bound):
        if n_melds == 0:
            d = knitted_straight_fast(table, group_rank(table, counts, 0), group_rank(table, counts, 1),
                                      group_rank(table, counts, 2), group_rank(table, counts, 3), ge1, bound,
                                      False)[0]
        else:
            d = knitted_straight(table, counts, meld_counts, n_melds, ge1, bound, False, work)[0]
        best = min(best, d)
    return best


@njit(nrt=False)
def keeping_discards(table, counts, meld_counts, n_melds, rows, classes, rest, work):
    """(the least deficiency a discard leaves, the tile mask of the discards that leave it)
    of the 3n+2 hand `counts` over every form, its groups already in rows and classes. The
    regular form's come from its rows at once; the other forms, where the hand's presence
    bits let them reach that deficiency, by each kind held (`counts` is restored)."""
    best, keeps = regular_keeps(table, counts, rows, classes, 4 - n_melds, rest)
    if n_melds > 1 and best > 0:  # the regular form alone, and no discard leaves it complete
        return best, keeps
    ge1, ge2, odd, eq4 = presence_bits(counts)
    if best == 0:  # complete: every discard leaves it ready
        best, keeps = 1, ge1
    if n_melds > 1:
        return best, keeps
    # A discard never brings a form closer: the whole hand's distances bound every discard's.
    floor = 9 - most_knitted(ge1)
    if n_melds == 0:
        floor = min(floor, seven_pairs(ge2, odd, eq4)[0], thirteen_orphans(ge1, ge2)[0],
                    honors_knitted_distance(ge1, most_knitted(ge1)))
    if floor > best:
        return best, keeps
    held = ge1
    while held:
        k = lowest_bit(held)
        held &= held - 1
        counts[k] -= 1
        d = _other_forms_after_discard(table, counts, meld_counts, n_melds, k, best, work)
        counts[k] += 1
        best, keeps = keep_least(d, np.int64(1) << k, best, keeps)
    return best, keeps


class Groups(NamedTuple):
    """A look-ahead's rows: a 3n+1 hand's four groups (rows, classes: load_groups), the same
    moved by a draw and a discard (move_groups), and regular_moves' merges (rest)."""

    rows: np.ndarray
    classes: np.ndarray
    moved_rows: np.ndarray
    moved_classes: np.ndarray
    rest: np.ndarray


@njit(nrt=True)
def new_groups():
    return Groups(np.empty((4, N_ENTRIES), np.int64), np.empty(4, np.int64), np.empty((4, N_ENTRIES), np.int64),
                  np.empty(4, np.int64), np.empty((10, N_ENTRIES), np.int64))


@njit(nrt=False)
def move_groups(table, hand, meld_counts, check_bits, n_sets, groups, u, k, work):
    """groups.moved_rows / moved_classes: the loaded hand's groups, with the groups of the
    tiles u and k (k < 0: none) loaded again from `hand`, the loaded hand changed in those
    groups only (plus a drawn u, less a discard k; or less a discard u alone)."""
    for g in range(4):
        groups.moved_classes[g] = groups.classes[g]
        for e in range(N_ENTRIES):
            groups.moved_rows[g, e] = groups.rows[g, e]
    gu = 3 if u >= 27 else u // 9
    load_group(table, hand, meld_counts, check_bits, gu, n_sets, groups.moved_rows, groups.moved_classes, work)
    if k >= 0:
        gk = 3 if k >= 27 else k // 9
        if gk != gu:
            load_group(table, hand, meld_counts, check_bits, gk, n_sets, groups.moved_rows, groups.moved_classes, work)


@njit(nrt=False)
def kept_after_draw(table, hand, meld_counts, n_melds, check_bits, groups, u, work):
    """The tile mask of the discards of `hand` (the loaded 3n+1 hand plus the drawn u) that
    leave the least deficiency a discard can (keeping_discards on the moved groups)."""
    move_groups(table, hand, meld_counts, check_bits, 4 - n_melds, groups, u, -1, work)
    return keeping_discards(table, hand, meld_counts, n_melds, groups.moved_rows, groups.moved_classes, groups.rest,
                            work)[1]


@njit(nrt=False)
def moves_after(table, hand, meld_counts, n_melds, check_bits, groups, u, k, work):
    """hand_moves of `hand`: the loaded 3n+1 hand plus the drawn u, less the discard k."""
    move_groups(table, hand, meld_counts, check_bits, 4 - n_melds, groups, u, k, work)
    return hand_moves(table, hand, meld_counts, n_melds, groups.moved_rows, groups.moved_classes, groups.rest, work)


@njit(cache=True)
def moves_of(table, counts, meld_counts, n_melds, total, work):
    """(deficiency, mask) of a hand of `total` standing tiles plus melds: hand_moves for
    3n+1, keeping_discards for 3n+2. The tests' and the one-hand calls' entry point."""
    rows = np.empty((4, N_ENTRIES), np.int64)
    classes = np.empty(4, np.int64)
    rest = np.empty((10, N_ENTRIES), np.int64)
    check_bits = np.int64(0)
    for t in range(34):
        if meld_counts[t] > 0:
            check_bits |= np.int64(1) << t
    hand = counts.astype(np.int64)
    load_groups(table, hand, meld_counts, check_bits, 4 - n_melds, rows, classes, work)
    if total % 3 == 1:
        return hand_moves(table, hand, meld_counts, n_melds, rows, classes, rest, work)
    return keeping_discards(table, hand, meld_counts, n_melds, rows, classes, rest, work)
