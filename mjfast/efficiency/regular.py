"""The regular form (four sets and a pair, fixed melds counting as sets): the groups' table
rows, their merge, and the form's deficiency and useful tiles.

All kernels count in *deficiency*: the fewest tiles that must be drawn (each replacing a
discard) to complete the hand; shanten = deficiency - 1. Useful tiles come as a 34-bit mask.

The rule that no tile kind can be used more than four times, counting the hand's own melds,
is exact everywhere: `locked` holds the copies of each kind that the hand's melds (and, for
the knitted straight, the knitted tiles) already use.

Each group (three suits, honours) is looked up in the table (lookup_table), then the four
groups are merged by a min-plus step over (pairs, sets). A table entry assumes 4 copies of
every tile; where a meld locks copies of a tile, the entry is still exact unless one of its
optimal targets adds that tile (its mask says so), and only then is the group's dynamic
programme (group_dp) run instead, memoised in the scratch.

Every kernel takes `with_masks`: without it, only distances are computed (the cheap path
for shanten alone) and the returned masks are 0.

Kernels that allocate nothing run without numba's reference counting (`nrt=False`, see
mjfast.runtime.decorators): every array they see belongs to their caller for the whole call, and counting
the array arguments in and out of each call was 18% of a look-ahead's time (perf). What
allocates (the group DP) says `nrt=True` explicitly, or it would inherit the caller's.
"""

import numpy as np

from ..runtime.decorators import njit
from .group_dp import INF, N_ENTRIES, group_distances, group_distances_and_masks
from .lookup_table import class_row, distance_class, distance_row, group_rank, masked_row, merged_class
from .scratch import ACC, ACC_MASK, DIST, DP_IN, MASK, MEMO, MEMO_READY, MEMO_ROW, MEMO_SLOTS, TMP, TMP_MASK


@njit(cache=True, nrt=False)
def meld_check_bits(meld_counts):
    """Bit mask of the tiles some of whose copies the melds lock."""
    bits = np.int64(0)
    for t in range(34):
        if meld_counts[t] > 0:
            bits |= np.int64(1) << t
    return bits


@njit(nrt=True)  # the DP allocates; its callers run without reference counting
def group_dp_entries(counts, locked, g, n_sets, with_masks, work):
    """Group g's entries by the dynamic programme, up to n_sets sets (entries with more sets
    are INF: no caller reads them), in the scratch's memo: returns the memo row's offset,
    whose N_ENTRIES distances, then (with_masks) masks and keeps (group-local bits, see
    group_dp) follow the key.

    The move masks take two probes per tile beyond the run itself (sharing its prefix
    states, see groups.group_distances_and_masks), so a query for distances alone (a
    shanten) runs the DP once. The hands one analysis looks at share their melded groups, so
    results are memoised in the scratch, keyed by the group, its counts and its caps (each 9
    base-5 digits) and n_sets, and tagged with whether the masks are there (an entry with
    them also answers a query without), direct-mapped: the key holds everything the result
    depends on, so an entry never goes stale."""
    start = 27 if g == 3 else 9 * g
    n = 7 if g == 3 else 9
    key = np.int64(0)
    for i in range(n):
        key = key * 25 + counts[start + i] * 5 + (4 - locked[start + i])
    key = (key * 4 + g) * 5 + n_sets
    if work[MEMO_READY] == 0:
        for i in range(MEMO_SLOTS):
            work[MEMO + i * MEMO_ROW] = -1
        work[MEMO_READY] = 1
    at = MEMO + ((key ^ (key >> 13) ^ (key >> 29)) & (MEMO_SLOTS - 1)) * MEMO_ROW
    tag = work[at]
    if tag != 2 * key + 1 and (with_masks or tag != 2 * key):
        cin = work[DP_IN:DP_IN + n]
        caps = work[DP_IN + 9:DP_IN + 9 + n]
        for i in range(n):
            cin[i] = counts[start + i]
            caps[i] = 4 - locked[start + i]
        if with_masks:
            group_distances_and_masks(cin, caps, g != 3, work[at + 1:at + 1 + N_ENTRIES],
                                      work[at + 1 + N_ENTRIES:at + 1 + 2 * N_ENTRIES],
                                      work[at + 1 + 2 * N_ENTRIES:at + MEMO_ROW], n_sets)
        else:
            group_distances(cin, caps, g != 3, work[at + 1:at + 1 + N_ENTRIES], n_sets)
        work[at] = 2 * key + with_masks
    return at


@njit
def _group_dp(counts, locked, g, slot, n_sets, with_masks, work):
    """Group g's distances (and with_masks, masks) by the dynamic programme
    (group_dp_entries), into `slot`."""
    at = group_dp_entries(counts, locked, g, n_sets, with_masks, work)
    start = 27 if g == 3 else 9 * g
    for k in range(N_ENTRIES):
        work[DIST + slot * N_ENTRIES + k] = work[at + 1 + k]
    if with_masks:
        for k in range(N_ENTRIES):
            work[MASK + slot * N_ENTRIES + k] = work[at + 1 + N_ENTRIES + k] << start


