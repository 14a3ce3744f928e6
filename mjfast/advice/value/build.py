"""Building the value graph breadth first (docs/value-engine.md), each hand's moves read from
the table's rows (efficiency.moves).

Nodes are 3n+1 hands ("13-tile hands"), each with its depth (the fewest draws that reach it),
deficiency (shanten + 1) and useful mask; a draw u makes a 3n+2 hand ("14-tile hand"), whose
children are the discards the model keeps. A node at depth d is kept when its shanten + d is
within the budget; a node there already ("at the edge") only makes the 14-tile hands of its
useful draws, and a hand made by a node with room takes the discards its depth allows.

What a hand's moves cost here: its deficiency and useful draws come from its four groups'
rows; a draw changes one group, so a 14-tile hand's least deficiency is the node's less one
where the draw is useful, and its discards that keep it (where the budget asks for them: a
draw that is useful to a node with room keeps every discard) are the union of the rows'
keeps over the splits that reach it. Nothing is probed. A new node's own moves reuse the
rows of the groups its parent's draw and discard left alone.
"""

from typing import NamedTuple

import numpy as np

from ...efficiency.moves import Groups, kept_after_draw, load_groups, moves_after, new_groups
from ...efficiency.regular import meld_check_bits
from ...efficiency.status import OK
from ...runtime.decorators import njit
from ...runtime.intrinsics import atomic_load, lowest_bit, prefetch
from ..win_scoring import ScoreWork, new_score_work
from .graph import (
    CACHED_SPAN,
    FULL,
    MAX_DEPTH,
    N13,
    N14,
    N_CHILDREN,
    N_EDGES,
    SHORT,
    SPAN13,
    SPAN14,
    STOPPED,
    add_child,
    make_room,
    new_graph,
    new_node,
    short_of_room,
    take_row,
)
from .pricing import ready_figures, unseen_of
from .slots import bits_of, find_slot, hand_key, key_with, key_without, mark_made, maybe_made, put_slot, slot_of


class Room(NamedTuple):
    """A build's working arrays: the hand being expanded, its unseen copies, each draw's
    self-drawn win score (as it is and as played open), the melds' check bits, the node's
    groups and their moves (efficiency.moves.Groups), the draws' 14-tile keys and whether to
    look them up, the fan scorer's work."""

    hand: np.ndarray
    unseen: np.ndarray
    win_score: np.ndarray
    win_score_open: np.ndarray
    check_bits: np.ndarray
    groups: Groups
    draw_keys: np.ndarray
    scoring: ScoreWork
    work: np.ndarray


@njit(nrt=True)
def new_room(meld_counts, work):
    check = np.empty(1, np.int64)
    check[0] = meld_check_bits(meld_counts)
    return Room(np.empty(34, np.int64), np.empty(34, np.int64), np.zeros(34, np.float64), np.zeros(34, np.float64),
                check, new_groups(), np.empty((34, 3), np.int64), new_score_work(work), work)


@njit(nrt=True)  # only the entry kernel calls it: linked into its library, not compiled on its own
def build_graph(roots, query, scope, capacity, stop, work):
    """The graph of the query from the Roots, within scope.budget. Returns (status, Graph):
    FULL when it needs more than `capacity` nodes (the caller retries with more), STOPPED as
    soon as stop[0] is nonzero. A depth at a time: first the nodes with room in the budget,
    whose 14-tile hands take the discards of that depth, then those at its edge, which make
    only their useful draws'."""
    graph = new_graph(capacity)
    if roots.n > capacity:
        return FULL, graph
    for r in range(roots.n):
        k0, k1 = hand_key(roots.hands[r])
        _, s = find_slot(graph.slots13, graph.sizes[SPAN13], k0, k1)
        new_node(graph, s, k0, k1, roots.hands[r], 0, roots.dist[r], roots.mask[r])
    room = new_room(query.position.meld_counts, work)
    level = depth = 0
    while level < graph.sizes[N13]:
        graph.first13[depth] = level
        graph.first14[depth] = graph.sizes[N14]
        depth += 1
        level_end = graph.sizes[N13]
        for at_edge in (False, True):
            i = level
            while True:
                status, i = _expand_nodes(i, level_end, at_edge, graph, query, scope, room, stop)
                if status != SHORT:
                    break
                make_room(graph)
            if status != OK:
                return status, graph
        level = level_end
    for d in range(depth, MAX_DEPTH + 2):
        graph.first13[d] = graph.sizes[N13]
        graph.first14[d] = graph.sizes[N14]
    return OK, graph


