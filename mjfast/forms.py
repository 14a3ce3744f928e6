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

Every kernel takes `with_masks`: without it, only distances are computed (the cheap path
for shanten alone) and the returned masks are 0.

Kernels that allocate nothing are compiled with `_nrt=False`, numba's reference counting off:
every array they see belongs to their caller for the whole call, and counting the array
arguments in and out of each call was 18% of a look-ahead's time (perf, next_acceptances).
What allocates (the group DP) says `_nrt=True` explicitly, or it would inherit the caller's.
"""

import numpy as np
from numba import types
from numba.extending import intrinsic

from .groups import INF, N_ENTRIES, group_distances, group_distances_and_masks
from .jit import njit
from .lookup import (BUDGET, SUIT_OFFSETS_AT, class_row, distance_class, distance_row, group_rank, knitted_rest,
                     knitted_rest_masks, masked_row, merged_class)

REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED, KNITTED_STRAIGHT = 0, 1, 2, 3, 4
N_FORMS = 5
FORM_NAMES = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")


def _bits(tiles) -> int:
    return sum(1 << t for t in tiles)


ORPHAN_BITS = _bits([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])
HONOR_BITS = _bits(range(27, 34))
# KNITTED_PART[s, j]: the knitted tiles 1-4-7 (j=0), 2-5-8 (j=1) or 3-6-9 (j=2) of suit s.
KNITTED_PART = np.array([[_bits([9 * s + j, 9 * s + j + 3, 9 * s + j + 6]) for j in range(3)] for s in range(3)], np.int64)
# The six knitted straights: which part (j) each suit (m, p, s) contributes, their tiles,
# and the scratch slots of their four remainder groups (three suits, then the honours).
KNITTED_PARTS_OF = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], np.int64)
KNITTED_BITS = np.array([sum(int(KNITTED_PART[s, KNITTED_PARTS_OF[k, s]]) for s in range(3)) for k in range(6)], np.int64)
HONORS_KNITTED_BITS = KNITTED_BITS | HONOR_BITS
REMAINDER_SLOTS = np.array([[4 + 3 * s + KNITTED_PARTS_OF[k, s] for s in range(3)] + [13] for k in range(6)], np.int64)

# Scratch layout (int64). Group slots 0-3 hold the hand's groups; slots 4-12 hold the nine
# (suit, knitted part) remainders of the knitted-straight form and 13 its honours; slots
# 14-17 hold, for each group, the merge of the other three (a discard sweep changes one group
# at a time) and 18 the changed group. A draw sweep (a 3n+1 hand, then each draw and each
# discard after it: two groups change) adds, for each pair of groups, the merge of the other
# two (19-24), the drawn tile's group (25), for each group, the merge of the other three
# after the draw (26-29), and for each kind k, k's group in the prepared hand less k (30-63,
# see prepare_draws).
_N_SLOTS = 64
_LEAVE_OUT = 14
_CHANGED = 18
_LEAVE_TWO_OUT = 19
_DRAWN = 25
_DRAWN_LEAVE_OUT = 26
_KEPT = 30
# The tile mask of each group.
_GROUP_TILES = np.array([0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27], np.int64)
# The leave-two-out slot of each pair of groups (the diagonal is unused).
_PAIR_SLOT = np.array([[-1, 0, 1, 2], [0, -1, 3, 4], [1, 3, -1, 5], [2, 4, 5, -1]], np.int64) + _LEAVE_TWO_OUT
_DIST = 0
_MASK = _N_SLOTS * N_ENTRIES
_ACC = 2 * _N_SLOTS * N_ENTRIES
_ACC_MASK = _ACC + N_ENTRIES
_TMP = _ACC + 2 * N_ENTRIES
_TMP_MASK = _ACC + 3 * N_ENTRIES
_DP_IN = _ACC + 4 * N_ENTRIES  # counts and caps of one group for the DP (2 x 9)
_REST = _DP_IN + 18  # 34 counts: the tiles left beside a knitted part
_LOCKED = _REST + 34  # 34 counts: copies locked by melds and a knitted part
_FORM_DIST = _LOCKED + 34  # N_FORMS: a query's per-form distances (see form_rows)
_FORM_MASK = _FORM_DIST + N_FORMS  # N_FORMS: and masks
# A draw sweep's 3n+1 hand X: the regular form's deficiency of X, its presence bits and
# groups' ranks, and for each kind k held and prepared, the regular form's distance and
# useful mask of the 3n hand X less k (see regular_candidates).
_DRAW_SELF = _FORM_MASK + N_FORMS
_DRAW_BITS = _DRAW_SELF + 1
_DRAW_RANKS = _DRAW_BITS + 4
_DRAW_DISCARDS = _DRAW_RANKS + 4  # the tile mask of the discards prepared
_DRAW_KEPT = _DRAW_DISCARDS + 1  # the tile mask of the kinds whose _KEPT row is current
_LESS_ONE_DIST = _DRAW_KEPT + 1
_LESS_ONE_MASK = _LESS_ONE_DIST + 34
_MEMO_READY = _LESS_ONE_MASK + 34  # 1 once the memo's keys are cleared (on first use)
_MEMO = _MEMO_READY + 1  # the group DP's results, memoised (see _group_dp)
_MEMO_SLOTS = 4096  # 1024 missed often enough on a log's melded hands to cost a third of their time
_MEMO_ROW = 1 + 2 * N_ENTRIES  # key, distances, masks
# Space for mjfast.advice's memo of scored hands (advice._points): a flag, 0 until its keys
# are cleared on first use, then the slots, each three words of key and a value.
SCORE_MEMO = _MEMO + _MEMO_SLOTS * _MEMO_ROW
SCORE_MEMO_SLOTS = 8192
SCORE_MEMO_ROW = 4
SCRATCH = SCORE_MEMO + 1 + SCORE_MEMO_SLOTS * SCORE_MEMO_ROW


@njit(cache=True)
def new_scratch():
    """Working space for the kernels of this module. Every part is written before it is
    read (nothing is cleared here: this is on every query's path, and the memos' 950 KB are
    touched only by the queries that use them, see _group_dp and SCORE_MEMO)."""
    work = np.empty(SCRATCH, np.int64)
    work[_MEMO_READY] = 0
    work[SCORE_MEMO] = 0
    return work


@njit(inline="always")
def form_rows(work):
    """(dist, masks): N_FORMS slots each in the scratch for all_forms' results, so that a
    one-hand query allocates nothing."""
    return work[_FORM_DIST:_FORM_DIST + N_FORMS], work[_FORM_MASK:_FORM_MASK + N_FORMS]


@intrinsic
def popcount(typingctx, x):
    """Set bits of an integer: one POPCNT instruction (LLVM's ctpop), where a bit-twiddling
    version took a dozen."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a nonzero integer (LLVM's cttz): loops over the kinds
    in a tile mask visit only those, where a loop over all 34 tested each."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return x(x), codegen


@njit(cache=True, _nrt=False)
def meld_check_bits(meld_counts):
    """Bit mask of the tiles some of whose copies the melds lock."""
    bits = np.int64(0)
    for t in range(34):
        if meld_counts[t] > 0:
            bits |= np.int64(1) << t
    return bits


@njit(_nrt=True)  # the DP allocates; its callers run without reference counting
def _group_dp(counts, locked, g, slot, n_sets, with_masks, work):
    """Group g's distances (and with_masks, masks) to at most n_sets sets by the dynamic
    programme, into `slot` (entries with more sets are INF: no caller reads them).

    The masks take a probe per tile beyond the run itself (sharing its prefix states, see
    groups.group_distances_and_masks), so a query for distances alone (a shanten) runs the
    DP once. The hands one analysis looks at share their melded groups, so results are
    memoised in the scratch, keyed by the group, its counts and its caps (each 9 base-5
    digits) and n_sets, and tagged with whether the masks are there (an entry with them also
    answers a query without), direct-mapped: the key holds everything the result depends
    on, so an entry never goes stale."""
    start = 27 if g == 3 else 9 * g
    n = 7 if g == 3 else 9
    key = np.int64(0)
    for i in range(n):
        key = key * 25 + counts[start + i] * 5 + (4 - locked[start + i])
    key = (key * 4 + g) * 5 + n_sets
    if work[_MEMO_READY] == 0:
        for i in range(_MEMO_SLOTS):
            work[_MEMO + i * _MEMO_ROW] = -1
        work[_MEMO_READY] = 1
    at = _MEMO + ((key ^ (key >> 13) ^ (key >> 29)) & (_MEMO_SLOTS - 1)) * _MEMO_ROW
    tag = work[at]
    if tag != 2 * key + 1 and (with_masks or tag != 2 * key):
        cin = work[_DP_IN:_DP_IN + n]
        caps = work[_DP_IN + 9:_DP_IN + 9 + n]
        for i in range(n):
            cin[i] = counts[start + i]
            caps[i] = 4 - locked[start + i]
        if with_masks:
            group_distances_and_masks(cin, caps, g != 3, work[at + 1:at + 1 + N_ENTRIES],
                                      work[at + 1 + N_ENTRIES:at + _MEMO_ROW], n_sets)
        else:
            group_distances(cin, caps, g != 3, work[at + 1:at + 1 + N_ENTRIES], n_sets)
        work[at] = 2 * key + with_masks
    for k in range(N_ENTRIES):
        work[_DIST + slot * N_ENTRIES + k] = work[at + 1 + k]
    if with_masks:
        for k in range(N_ENTRIES):
            work[_MASK + slot * N_ENTRIES + k] = work[at + 1 + N_ENTRIES + k] << start


@njit(inline="always")
def _store_row(table, g, rank, slot, local_check, n_sets, with_masks, work):
    """Copy a group pattern's table entries into `slot` (masks in global tile bits).
    Returns True when a locked tile is in the mask of an entry of at most n_sets sets: the
    DP must replace them (the table's targets may use more copies than the lock leaves;
    any target that does needs a locked tile it does not hold, which is then in the mask)."""
    d_at = _DIST + slot * N_ENTRIES
    if not with_masks and local_check == 0:
        row = distance_row(table, g, rank)
        for k in range(N_ENTRIES):
            work[d_at + k] = table[row + k]
        return False
    start = 27 if g == 3 else 9 * g
    row = masked_row(table, g, rank)
    m_at = _MASK + slot * N_ENTRIES
    needs_dp = False
    for k in range(N_ENTRIES):
        e = table[row + k]
        mask = e >> 8
        if mask & local_check and k % 5 <= n_sets:
            needs_dp = True
        work[d_at + k] = e & 0xFF
        work[m_at + k] = np.int64(mask) << start
    return needs_dp


@njit(_nrt=False)
def _load_group(table, counts, locked, check_bits, g, slot, n_sets, with_masks, work):
    """Group g of `counts`: its distances (and masks, in global tile bits) into `slot`, those
    of at most n_sets sets exact (the others are for no caller to read)."""
    _load_ranked_group(table, counts, locked, check_bits, g, group_rank(table, counts, g), slot, n_sets, with_masks,
                       work)


@njit(inline="always")
def _load_ranked_group(table, counts, locked, check_bits, g, rank, slot, n_sets, with_masks, work):
    """_load_group with the group's rank already known."""
    start = 27 if g == 3 else 9 * g
    local_check = (check_bits >> start) & (0x7F if g == 3 else 0x1FF)
    if _store_row(table, g, rank, slot, local_check, n_sets, with_masks, work):
        _group_dp(counts, locked, g, slot, n_sets, with_masks, work)


@njit(inline="always")
def _merge_slot(work, slot, n_sets, with_masks):
    """Merge a group slot into the running (pairs, sets) row at _ACC: each entry is the best
    split of its pairs and sets between the two, with the union of the masks of every split
    reaching it (written without branches on the values: they mispredict)."""
    gd = _DIST + slot * N_ENTRIES
    gm = _MASK + slot * N_ENTRIES
    for p in range(2):
        for m in range(n_sets + 1):
            best = INF
            mask = np.int64(0)
            for pa in range(p + 1):
                for ma in range(m + 1):
                    v = work[_ACC + pa * 5 + ma] + work[gd + (p - pa) * 5 + m - ma]
                    if with_masks:
                        both = work[_ACC_MASK + pa * 5 + ma] | work[gm + (p - pa) * 5 + m - ma]
                        mask = both if v < best else (mask | both if v == best else mask)
                    best = min(best, v)
            work[_TMP + p * 5 + m] = best
            work[_TMP_MASK + p * 5 + m] = mask
    for p in range(2):
        for m in range(n_sets + 1):
            work[_ACC + p * 5 + m] = work[_TMP + p * 5 + m]
            work[_ACC_MASK + p * 5 + m] = work[_TMP_MASK + p * 5 + m]


@njit(inline="always")
def _regular_classes(table, c0, c1, c2, c3, n_sets):
    """Deficiency of the regular form from the four groups' distance classes: the suits'
    merge is two table lookups (lookup.merged_class), then one pass over the honours' row."""
    merged = class_row(merged_class(table, merged_class(table, c0, c1), c2))
    honors = class_row(c3)
    best = INF
    for i in range(n_sets + 1):
        best = min(best, table[merged + i] + table[honors + 5 + n_sets - i],
                   table[merged + 5 + i] + table[honors + n_sets - i])
    return best


@njit(_nrt=False)
def regular_distance(table, counts, n_sets):
    """Deficiency of the regular form when no meld locks a tile: four classes read straight
    from the table and merged, nothing else (the hot path of shanten)."""
    return _regular_classes(
        table,
        distance_class(table, 0, group_rank(table, counts, 0)),
        distance_class(table, 1, group_rank(table, counts, 1)),
        distance_class(table, 2, group_rank(table, counts, 2)),
        distance_class(table, 3, group_rank(table, counts, 3)),
        n_sets,
    )


@njit(_nrt=False)
def regular(table, counts, locked, check_bits, n_sets, with_masks, work):
    """(deficiency, useful mask) of the regular form: n_sets sets + one pair from `counts`."""
    for g in range(4):
        _load_group(table, counts, locked, check_bits, g, g, n_sets, with_masks, work)
    for k in range(N_ENTRIES):
        work[_ACC + k] = work[_DIST + k]
        work[_ACC_MASK + k] = work[_MASK + k]
    _merge_slot(work, 1, n_sets, with_masks)
    _merge_slot(work, 2, n_sets, with_masks)
    # Last group: only the entry with one pair and n_sets sets is needed.
    best = INF
    mask = np.int64(0)
    hd = _DIST + 3 * N_ENTRIES
    hm = _MASK + 3 * N_ENTRIES
    for pa in range(2):
        for ma in range(n_sets + 1):
            v = work[_ACC + pa * 5 + ma] + work[hd + (1 - pa) * 5 + n_sets - ma]
            if v < best:
                best = v
                if with_masks:
                    mask = work[_ACC_MASK + pa * 5 + ma] | work[hm + (1 - pa) * 5 + n_sets - ma]
            elif with_masks and v == best:
                mask |= work[_ACC_MASK + pa * 5 + ma] | work[hm + (1 - pa) * 5 + n_sets - ma]
    if best >= INF:
        return INF, np.int64(0)
    return best, mask


@njit(_nrt=False)
def prepare_sweep(table, counts, locked, check_bits, n_sets, ranks, work):
    """Load the hand's four groups (slots 0-3, their ranks into `ranks`) and, for each group,
    the merge of the other three (slots 14-17): then regular_after_change costs one lookup
    and one final merge."""
    for g in range(4):
        ranks[g] = group_rank(table, counts, g)
        _load_ranked_group(table, counts, locked, check_bits, g, ranks[g], g, n_sets, True, work)
    for g in range(4):
        first = 1 if g == 0 else 0
        for k in range(N_ENTRIES):
            work[_ACC + k] = work[_DIST + first * N_ENTRIES + k]
            work[_ACC_MASK + k] = work[_MASK + first * N_ENTRIES + k]
        for other in range(first + 1, 4):
            if other != g:
                _merge_slot(work, other, n_sets, True)
        for k in range(N_ENTRIES):
            work[_DIST + (_LEAVE_OUT + g) * N_ENTRIES + k] = work[_ACC + k]
            work[_MASK + (_LEAVE_OUT + g) * N_ENTRIES + k] = work[_ACC_MASK + k]


@njit(_nrt=False)
def regular_after_change(table, counts, locked, check_bits, g, rank, n_sets, with_masks, work):
    """(deficiency, useful mask) of the regular form of `counts`, which differs from the hand
    given to prepare_sweep only in group g (whose new rank is `rank`). Without masks, only
    the changed group's distances are read (from the small table that stays in cache)."""
    return _regular_with_row(table, counts, locked, check_bits, g, rank, _CHANGED, n_sets, with_masks, work)


@njit(inline="always")
def _regular_with_row(table, counts, locked, check_bits, g, rank, slot, n_sets, with_masks, work):
    """regular_after_change, with group g's row kept in `slot`."""
    _load_ranked_group(table, counts, locked, check_bits, g, rank, slot, n_sets, with_masks, work)
    return _merge_changed(work, _LEAVE_OUT + g, slot, n_sets, with_masks)


@njit(inline="always")
def _merge_changed(work, rest, changed, n_sets, with_masks):
    """(deficiency, useful mask) of the changed group (in slot `changed`) with the merge of
    the other three in slot `rest`: the one entry with one pair and n_sets sets."""
    best = INF
    mask = np.int64(0)
    for pa in range(2):
        for ma in range(n_sets + 1):
            in_rest = rest * N_ENTRIES + pa * 5 + ma  # the split: pa pairs and ma sets in the rest
            in_changed = changed * N_ENTRIES + (1 - pa) * 5 + n_sets - ma
            v = work[_DIST + in_rest] + work[_DIST + in_changed]
            if not with_masks:
                best = min(best, v)
                continue
            m = work[_MASK + in_rest] | work[_MASK + in_changed]
            if v < best:
                best = v
                mask = m
            elif v == best:
                mask |= m
    if best >= INF:
        return INF, np.int64(0)
    return best, mask


@njit(inline="always")
def _merge_two(work, a, b, out, n_sets):
    """Slot out = the merge of slots a and b (with masks)."""
    for k in range(N_ENTRIES):
        work[_ACC + k] = work[_DIST + a * N_ENTRIES + k]
        work[_ACC_MASK + k] = work[_MASK + a * N_ENTRIES + k]
    _merge_slot(work, b, n_sets, True)
    for k in range(N_ENTRIES):
        work[_DIST + out * N_ENTRIES + k] = work[_ACC + k]
        work[_MASK + out * N_ENTRIES + k] = work[_ACC_MASK + k]


@njit(cache=True, _nrt=False)
def prepare_draws(table, counts, locked, check_bits, n_sets, target, discards, again, ranks, work):
    """Prepare a draw sweep of the 3n+1 hand `counts` (X): each later draw changes one group
    and each discard after it at most one more, so the sweep keeps every merge of two groups
    (and of three) of X, and a discard then costs a merge or two instead of three.

    Also works out, for each kind k held, the regular form of the 3n hand X less k: drawing u
    and discarding k leaves X less k plus u, whose distance is X less k's, or one less exactly
    when u is in its useful mask. regular_candidates reads every draw's discards from that
    for a `target` deficiency: the mask is needed only within distance target + 1 (where
    the group's row is kept for regular_after_draw), and the distance comes first from the
    table that stays in cache. Only the kinds in the tile mask `discards` are prepared: the
    sweeps after it consider no other discard. The groups' ranks go into `ranks`.

    `again`: the scratch was last prepared (with nothing else using its slots since) for the
    same melds and a hand that differs from X in some groups only, as a look-ahead's next
    discard of the same 3n+2 hand does: then only the merges and rows that read a changed
    group are worked out again (a discard in the same group as the last changes one group,
    and leaves 4 of the 10 merges and the rows less one of the other groups' kinds)."""
    changed = 0
    for g in range(4):
        ranks[g] = group_rank(table, counts, g)
        if not again or ranks[g] != work[_DRAW_RANKS + g]:
            changed |= 1 << g
            work[_DRAW_RANKS + g] = ranks[g]
            _load_ranked_group(table, counts, locked, check_bits, g, ranks[g], g, n_sets, True, work)
    kept = work[_DRAW_KEPT] if again else 0  # the kinds whose _KEPT row is of X's group less one
    for g in range(4):
        if (changed >> g) & 1:
            kept &= ~_GROUP_TILES[g]
    ge1, ge2, odd, eq4 = presence_bits(counts)
    work[_DRAW_BITS] = ge1
    work[_DRAW_BITS + 1] = ge2
    work[_DRAW_BITS + 2] = odd
    work[_DRAW_BITS + 3] = eq4
    for a in range(4):
        for b in range(a + 1, 4):
            c = 0
            while c == a or c == b:
                c += 1
            d = 6 - a - b - c
            if ((changed >> c) | (changed >> d)) & 1:
                _merge_two(work, c, d, _PAIR_SLOT[a, b], n_sets)
    for g in range(4):
        other = 1 if g == 0 else 0
        if changed & ~(1 << g):
            _merge_two(work, _PAIR_SLOT[g, other], other, _LEAVE_OUT + g, n_sets)
    work[_DRAW_SELF] = regular_after_change(table, counts, locked, check_bits, 0, ranks[0], n_sets, False, work)[0]
    work[_DRAW_DISCARDS] = discards
    held = ge1 & discards
    while held:
        t = lowest_bit(held)
        held &= held - 1
        g = 3 if t >= 27 else t // 9
        if (kept >> t) & 1:
            d, m = _merge_changed(work, _LEAVE_OUT + g, _KEPT + t, n_sets, True)
        else:
            counts[t] -= 1
            rank = group_rank(table, counts, g)
            d, m = regular_after_change(table, counts, locked, check_bits, g, rank, n_sets, False, work)
            if d <= target + 1:  # a candidate: keep its group's row for regular_after_draw
                d, m = _regular_with_row(table, counts, locked, check_bits, g, rank, _KEPT + t, n_sets, True, work)
                kept |= np.int64(1) << t
            counts[t] += 1
        work[_LESS_ONE_DIST + t] = d
        work[_LESS_ONE_MASK + t] = m
    work[_DRAW_KEPT] = kept


@njit(inline="always")
def drawn_presence_bits(work, u, count):
    """presence_bits of the prepared hand X plus the drawn tile u (`count` copies of u now)."""
    return presence_bits_after(work[_DRAW_BITS], work[_DRAW_BITS + 1], work[_DRAW_BITS + 2], work[_DRAW_BITS + 3], u,
                               count)


@njit(inline="always")
def drawn_ranks(table, counts, u, k, ranks, work):
    """The four groups' ranks of the prepared hand plus u less k (held in `counts`) into
    `ranks`: only the groups of u and k differ from the prepared hand's."""
    for g in range(4):
        ranks[g] = work[_DRAW_RANKS + g]
    gu = 3 if u >= 27 else u // 9
    gk = 3 if k >= 27 else k // 9
    ranks[gu] = group_rank(table, counts, gu)
    if gk != gu:
        ranks[gk] = group_rank(table, counts, gk)


@njit(inline="always")
def prepared_discards(work):
    """The tile mask of the discards prepare_draws prepared."""
    return work[_DRAW_DISCARDS]


@njit(inline="always")
def regular_candidates(held, u, u_count, target, work):
    """The kinds k whose discard, after the draw of u, leaves the prepared hand X a regular
    form within `target` (the one given to prepare_draws): X less k plus u is at X less k's
    distance, or one less where u is useful to it (adding a tile never lengthens a hand, nor
    shortens it by more than one). `held`: the kinds of X plus u to consider (prepared
    ones, see prepared_discards), where X plus u holds `u_count` copies of u; discarding
    the drawn tile itself (when X holds none) leaves X."""
    found = np.int64(0)
    while held:
        k = lowest_bit(held)
        held &= held - 1
        if k == u and u_count == 1:
            reached = work[_DRAW_SELF] <= target
        else:
            d = work[_LESS_ONE_DIST + k]
            reached = d <= target or (d == target + 1 and (work[_LESS_ONE_MASK + k] >> u) & 1)
        if reached:
            found |= np.int64(1) << k
    return found


@njit(inline="always")
def regular_draw(table, counts, locked, check_bits, u, n_sets, work):
    """The draw of tile u (already added to `counts`, the prepared hand plus u): its group's
    row into the drawn slot."""
    g = 3 if u >= 27 else u // 9
    _load_ranked_group(table, counts, locked, check_bits, g, group_rank(table, counts, g), _DRAWN, n_sets, True, work)


@njit(inline="always")
def regular_after_draw(table, counts, locked, check_bits, u, k, n_sets, leave_out_ready, work):
    """(deficiency, useful mask, leave_out_ready) of the regular form of the prepared hand
    plus u less k (`counts` holds it), after regular_draw. leave_out_ready: bit g once the
    merge of the groups other than g after the draw is in the scratch (0 at each draw)."""
    gu = 3 if u >= 27 else u // 9
    gk = 3 if k >= 27 else k // 9
    if gk == gu:
        rest = _LEAVE_OUT + gu  # the draw's group is the one that changes: the rest as prepared
        _load_ranked_group(table, counts, locked, check_bits, gk, group_rank(table, counts, gk), _CHANGED, n_sets, True,
                           work)
        changed = _CHANGED
    else:  # k's group as prepare_draws kept it, the rest merged with the drawn group
        rest = _DRAWN_LEAVE_OUT + gk
        if not (leave_out_ready >> gk) & 1:
            _merge_two(work, _PAIR_SLOT[gk, gu], _DRAWN, rest, n_sets)
            leave_out_ready |= 1 << gk
        changed = _KEPT + k
    d, m = _merge_changed(work, rest, changed, n_sets, True)
    return d, m, leave_out_ready


@njit(cache=True, inline="always")
def presence_bits(counts):
    """Bit masks of the kinds held at least once, at least twice, an odd number of times,
    and four times. Written without branches: on random hands they mispredict, and a
    branching loop cost ten times as much."""
    ge1 = np.int64(0)
    ge2 = np.int64(0)
    odd = np.int64(0)
    eq4 = np.int64(0)
    for t in range(34):
        c = np.int64(counts[t])  # 0..4, so the shifts below are the comparisons
        ge1 |= ((c + 3) >> 2) << t
        ge2 |= ((c + 2) >> 2) << t
        odd |= (c & 1) << t
        eq4 |= (c >> 2) << t
    return ge1, ge2, odd, eq4


@njit(inline="always")
def presence_bits_after(ge1, ge2, odd, eq4, t, count):
    """presence_bits after tile t's count changed to `count` (the others unchanged)."""
    bit = np.int64(1) << t
    ge1 = (ge1 | bit) if count >= 1 else (ge1 & ~bit)
    ge2 = (ge2 | bit) if count >= 2 else (ge2 & ~bit)
    odd = (odd | bit) if count & 1 else (odd & ~bit)
    eq4 = (eq4 | bit) if count == 4 else (eq4 & ~bit)
    return ge1, ge2, odd, eq4


@njit(inline="always")
def seven_pairs(ge2, odd, eq4):
    """Seven pairs; four of a kind counts as two pairs (MCR)."""
    pairs = popcount(ge2) + popcount(eq4)
    if pairs >= 7:
        return 0, np.int64(0)
    return 7 - pairs, odd


@njit(inline="always")
def thirteen_orphans(ge1, ge2):
    held = ge1 & ORPHAN_BITS
    has_pair = (ge2 & ORPHAN_BITS) != 0
    dist = 14 - popcount(held) - (1 if has_pair else 0)
    if dist == 0:
        return 0, np.int64(0)
    missing = ORPHAN_BITS & ~ge1
    return dist, missing if has_pair else (missing | held)


@njit(inline="always")
def most_knitted(ge1):
    """The most tiles held of one of the six knitted straights (9 tiles each): the knitted
    straight lacks at least 9 less this, and honours-and-knitted counts it beside the honours."""
    most = 0
    for k in range(6):
        most = max(most, popcount(ge1 & KNITTED_BITS[k]))
    return most


@njit(inline="always")
def honors_knitted_distance(ge1, knitted_held):
    """Honours-and-knitted's deficiency, given most_knitted(ge1)."""
    return 14 - min(popcount(ge1 & HONOR_BITS) + knitted_held, 14)


@njit
def honors_knitted(ge1, with_masks):
    """全不靠 / 七星不靠: 14 distinct tiles among the 7 honours and one knitted straight.
    The distance comes first, without branches (on random hands they mispredict)."""
    best = honors_knitted_distance(ge1, most_knitted(ge1))
    most = 14 - best  # tiles held of the best straight with the honours
    if best == 0 or not with_masks:
        return best, np.int64(0)
    mask = np.int64(0)
    for k in range(6):
        if popcount(ge1 & HONORS_KNITTED_BITS[k]) == most:
            mask |= HONORS_KNITTED_BITS[k] & ~ge1
    return best, mask


@njit(inline="always")
def _rank_without(table, counts, s, part):
    """Rank of suit s's pattern less one copy of each held tile of `part` (a bit mask)."""
    rank = 0
    prefix = 0
    for i in range(9):
        t = 9 * s + i
        c = counts[t]
        if c > 0 and (part >> t) & 1:
            c -= 1
        rank += table[SUIT_OFFSETS_AT + (i * BUDGET + prefix) * 5 + c]
        prefix += c
    return rank


@njit(_nrt=False)
def _load_knitted_remainder(table, counts, meld_counts, check_bits, s, j, with_masks, work):
    """Slot 4 + 3s + j: suit s without one copy of each held tile of knitted part j.
    Returns False when a meld holds all four copies of one of the part's tiles."""
    part = KNITTED_PART[s, j]
    slot = 4 + 3 * s + j
    if (check_bits >> (9 * s)) & 0x1FF == 0:  # no meld in this suit: a plain lookup
        _store_row(table, s, _rank_without(table, counts, s, part), slot, 0, 1, with_masks, work)
        return True
    rest = work[_REST:_REST + 34]
    locked = work[_LOCKED:_LOCKED + 34]
    for t in range(9 * s, 9 * s + 9):
        in_part = (part >> t) & 1
        locked[t] = meld_counts[t] + in_part
        if locked[t] > 4:
            return False
        rest[t] = counts[t] - (1 if in_part and counts[t] > 0 else 0)
    _load_group(table, rest, locked, check_bits, s, slot, 1, with_masks, work)  # one set and a pair beside it
    return True


@njit(_nrt=False)
def _remainder(work, k, n_melds, with_masks):
    """(distance, mask) of the set and pair (just the pair with a meld) beside knitted
    straight k, from the four remainder slots of that straight."""
    best = INF
    mask = np.int64(0)
    for a in range(4):
        da = _DIST + REMAINDER_SLOTS[k, a] * N_ENTRIES
        ma = _MASK + REMAINDER_SLOTS[k, a] * N_ENTRIES
        # Candidates: the pair alone (index 5), or set and pair in this group (index 6).
        own = 5 if n_melds == 1 else 6
        v = work[da + own]
        if v < best:
            best = v
            mask = work[ma + own] if with_masks else 0
        elif with_masks and v == best:
            mask |= work[ma + own]
        if n_melds == 1:
            continue
        for b in range(4):  # the set in group a (index 1), the pair in group b (index 5)
            if b == a:
                continue
            db = _DIST + REMAINDER_SLOTS[k, b] * N_ENTRIES
            mb = _MASK + REMAINDER_SLOTS[k, b] * N_ENTRIES
            v = work[da + 1] + work[db + 5]
            if v < best:
                best = v
                mask = (work[ma + 1] | work[mb + 5]) if with_masks else 0
            elif with_masks and v == best:
                mask |= work[ma + 1] | work[mb + 5]
    return best, mask


@njit(_nrt=False)
def knitted_straight(table, counts, meld_counts, n_melds, ge1, bound, with_masks, work):
    """组合龙 + one set + a pair (at most one fixed meld, which is then the set).

    The remainder beside the knitted tiles needs one set and a pair (only a pair with a
    meld); each suit's remainder depends only on which knitted part it gives, so the nine
    (suit, part) remainders are looked up once and shared by the six knitted straights.
    The knitted tiles' own lock cannot bind for one set and a pair (no tile is used more
    than 3 times by them), so only the melds' locks are checked against the table.
    Knitted straights whose missing tiles alone exceed `bound` are skipped; the result is
    INF when none is left.
    """
    check_bits = meld_check_bits(meld_counts)
    loaded = 0  # bit 3s+j: remainder (s, j) looked up; bit 9+3s+j: it is impossible
    honors_loaded = False
    best = INF
    mask = np.int64(0)
    for k in range(6):
        missing_bits = KNITTED_BITS[k] & ~ge1
        missing = popcount(missing_bits)
        if missing > bound or missing > best:
            continue
        if not honors_loaded:
            _load_group(table, counts, meld_counts, check_bits, 3, 13, 1, with_masks, work)
            honors_loaded = True
        feasible = True
        for s in range(3):
            j = KNITTED_PARTS_OF[k, s]
            bit = 1 << (3 * s + j)
            if not loaded & bit:
                loaded |= bit
                if not _load_knitted_remainder(table, counts, meld_counts, check_bits, s, j, with_masks, work):
                    loaded |= bit << 9
            if loaded & (bit << 9):
                feasible = False
        if not feasible:
            continue
        rest, rest_mask = _remainder(work, k, n_melds, with_masks)
        d = missing + rest
        if d < best:
            best = d
            mask = missing_bits | rest_mask
        elif d == best:
            mask |= missing_bits | rest_mask
    if best == 0 or best >= INF or not with_masks:
        return best, np.int64(0)
    return best, mask


@njit(inline="always")
def _keep(value, mask, best, best_mask):
    """The running minimum and the union of the masks of everything reaching it."""
    if value < best:
        return value, mask
    if value == best:
        return best, best_mask | mask
    return best, best_mask


@njit(_nrt=False)
def knitted_straight_fast(table, rank0, rank1, rank2, honor_rank, ge1, bound, with_masks):
    """(deficiency, useful mask) of the knitted straight for a hand without melds, from the
    four groups' ranks: the table stores each suit's remainder beside each knitted part
    (lookup.KNITTED_AT), so this is a few lookups instead of knitted_straight's nine.
    Knitted straights whose missing tiles exceed `bound` are skipped (INF if all are)."""
    if 9 - most_knitted(ge1) > bound:  # first, without branches: most hands are out of reach
        return INF, np.int64(0)
    # Without masks the honours' distance row serves (its entries are the masked row's low
    # bytes) and stays in cache, unlike the masked rows.
    honor_row = masked_row(table, 3, honor_rank) if with_masks else distance_row(table, 3, honor_rank)
    best = INF
    mask = np.int64(0)
    h_set = table[honor_row + 1]
    h_pair = table[honor_row + 5]
    h_both = table[honor_row + 6]
    for k in range(6):
        missing_bits = KNITTED_BITS[k] & ~ge1
        missing = popcount(missing_bits)
        if missing > bound or missing > best or (missing == best and not with_masks):
            continue
        j0 = KNITTED_PARTS_OF[k, 0]
        j1 = KNITTED_PARTS_OF[k, 1]
        j2 = KNITTED_PARTS_OF[k, 2]
        s0, p0, b0 = knitted_rest(table, rank0, j0)
        s1, p1, b1 = knitted_rest(table, rank1, j1)
        s2, p2, b2 = knitted_rest(table, rank2, j2)
        sets = (s0, s1, s2, h_set & 0xFF)
        pairs = (p0, p1, p2, h_pair & 0xFF)
        boths = (b0, b1, b2, h_both & 0xFF)
        if with_masks:
            ms0, mp0, mb0 = knitted_rest_masks(table, rank0, j0)
            ms1, mp1, mb1 = knitted_rest_masks(table, rank1, j1)
            ms2, mp2, mb2 = knitted_rest_masks(table, rank2, j2)
            set_masks = (ms0, ms1 << 9, ms2 << 18, (h_set >> 8) << 27)
            pair_masks = (mp0, mp1 << 9, mp2 << 18, (h_pair >> 8) << 27)
            both_masks = (mb0, mb1 << 9, mb2 << 18, (h_both >> 8) << 27)
        else:
            set_masks = pair_masks = both_masks = (0, 0, 0, 0)
        rest = INF
        rest_mask = np.int64(0)
        for a in range(4):  # the set and the pair in one group, or the set in a, pair in b
            if not with_masks:  # min() alone compiles without branches
                rest = min(rest, boths[a])
                for b in range(4):
                    rest = min(rest, sets[a] + pairs[b] if b != a else INF)
                continue
            rest, rest_mask = _keep(boths[a], both_masks[a], rest, rest_mask)
            for b in range(4):
                if b != a:
                    rest, rest_mask = _keep(sets[a] + pairs[b], set_masks[a] | pair_masks[b], rest, rest_mask)
        best, mask = _keep(missing + rest, missing_bits | rest_mask, best, mask)
    if best == 0 or best >= INF or not with_masks:
        return best, np.int64(0)
    return best, mask


@njit(_nrt=False)
def all_forms(table, counts, meld_counts, n_melds, prune, with_masks, dist, masks, work):
    """Deficiency (and, with_masks, useful mask) of every form into dist[5] / masks[5].

    INF marks a form the hand cannot take. With `prune`, a form that cannot beat the best
    form found so far (or tie it, when masks are wanted) may be left INF: that is all
    shanten and useful tiles need.
    """
    for f in range(N_FORMS):
        dist[f] = INF
        masks[f] = 0
    ge1, ge2, odd, eq4 = presence_bits(counts)
    if n_melds == 0 and not with_masks:
        # Hot path: each group's rank once, shared by the regular form and the knitted one.
        rank0 = group_rank(table, counts, 0)
        rank1 = group_rank(table, counts, 1)
        rank2 = group_rank(table, counts, 2)
        honor_rank = group_rank(table, counts, 3)
        best = _regular_classes(table, distance_class(table, 0, rank0), distance_class(table, 1, rank1),
                                distance_class(table, 2, rank2), distance_class(table, 3, honor_rank), 4)
        dist[REGULAR] = best
        dist[SEVEN_PAIRS] = seven_pairs(ge2, odd, eq4)[0]
        dist[THIRTEEN_ORPHANS] = thirteen_orphans(ge1, ge2)[0]
        dist[HONORS_KNITTED] = honors_knitted(ge1, False)[0]
        for f in range(1, 4):
            best = min(best, dist[f])
        dist[KNITTED_STRAIGHT] = knitted_straight_fast(table, rank0, rank1, rank2, honor_rank, ge1,
                                                       best - 1 if prune else INF, False)[0]
        return
    check_bits = meld_check_bits(meld_counts)
    if with_masks or check_bits:
        d, m = regular(table, counts, meld_counts, check_bits, 4 - n_melds, with_masks, work)
    else:
        d, m = regular_distance(table, counts, 4 - n_melds), np.int64(0)
    dist[REGULAR] = d
    masks[REGULAR] = m
    if n_melds <= 1:
        ranks = (group_rank(table, counts, 0), group_rank(table, counts, 1),
                 group_rank(table, counts, 2), group_rank(table, counts, 3))
        other_forms(table, counts, meld_counts, n_melds, ranks, ge1, ge2, odd, eq4, prune, INF, 0, with_masks, dist,
                    masks, work)


@njit(_nrt=False)
def other_forms(table, counts, meld_counts, n_melds, ranks, ge1, ge2, odd, eq4, prune, cap, knitted_floor, with_masks,
                dist, masks, work):
    """Every form but the regular one (already in dist[REGULAR]) into dist / masks.
    `ranks` holds the four groups' ranks and the presence bits come from presence_bits.
    `knitted_floor`: a known lower bound of the knitted straight's deficiency (0 if none);
    with `prune`, the form is skipped when the bound already exceeds the best form or `cap`
    (a deficiency beyond which the caller wants nothing; INF for all)."""
    if n_melds > 1:
        return
    best = min(dist[REGULAR], cap)
    if n_melds == 0:
        d, m = seven_pairs(ge2, odd, eq4)
        dist[SEVEN_PAIRS] = d
        masks[SEVEN_PAIRS] = m
        best = min(best, d)
        d, m = thirteen_orphans(ge1, ge2)
        dist[THIRTEEN_ORPHANS] = d
        masks[THIRTEEN_ORPHANS] = m
        best = min(best, d)
        d, m = honors_knitted(ge1, with_masks)
        dist[HONORS_KNITTED] = d
        masks[HONORS_KNITTED] = m
        best = min(best, d)
        if prune and knitted_floor > best:
            return
        d, m = knitted_straight_fast(table, ranks[0], ranks[1], ranks[2], ranks[3], ge1, best if prune else INF,
                                     with_masks)
    elif prune and knitted_floor > best:
        return
    else:
        d, m = knitted_straight(table, counts, meld_counts, n_melds, ge1, best if prune else INF, with_masks, work)
    dist[KNITTED_STRAIGHT] = d
    masks[KNITTED_STRAIGHT] = m


@njit(inline="always")
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
