"""Discard analysis kernels: every discard of a 3n+2 hand, and the step after it.

Acceptance counts *unseen* copies. For a discard, the discarded tile counts as seen (it is
on the table and can no longer be drawn), so `unseen` is taken from the 14-tile hand.
"""

import numpy as np
from numba import njit

from .groups import INF
from .lookup import group_rank
from .forms import (
    N_FORMS,
    REGULAR,
    best_of,
    honors_knitted,
    knitted_straight,
    knitted_straight_fast,
    meld_check_bits,
    other_forms,
    prepare_draws,
    prepare_sweep,
    presence_bits,
    presence_bits_after,
    regular_after_change,
    regular_after_draw,
    regular_candidates,
    regular_draw,
    seven_pairs,
    thirteen_orphans,
)

@njit(cache=True, _nrt=False)
def masked_sum(mask, unseen):
    """Sum of unseen[t] over the tiles t in `mask`."""
    total = 0
    for t in range(34):  # without branches: the bits are random, a branch mispredicts
        total += unseen[t] & -((mask >> t) & 1)
    return total


@njit(cache=True)
def discard_sweep(table, hand, meld_counts, n_melds, out_dist, out_mask, work, dist, masks):
    """For every kind t held in the 3n+2 `hand`: the deficiency and useful mask over all forms
    after discarding t (out_dist[t] = INF for kinds not held). `hand` is restored on return.

    The regular form reuses the merge of the three groups a discard leaves alone, so each
    discard costs one group lookup and one final merge.
    """
    check_bits = meld_check_bits(meld_counts)
    n_sets = 4 - n_melds
    ranks = np.empty(4, np.int64)
    prepare_sweep(table, hand, meld_counts, check_bits, n_sets, ranks, work)
    ge1, ge2, odd, eq4 = presence_bits(hand)
    # A discard never brings a form closer: the knitted straight's deficiency of the whole
    # hand bounds every discard's, and usually rules the form out for all of them at once.
    floor = knitted_floor(table, hand, meld_counts, n_melds, ranks, ge1, INF, work)
    for t in range(34):
        out_dist[t] = INF
        out_mask[t] = 0
        if hand[t] == 0:
            continue
        hand[t] -= 1
        g = 3 if t >= 27 else t // 9
        kept = ranks[g]
        ranks[g] = group_rank(table, hand, g)
        for f in range(N_FORMS):
            dist[f] = INF
            masks[f] = 0
        d, m = regular_after_change(table, hand, meld_counts, check_bits, g, ranks[g], n_sets, True, work)
        dist[REGULAR] = d
        masks[REGULAR] = m
        if n_melds <= 1:
            b1, b2, b3, b4 = presence_bits_after(ge1, ge2, odd, eq4, t, hand[t])
            other_forms(table, hand, meld_counts, n_melds, ranks, b1, b2, b3, b4, True, floor, True, dist, masks, work)
        out_dist[t], out_mask[t] = best_of(dist, masks)
        ranks[g] = kept
        hand[t] += 1


@njit(cache=True, _nrt=False)
def knitted_floor(table, hand, meld_counts, n_melds, ranks, ge1, bound, work):
    """The knitted straight's deficiency of `hand` where it is at most `bound`, and some
    figure above `bound` elsewhere (0 with 2+ melds, where other_forms never asks): a lower
    bound for the hand after any discard, as far as `bound` reaches. A low `bound` costs
    only bit operations for most hands (see knitted_straight_fast)."""
    if n_melds == 0:
        return knitted_straight_fast(table, ranks[0], ranks[1], ranks[2], ranks[3], ge1, bound, False)[0]
    if n_melds == 1:
        return knitted_straight(table, hand, meld_counts, n_melds, ge1, bound, False, work)[0]
    return 0


@njit(cache=True, inline="always")
def _other_forms_floor(n_melds, ge1, ge2, odd, eq4, knitted):
    """A lower bound of every form but the regular one, from the presence bits and a bound
    `knitted` of the knitted straight (INF with 2+ melds: no other form is possible)."""
    if n_melds == 0:
        return min(seven_pairs(ge2, odd, eq4)[0], thirteen_orphans(ge1, ge2)[0], honors_knitted(ge1, False)[0], knitted)
    if n_melds == 1:
        return knitted
    return INF


