"""Exact distance to a complete hand for every MCR form, with the tiles that shorten it.

All kernels count in *deficiency*: the fewest tiles that must be drawn (each replacing a
discard) to complete the hand; shanten = deficiency - 1. Useful tiles come as a 34-bit mask.

The rule that no tile kind can be used more than four times, counting the hand's own melds,
is exact everywhere: `locked` holds the copies of each kind that the hand's melds (and, for
the knitted straight, the knitted tiles) already use.

Regular form: each group (three suits, honours) is looked up in the table (mjfast.lookup),
then the four groups are merged by a min-plus step over (pairs, sets). A table entry assumes
4 copies of every tile; where a meld locks copies of a tile, the entry is still exact unless
one of its optimal targets adds that tile (its mask says so), and only then is the group's
dynamic programme (mjfast.groups) run instead.
"""

import numpy as np
from numba import njit

from .groups import INF, N_ENTRIES, group_distances, group_distances_and_masks
from .lookup import honor_row, suit_row

REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED, KNITTED_STRAIGHT = 0, 1, 2, 3, 4
N_FORMS = 5
FORM_NAMES = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")

ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], np.int64)
# The six knitted straights: suit order (m, p, s) assigned to 147 / 258 / 369.
KNITTED = np.array(
    [
        [9 * s0 + 0, 9 * s0 + 3, 9 * s0 + 6, 9 * s1 + 1, 9 * s1 + 4, 9 * s1 + 7, 9 * s2 + 2, 9 * s2 + 5, 9 * s2 + 8]
        for s0, s1, s2 in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
    ],
    np.int64,
)
HONOR_BITS = ((1 << 34) - 1) ^ ((1 << 27) - 1)

# Scratch layout (int64): per-group distances and masks, the running merge, a temporary row.
_GROUP_DIST = 0
_GROUP_MASK = 4 * N_ENTRIES
_ACC = 8 * N_ENTRIES
_ACC_MASK = 9 * N_ENTRIES
_TMP = 10 * N_ENTRIES
_TMP_MASK = 11 * N_ENTRIES
_DP_IN = 12 * N_ENTRIES  # 2 x 9 ints: counts and caps of one group for the DP
_DP_OUT = _DP_IN + 18  # 2 x 10 ints: DP distances and masks
WORK_COUNTS = _DP_OUT + 20  # 34 counts: the tiles left beside a knitted straight
WORK_LOCKED = WORK_COUNTS + 34  # 34 counts: copies locked by melds and knitted tiles
SCRATCH = WORK_LOCKED + 34


@njit(cache=True)
def new_scratch():
    return np.zeros(SCRATCH, np.int64)


@njit(cache=True)
def _group_dp(counts, locked, start, n, chows, work, g):
    """Distances and masks of one group by the dynamic programme, into group slot g."""
    cin = work[_DP_IN:_DP_IN + n]
    caps = work[_DP_IN + 9:_DP_IN + 9 + n]
    for i in range(n):
        cin[i] = counts[start + i]
        caps[i] = 4 - locked[start + i]
    dist = work[_DP_OUT:_DP_OUT + N_ENTRIES]
    masks = work[_DP_OUT + N_ENTRIES:_DP_OUT + 2 * N_ENTRIES]
    group_distances_and_masks(cin, caps, chows, dist, masks)
    for k in range(N_ENTRIES):
        work[_GROUP_DIST + g * N_ENTRIES + k] = dist[k]
        work[_GROUP_MASK + g * N_ENTRIES + k] = masks[k] << start


@njit(cache=True)
def _load_group(table, counts, locked, check_bits, g, work):
    """Group g's 10 distances and masks (global tile bits) into scratch slot g."""
    start = 27 if g == 3 else 9 * g
    n = 7 if g == 3 else 9
    row = honor_row(table, counts) if g == 3 else suit_row(table, counts, start)
    local_check = (check_bits >> start) & ((1 << n) - 1)
    needs_dp = False
    for k in range(N_ENTRIES):
        e = table[row + k]
        mask = e >> 8
        if mask & local_check:
            needs_dp = True
        work[_GROUP_DIST + g * N_ENTRIES + k] = e & 0xFF
        work[_GROUP_MASK + g * N_ENTRIES + k] = np.int64(mask) << start
    if needs_dp:
        _group_dp(counts, locked, start, n, g != 3, work, g)


