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
- The danger (mjfast.advice.danger): a discard of tile x s draws from now deals in with probability
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

from typing import NamedTuple

import numpy as np

from ..efficiency.all_forms import all_forms, best_of
from ..efficiency.discards import discard_sweep, draw_sweep, prepare_look_ahead
from ..efficiency.group_dp import INF
from ..efficiency.one_hand import check_counts
from ..efficiency.regular import meld_check_bits
from ..efficiency.scratch import N_FORMS
from ..efficiency.status import OK, SEEN_TOO_OFTEN
from ..fan.layout import WIN_SELF_DRAWN
from ..fan.settlement import winner_gain
from ..runtime.decorators import njit
from ..runtime.intrinsics import atomic_load, lowest_bit
from .fan_aware import hand_ranks, new_score_work, ranks_with, scored_points

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


class Graph(NamedTuple):
    """The value graph (build_graph), as columns with room to grow. 13-tile hands ("nodes",
    root i is node i): their counts, keys, depth (the fewest draws that reach them),
    deficiency (shanten + 1) and useful tiles; the chance of a win on another player's
    discard per round (ron) and its mean score; whether the hand is ready with a wait that can
    win (valid); the chance of a draw that can only be thrown back (stay), and over those draws
    the sums of p x deal_in and p x deal_in x loss of the tile (stay_risk, stay_cost); their
    draws, edges edge_start..edge_end. Draws ("edges"): the 14-tile hand reached (-1 for a
    win or a draw that goes back), the draw's chance, the self-drawn win's score (0 for none)
    and the tile drawn. 14-tile hands: their keys and the discards they keep, children
    child_start[j]..child_start[j + 1]: the node each leaves and the tile it discards. The
    hash tables of both kinds of hands (0: an empty slot, else index + 1), and `sizes`, what
    is used of each column."""

    counts: np.ndarray
    keys: np.ndarray
    depth: np.ndarray
    dist: np.ndarray
    mask: np.ndarray
    ron: np.ndarray
    ron_score: np.ndarray
    valid: np.ndarray
    stay: np.ndarray
    stay_risk: np.ndarray
    stay_cost: np.ndarray
    edge_start: np.ndarray
    edge_end: np.ndarray
    edge_hand14: np.ndarray
    edge_p: np.ndarray
    edge_win: np.ndarray
    edge_tile: np.ndarray
    keys14: np.ndarray
    child_start: np.ndarray
    children: np.ndarray
    child_tile: np.ndarray
    slots13: np.ndarray
    slots14: np.ndarray
    sizes: np.ndarray


# Graph.sizes: the nodes, 14-tile hands, edges and children used.
N13, N14, N_EDGES, N_CHILDREN = 0, 1, 2, 3


class Setting(NamedTuple):
    """What scoring the graph's hands depends on, and what the player has seen: the lookup
    table, the melds (counts, number, packed), the copies fixed elsewhere (melds and tiles
    seen), the decision hand (its tiles discarded since count as seen), the winds, the
    ruleset and its minimum, the flowers."""

    table: np.ndarray
    meld_counts: np.ndarray
    n_melds: int
    melds: int
    fixed: np.ndarray
    reference: np.ndarray
    seat: int
    prevalent: int
    rules: int
    minimum: int
    flowers: int


class Model(NamedTuple):
    """The model's bounds and danger as the graph needs them: the budget (shanten + draws a
    kept hand may reach), the discards by others a round, and the danger of each tile now and
    the points dealing in costs (zeros: no danger)."""

    budget: int
    ron_discards: float
    deal_in: np.ndarray
    loss: np.ndarray


class Buffers(NamedTuple):
    """A build's working arrays: the hand being expanded, its unseen copies, the self-drawn
    score of each draw, the melds' check bits, the sweeps' outputs, the fan scorer's work, and
    `swept` (1 once the scratch holds a node's draw sweeps: the next node's preparation then
    works out only the groups in which its hand differs, see prepare_draws' `again`)."""

    hand: np.ndarray
    unseen: np.ndarray
    win_score: np.ndarray
    check_bits: np.ndarray
    ranks: np.ndarray
    sweep_dist: np.ndarray
    sweep_mask: np.ndarray
    form_dist: np.ndarray
    form_mask: np.ndarray
    out: np.ndarray
    fan_work: np.ndarray
    score_vec: np.ndarray
    work: np.ndarray
    swept: np.ndarray


