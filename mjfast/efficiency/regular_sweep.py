"""Sweeps of the regular form: every discard of a 3n+2 hand, and every draw of a 3n+1 hand
with every discard after it, each at the cost of a lookup and a merge or two.

A discard changes one group, so prepare_sweep keeps, for each group, the merge of the other
three (regular_after_change then merges one row). A draw and a discard after it change two
groups, so prepare_draws keeps every merge of two groups and of three, and the regular form
of the hand less each kind (regular_candidates reads which discards keep a draw's progress
from it without a lookup). The slots are the scratch's (scratch)."""

import numpy as np

from ..runtime.decorators import njit
from ..runtime.intrinsics import lowest_bit
from .group_dp import INF, N_ENTRIES
from .lookup_table import group_rank
from .regular import load_ranked_group, merge_slot
from .scratch import (
    ACC,
    ACC_MASK,
    CHANGED,
    DIST,
    DRAW_BITS,
    DRAW_DISCARDS,
    DRAW_KEPT,
    DRAW_RANKS,
    DRAW_SELF,
    DRAWN,
    DRAWN_LEAVE_OUT,
    GROUP_TILES,
    KEPT,
    LEAVE_OUT,
    LESS_ONE_DIST,
    LESS_ONE_MASK,
    MASK,
    PAIR_SLOT,
)
from .special_forms import presence_bits, presence_bits_after


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


@njit(shared=True, nrt=False)
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
        if not again or ranks[g] != work[DRAW_RANKS + g]:
            changed |= 1 << g
            work[DRAW_RANKS + g] = ranks[g]
            load_ranked_group(table, counts, locked, check_bits, g, ranks[g], g, n_sets, True, work)
    kept = work[DRAW_KEPT] if again else 0  # the kinds whose KEPT row is of X's group less one
    for g in range(4):
        if (changed >> g) & 1:
            kept &= ~GROUP_TILES[g]
    ge1, ge2, odd, eq4 = presence_bits(counts)
    work[DRAW_BITS] = ge1
    work[DRAW_BITS + 1] = ge2
    work[DRAW_BITS + 2] = odd
    work[DRAW_BITS + 3] = eq4
    for a in range(4):
        for b in range(a + 1, 4):
            c = 0
            while c == a or c == b:
                c += 1
            d = 6 - a - b - c
            if ((changed >> c) | (changed >> d)) & 1:
                _merge_two(work, c, d, PAIR_SLOT[a, b], n_sets)
    for g in range(4):
        other = 1 if g == 0 else 0
        if changed & ~(1 << g):
            _merge_two(work, PAIR_SLOT[g, other], other, LEAVE_OUT + g, n_sets)
    work[DRAW_SELF] = regular_after_change(table, counts, locked, check_bits, 0, ranks[0], n_sets, False, work)[0]
    work[DRAW_DISCARDS] = discards
    held = ge1 & discards
    while held:
        t = lowest_bit(held)
        held &= held - 1
        g = 3 if t >= 27 else t // 9
        if (kept >> t) & 1:
            d, m = _merge_changed(work, LEAVE_OUT + g, KEPT + t, n_sets, True)
        else:
            counts[t] -= 1
            rank = group_rank(table, counts, g)
            d, m = regular_after_change(table, counts, locked, check_bits, g, rank, n_sets, False, work)
            if d <= target + 1:  # a candidate: keep its group's row for regular_after_draw
                d, m = _regular_with_row(table, counts, locked, check_bits, g, rank, KEPT + t, n_sets, True, work)
                kept |= np.int64(1) << t
            counts[t] += 1
        work[LESS_ONE_DIST + t] = d
        work[LESS_ONE_MASK + t] = m
    work[DRAW_KEPT] = kept


@njit
def drawn_presence_bits(work, u, count):
    """presence_bits of the prepared hand X plus the drawn tile u (`count` copies of u now)."""
    return presence_bits_after(work[DRAW_BITS], work[DRAW_BITS + 1], work[DRAW_BITS + 2], work[DRAW_BITS + 3], u,
                               count)


@njit
def drawn_ranks(table, counts, u, k, ranks, work):
    """The four groups' ranks of the prepared hand plus u less k (held in `counts`) into
    `ranks`: only the groups of u and k differ from the prepared hand's."""
    for g in range(4):
        ranks[g] = work[DRAW_RANKS + g]
    gu = 3 if u >= 27 else u // 9
    gk = 3 if k >= 27 else k // 9
    ranks[gu] = group_rank(table, counts, gu)
    if gk != gu:
        ranks[gk] = group_rank(table, counts, gk)


@njit
def prepared_discards(work):
    """The tile mask of the discards prepare_draws prepared."""
    return work[DRAW_DISCARDS]


@njit
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
            reached = work[DRAW_SELF] <= target
        else:
            d = work[LESS_ONE_DIST + k]
            reached = d <= target or (d == target + 1 and (work[LESS_ONE_MASK + k] >> u) & 1)
        if reached:
            found |= np.int64(1) << k
    return found


@njit
def regular_draw(table, counts, locked, check_bits, u, n_sets, work):
    """The draw of tile u (already added to `counts`, the prepared hand plus u): its group's
    row into the drawn slot."""
    g = 3 if u >= 27 else u // 9
    load_ranked_group(table, counts, locked, check_bits, g, group_rank(table, counts, g), DRAWN, n_sets, True, work)


@njit
def regular_after_draw(table, counts, locked, check_bits, u, k, n_sets, leave_out_ready, work):
    """(deficiency, useful mask, leave_out_ready) of the regular form of the prepared hand
    plus u less k (`counts` holds it), after regular_draw. leave_out_ready: bit g once the
    merge of the groups other than g after the draw is in the scratch (0 at each draw)."""
    gu = 3 if u >= 27 else u // 9
    gk = 3 if k >= 27 else k // 9
    if gk == gu:
        rest = LEAVE_OUT + gu  # the draw's group is the one that changes: the rest as prepared
        load_ranked_group(table, counts, locked, check_bits, gk, group_rank(table, counts, gk), CHANGED, n_sets, True,
                           work)
        changed = CHANGED
    else:  # k's group as prepare_draws kept it, the rest merged with the drawn group
        rest = DRAWN_LEAVE_OUT + gk
        if not (leave_out_ready >> gk) & 1:
            _merge_two(work, PAIR_SLOT[gk, gu], DRAWN, rest, n_sets)
            leave_out_ready |= 1 << gk
        changed = KEPT + k
    d, m = _merge_changed(work, rest, changed, n_sets, True)
    return d, m, leave_out_ready