@njit(cache=True)
def _merge_group(work, g, n_sets):
    """Merge group g into the running (pairs, sets) row."""
    for k in range(N_ENTRIES):
        work[_TMP + k] = INF
        work[_TMP_MASK + k] = 0
    gd = _GROUP_DIST + g * N_ENTRIES
    gm = _GROUP_MASK + g * N_ENTRIES
    for pa in range(2):
        for ma in range(n_sets + 1):
            va = work[_ACC + pa * 5 + ma]
            if va >= INF:
                continue
            mask_a = work[_ACC_MASK + pa * 5 + ma]
            for pb in range(2 - pa):
                for mb in range(n_sets + 1 - ma):
                    vb = work[gd + pb * 5 + mb]
                    if vb >= INF:
                        continue
                    v = va + vb
                    k = (pa + pb) * 5 + ma + mb
                    if v < work[_TMP + k]:
                        work[_TMP + k] = v
                        work[_TMP_MASK + k] = mask_a | work[gm + pb * 5 + mb]
                    elif v == work[_TMP + k]:
                        work[_TMP_MASK + k] |= mask_a | work[gm + pb * 5 + mb]
    for k in range(N_ENTRIES):
        work[_ACC + k] = work[_TMP + k]
        work[_ACC_MASK + k] = work[_TMP_MASK + k]


@njit(cache=True)
def _final_merge(work, n_sets):
    """Deficiency and mask of the whole hand: running row (groups 0-2) with group 3,
    for exactly one pair and `n_sets` sets."""
    best = INF
    mask = np.int64(0)
    gd = _GROUP_DIST + 3 * N_ENTRIES
    gm = _GROUP_MASK + 3 * N_ENTRIES
    for pa in range(2):
        pb = 1 - pa
        for ma in range(n_sets + 1):
            va = work[_ACC + pa * 5 + ma]
            vb = work[gd + pb * 5 + n_sets - ma]
            v = va + vb
            if v < best:
                best = v
                mask = work[_ACC_MASK + pa * 5 + ma] | work[gm + pb * 5 + n_sets - ma]
            elif v == best:
                mask |= work[_ACC_MASK + pa * 5 + ma] | work[gm + pb * 5 + n_sets - ma]
    return best, mask


@njit(cache=True)
def regular(table, counts, locked, check_bits, n_sets, work):
    """(deficiency, useful mask) of the regular form: n_sets sets + one pair from `counts`."""
    for g in range(4):
        _load_group(table, counts, locked, check_bits, g, work)
    for k in range(N_ENTRIES):
        work[_ACC + k] = work[_GROUP_DIST + k]
        work[_ACC_MASK + k] = work[_GROUP_MASK + k]
    _merge_group(work, 1, n_sets)
    _merge_group(work, 2, n_sets)
    best, mask = _final_merge(work, n_sets)
    if best >= INF:
        return INF, np.int64(0)
    return best, mask


@njit(cache=True)
def seven_pairs(counts):
    pairs = 0
    odd = np.int64(0)
    for t in range(34):
        c = counts[t]
        pairs += c // 2
        if c & 1:
            odd |= np.int64(1) << t
    if pairs >= 7:
        return 0, np.int64(0)
    return 7 - pairs, odd


@njit(cache=True)
def thirteen_orphans(counts):
    kinds = 0
    has_pair = False
    missing = np.int64(0)
    held = np.int64(0)
    for i in range(13):
        t = ORPHANS[i]
        if counts[t] > 0:
            kinds += 1
            held |= np.int64(1) << t
            if counts[t] > 1:
                has_pair = True
        else:
            missing |= np.int64(1) << t
    dist = 14 - kinds - (1 if has_pair else 0)
    if dist == 0:
        return 0, np.int64(0)
    return dist, missing if has_pair else (missing | held)