@njit(nrt=False)  # one call a pass over a depth's nodes: a call a node would count references to every array
def _expand_nodes(first, last, at_edge, graph, query, scope, room, stop):
    """_expand the nodes first..last-1 that are at the budget's edge (at_edge) or within it.
    Returns (OK, last), or (status, the node it stopped at): SHORT when the hash slots in
    use must grow first (the caller grows them, which allocates, and goes on from there),
    FULL when the graph is full, STOPPED when stop[0] was raised (read before every node)."""
    for i in range(first, last):
        if atomic_load(stop) != 0:
            return STOPPED, i
        if (graph.dist[i] - 1 + graph.depth[i] >= scope.budget) == at_edge:
            if short_of_room(graph):
                return SHORT, i
            status = _expand(i, graph, query, scope, room)
            if status != OK:
                return status, i
    return OK, last


@njit(inline="always")
def _makes(graph, i, u, at_edge, ready):
    """Whether node i's draw u makes its 14-tile hand when missing: within the budget every
    draw does, at its edge only a useful draw of a hand not ready."""
    return not at_edge or ((graph.mask[i] >> u) & 1 and not ready)


@njit(nrt=False)
def _expand(i, graph, query, scope, room):
    """Node i's ready figures and its draws: each the win, a hand that can only go back
    (stay), or an edge to the 14-tile hand it makes (made the first time, _new_hand14).
    Returns OK, or FULL when the graph is full.

    The lookups of a large graph's draws miss the cache (the hash slots are megabytes): their
    cache lines are asked for all at once first (the bit set's, then the slots' of the draws
    that may have a hand), so that the misses overlap."""
    hand, unseen, win_score, keys = room.hand, room.unseen, room.win_score, room.draw_keys
    position, deal_in, loss = query.position, query.risk.deal_in, query.risk.loss
    claim_weight = query.model.claim_weight
    for t in range(34):
        hand[t] = graph.counts[i, t]
    total = unseen_of(hand, scope, unseen)
    ready_figures(i, graph, query, scope, room, total)
    ready = graph.dist[i] == 1
    at_edge = graph.dist[i] - 1 + graph.depth[i] >= scope.budget
    span14 = graph.sizes[SPAN14]
    cached = span14 <= CACHED_SPAN  # small slots: the lookups hit the cache, nothing to ask for first
    if not cached:
        for u in range(34):
            if unseen[u] > 0:
                keys[u, 0], keys[u, 1] = key_with(graph.keys[i, 0], graph.keys[i, 1], u)
                wa, _, wb, _ = bits_of(span14, keys[u, 0], keys[u, 1])
                prefetch(graph.made14, wa)
                prefetch(graph.made14, wb)
        for u in range(34):
            if unseen[u] > 0:
                # 2: looked up and made if missing; 1: looked up; 0: certainly missing (the bit set)
                keys[u, 2] = 2 if _makes(graph, i, u, at_edge, ready) else (
                    1 if maybe_made(graph.made14, span14, keys[u, 0], keys[u, 1]) else 0)
                if keys[u, 2]:
                    prefetch(graph.slots14, slot_of(keys[u, 0], keys[u, 1], span14))
    graph.edge_start[i] = graph.sizes[N_EDGES]
    stay = stay_risk = stay_cost = 0.0
    claims = 0.0  # the sum of the claims' chances, and the chance that none is offered
    missed = 1.0
    loaded = False  # the node's groups, loaded when a 14-tile hand is first made
    for u in range(34):
        if unseen[u] <= 0:
            continue
        p = unseen[u] / total
        if cached:
            k0, k1 = key_with(graph.keys[i, 0], graph.keys[i, 1], u)
            lookup = 2 if _makes(graph, i, u, at_edge, ready) else 1
        else:
            k0, k1, lookup = keys[u, 0], keys[u, 1], keys[u, 2]
        j = -1
        if lookup:
            j, s = find_slot(graph.slots14, span14, k0, k1)
            if j < 0 and lookup == 2:
                if graph.sizes[N14] >= graph.sole.shape[0]:
                    return FULL
                if not loaded:
                    load_groups(position.table, hand, position.meld_counts, room.check_bits[0],
                                4 - position.n_melds, room.groups.rows, room.groups.classes, room.work)
                    loaded = True
                j = _new_hand14(i, u, s, k0, k1, graph, query, scope, room)
                if j < 0:
                    return FULL
        goes_on = win_score[u] > 0.0  # the win, or somewhere but back to this hand
        if j >= 0 and not goes_on:
            sole = graph.sole[j]
            goes_on = sole == -1 or (sole >= 0 and sole != i)
        if not goes_on:  # every discard kept after this draw goes back: the hand stays
            stay += p
            stay_risk += p * deal_in[u]
            stay_cost += p * deal_in[u] * loss[u]
            continue
        e = take_row(graph.sizes, N_EDGES, graph.edge_hand14.shape[0])
        if e < 0:
            return FULL
        graph.edge_hand14[e] = j
        graph.edge_p[e] = p
        graph.edge_win[e] = win_score[u]
        if scope.open_pricing:
            graph.edge_win_open[e] = room.win_score_open[u]
        graph.edge_tile[e] = u
        if claim_weight.shape[0]:
            claim = 0.0 if ready or not (graph.mask[i] >> u) & 1 else _claim_chance(hand, u, p, claim_weight)
            graph.edge_claim[e] = claim
            claims += claim
            missed *= 1.0 - claim
    graph.claim_scale[i] = (1.0 - missed) / claims if claims > 0.0 else 0.0
    graph.stay[i] = stay
    graph.stay_risk[i] = stay_risk
    graph.stay_cost[i] = stay_cost
    graph.edge_end[i] = graph.sizes[N_EDGES]
    return OK


