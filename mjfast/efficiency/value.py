"""Value-aware advice: for every discard of a hand, the probability of being ready with a wait
that can win, the probability of a valid win, and the expected score of that win, with the
rest of the hand played to maximise each figure. docs/advice.md states the model; in short:

- The player draws `draws` more tiles. Each draw is one of the tiles the player has not
  seen, each kind in proportion to its unseen copies (4 less those in the hand, its melds,
  the tiles seen elsewhere, and the tiles of the hand at the decision that it has since
  discarded); tiles drawn and thrown back again are not tracked.
- Before each draw the other three players discard: with a ready hand whose waits win on a
  discard (8 fans, flowers aside), each of those `ron_discards` discards is a winning tile
  with probability (valid waits' unseen copies) / (unseen tiles), independently.
- A round may end the game for another reason (another player's win) with probability
  `hazard`.
- A win scores as the Botzone judge settles it, for the winner: 3 x (8 + F) self-drawn,
  8 + F + 2 x 8 on a discard, F the fans with flowers. A win that does not reach 8 fans
  (flowers aside) is no win.
- The danger (mjfast.danger): a discard of tile x s draws from now deals in with probability
  growth[s] x deal_in[x], ending the game at a cost of loss[x] points; at every turn the
  player may instead fold (discard safe tiles to the end: no win, no cost), so that no
  hand's expected score is below 0. Without danger (zeros) the figures are those of the
  model without it.
- The continuation: after each draw, any discard (or a win); the hands considered are those
  within `extra` steps of the best route: a hand reached after d draws is kept when its
  shanten + d is at most the best discard's shanten + extra (exchanges that keep or lose a
  step are in the model, as MCR needs them: a ready hand short of 8 fans must change its
  waits). Throwing the drawn tile back is always allowed. Claims are not part of the
  continuation.

Under that model the figures are exact: the graph of hands is built once (build_graph), then
one backward pass over the draws left gives every figure for every number of draws at once
(values_by_draws), each with its own optimal policy.
"""

import numpy as np

from ..fan.layout import WIN_SELF_DRAWN
from ..jit import atomic_load, lowest_bit, njit
from .all_forms import all_forms, best_of
from .discards import discard_sweep, draw_sweep, prepare_look_ahead
from .fan_advice import hand_ranks, new_score_work, ranks_with, scored_points
from .group_dp import INF
from .one_hand import check_counts
from .regular import meld_check_bits
from .rows import OK, SEEN_TOO_OFTEN
from .scratch import N_FORMS

# A hand's key: its counts as two base-5 numbers (the 27 suit tiles, the 7 honours); adding
# or removing tile t changes it by POW5[t].
POW5 = np.array([5 ** t for t in range(27)] + [5 ** t for t in range(7)], np.int64)
_SUIT_KEY = np.array([1] * 27 + [0] * 7, np.int64)  # which of the two numbers a tile is in
_MIX0 = np.int64(-7046029254386353131)
_MIX1 = np.int64(-4417276706812531889)
FULL = -1  # build_graph ran out of room: the caller gives it more
STOPPED = -2  # the caller's stop flag was raised (a deadline): no figures
# Beyond this shanten the model's exchanges are left out (extra 0): the graph grows about
# tenfold a step (a median of 600,000 hands at four steps), and the figures are small.
MAX_EXCHANGE_SHANTEN = 3
# The settlement, for the winner (the Botzone judge's): F = fans with flowers.
BASE = 8


@njit
def _slot(key0, key1, size):
    h = key0 * _MIX0 ^ key1 * _MIX1  # wraps: a multiplicative hash
    return (h >> 24) & (size - 1)


@njit
def _find(table_slots, keys, key0, key1):
    """(index of the node with this key or -1, the slot where it is or would go)."""
    size = table_slots.shape[0]
    s = _slot(key0, key1, size)
    while True:
        j = table_slots[s] - 1
        if j < 0:
            return -1, s
        if keys[j, 0] == key0 and keys[j, 1] == key1:
            return j, s
        s = (s + 1) & (size - 1)


@njit
def _hand_key(hand):
    k0 = np.int64(0)
    k1 = np.int64(0)
    for t in range(27):
        k0 += hand[t] * POW5[t]
    for t in range(27, 34):
        k1 += hand[t] * POW5[t]
    return k0, k1