@njit(cache=True, _nrt=False)
def prepare_look_ahead(table, hand13, meld_counts, n_melds, check_bits, target, hand_knitted, ranks, work):
    """Prepare draw sweeps of the 3n+1 `hand13` at `target` (forms.prepare_draws) and return
    the knitted straight's floor to give them. `hand_knitted`: a lower bound of the form's
    deficiency already known (0 if none); where it is out of reach, the hand's own is not
    worked out (which reads the table at random places)."""
    prepare_draws(table, hand13, meld_counts, check_bits, 4 - n_melds, target, ranks, work)
    if hand_knitted > target + 1:
        return INF
    # The draw brings the form at most one closer: target + 1 is as far as it matters.
    return knitted_floor(table, hand13, meld_counts, n_melds, ranks, presence_bits(hand13)[0], target + 1, work) - 1


@njit(cache=True, _nrt=False)
def draw_sweep(table, hand, u, meld_counts, n_melds, check_bits, target, floor, skip, out_dist, out_mask, work, dist,
               masks, ranks):
    """For each kind k held in `hand` (the 3n+1 hand given to forms.prepare_draws plus the
    drawn tile u): the deficiency and useful mask over all forms of `hand` less k, where the
    deficiency is at most `target` (out_dist[k] = INF elsewhere, and for kinds not held).
    `floor`: a lower bound of the knitted straight's deficiency after the draw (see
    knitted_floor; the prepared hand's less one). Kinds in the tile mask `skip` are left
    out (INF): the caller knows them already. `hand` is restored on return.

    A look-ahead asks this for every useful draw and wants only the discards that keep the
    draw's progress: the regular form's are known from the prepared hand without a look-up
    (forms.regular_candidates), the other forms' are bounded from bit masks, and only those
    within `target` get the exact merge with masks.
    """
    n_sets = 4 - n_melds
    candidates = regular_candidates(hand, u, target, work) & ~skip
    ge1, ge2, odd, eq4 = presence_bits(hand)
    # The other forms' distances after the draw bound every discard's: most draws rule
    # them out at once.
    others_floor = _other_forms_floor(n_melds, ge1, ge2, odd, eq4, floor)
    drawn = False
    leave_out_ready = 0
    for k in range(34):
        out_dist[k] = INF
        out_mask[k] = 0
        if hand[k] == 0 or (skip >> k) & 1:
            continue
        in_regular = (candidates >> k) & 1
        if not in_regular and others_floor > target:
            continue
        hand[k] -= 1
        b1, b2, b3, b4 = presence_bits_after(ge1, ge2, odd, eq4, k, hand[k])
        others_bound = INF
        if others_floor <= target:
            others_bound = _other_forms_floor(n_melds, b1, b2, b3, b4, floor)
        if in_regular or others_bound <= target:
            for f in range(N_FORMS):
                dist[f] = INF
                masks[f] = 0
            if in_regular:
                if not drawn:  # the drawn group's row, once a discard needs it (of the hand before k)
                    hand[k] += 1
                    regular_draw(table, hand, meld_counts, check_bits, u, work)
                    hand[k] -= 1
                    drawn = True
                dist[REGULAR], masks[REGULAR], leave_out_ready = regular_after_draw(
                    table, hand, meld_counts, check_bits, u, k, n_sets, leave_out_ready, work)
            if others_bound <= target:
                for g in range(4):
                    ranks[g] = group_rank(table, hand, g)
                other_forms(table, hand, meld_counts, n_melds, ranks, b1, b2, b3, b4, True, floor, True, dist, masks,
                            work)
            d, m = best_of(dist, masks)
            if d <= target:
                out_dist[k] = d
                out_mask[k] = m
        hand[k] += 1


@njit(cache=True)
def discard_options(table, counts, meld_counts, n_melds, unseen, with_next,
                    out_dist, out_mask, out_acceptance, out_next, work):
    """For each tile kind t held in a 3n+2 hand: deficiency, useful mask and acceptance of
    the hand after discarding t (out_dist[t] = INF for kinds not held), and with `with_next`
    the expected acceptance one step later (see next_acceptances) for the discards that keep
    the best shanten (it only ranks those; the others get 0.0). `work`: a scratch from
    forms.new_scratch."""
    dist = np.empty(N_FORMS, np.int64)
    masks = np.empty(N_FORMS, np.int64)
    hand = counts.astype(np.int64)
    discard_sweep(table, hand, meld_counts, n_melds, out_dist, out_mask, work, dist, masks)
    best = INF
    for t in range(34):
        best = min(best, out_dist[t])
    at_best = np.int64(0)
    for t in range(34):
        out_acceptance[t] = masked_sum(out_mask[t], unseen) if out_dist[t] < INF else 0
        out_next[t] = 0.0
        if out_dist[t] == best:
            at_best |= np.int64(1) << t
    if with_next:
        next_acceptances(table, hand, meld_counts, n_melds, unseen, at_best, out_dist, out_mask, out_next, work)


