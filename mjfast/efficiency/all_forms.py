"""Every form at once: the deficiency (and useful mask) of each MCR form a hand may take, and
the best of them. Forms are numbered REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED,
KNITTED_STRAIGHT (FORM_NAMES); the special forms need a concealed hand, and the knitted
straight allows at most one fixed meld."""

import numpy as np

from ..runtime.decorators import njit
from .group_dp import INF
from .lookup_table import distance_class, group_rank
from .regular import meld_check_bits, regular, regular_distance, regular_from_classes
from .scratch import N_FORMS
from .special_forms import (
    honors_knitted,
    knitted_straight,
    knitted_straight_fast,
    presence_bits,
    seven_pairs,
    thirteen_orphans,
)

REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED, KNITTED_STRAIGHT = 0, 1, 2, 3, 4
FORM_NAMES = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")


@njit(shared=True, nrt=False)
def all_forms(table, counts, meld_counts, n_melds, prune, with_masks, dist, masks, work):
    """form_distances for the one-hand calls (shanten, the forms, useful tiles), emitted once
    (a shared core) instead of in each of them. The batch loops call form_distances itself,
    linked into each: their constant flags then fold into it (a row 5% faster)."""
    form_distances(table, counts, meld_counts, n_melds, prune, with_masks, dist, masks, work)


@njit(nrt=False)
def form_distances(table, counts, meld_counts, n_melds, prune, with_masks, dist, masks, work):
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
        best = regular_from_classes(table, distance_class(table, 0, rank0), distance_class(table, 1, rank1),
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
        other_forms(table, counts, meld_counts, n_melds, ranks, (ge1, ge2, odd, eq4), prune, (INF, 0), with_masks,
                    dist, masks, work)


@njit(nrt=False)
def other_forms(table, counts, meld_counts, n_melds, ranks, bits, prune, bounds, with_masks, dist, masks, work):
    """Every form but the regular one (already in dist[REGULAR]) into dist / masks.
    `ranks` holds the four groups' ranks and `bits` the presence bits (presence_bits: ge1,
    ge2, odd, eq4). `bounds` is (cap, knitted_floor): knitted_floor a known lower bound of
    the knitted straight's deficiency (0 if none); with `prune`, the form is skipped when
    that bound already exceeds the best form or cap (a deficiency beyond which the caller
    wants nothing; INF for all)."""
    ge1, ge2, odd, eq4 = bits
    cap, knitted_floor = bounds
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


@njit
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