@njit(inline="always")
def _claim_chance(hand, u, share, weight):
    """The chance that a round offers the hand a useful u to claim before its draw (share: u's
    copies over the unseen tiles): a pung from any of the three others' discards, else a chow
    from the left player's (Model.claim_weight)."""
    if hand[u] >= 2:
        return 1.0 - (1.0 - weight[0, u] * share) ** 3
    if u < 27:
        r = u % 9
        if ((r >= 2 and hand[u - 2] and hand[u - 1]) or (1 <= r <= 7 and hand[u - 1] and hand[u + 1])
                or (r <= 6 and hand[u + 1] and hand[u + 2])):
            return weight[1, u] * share
    return 0.0


@njit(nrt=False)
def _new_hand14(i, u, slot, k0, k1, graph, query, scope, room):
    """The 14-tile hand node i makes by drawing u (its key k0, k1 going to hash slot `slot`)
    and the discards it keeps: those that leave a node within the budget at the next depth
    (target: shanten + 1 at most budget - depth). The least deficiency a discard leaves is
    the node's less one where u is useful; every discard leaves it or one more, so where the
    target allows one more every discard is kept, else the rows' keeps say which. New nodes
    are made as needed. Returns its index, or -1 when the graph is full."""
    position = query.position
    j = graph.sizes[N14]
    graph.sizes[N14] = j + 1
    put_slot(graph.slots14, slot, k0, k1, j)
    mark_made(graph.made14, graph.sizes[SPAN14], k0, k1)
    graph.child_start[j] = graph.sizes[N_CHILDREN]
    hand, d = room.hand, graph.depth[i]
    target = scope.budget - d
    least = graph.dist[i] - 1 if (graph.mask[i] >> u) & 1 and graph.dist[i] > 1 else graph.dist[i]
    hand[u] += 1
    if target > least:
        kept = np.int64(0)
        for t in range(34):
            if hand[t]:
                kept |= np.int64(1) << t
    else:
        kept = kept_after_draw(position.table, hand, position.meld_counts, position.n_melds, room.check_bits[0],
                               room.groups, u, room.work)
    while kept:
        k = lowest_bit(kept)
        kept &= kept - 1
        c0, c1 = key_without(k0, k1, k)
        c, cs = find_slot(graph.slots13, graph.sizes[SPAN13], c0, c1)
        if c < 0:
            if graph.sizes[N13] >= graph.counts.shape[0]:
                hand[u] -= 1
                return -1
            hand[k] -= 1
            dist, mask = moves_after(position.table, hand, position.meld_counts, position.n_melds,
                                     room.check_bits[0], room.groups, u, k, room.work)
            c = new_node(graph, cs, c0, c1, hand, d + 1, dist, mask)
            hand[k] += 1
        if not add_child(graph, c, k):
            hand[u] -= 1
            return -1
    hand[u] -= 1
    first, end = graph.child_start[j], graph.sizes[N_CHILDREN]
    graph.child_start[j + 1] = end
    graph.sole[j] = graph.children[first] if end - first == 1 else (-1 if end > first else -2)
    return j