_UNKNOWN = -1
_OFF_TARGET = -2


@njit(cache=True)
def next_acceptances(table, hand, meld_counts, n_melds, unseen, which, dist, useful, out_next, work):
    """out_next[t], for each kind t in the tile mask `which` (held in the 3n+2 `hand`, whose
    discards have deficiencies `dist` and useful masks `useful`), the expected acceptance
    after the next useful draw and the best discard that follows (0.0 where t leaves a
    ready hand). `hand` is restored on return.

    Each useful draw u is weighted by its unseen copies; after drawing u the hand discards
    the tile that keeps the improved deficiency with the most acceptance (u's drawn copy is
    no longer unseen).

    Discarding t, drawing u and discarding k leaves the hand that discarding k, drawing u
    and discarding t leaves: when both are in `which` at the same deficiency, the second
    reads the first's result (about half of all the work, since the discards that keep a
    draw's progress are mostly the other good discards).
    """
    kinds = np.empty(34, np.int64)  # the kinds of `which` in order, and each one's position
    position = np.full(34, -1, np.int64)
    n = 0
    for t in range(34):
        if (which >> t) & 1:
            kinds[n] = t
            position[t] = n
            n += 1
    # known[u, i, j]: discard kinds[i], draw u, discard kinds[j]: its acceptance at the
    # target deficiency, or _OFF_TARGET; rows are cleared for each u on first use.
    known = np.empty((34, n, n), np.int64)
    cleared = np.int64(0)
    check_bits = meld_check_bits(meld_counts)
    ranks = np.empty(4, np.int64)
    for g in range(4):
        ranks[g] = group_rank(table, hand, g)
    # The knitted straight of the whole hand bounds every discard's.
    hand_knitted = knitted_floor(table, hand, meld_counts, n_melds, ranks, presence_bits(hand)[0], INF, work)
    form_dist = np.empty(N_FORMS, np.int64)
    form_masks = np.empty(N_FORMS, np.int64)
    level2_dist = np.empty(34, np.int64)
    level2_mask = np.empty(34, np.int64)
    for i in range(n):
        t = kinds[i]
        out_next[t] = 0.0
        deficiency = dist[t]
        if deficiency <= 1:
            continue
        target = deficiency - 1
        partners = np.int64(0)
        for j in range(n):
            if dist[kinds[j]] == deficiency:
                partners |= np.int64(1) << kinds[j]
        hand[t] -= 1
        floor = prepare_look_ahead(table, hand, meld_counts, n_melds, check_bits, target, hand_knitted, ranks, work)
        weight_total = 0
        weighted = 0.0
        for u in range(34):
            if not (useful[t] >> u) & 1 or unseen[u] <= 0:
                continue
            if not (cleared >> u) & 1:
                known[u, :, :] = _UNKNOWN
                cleared |= np.int64(1) << u
            skip = np.int64(0)
            best_acc = 0
            for j in range(n):
                if known[u, i, j] != _UNKNOWN:
                    skip |= np.int64(1) << kinds[j]
                    best_acc = max(best_acc, known[u, i, j])
            w = unseen[u]
            hand[u] += 1
            unseen[u] -= 1
            draw_sweep(table, hand, u, meld_counts, n_melds, check_bits, target, floor, skip, level2_dist, level2_mask,
                       work, form_dist, form_masks, ranks)
            for k in range(34):
                acc = _OFF_TARGET
                if level2_dist[k] == target:
                    acc = masked_sum(level2_mask[k], unseen)
                    best_acc = max(best_acc, acc)
                if (partners >> k) & 1 and not (skip >> k) & 1:
                    known[u, position[k], i] = acc
            unseen[u] += 1
            hand[u] -= 1
            weight_total += w
            weighted += w * best_acc
        hand[t] += 1
        if weight_total > 0:
            out_next[t] = weighted / weight_total