@njit
def _unseen(hand, fixed, reference, out):
    """out = the copies of each kind the player has not seen, with `hand` held: 4 less the
    copies fixed (melds, seen elsewhere), less the hand's or the decision hand's copies,
    whichever is more (a tile of the decision hand discarded since is on the table).
    Returns their total."""
    total = 0
    for t in range(34):
        held = hand[t] if hand[t] > reference[t] else reference[t]
        u = 4 - fixed[t] - held
        u = u if u > 0 else 0
        out[t] = u
        total += u
    return total


@njit(cache=True, nrt=True, inline="always")
def build_graph(table, roots, root_dist, root_mask, n_roots, meld_counts, n_melds, melds, fixed, reference, seat,
                prevalent, rules, minimum, flowers, budget, ron_discards, deal_in, loss, capacity, stop, work):
    """The hands of the model (see the module doc) reachable from the 3n+1 `roots` (their
    deficiencies and useful masks given), within `budget`: a hand reached after d draws is
    kept when its shanten + d <= budget. Returns (status, arrays) with status FULL when the
    graph needs more than `capacity` hands of 13 tiles (the caller retries with more), or
    STOPPED as soon as stop[0] is nonzero (another thread raises it at a deadline).

    13-tile hands ("nodes", root i is node i): counts, key, depth, deficiency, useful mask;
    per node the chance of a discard win per round (ron) and its mean score, whether it is
    ready with a wait that can win, the probability of a draw that only goes back (stay) and
    of those draws, the sums of p x deal_in and p x deal_in x loss of the tile thrown back
    (stay_risk, stay_cost), and its draws (edges: the 14-tile hand reached, its probability,
    the self-drawn win's score or 0, the tile drawn). 14-tile hands: their discards kept
    (children, node indices, and the tile each discards)."""
    cap13 = capacity
    cap14 = 4 * capacity
    cap_edges = 8 * capacity
    cap_children = 8 * capacity
    # Empty, not zeroed: a graph touches only the room it fills (the first room is generous,
    # and zeroing it all cost 15 ms a query at four steps); _expand sets every field of a node.
    counts13 = np.empty((cap13, 34), np.uint8)
    keys13 = np.empty((cap13, 2), np.int64)
    depth13 = np.empty(cap13, np.int64)
    dist13 = np.empty(cap13, np.int64)
    mask13 = np.empty(cap13, np.int64)
    ron13 = np.empty(cap13, np.float64)
    ron_score13 = np.empty(cap13, np.float64)
    valid13 = np.empty(cap13, np.bool_)
    stay13 = np.empty(cap13, np.float64)
    stay_risk13 = np.empty(cap13, np.float64)
    stay_cost13 = np.empty(cap13, np.float64)
    edge_start = np.empty(cap13, np.int64)
    edge_end = np.empty(cap13, np.int64)
    edge_child = np.empty(cap_edges, np.int64)
    edge_p = np.empty(cap_edges, np.float64)
    edge_win = np.empty(cap_edges, np.float64)
    edge_tile = np.empty(cap_edges, np.int64)
    keys14 = np.empty((cap14, 2), np.int64)
    child_start = np.empty(cap14 + 1, np.int64)
    children = np.empty(cap_children, np.int64)
    child_tile = np.empty(cap_children, np.int64)
    size13 = 1
    while size13 < 2 * cap13:
        size13 *= 2
    size14 = 1
    while size14 < 2 * cap14:
        size14 *= 2
    slots13 = np.zeros(size13, np.int32)  # the hash tables: 0 is an empty slot, else index + 1
    slots14 = np.zeros(size14, np.int32)
    graph = (counts13, keys13, depth13, dist13, mask13, ron13, ron_score13, valid13, stay13, stay_risk13, stay_cost13,
             edge_start, edge_end, edge_child, edge_p, edge_win, edge_tile, keys14, child_start, children, child_tile)

    n13 = 0
    if n_roots > cap13:
        return FULL, graph, 0, 0  # the room must hold the roots (up to 34)
    for r in range(n_roots):
        k0, k1 = _hand_key(roots[r])
        j, s = _find(slots13, keys13, k0, k1)
        # distinct discards leave distinct hands: each root is new
        slots13[s] = n13 + 1
        keys13[n13, 0] = k0
        keys13[n13, 1] = k1
        for t in range(34):
            counts13[n13, t] = roots[r, t]
        depth13[n13] = 0
        dist13[n13] = root_dist[r]
        mask13[n13] = root_mask[r]
        n13 += 1
    n14 = 0
    n_edges = 0
    n_children = 0
    hand = np.empty(34, np.int64)
    unseen = np.empty(34, np.int64)
    win_score = np.zeros(34, np.float64)
    check_bits = meld_check_bits(meld_counts)
    ranks = np.empty(4, np.int64)
    sweep_dist = np.empty(34, np.int64)
    sweep_mask = np.empty(34, np.int64)
    form_dist = np.empty(N_FORMS, np.int64)
    form_mask = np.empty(N_FORMS, np.int64)
    out, fan_work, score_vec = new_score_work()
    # Breadth first, a depth at a time (a node's depth is the fewest draws that reach it, and a
    # 14-tile hand keeps the discards its first parent's depth allows): first the nodes with
    # room in the budget, which make the 14-tile hands of that depth, then those at the
    # budget's edge, which only improve or use a 14-tile hand already made.
    level = 0
    while level < n13:
        level_end = n13
        for at_edge_pass in range(2):
            n_edges, n13, n14, n_children = _expand_nodes(
                level, level_end, at_edge_pass == 1, table, meld_counts, n_melds, melds, fixed, reference, seat,
                prevalent, rules, minimum, flowers, budget, ron_discards, deal_in, loss, graph, slots13, slots14, n13,
                n14, n_edges, n_children, hand, unseen, win_score, check_bits, ranks, sweep_dist, sweep_mask, form_dist,
                form_mask, out, fan_work, score_vec, stop, work)
            if n13 < 0:
                return n13, graph, 0, 0
        level = level_end
    return OK, graph, n13, n14


