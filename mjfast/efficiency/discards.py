"""Discard analysis kernels: every discard of a 3n+2 hand, and the step after it.

Acceptance counts *unseen* copies. For a discard, the discarded tile counts as seen (it is
on the table and can no longer be drawn), so `unseen` is taken from the 14-tile hand.
"""

import numpy as np

from ..runtime.decorators import njit
from ..runtime.intrinsics import lowest_bit, popcount
from .all_forms import REGULAR, best_of, other_forms
from .group_dp import INF
from .lookup_table import group_rank
from .regular import meld_check_bits
from .regular_sweep import (
    drawn_presence_bits,
    drawn_ranks,
    prepare_draws,
    prepare_sweep,
    prepared_discards,
    regular_after_change,
    regular_after_draw,
    regular_candidates,
    regular_draw,
)
from .scratch import N_FORMS
from .special_forms import (
    honors_knitted_distance,
    knitted_straight,
    knitted_straight_fast,
    most_knitted,
    presence_bits,
    presence_bits_after,
    seven_pairs,
    thirteen_orphans,
)


@njit(nrt=False)
def masked_sum(mask, unseen):
    """Sum of unseen[t] over the tiles t in `mask`."""
    total = 0
    for t in range(34):  # without branches: the bits are random, a branch mispredicts
        total += unseen[t] & -((mask >> t) & 1)
    return total


@njit
def unseen_planes(unseen):
    """The unseen counts (0-4) as three tile masks, bit i of each count in plane i: then
    an acceptance is three popcounts (see accepted), where masked_sum reads all 34."""
    p0 = np.int64(0)
    p1 = np.int64(0)
    p2 = np.int64(0)
    for t in range(34):
        c = np.int64(unseen[t])
        p0 |= (c & 1) << t
        p1 |= ((c >> 1) & 1) << t
        p2 |= ((c >> 2) & 1) << t
    return p0, p1, p2


@njit
def planes_with(p0, p1, p2, t, count):
    """unseen_planes after tile t's unseen count changed to `count`."""
    clear = ~(np.int64(1) << t)
    return ((p0 & clear) | (np.int64(count & 1) << t), (p1 & clear) | (np.int64((count >> 1) & 1) << t),
            (p2 & clear) | (np.int64((count >> 2) & 1) << t))


@njit(cache=True)
def accepted(mask, p0, p1, p2):
    """masked_sum(mask, unseen) from unseen's planes."""
    return popcount(mask & p0) + 2 * popcount(mask & p1) + 4 * popcount(mask & p2)


@njit(shared=True)  # discard_options, the fan-aware pass and the tests call it: emitted once
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
            other_forms(table, hand, meld_counts, n_melds, ranks, (b1, b2, b3, b4), True, (INF, floor), True, dist,
                        masks, work)
        out_dist[t], out_mask[t] = best_of(dist, masks)
        ranks[g] = kept
        hand[t] += 1


@njit(shared=True, nrt=False)
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


@njit
def _other_forms_floor(n_melds, ge1, ge2, odd, eq4, knitted):
    """(a lower bound of every form but the regular one, a lower bound of the knitted
    straight) from the presence bits and a bound `knitted` of the knitted straight already
    known; INF with 2+ melds, where no other form is possible. The knitted straight lacks
    at least its missing knitted tiles, and honours-and-knitted lacks 14 less the honours
    and the most knitted tiles held: one count serves both."""
    if n_melds > 1:
        return INF, INF
    most = most_knitted(ge1)
    knitted = max(knitted, 9 - most)
    if n_melds == 1:
        return knitted, knitted
    return min(seven_pairs(ge2, odd, eq4)[0], thirteen_orphans(ge1, ge2)[0], honors_knitted_distance(ge1, most),
               knitted), knitted


@njit
def kinds_within(dist, bound):
    """The tile mask of the kinds t with dist[t] <= bound."""
    kinds = np.int64(0)
    for t in range(34):
        if dist[t] <= bound:
            kinds |= np.int64(1) << t
    return kinds


@njit(nrt=False)
def prepare_look_ahead(table, hand13, meld_counts, n_melds, check_bits, target, discards, again, hand_knitted,
                       ranks, work):
    """Prepare draw sweeps of the 3n+1 `hand13` at `target` for the discards in the tile
    mask `discards` (forms.prepare_draws, which explains `again`) and return the knitted
    straight's floor to give them. `hand_knitted`: a lower bound of the form's deficiency already known (0 if none);
    where it is out of reach, the hand's own is not worked out (which reads the table at
    random places)."""
    prepare_draws(table, hand13, meld_counts, check_bits, 4 - n_melds, target, discards, again, ranks, work)
    if hand_knitted > target + 1:
        return INF
    # The draw brings the form at most one closer: target + 1 is as far as it matters.
    return knitted_floor(table, hand13, meld_counts, n_melds, ranks, presence_bits(hand13)[0], target + 1, work) - 1