@njit(nrt=True, inline="always")
def _new_graph(capacity):
    """A graph with room for `capacity` nodes (4x as many 14-tile hands, 8x edges and children).
    Empty, not zeroed: a graph touches only the room it fills (the first room is generous, and
    zeroing it all cost 15 ms a query at four steps); every field of a node is set when it is
    made or expanded. Only the hash tables are zeroed. The edges and children, which the
    backward pass reads at every draw, are as narrow as their values allow: int32 indices, uint8
    tiles, float32 win scores (integers: exact)."""
    cap13, cap14, cap_edges = capacity, 4 * capacity, 8 * capacity
    size13 = 1
    while size13 < 2 * cap13:
        size13 *= 2
    size14 = 1
    while size14 < 2 * cap14:
        size14 *= 2
    return Graph(np.empty((cap13, 34), np.uint8), np.empty((cap13, 2), np.int64), np.empty(cap13, np.int64),
                 np.empty(cap13, np.int64), np.empty(cap13, np.int64), np.empty(cap13, np.float64),
                 np.empty(cap13, np.float64), np.empty(cap13, np.bool_), np.empty(cap13, np.float64),
                 np.empty(cap13, np.float64), np.empty(cap13, np.float64), np.empty(cap13, np.int64),
                 np.empty(cap13, np.int64), np.empty(cap_edges, np.int32), np.empty(cap_edges, np.float64),
                 np.empty(cap_edges, np.float32), np.empty(cap_edges, np.uint8), np.empty((cap14, 2), np.int64),
                 np.empty(cap14 + 1, np.int64), np.empty(cap_edges, np.int32), np.empty(cap_edges, np.uint8),
                 np.zeros(size13, np.int32), np.zeros(size14, np.int32), np.zeros(4, np.int64))


@njit(cache=True, nrt=True, inline="always")
def build_graph(roots, root_dist, root_mask, n_roots, setting, model, capacity, stop, work):
    """The hands of the model (see the module doc) reachable from the 3n+1 `roots` (their
    deficiencies and useful masks given), within model.budget: a hand reached after d draws
    is kept when its shanten + d <= budget. Returns (status, Graph): status FULL when the
    graph needs more than `capacity` nodes (the caller retries with more), or STOPPED as soon
    as stop[0] is nonzero (another thread raises it at a deadline).

    Breadth first, a depth at a time (a 14-tile hand keeps the discards its first parent's
    depth allows): first the nodes with room in the budget, which make the 14-tile hands of
    that depth, then those at the budget's edge, which only improve or use a 14-tile hand
    already made."""
    graph = _new_graph(capacity)
    if n_roots > capacity:
        return FULL, graph  # the room must hold the roots (up to 34)
    for r in range(n_roots):  # distinct discards leave distinct hands: each root is new
        k0, k1 = _hand_key(roots[r])
        _, s = _find(graph.slots13, graph.keys, k0, k1)
        _new_node(graph, s, k0, k1, roots[r], 0, root_dist[r], root_mask[r])
    out, fan_work, score_vec = new_score_work()
    buffers = Buffers(np.empty(34, np.int64), np.empty(34, np.int64), np.zeros(34, np.float64),
                      meld_check_bits(setting.meld_counts), np.empty(4, np.int64), np.empty(34, np.int64),
                      np.empty(34, np.int64), np.empty(N_FORMS, np.int64), np.empty(N_FORMS, np.int64), out, fan_work,
                      score_vec, work, np.zeros(1, np.int64))
    level = 0
    while level < graph.sizes[N13]:
        level_end = graph.sizes[N13]
        for at_edge_pass in range(2):
            status = _expand_nodes(level, level_end, at_edge_pass == 1, graph, setting, model, buffers, stop)
            if status != OK:
                return status, graph
        level = level_end
    return OK, graph