@njit(nrt=False)  # one call a pass over a depth's nodes: a call a node would count references to every array
def _expand_nodes(first, last, at_edge, table, meld_counts, n_melds, melds, fixed, reference, seat, prevalent, rules,
                  minimum, flowers, budget, ron_discards, deal_in, loss, graph, slots13, slots14, n13, n14, n_edges,
                  n_children, hand, unseen, win_score, check_bits, ranks, sweep_dist, sweep_mask, form_dist, form_mask,
                  out, fan_work, score_vec, stop, work):
    """_expand the nodes first..last-1 that are at the budget's edge (at_edge) or within it
    (see build_graph). Returns the new counts (n_edges, n13, n14, n_children), n13 FULL when
    the graph is full, STOPPED when stop[0] was raised (read before every node: a few µs
    apart)."""
    depth13 = graph[2]
    dist13 = graph[3]
    for i in range(first, last):
        if atomic_load(stop) != 0:
            return n_edges, STOPPED, n14, n_children
        if (dist13[i] - 1 + depth13[i] >= budget) == at_edge:
            n_edges, n13, n14, n_children = _expand(
                i, table, meld_counts, n_melds, melds, fixed, reference, seat, prevalent, rules, minimum, flowers,
                budget, ron_discards, deal_in, loss, graph, slots13, slots14, n13, n14, n_edges, n_children, hand,
                unseen, win_score, check_bits, ranks, sweep_dist, sweep_mask, form_dist, form_mask, out, fan_work,
                score_vec, work)
            if n13 < 0:
                break
    return n_edges, n13, n14, n_children