@njit(shared=True, nrt=False)
def draw_sweep(table, hand, meld_counts, n_melds, check_bits, draw, out_dist, out_mask, work, dist, masks, ranks):
    """`draw` = (u, target, floor, skip): the kinds k held in `hand` (the 3n+1 hand given to
    forms.prepare_draws plus the drawn tile u), and prepared, whose discard leaves a
    deficiency over all forms of at most `target`, as a tile mask; for each of them, the
    deficiency and useful mask into out_dist[k] / out_mask[k] (other entries are left
    alone). `floor`: a lower bound of the knitted straight's deficiency after the draw (see
    prepare_look_ahead). Kinds in the tile mask `skip` are left out: the caller knows them
    already. `hand` is restored on return; dist, masks and ranks are its scratch.

    A look-ahead asks this for every useful draw and wants only the discards that keep the
    draw's progress: the regular form's are known from the prepared hand without a look-up
    (forms.regular_candidates), the other forms' are bounded from bit masks, and only those
    within `target` get the exact merge with masks.
    """
    u, target, floor, skip = draw
    n_sets = 4 - n_melds
    ge1, ge2, odd, eq4 = drawn_presence_bits(work, u, hand[u])
    wanted = ge1 & prepared_discards(work) & ~skip
    candidates = regular_candidates(wanted, u, hand[u], target, work)
    # The other forms' distances after the draw bound every discard's: most draws rule
    # them out at once.
    others_floor = _other_forms_floor(n_melds, ge1, ge2, odd, eq4, floor)[0]
    todo = candidates if others_floor > target else wanted
    found = np.int64(0)
    drawn = False
    leave_out_ready = 0
    while todo:
        k = lowest_bit(todo)
        todo &= todo - 1
        in_regular = (candidates >> k) & 1
        hand[k] -= 1
        b1, b2, b3, b4 = presence_bits_after(ge1, ge2, odd, eq4, k, hand[k])
        others_bound = knitted_bound = INF
        if others_floor <= target:
            others_bound, knitted_bound = _other_forms_floor(n_melds, b1, b2, b3, b4, floor)
        if in_regular or others_bound <= target:
            for f in range(N_FORMS):
                dist[f] = INF
                masks[f] = 0
            if in_regular:
                if not drawn:  # the drawn group's row, once a discard needs it (of the hand before k)
                    hand[k] += 1
                    regular_draw(table, hand, meld_counts, check_bits, u, n_sets, work)
                    hand[k] -= 1
                    drawn = True
                dist[REGULAR], masks[REGULAR], leave_out_ready = regular_after_draw(
                    table, hand, meld_counts, check_bits, u, k, n_sets, leave_out_ready, work)
            if others_bound <= target:
                if knitted_bound <= target:  # only the knitted straight reads the ranks
                    drawn_ranks(table, hand, u, k, ranks, work)
                other_forms(table, hand, meld_counts, n_melds, ranks, (b1, b2, b3, b4), True, (target, knitted_bound),
                            True, dist, masks, work)
            d, m = best_of(dist, masks)
            if d <= target:
                found |= np.int64(1) << k
                out_dist[k] = d
                out_mask[k] = m
        hand[k] += 1
    return found


@njit(shared=True)  # the one-hand and the batch rankings call it
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
    p0, p1, p2 = unseen_planes(unseen)
    for t in range(34):
        out_acceptance[t] = accepted(out_mask[t], p0, p1, p2) if out_dist[t] < INF else 0
        out_next[t] = 0.0
        if out_dist[t] == best:
            at_best |= np.int64(1) << t
    if with_next:
        next_acceptances(table, hand, meld_counts, n_melds, unseen, at_best, out_dist, out_mask, out_next, work)


# A look-ahead's memo of the hands it reaches twice. Discarding t, drawing u and discarding
# k leaves the hand that discarding k, drawing u and discarding t leaves: when both t and k
# are looked ahead from, the second reads the first's figure (about half of all the work,
# since the discards that keep a draw's progress are mostly the other good discards).
# known[u, i, j]: discard kinds[i], draw u, discard kinds[j]: the figure (>= 0, 0 where the
# hand misses the look-ahead's target) or _UNKNOWN; rows are cleared for each u on first use.
_UNKNOWN = -1


@njit
def new_pair_memo(which):
    """(kinds, position, n, known, cleared) for the kinds of the tile mask `which`: kinds[:n]
    the kinds in order, position[t] each one's index (-1 elsewhere), known the memo and
    cleared[u] whether row u is cleared yet."""
    kinds = np.empty(34, np.int64)
    position = np.full(34, -1, np.int64)
    n = 0
    for t in range(34):
        if (which >> t) & 1:
            kinds[n] = t
            position[t] = n
            n += 1
    return kinds, position, n, np.empty((34, n, n), np.int64), np.zeros(34, np.bool_)