@njit(inline="always")
def _new_node(graph, slot, k0, k1, hand, depth, dist, mask):
    """A new node (its room checked by the caller): the hand, its key, where the key is, its
    depth, deficiency and useful mask. Returns its index."""
    c = graph.sizes[N13]
    graph.sizes[N13] = c + 1
    graph.slots13[slot] = c + 1
    graph.keys[c, 0] = k0
    graph.keys[c, 1] = k1
    for t in range(34):
        graph.counts[c, t] = hand[t]
    graph.depth[c] = depth
    graph.dist[c] = dist
    graph.mask[c] = mask
    return c


@njit(nrt=False)  # one call a pass over a depth's nodes: a call a node would count references to every array
def _expand_nodes(first, last, at_edge, graph, setting, model, buffers, stop):
    """_expand the nodes first..last-1 that are at the budget's edge (at_edge) or within it
    (see build_graph). Returns OK, FULL when the graph is full, STOPPED when stop[0] was
    raised (read before every node: a few µs apart)."""
    for i in range(first, last):
        if atomic_load(stop) != 0:
            return STOPPED
        if (graph.dist[i] - 1 + graph.depth[i] >= model.budget) == at_edge:
            status = _expand(i, graph, setting, model, buffers)
            if status != OK:
                return status
    return OK


@njit(nrt=False)
def _expand(i, graph, setting, model, buffers):
    """Node i's ready figures (_ready_figures) and its draws: each the win, a hand that can
    only go back (stay), or an edge to the 14-tile hand it makes (made with its discards by
    _new_hand14 the first time). Returns OK, or FULL when the graph is full."""
    hand, unseen, win_score = buffers.hand, buffers.unseen, buffers.win_score
    for t in range(34):
        hand[t] = graph.counts[i, t]
    total = _unseen(hand, setting.fixed, setting.reference, unseen)
    _ready_figures(i, graph, setting, model, buffers, total)
    graph.edge_start[i] = graph.sizes[N_EDGES]
    stay = stay_risk = stay_cost = 0.0
    held = np.int64(0)
    for t in range(34):
        if hand[t]:
            held |= np.int64(1) << t
    prepared = False  # the draw sweeps of this hand, prepared when first needed (prepare_look_ahead)
    floor = 0
    # At the budget's edge only a draw that lowers the shanten keeps a discard other than
    # itself, and a ready hand's such draw is its win: no sweep needed for the rest.
    ready = graph.dist[i] == 1
    at_edge = graph.dist[i] - 1 + graph.depth[i] >= model.budget
    for u in range(34):
        if unseen[u] <= 0:
            continue
        p = unseen[u] / total
        k0 = graph.keys[i, 0] + POW5[u] * _SUIT_KEY[u]
        k1 = graph.keys[i, 1] + POW5[u] * (1 - _SUIT_KEY[u])
        j, s = _find(graph.slots14, graph.keys14, k0, k1)
        goes_on = True  # the draw may lead somewhere but back (a win, or a discard kept)
        if j < 0 and at_edge and (not (graph.mask[i] >> u) & 1 or ready):
            # no discard of its own budget keeps this draw: the win, or back to this hand
            goes_on = win_score[u] > 0.0
            j = -1
        elif j < 0:
            if graph.sizes[N14] >= graph.keys14.shape[0]:
                return FULL
            if not prepared:
                prepared = True
                # nothing but draw sweeps uses the prepared slots between two nodes' preparations
                floor = prepare_look_ahead(setting.table, hand, setting.meld_counts, setting.n_melds,
                                           buffers.check_bits, model.budget - graph.depth[i], held,
                                           buffers.swept[0] != 0, 0, buffers.ranks, buffers.work)
                buffers.swept[0] = 1
            j = _new_hand14(i, u, s, k0, k1, held, floor, graph, setting, model, buffers)
            if j < 0:
                return FULL
        if j >= 0:
            goes_on = win_score[u] > 0.0
            for e in range(graph.child_start[j], graph.child_start[j + 1]):
                goes_on = goes_on or graph.children[e] != i
        if not goes_on:  # every discard kept after this draw goes back: the hand stays
            stay += p
            stay_risk += p * model.deal_in[u]
            stay_cost += p * model.deal_in[u] * model.loss[u]
            continue
        e = graph.sizes[N_EDGES]
        if e >= graph.edge_hand14.shape[0]:
            return FULL
        graph.sizes[N_EDGES] = e + 1
        graph.edge_hand14[e] = j
        graph.edge_p[e] = p
        graph.edge_win[e] = win_score[u]
        graph.edge_tile[e] = u
    graph.stay[i] = stay
    graph.stay_risk[i] = stay_risk
    graph.stay_cost[i] = stay_cost
    graph.edge_end[i] = graph.sizes[N_EDGES]
    return OK