@njit(nrt=False)
def _expand(i, table, meld_counts, n_melds, melds, fixed, reference, seat, prevalent, rules, minimum, flowers, budget,
            ron_discards, deal_in, loss, graph, slots13, slots14, n13, n14, n_edges, n_children, hand, unseen,
            win_score, check_bits, ranks, sweep_dist, sweep_mask, form_dist, form_mask, out, fan_work, score_vec, work):
    """Node i's ready figures and draws, the 14-tile hands they reach and the discards those
    keep (see build_graph). Returns the new counts (n_edges, n13, n14, n_children), n13 FULL
    when the graph is full."""
    (counts13, keys13, depth13, dist13, mask13, ron13, ron_score13, valid13, stay13, stay_risk13, stay_cost13,
     edge_start, edge_end, edge_child, edge_p, edge_win, edge_tile, keys14, child_start, children, child_tile) = graph
    cap13 = counts13.shape[0]
    cap14 = keys14.shape[0]
    cap_edges = edge_child.shape[0]
    cap_children = children.shape[0]
    for t in range(34):
        hand[t] = counts13[i, t]
    total = _unseen(hand, fixed, reference, unseen)
    d = depth13[i]
    ready = dist13[i] == 1
    for t in range(34):
        win_score[t] = 0.0
    valid13[i] = False
    ron13[i] = 0.0
    ron_score13[i] = 0.0
    if ready and total > 0:
        ron_copies = 0
        ron_total = 0.0
        can_win = False
        suits, honours = hand_ranks(table, hand)
        waits = mask13[i]
        while waits:
            w = lowest_bit(waits)
            waits &= waits - 1
            if unseen[w] <= 0:
                continue
            hand[w] += 1
            won_suits, won_honours = ranks_with(table, hand, suits, honours, w)
            on_discard = scored_points(table, hand, won_suits, won_honours, melds, w, 0, seat, prevalent, rules,
                                       out, fan_work, score_vec, work)[0]
            self_drawn = scored_points(table, hand, won_suits, won_honours, melds, w, WIN_SELF_DRAWN, seat,
                                       prevalent, rules, out, fan_work, score_vec, work)[0]
            hand[w] -= 1
            if on_discard >= minimum:
                ron_copies += unseen[w]
                ron_total += unseen[w] * (3 * BASE + on_discard + flowers)
                can_win = True
            if self_drawn >= minimum:
                win_score[w] = 3.0 * (BASE + self_drawn + flowers)
                can_win = True
        valid13[i] = can_win
        if ron_copies > 0:
            miss = 1.0 - ron_copies / total
            ron13[i] = 1.0 - miss ** ron_discards
            ron_score13[i] = ron_total / ron_copies
    edge_start[i] = n_edges
    stay = 0.0
    stay_risk = 0.0
    stay_cost = 0.0
    held = np.int64(0)
    for t in range(34):
        if hand[t]:
            held |= np.int64(1) << t
    prepared = False
    floor = 0
    # At the budget's edge only a draw that lowers the shanten keeps a discard other than
    # itself, and a ready hand's such draw is its win: no sweep needed for the rest.
    at_edge = dist13[i] - 1 + d >= budget
    for u in range(34):
        if unseen[u] <= 0:
            continue
        p = unseen[u] / total
        useful = (mask13[i] >> u) & 1
        k0 = keys13[i, 0] + POW5[u] * _SUIT_KEY[u]
        k1 = keys13[i, 1] + POW5[u] * (1 - _SUIT_KEY[u])
        j, s = _find(slots14, keys14, k0, k1)
        if j < 0 and at_edge and (not useful or ready):
            # no discard of its own budget keeps this draw: the win, or back to this hand
            j = -2
        if j == -2:
            if win_score[u] > 0.0:
                if n_edges >= cap_edges:
                    return n_edges, FULL, n14, n_children
                edge_child[n_edges] = -1
                edge_p[n_edges] = p
                edge_win[n_edges] = win_score[u]
                edge_tile[n_edges] = u
                n_edges += 1
            else:
                stay += p
                stay_risk += p * deal_in[u]
                stay_cost += p * deal_in[u] * loss[u]
            continue
        if j < 0:
            if n14 >= cap14:
                return n_edges, FULL, n14, n_children
            if not prepared:  # the draw sweeps of this hand: discards within the budget
                floor = prepare_look_ahead(table, hand, meld_counts, n_melds, check_bits, budget - d, held, False,
                                           0, ranks, work)
                prepared = True
            j = n14
            n14 += 1
            slots14[s] = j + 1
            keys14[j, 0] = k0
            keys14[j, 1] = k1
            child_start[j] = n_children
            hand[u] += 1
            found = draw_sweep(table, hand, u, meld_counts, n_melds, check_bits, budget - d, floor, 0, sweep_dist,
                               sweep_mask, work, form_dist, form_mask, ranks)
            while found:
                k = lowest_bit(found)
                found &= found - 1
                c0 = k0 - POW5[k] * _SUIT_KEY[k]
                c1 = k1 - POW5[k] * (1 - _SUIT_KEY[k])
                c, cs = _find(slots13, keys13, c0, c1)
                if c < 0:
                    if n13 >= cap13:
                        return n_edges, FULL, n14, n_children
                    c = n13
                    n13 += 1
                    slots13[cs] = c + 1
                    keys13[c, 0] = c0
                    keys13[c, 1] = c1
                    for t in range(34):
                        counts13[c, t] = hand[t]
                    counts13[c, k] -= 1
                    depth13[c] = d + 1
                    dist13[c] = sweep_dist[k]
                    mask13[c] = sweep_mask[k]
                if n_children >= cap_children:
                    return n_edges, FULL, n14, n_children
                children[n_children] = c
                child_tile[n_children] = k
                n_children += 1
            hand[u] -= 1
            if not (held >> u) & 1 and dist13[i] + d <= budget:
                # discarding a drawn tile the hand did not hold gives the hand back: the
                # sweep leaves it out, but another hand reaching this one may choose it
                if n_children >= cap_children:
                    return n_edges, FULL, n14, n_children
                children[n_children] = i
                child_tile[n_children] = u
                n_children += 1
            child_start[j + 1] = n_children
        active = win_score[u] > 0.0
        if not active:
            for e in range(child_start[j], child_start[j + 1]):
                if children[e] != i:
                    active = True
                    break
        if not active:
            stay += p  # every discard kept after this draw goes back: the hand stays
            stay_risk += p * deal_in[u]
            stay_cost += p * deal_in[u] * loss[u]
            continue
        if n_edges >= cap_edges:
            return n_edges, FULL, n14, n_children
        edge_child[n_edges] = j
        edge_p[n_edges] = p
        edge_win[n_edges] = win_score[u]
        edge_tile[n_edges] = u
        n_edges += 1
    stay13[i] = stay
    stay_risk13[i] = stay_risk
    stay_cost13[i] = stay_cost
    edge_end[i] = n_edges
    return n_edges, n13, n14, n_children