# The DP steps below are inlined into their callers: batch.discards runs 7% faster so (mjfast/runtime/decorators.py).
@njit(inline="always")
def store_row(table, g, rank, slot, local_check, n_sets, with_masks, work):
    """Copy a group pattern's table entries into `slot` (masks in global tile bits).
    Returns True when a locked tile is in the mask of an entry of at most n_sets sets: the
    DP must replace them (the table's targets may use more copies than the lock leaves;
    any target that does needs a locked tile it does not hold, which is then in the mask)."""
    d_at = DIST + slot * N_ENTRIES
    if not with_masks and local_check == 0:
        row = distance_row(table, g, rank)
        for k in range(N_ENTRIES):
            work[d_at + k] = table[row + k]
        return False
    start = 27 if g == 3 else 9 * g
    row = masked_row(table, g, rank)
    m_at = MASK + slot * N_ENTRIES
    needs_dp = False
    for k in range(N_ENTRIES):
        e = table[row + k]
        mask = (e >> 8) & 0x1FF
        if mask & local_check and k % 5 <= n_sets:
            needs_dp = True
        work[d_at + k] = e & 0xFF
        work[m_at + k] = np.int64(mask) << start
    return needs_dp


@njit(nrt=False)
def load_group(table, counts, locked, check_bits, g, slot, n_sets, with_masks, work):
    """Group g of `counts`: its distances (and masks, in global tile bits) into `slot`, those
    of at most n_sets sets exact (the others are for no caller to read)."""
    load_ranked_group(table, counts, locked, check_bits, g, group_rank(table, counts, g), slot, n_sets, with_masks,
                       work)


@njit(inline="always")
def load_ranked_group(table, counts, locked, check_bits, g, rank, slot, n_sets, with_masks, work):
    """load_group with the group's rank already known."""
    start = 27 if g == 3 else 9 * g
    local_check = (check_bits >> start) & (0x7F if g == 3 else 0x1FF)
    if store_row(table, g, rank, slot, local_check, n_sets, with_masks, work):
        _group_dp(counts, locked, g, slot, n_sets, with_masks, work)


@njit(inline="always")
def merge_slot(work, slot, n_sets, with_masks):
    """Merge a group slot into the running (pairs, sets) row at ACC: each entry is the best
    split of its pairs and sets between the two, with the union of the masks of every split
    reaching it (written without branches on the values: they mispredict)."""
    gd = DIST + slot * N_ENTRIES
    gm = MASK + slot * N_ENTRIES
    for p in range(2):
        for m in range(n_sets + 1):
            best = INF
            mask = np.int64(0)
            for pa in range(p + 1):
                for ma in range(m + 1):
                    v = work[ACC + pa * 5 + ma] + work[gd + (p - pa) * 5 + m - ma]
                    if with_masks:
                        both = work[ACC_MASK + pa * 5 + ma] | work[gm + (p - pa) * 5 + m - ma]
                        mask = both if v < best else (mask | both if v == best else mask)
                    best = min(best, v)
            work[TMP + p * 5 + m] = best
            work[TMP_MASK + p * 5 + m] = mask
    for p in range(2):
        for m in range(n_sets + 1):
            work[ACC + p * 5 + m] = work[TMP + p * 5 + m]
            work[ACC_MASK + p * 5 + m] = work[TMP_MASK + p * 5 + m]


@njit(inline="always")
def regular_from_classes(table, c0, c1, c2, c3, n_sets):
    """Deficiency of the regular form from the four groups' distance classes: the suits'
    merge is two table lookups (lookup.merged_class), then one pass over the honours' row."""
    merged = class_row(merged_class(table, merged_class(table, c0, c1), c2))
    honors = class_row(c3)
    best = INF
    for i in range(n_sets + 1):
        best = min(best, table[merged + i] + table[honors + 5 + n_sets - i],
                   table[merged + 5 + i] + table[honors + n_sets - i])
    return best


@njit(inline="always")
def distance_of_groups(table, counts, n_sets):
    """Deficiency of the regular form when no meld locks a tile: four classes read straight
    from the table and merged, nothing else (the hot path of shanten). Inlined: where n_sets
    is a constant, the final merge unrolls (batch.regular_shanten runs 10% faster so)."""
    return regular_from_classes(
        table,
        distance_class(table, 0, group_rank(table, counts, 0)),
        distance_class(table, 1, group_rank(table, counts, 1)),
        distance_class(table, 2, group_rank(table, counts, 2)),
        distance_class(table, 3, group_rank(table, counts, 3)),
        n_sets,
    )


@njit(nrt=False)
def regular_distance(table, counts, n_sets):
    """distance_of_groups, compiled once for all its callers."""
    return distance_of_groups(table, counts, n_sets)


@njit(nrt=False)
def regular(table, counts, locked, check_bits, n_sets, with_masks, work):
    """(deficiency, useful mask) of the regular form: n_sets sets + one pair from `counts`."""
    for g in range(4):
        load_group(table, counts, locked, check_bits, g, g, n_sets, with_masks, work)
    for k in range(N_ENTRIES):
        work[ACC + k] = work[DIST + k]
        work[ACC_MASK + k] = work[MASK + k]
    merge_slot(work, 1, n_sets, with_masks)
    merge_slot(work, 2, n_sets, with_masks)
    # Last group: only the entry with one pair and n_sets sets is needed.
    best = INF
    mask = np.int64(0)
    hd = DIST + 3 * N_ENTRIES
    hm = MASK + 3 * N_ENTRIES
    for pa in range(2):
        for ma in range(n_sets + 1):
            v = work[ACC + pa * 5 + ma] + work[hd + (1 - pa) * 5 + n_sets - ma]
            if v < best:
                best = v
                if with_masks:
                    mask = work[ACC_MASK + pa * 5 + ma] | work[hm + (1 - pa) * 5 + n_sets - ma]
            elif with_masks and v == best:
                mask |= work[ACC_MASK + pa * 5 + ma] | work[hm + (1 - pa) * 5 + n_sets - ma]
    if best >= INF:
        return INF, np.int64(0)
    return best, mask