@njit(inline="always")
def _ready_figures(i, graph, setting, model, buffers, total):
    """Node i's figures as a ready hand: whether a wait can win (valid), the chance of a win
    on another player's discard per round (ron) and its mean score, and each wait's
    self-drawn win score (buffers.win_score, 0 elsewhere); none for a hand not ready."""
    hand, unseen, win_score = buffers.hand, buffers.unseen, buffers.win_score
    for t in range(34):
        win_score[t] = 0.0
    graph.valid[i] = False
    graph.ron[i] = 0.0
    graph.ron_score[i] = 0.0
    if graph.dist[i] != 1 or total <= 0:
        return
    ron_copies = 0
    ron_total = 0.0
    suits, honours = hand_ranks(setting.table, hand)
    waits = graph.mask[i]
    while waits:
        w = lowest_bit(waits)
        waits &= waits - 1
        if unseen[w] <= 0:
            continue
        hand[w] += 1
        won_suits, won_honours = ranks_with(setting.table, hand, suits, honours, w)
        on_discard = scored_points(setting.table, hand, won_suits, won_honours, setting.melds, w, 0, setting.seat,
                                   setting.prevalent, setting.rules, buffers.out, buffers.fan_work, buffers.score_vec,
                                   buffers.work)[0]
        self_drawn = scored_points(setting.table, hand, won_suits, won_honours, setting.melds, w, WIN_SELF_DRAWN,
                                   setting.seat, setting.prevalent, setting.rules, buffers.out, buffers.fan_work,
                                   buffers.score_vec, buffers.work)[0]
        hand[w] -= 1
        if on_discard >= setting.minimum:
            ron_copies += unseen[w]
            ron_total += unseen[w] * winner_gain(on_discard + setting.flowers, False)
            graph.valid[i] = True
        if self_drawn >= setting.minimum:
            win_score[w] = winner_gain(self_drawn + setting.flowers, True)
            graph.valid[i] = True
    if ron_copies > 0:
        graph.ron[i] = 1.0 - (1.0 - ron_copies / total) ** model.ron_discards
        graph.ron_score[i] = ron_total / ron_copies


@njit(inline="always")
def _new_hand14(i, u, slot, k0, k1, held, floor, graph, setting, model, buffers):
    """The 14-tile hand node i makes by drawing u (its key k0, k1 going to hash slot `slot`)
    and the discards it keeps (draw_sweep: those within the budget, new nodes made as needed),
    with throwing u back where u was not held. Returns its index, or -1 when the graph is full."""
    j = graph.sizes[N14]
    graph.sizes[N14] = j + 1
    graph.slots14[slot] = j + 1
    graph.keys14[j, 0] = k0
    graph.keys14[j, 1] = k1
    graph.child_start[j] = graph.sizes[N_CHILDREN]
    hand, d = buffers.hand, graph.depth[i]
    hand[u] += 1
    found = draw_sweep(setting.table, hand, u, setting.meld_counts, setting.n_melds, buffers.check_bits,
                       model.budget - d, floor, 0, buffers.sweep_dist, buffers.sweep_mask, buffers.work,
                       buffers.form_dist, buffers.form_mask, buffers.ranks)
    while found:
        k = lowest_bit(found)
        found &= found - 1
        c0 = k0 - POW5[k] * _SUIT_KEY[k]
        c1 = k1 - POW5[k] * (1 - _SUIT_KEY[k])
        c, cs = _find(graph.slots13, graph.keys, c0, c1)
        if c < 0:
            if graph.sizes[N13] >= graph.counts.shape[0]:
                hand[u] -= 1
                return -1
            hand[k] -= 1
            c = _new_node(graph, cs, c0, c1, hand, d + 1, buffers.sweep_dist[k], buffers.sweep_mask[k])
            hand[k] += 1
        if not _add_child(graph, c, k):
            hand[u] -= 1
            return -1
    hand[u] -= 1
    if not (held >> u) & 1 and graph.dist[i] + d <= model.budget:
        # discarding a drawn tile the hand did not hold gives the hand back: the sweep leaves
        # it out, but another hand reaching this one may choose it
        if not _add_child(graph, i, u):
            return -1
    graph.child_start[j + 1] = graph.sizes[N_CHILDREN]
    return j