@njit(cache=True, nrt=True, inline="always")
def values_by_draws(graph, n13, n14, n_roots, draws, hazard, deal_in, loss, growth, out_ready, out_win, out_score,
                    out_nodes, stop):
    """The backward pass over the draws left: for every root r and k = 1..draws draws left,
    out_ready[r, k-1] = the probability of being ready with a wait that can win within k
    draws, out_win[r, k-1] = of a valid win within them; out_score[r] = the expected score of
    the win with `draws` left, less the expected cost of dealing in. Each figure with its own
    optimal policy (each later discard the one that maximises it; the score's may fold, see
    the module doc). The model is the same at every draw but for the danger's growth (the
    discard after the draw made with k left is growth[draws - k + 1] x as dangerous as now),
    so the values for k draws left come from those for k - 1. out_nodes, if it has room ((2,
    draws + 1, n13)), gets every node's win probability and expected score for k = 0..draws
    (the tests' view of the policy). Returns OK, or STOPPED when stop[0] was raised (read
    before every draw)."""
    (counts13, keys13, depth13, dist13, mask13, ron13, ron_score13, valid13, stay13, stay_risk13, stay_cost13,
     edge_start, edge_end, edge_child, edge_p, edge_win, edge_tile, keys14, child_start, children, child_tile) = graph
    ready = np.empty(n13, np.float64)
    win = np.zeros(n13, np.float64)
    score = np.zeros(n13, np.float64)
    for i in range(n13):
        ready[i] = 1.0 if valid13[i] else 0.0
    ready_next = np.empty(n13, np.float64)
    win_next = np.empty(n13, np.float64)
    score_next = np.empty(n13, np.float64)
    best_ready = np.empty(n14, np.float64)
    best_win = np.empty(n14, np.float64)
    best_score = np.empty(n14, np.float64)
    risk = np.empty(34, np.float64)  # this draw's discard: the chance it deals in, and its expected cost
    cost = np.empty(34, np.float64)
    go_on = 1.0 - hazard
    keep_nodes = out_nodes.shape[2] >= n13
    if keep_nodes:
        out_nodes[:, 0, :n13] = 0.0
    for k in range(1, draws + 1):
        if atomic_load(stop) != 0:
            return STOPPED
        g = growth[draws - k + 1]
        for x in range(34):
            risk[x] = g * deal_in[x]
            cost[x] = risk[x] * loss[x]
        for j in range(n14):  # after a draw: the best discard kept, for each figure
            r = 0.0
            w = 0.0
            s = -np.inf
            for e in range(child_start[j], child_start[j + 1]):
                c = children[e]
                x = child_tile[e]
                r = max(r, (1.0 - risk[x]) * ready[c])
                w = max(w, (1.0 - risk[x]) * win[c])
                s = max(s, (1.0 - risk[x]) * score[c] - cost[x])
            best_ready[j] = r
            best_win[j] = w
            best_score[j] = s
        for i in range(n13):
            stay = stay13[i] - g * stay_risk13[i]  # the draws thrown back, less the chance they deal in
            r = stay * ready[i]
            w = stay * win[i]
            s = stay * score[i] - g * stay_cost13[i]
            for e in range(edge_start[i], edge_end[i]):
                j = edge_child[e]
                p = edge_p[e]
                won = edge_win[e]
                u = edge_tile[e]
                back = 1.0 - risk[u]  # throwing the drawn tile back: the hand stays, if it does not deal in
                if j < 0:  # the win, or back to this hand
                    r += p * back * ready[i]
                    w += p * max(1.0 if won > 0.0 else 0.0, back * win[i])
                    s += p * max(won, back * score[i] - cost[u])
                    continue
                r += p * max(best_ready[j], back * ready[i])
                w += p * max(1.0 if won > 0.0 else 0.0, best_win[j], back * win[i])
                kept = max(best_score[j], back * score[i] - cost[u])  # a discard, at its danger
                s += p * (max(won, kept) if won > 0.0 else kept)
            ready_next[i] = 1.0 if valid13[i] else r
            ron = ron13[i]
            win_next[i] = ron + (1.0 - ron) * go_on * w
            score_next[i] = max(0.0, ron * ron_score13[i] + (1.0 - ron) * go_on * s)  # or fold
        ready, ready_next = ready_next, ready
        win, win_next = win_next, win
        score, score_next = score_next, score
        for r_ in range(n_roots):
            out_ready[r_, k - 1] = ready[r_]
            out_win[r_, k - 1] = win[r_]
        if keep_nodes:
            for i in range(n13):  # loops, not slice copies: those compile numba's shape-error code
                out_nodes[0, k, i] = win[i]
                out_nodes[1, k, i] = score[i]
    for r_ in range(n_roots):
        out_score[r_] = score[r_]
    return OK