@njit(cache=True)
def honors_knitted(counts):
    """全不靠 / 七星不靠: 14 distinct tiles among the 7 honours and one knitted straight."""
    honors_held = 0
    honors_missing = np.int64(0)
    for t in range(27, 34):
        if counts[t] > 0:
            honors_held += 1
        else:
            honors_missing |= np.int64(1) << t
    best = INF
    mask = np.int64(0)
    for k in range(6):
        held = honors_held
        missing = honors_missing
        for i in range(9):
            t = KNITTED[k, i]
            if counts[t] > 0:
                held += 1
            else:
                missing |= np.int64(1) << t
        dist = 14 - min(held, 14)
        if dist < best:
            best = dist
            mask = missing
        elif dist == best:
            mask |= missing
    if best == 0:
        return 0, np.int64(0)
    return best, mask


@njit(cache=True)
def meld_check_bits(meld_counts):
    bits = np.int64(0)
    for t in range(34):
        if meld_counts[t] > 0:
            bits |= np.int64(1) << t
    return bits


@njit(cache=True)
def knitted_straight(table, counts, meld_counts, n_melds, bound, work):
    """组合龙 + one set + a pair (at most one fixed meld, which is then the set).

    Knitted straights whose missing tiles alone exceed `bound` are skipped (pass INF to
    evaluate all); the result is then INF when none can reach `bound`.
    """
    best = INF
    mask = np.int64(0)
    rest = work[WORK_COUNTS:WORK_COUNTS + 34]
    locked = work[WORK_LOCKED:WORK_LOCKED + 34]
    check_bits = meld_check_bits(meld_counts)
    for k in range(6):
        missing = 0
        missing_mask = np.int64(0)
        feasible = True
        for t in range(34):
            rest[t] = counts[t]
            locked[t] = meld_counts[t]
        for i in range(9):
            t = KNITTED[k, i]
            locked[t] += 1
            if locked[t] > 4:
                feasible = False
            if rest[t] > 0:
                rest[t] -= 1
            else:
                missing += 1
                missing_mask |= np.int64(1) << t
        if not feasible or missing > bound or missing > best:
            continue
        # The knitted tiles' own lock cannot bind for one set + a pair (no tile is used more
        # than 3 times by them), so only the melds' locks are checked against the table.
        d, m = regular(table, rest, locked, check_bits, 1 - n_melds, work)
        d += missing
        if d < best:
            best = d
            mask = missing_mask | m
        elif d == best:
            mask |= missing_mask | m
    if best == 0:
        return 0, np.int64(0)
    return best, mask


@njit(cache=True)
def all_forms(table, counts, meld_counts, n_melds, prune, dist, masks, work):
    """Deficiency and useful mask of every form into dist[5] / masks[5] (INF = impossible).

    With `prune`, forms that cannot beat the best form found so far are not finished (left
    INF), which is all that shanten and useful tiles need.
    """
    check_bits = meld_check_bits(meld_counts)
    d, m = regular(table, counts, meld_counts, check_bits, 4 - n_melds, work)
    dist[REGULAR] = d
    masks[REGULAR] = m
    for f in range(1, N_FORMS):
        dist[f] = INF
        masks[f] = 0
    if n_melds == 0:
        d, m = seven_pairs(counts)
        dist[SEVEN_PAIRS] = d
        masks[SEVEN_PAIRS] = m
        d, m = thirteen_orphans(counts)
        dist[THIRTEEN_ORPHANS] = d
        masks[THIRTEEN_ORPHANS] = m
        d, m = honors_knitted(counts)
        dist[HONORS_KNITTED] = d
        masks[HONORS_KNITTED] = m
    if n_melds <= 1:
        bound = INF
        if prune:
            for f in range(4):
                bound = min(bound, dist[f])
        d, m = knitted_straight(table, counts, meld_counts, n_melds, bound, work)
        dist[KNITTED_STRAIGHT] = d
        masks[KNITTED_STRAIGHT] = m


@njit(cache=True)
def best_of(dist, masks):
    """Minimum deficiency over the forms and the union of the masks of the forms reaching it."""
    best = INF
    mask = np.int64(0)
    for f in range(N_FORMS):
        if dist[f] < best:
            best = dist[f]
            mask = masks[f]
        elif dist[f] == best:
            mask |= masks[f]
    return best, mask
