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
    all_forms,
    best_of,
    knitted_straight,
    knitted_straight_fast,
    meld_check_bits,
    other_forms,
    prepare_sweep,
    presence_bits,
    presence_bits_after,
    regular_after_change,
)

@njit(cache=True)
def masked_sum(mask, unseen):
    """Sum of unseen[t] over the tiles t in `mask`."""
    total = 0
    for t in range(34):  # without branches: the bits are random, a branch mispredicts
        total += unseen[t] & -((mask >> t) & 1)
    return total


@njit(cache=True)
def discard_sweep(table, hand, meld_counts, n_melds, masks_at_most, out_dist, out_mask, work, dist, masks):
    """For every kind t held in the 3n+2 `hand`: the deficiency and useful mask over all forms
    after discarding t (out_dist[t] = INF for kinds not held). `hand` is restored on return.
    The masks are worked out only where the deficiency is at most `masks_at_most` (INF: all;
    0 elsewhere): a look-ahead wants only the discards that keep its progress.

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
    knitted_floor = 0
    if n_melds == 0:
        knitted_floor = knitted_straight_fast(table, ranks[0], ranks[1], ranks[2], ranks[3], ge1, INF, False)[0]
    elif n_melds == 1:
        knitted_floor = knitted_straight(table, hand, meld_counts, n_melds, ge1, INF, False, work)[0]
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
        d, m = INF, np.int64(0)
        if masks_at_most < INF:  # the distance first, from the table that stays in cache
            d = regular_after_change(table, hand, meld_counts, check_bits, g, ranks[g], n_sets, False, work)[0]
        if d <= masks_at_most:
            d, m = regular_after_change(table, hand, meld_counts, check_bits, g, ranks[g], n_sets, True, work)
        dist[REGULAR] = d
        masks[REGULAR] = m
        if n_melds <= 1:
            b1, b2, b3, b4 = presence_bits_after(ge1, ge2, odd, eq4, t, hand[t])
            other_forms(table, hand, meld_counts, n_melds, ranks, b1, b2, b3, b4, True, knitted_floor, True, dist, masks,
                        work)
        out_dist[t], out_mask[t] = best_of(dist, masks)
        ranks[g] = kept
        hand[t] += 1


@njit(cache=True)
def discard_options(table, counts, meld_counts, n_melds, unseen, with_next,
                    out_dist, out_mask, out_acceptance, out_next, work):
    """For each tile kind t held in a 3n+2 hand: deficiency, useful mask and acceptance of
    the hand after discarding t (out_dist[t] = INF for kinds not held), and with `with_next`
    the expected acceptance one step later (see next_acceptance) for the discards that keep
    the best shanten (it only ranks those; the others get 0.0). `work`: a scratch from
    forms.new_scratch."""
    dist = np.empty(N_FORMS, np.int64)
    masks = np.empty(N_FORMS, np.int64)
    hand = counts.astype(np.int64)
    discard_sweep(table, hand, meld_counts, n_melds, INF, out_dist, out_mask, work, dist, masks)
    level2_dist = np.empty(34, np.int64)
    level2_mask = np.empty(34, np.int64)
    best = INF
    for t in range(34):
        best = min(best, out_dist[t])
    for t in range(34):
        out_acceptance[t] = masked_sum(out_mask[t], unseen) if out_dist[t] < INF else 0
        out_next[t] = 0.0
        if with_next and out_dist[t] == best and best > 1:
            hand[t] -= 1
            out_next[t] = next_acceptance(table, hand, meld_counts, n_melds, unseen, out_dist[t],
                                          out_mask[t], work, dist, masks, level2_dist, level2_mask)
            hand[t] += 1


@njit(cache=True)
def next_acceptance(table, hand13, meld_counts, n_melds, unseen, deficiency, useful,
                    work, dist, masks, level2_dist, level2_mask):
    """Expected acceptance after the next useful draw and the best discard that follows.

    Each useful draw u is weighted by its unseen copies; after drawing u the hand discards
    the tile that keeps the improved deficiency with the most acceptance (u's drawn copy is
    no longer unseen).
    """
    weight_total = 0
    weighted = 0.0
    for u in range(34):
        if not (useful >> u) & 1 or unseen[u] <= 0:
            continue
        w = unseen[u]
        hand13[u] += 1
        unseen[u] -= 1
        discard_sweep(table, hand13, meld_counts, n_melds, deficiency - 1, level2_dist, level2_mask, work, dist,
                      masks)
        best_acc = 0
        for k in range(34):
            if level2_dist[k] == deficiency - 1:
                best_acc = max(best_acc, masked_sum(level2_mask[k], unseen))
        unseen[u] += 1
        hand13[u] -= 1
        weight_total += w
        weighted += w * best_acc
    if weight_total == 0:
        return 0.0
    return weighted / weight_total