@njit(nrt=True, inline="always")
def _graph_values(table, roots, root_dist, root_mask, n_roots, meld_counts, n_melds, melds, fixed, reference, seat,
                  prevalent, rules, minimum, flowers, budget, extra, draws, ron_discards, hazard, deal_in, loss, growth,
                  stop, out_ready, out_win, out_score, work):
    """build_graph (with room enough) then values_by_draws; the graph's number of 13-tile
    hands, or STOPPED. The room first given is about what such a budget needs (a build that
    runs out of room starts again with twice as much; room not filled costs nothing, see
    build_graph): measured on random hands, the graph holds at most 134 hands of 13 tiles at
    budget 1, 1,029 at 2, 8,913 at 3, 112,685 at 4 (25,466 without exchanges); on the real
    matches of tests/data, up to 133,622 at 4 and 174,081 at 5 without exchanges."""
    capacity = 1 << max(6, min(18, 3 * budget + 5 - (2 if extra == 0 else 0)))  # 64 at least: the roots
    while True:
        status, graph, n13, n14 = build_graph(table, roots, root_dist, root_mask, n_roots, meld_counts, n_melds, melds,
                                              fixed, reference, seat, prevalent, rules, minimum, flowers, budget,
                                              ron_discards, deal_in, loss, capacity, stop, work)
        if status == OK:
            break
        if status == STOPPED:
            return STOPPED
        capacity *= 2
    if values_by_draws(graph, n13, n14, n_roots, draws, hazard, deal_in, loss, growth, out_ready, out_win, out_score,
                       np.empty((2, 0, 0), np.float64), stop) == STOPPED:
        return STOPPED
    return n13