@njit(inline="always")
def _add_child(graph, node, tile):
    """A discard kept by the 14-tile hand being made: the node it leaves and the tile; False
    when the graph is full."""
    n = graph.sizes[N_CHILDREN]
    if n >= graph.children.shape[0]:
        return False
    graph.sizes[N_CHILDREN] = n + 1
    graph.children[n] = node
    graph.child_tile[n] = tile
    return True


@njit(cache=True, nrt=True, inline="always")
def values_by_draws(graph, n_roots, draws, hazard, deal_in, loss, growth, out_ready, out_win, out_score, out_nodes,
                    stop):
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
    n13, n14 = graph.sizes[N13], graph.sizes[N14]
    valid13, stay13, stay_risk13, stay_cost13 = graph.valid, graph.stay, graph.stay_risk, graph.stay_cost
    edge_start, edge_end, edge_child, edge_p = graph.edge_start, graph.edge_end, graph.edge_hand14, graph.edge_p
    edge_win, edge_tile, child_start, children, child_tile = (graph.edge_win, graph.edge_tile, graph.child_start,
                                                              graph.children, graph.child_tile)
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
            ron = graph.ron[i]
            win_next[i] = ron + (1.0 - ron) * go_on * w
            score_next[i] = max(0.0, ron * graph.ron_score[i] + (1.0 - ron) * go_on * s)  # or fold
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
def _graph_values(roots, root_dist, root_mask, n_roots, setting, model, extra, draws, hazard, growth, stop, out_ready,
                  out_win, out_score, work):
    """build_graph (with room enough) then values_by_draws; the graph's number of 13-tile
    hands, or STOPPED. The room first given is about what such a budget needs (a build that
    runs out of room starts again with twice as much; room not filled costs nothing, see
    build_graph): measured on random hands, the graph holds at most 134 hands of 13 tiles at
    budget 1, 1,029 at 2, 8,913 at 3, 112,685 at 4 (25,466 without exchanges); on the real
    matches of tests/data, up to 133,622 at 4 and 174,081 at 5 without exchanges."""
    capacity = 1 << max(6, min(18, 3 * model.budget + 5 - (2 if extra == 0 else 0)))  # 64 at least: the roots
    while True:
        status, graph = build_graph(roots, root_dist, root_mask, n_roots, setting, model, capacity, stop, work)
        if status == OK:
            break
        if status == STOPPED:
            return STOPPED
        capacity *= 2
    if values_by_draws(graph, n_roots, draws, hazard, model.deal_in, model.loss, growth, out_ready, out_win, out_score,
                       np.empty((2, 0, 0), np.float64), stop) == STOPPED:
        return STOPPED
    return graph.sizes[N13]


@njit(cache=True, nogil=True)
def hand_values(hand_in, model_in, risk, stop, out, work):
    """The value figures (see the module doc) of a hand of `total` tiles, melds counted as 3,
    its records advice.budget's: `hand_in` a HandInputs (the hand, its table and the
    ruleset), `model_in` a ModelInputs (draws, ron_discards, hazard, extra), `risk` a Risk
    (deal_in, loss, growth) and `out` the Figures written (out_ready, out_win, out_score):

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
    table, counts, meld_counts, n_melds, melds, total, visible, seat, prevalent, rules, minimum, flowers = hand_in
    draws, ron_discards, hazard, extra = model_in
    deal_in, loss, growth = risk
    out_ready, out_win, out_score = out
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
    setting = Setting(table, meld_counts, n_melds, melds, fixed, hand, seat, prevalent, rules, minimum, flowers)
    model = Model(budget, ron_discards, deal_in, loss)
    n13 = _graph_values(roots, root_dist, root_mask, n_roots, setting, model, extra, draws, hazard, growth, stop, ready,
                        win, score, work)
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