@njit
def recalled(known, cleared, u, i, kinds, n):
    """(the tile mask of the discards k whose figure after discarding kinds[i] and drawing u
    is known, the best of those figures, 0 if none)."""
    if not cleared[u]:
        known[u, :, :] = _UNKNOWN
        cleared[u] = True
    skip = np.int64(0)
    best = 0
    for j in range(n):
        if known[u, i, j] != _UNKNOWN:
            skip |= np.int64(1) << kinds[j]
            best = max(best, known[u, i, j])
    return skip, best


@njit
def remember_missed(known, u, i, position, missed):
    """Record figure 0 for the discards k in the tile mask `missed` (looked ahead from too)
    whose hand after discarding kinds[i] and drawing u misses the target."""
    while missed:
        k = lowest_bit(missed)
        missed &= missed - 1
        known[u, position[k], i] = 0


@njit
def interchangeable_honours(a, b, hand, meld_counts, unseen):
    """Whether kinds a and b are honours held, melded and unseen as often as each other.
    Every form treats the honours alike (none is in a run), so swapping two such honours maps
    the hand, its melds and the unseen tiles onto themselves: discarding either has the same
    figures one step later, to the last bit (see next_acceptances)."""
    return (a >= 27 and b >= 27 and hand[a] == hand[b] and meld_counts[a] == meld_counts[b]
            and unseen[a] == unseen[b])


@njit
def all_interchangeable_honours(which, hand, meld_counts, unseen):
    """Whether the kinds of the tile mask `which` are all honours interchangeable with each
    other: their next acceptances are then equal."""
    first = lowest_bit(which)
    rest = which & (which - 1)
    while rest:
        if not interchangeable_honours(first, lowest_bit(rest), hand, meld_counts, unseen):
            return False
        rest &= rest - 1
    return True


@njit
def _honour_twin(kinds, i, hand, meld_counts, unseen):
    """An earlier kind of kinds[:i] interchangeable with the honour kinds[i], or -1."""
    for j in range(i):
        if interchangeable_honours(kinds[j], kinds[i], hand, meld_counts, unseen):
            return kinds[j]
    return -1


@njit
def next_acceptances(table, hand, meld_counts, n_melds, unseen, which, dist, useful, out_next, work):
    """out_next[t], for each kind t in the tile mask `which` (held in the 3n+2 `hand`, whose
    discards have deficiencies `dist` and useful masks `useful`), the expected acceptance
    after the next useful draw and the best discard that follows (0.0 where t leaves a
    ready hand). `hand` is restored on return.

    Each useful draw u is weighted by its unseen copies; after drawing u the hand discards
    the tile that keeps the improved deficiency with the most acceptance (u's drawn copy is
    no longer unseen). Hands reached twice are worked out once (see new_pair_memo), and an
    honour interchangeable with one already looked ahead from takes its figure (_honour_twin):
    the sum of integer weights times integer acceptances is exact in float64, in any order.
    Most ties that the rankings break by this figure are between lone honours.
    """
    kinds, position, n, known, cleared = new_pair_memo(which)
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
    p0, p1, p2 = unseen_planes(unseen)
    prepared = False  # whether the scratch holds a draw sweep of this hand less some tile
    for i in range(n):
        t = kinds[i]
        out_next[t] = 0.0
        twin = _honour_twin(kinds, i, hand, meld_counts, unseen)
        if twin >= 0:
            out_next[t] = out_next[twin]
            continue
        deficiency = dist[t]
        if deficiency <= 1:
            continue
        target = deficiency - 1
        partners = np.int64(0)
        for j in range(n):
            if dist[kinds[j]] == deficiency:
                partners |= np.int64(1) << kinds[j]
        # Discarding k after drawing u reaches the target only where discarding k now is
        # within the deficiency: the hand less k is one tile from the hand less k plus u
        # less t, and adding a tile brings a hand at most one closer.
        reachable = kinds_within(dist, deficiency)
        hand[t] -= 1
        floor = prepare_look_ahead(table, hand, meld_counts, n_melds, check_bits, target, reachable, prepared,
                                   hand_knitted, ranks, work)
        prepared = True
        weight_total = 0
        weighted = 0.0
        draws = useful[t]
        while draws:
            u = lowest_bit(draws)
            draws &= draws - 1
            w = unseen[u]
            if w <= 0:
                continue
            skip, best_acc = recalled(known, cleared, u, i, kinds, n)
            hand[u] += 1
            q0, q1, q2 = planes_with(p0, p1, p2, u, w - 1)
            found = draw_sweep(table, hand, meld_counts, n_melds, check_bits, (u, target, floor, skip), level2_dist,
                               level2_mask, work, form_dist, form_masks, ranks)
            # The rest of `partners` misses the target: none of their discards keeps the draw's progress.
            remember_missed(known, u, i, position, partners & ~skip & ~found)
            while found:
                k = lowest_bit(found)
                found &= found - 1
                acc = accepted(level2_mask[k], q0, q1, q2)
                best_acc = max(best_acc, acc)
                if (partners >> k) & 1:
                    known[u, position[k], i] = acc
            hand[u] -= 1
            weight_total += w
            weighted += w * best_acc
        hand[t] += 1
        if weight_total > 0:
            out_next[t] = weighted / weight_total
