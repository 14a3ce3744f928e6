"""The regular form's discard sweep: every discard of a 3n+2 hand, each at the cost of a
lookup and a merge. A discard changes one group, so prepare_sweep keeps, for each group, the
merge of the other three (regular_after_change then merges one row). The slots are the
scratch's (scratch). A look-ahead's draws and discards read the table's move masks instead
(moves)."""

import numpy as np

from ..jit import njit
from .group_dp import INF, N_ENTRIES
from .lookup_table import group_rank
from .regular import load_ranked_group, merge_slot
from .scratch import ACC, ACC_MASK, CHANGED, DIST, LEAVE_OUT, MASK, PAIR_SLOT


@njit(nrt=False)
def prepare_sweep(table, counts, locked, check_bits, n_sets, ranks, work):
    """Load the hand's four groups (slots 0-3, their ranks into `ranks`) and, for each group,
    the merge of the other three (slots 14-17): then regular_after_change costs one lookup
    and one final merge. Groups 0 and 1 merged, and 2 and 3 (the leave-two-out slots of
    the other pair), each serve two of the four: six merges instead of eight."""
    for g in range(4):
        ranks[g] = group_rank(table, counts, g)
        load_ranked_group(table, counts, locked, check_bits, g, ranks[g], g, n_sets, True, work)
    first_two, last_two = PAIR_SLOT[2, 3], PAIR_SLOT[0, 1]
    _merge_two(work, 0, 1, first_two, n_sets)
    _merge_two(work, 2, 3, last_two, n_sets)
    _merge_two(work, last_two, 1, LEAVE_OUT, n_sets)
    _merge_two(work, last_two, 0, LEAVE_OUT + 1, n_sets)
    _merge_two(work, first_two, 3, LEAVE_OUT + 2, n_sets)
    _merge_two(work, first_two, 2, LEAVE_OUT + 3, n_sets)


@njit(nrt=False)
def regular_after_change(table, counts, locked, check_bits, g, rank, n_sets, with_masks, work):
    """(deficiency, useful mask) of the regular form of `counts`, which differs from the hand
    given to prepare_sweep only in group g (whose new rank is `rank`). Without masks, only
    the changed group's distances are read (from the small table that stays in cache)."""
    return _regular_with_row(table, counts, locked, check_bits, g, rank, CHANGED, n_sets, with_masks, work)


@njit
def _regular_with_row(table, counts, locked, check_bits, g, rank, slot, n_sets, with_masks, work):
    """regular_after_change, with group g's row kept in `slot`."""
    load_ranked_group(table, counts, locked, check_bits, g, rank, slot, n_sets, with_masks, work)
    return _merge_changed(work, LEAVE_OUT + g, slot, n_sets, with_masks)


@njit
def _merge_changed(work, rest, changed, n_sets, with_masks):
    """(deficiency, useful mask) of the changed group (in slot `changed`) with the merge of
    the other three in slot `rest`: the one entry with one pair and n_sets sets."""
    best = INF
    mask = np.int64(0)
    for pa in range(2):
        for ma in range(n_sets + 1):
            in_rest = rest * N_ENTRIES + pa * 5 + ma  # the split: pa pairs and ma sets in the rest
            in_changed = changed * N_ENTRIES + (1 - pa) * 5 + n_sets - ma
            v = work[DIST + in_rest] + work[DIST + in_changed]
            if not with_masks:
                best = min(best, v)
                continue
            m = work[MASK + in_rest] | work[MASK + in_changed]
            if v < best:
                best = v
                mask = m
            elif v == best:
                mask |= m
    if best >= INF:
        return INF, np.int64(0)
    return best, mask


@njit
def _merge_two(work, a, b, out, n_sets):
    """Slot out = the merge of slots a and b (with masks)."""
    for k in range(N_ENTRIES):
        work[ACC + k] = work[DIST + a * N_ENTRIES + k]
        work[ACC_MASK + k] = work[MASK + a * N_ENTRIES + k]
    merge_slot(work, b, n_sets, True)
    for k in range(N_ENTRIES):
        work[DIST + out * N_ENTRIES + k] = work[ACC + k]
        work[MASK + out * N_ENTRIES + k] = work[ACC_MASK + k]