@njit(cache=True, nogil=True)
def hand_values(table, counts, meld_counts, n_melds, melds, total, visible, seat, prevalent, rules, minimum, flowers,
                draws, ron_discards, hazard, extra, deal_in, loss, growth, stop, out_ready, out_win, out_score, work):
    """The value figures (see the module doc) of a hand of `total` tiles, melds counted as 3:

    - 14, every discard: for each kind t held, out_ready[t, k] and out_win[t, k] within k + 1
      draws (k < draws) and out_score[t], the discard itself dealing in with probability
      deal_in[t]; for kinds not held 0, and for discards beyond the model's budget (more than
      `extra` steps behind the best discard) no win and the cost of dealing in now (a fold);
    - 13, the hand as it stands (a claim passed, or the hand after a kong before its
      replacement draw): row 0 of each.

    The danger: deal_in, loss (34 each) and growth (draws + 1 at least; see the module doc),
    zeros for none. Beyond MAX_EXCHANGE_SHANTEN the figures leave exchanges out (a lower
    bound). The kernel stops as soon as stop[0] is nonzero, with status STOPPED and no
    figures: it runs without the GIL so that another thread can raise it at a deadline (`work`
    must then be its own). Returns (status, the `extra` used, the graph's 13-tile hands). One
    kernel for both, so that the graph's code is compiled once."""
    status = check_counts(counts, meld_counts, n_melds, total)
    if status != OK:
        return status, 0, 0
    fixed = np.empty(34, np.int64)
    for t in range(34):
        fixed[t] = np.int64(meld_counts[t]) + np.int64(visible[t])
        if fixed[t] + counts[t] > 4:
            return SEEN_TOO_OFTEN, 0, 0
    hand = counts.astype(np.int64)
    roots = np.empty((34, 34), np.int64)
    root_dist = np.empty(34, np.int64)
    root_mask = np.empty(34, np.int64)
    kind_of = np.zeros(34, np.int64)  # the row of each root's figures
    n_roots = 0
    dist = np.empty(34, np.int64)  # a 14-tile hand's shanten after each discard, and its forms' masks
    mask = np.empty(34, np.int64)
    if total == 13:
        form_dist = np.empty(N_FORMS, np.int64)
        form_masks = np.empty(N_FORMS, np.int64)
        all_forms(table, counts, meld_counts, n_melds, False, True, form_dist, form_masks, work)
        best, best_mask = best_of(form_dist, form_masks)
        root_dist[0] = best
        root_mask[0] = best_mask
        roots[0, :] = hand
        n_roots = 1
    else:
        discard_sweep(table, hand, meld_counts, n_melds, dist, mask, work, np.empty(N_FORMS, np.int64),
                      np.empty(N_FORMS, np.int64))
        best = INF
        for t in range(34):
            best = min(best, dist[t])
    if best - 1 > MAX_EXCHANGE_SHANTEN:
        extra = 0  # the exchanges' graph grows tenfold a step: further away, the lower bound
    budget = best - 1 + extra
    for t in range(34 if total == 14 else 0):  # the discards within the budget
        if dist[t] < INF and dist[t] - 1 <= budget:
            roots[n_roots, :] = hand
            roots[n_roots, t] -= 1
            root_dist[n_roots] = dist[t]
            root_mask[n_roots] = mask[t]
            kind_of[n_roots] = t
            n_roots += 1
    for t in range(34 if total == 14 else 1):
        out_score[t] = -deal_in[t] * loss[t] if total == 14 and counts[t] else 0.0  # a fold: the cost now only
        for k in range(draws):
            out_ready[t, k] = 0.0
            out_win[t, k] = 0.0
    ready = np.zeros((n_roots, draws), np.float64)
    win = np.zeros((n_roots, draws), np.float64)
    score = np.zeros(n_roots, np.float64)
    n13 = _graph_values(table, roots, root_dist, root_mask, n_roots, meld_counts, n_melds, melds, fixed, hand, seat,
                        prevalent, rules, minimum, flowers, budget, extra, draws, ron_discards, hazard, deal_in, loss,
                        growth, stop, ready, win, score, work)
    if n13 == STOPPED:
        return STOPPED, extra, 0
    for r in range(n_roots):
        t = kind_of[r]
        safe = 1.0 - deal_in[t] if total == 14 else 1.0  # the discard now deals in, or the game goes on
        out_score[t] = safe * score[r] - (1.0 - safe) * loss[t]
        for k in range(draws):
            out_ready[t, k] = safe * ready[r, k]
            out_win[t, k] = safe * win[r, k]
    return OK, extra, n13
