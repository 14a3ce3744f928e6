"""The value graph: the hands the value model plays through (docs/value-engine.md), built
breadth first with each hand's moves read from the table's rows (efficiency.moves).

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

from ..efficiency.moves import Groups, kept_after_draw, load_groups, moves_after, new_groups
from ..efficiency.regular import meld_check_bits
from ..efficiency.status import OK
from ..fan.layout import WIN_SELF_DRAWN
from ..fan.settlement import winner_gain
from ..runtime.decorators import njit
from ..runtime.intrinsics import atomic_load, lowest_bit, prefetch
from .fan_aware import PLAYED_OPEN, hand_ranks, new_score_work, ranks_with, scored_points

FULL = -1  # the graph ran out of room: the caller gives it more
STOPPED = -2  # the caller's stop flag was raised (a deadline): no figures
SHORT = -3  # the hash slots in use must grow before the next node
# A hand's key: its counts as two base-5 numbers (the 27 suit tiles, the 7 honours); adding
# or removing tile t changes it by POW5[t].
POW5 = np.array([5 ** t for t in range(27)] + [5 ** t for t in range(7)], np.int64)
_SUIT_KEY = np.array([1] * 27 + [0] * 7, np.int64)  # which of the two numbers a tile is in
# A hash slot holds a hand's key, the honours' number (below 5^7, 17 bits) packed with the
# hand's index + 1 above it (0: an empty slot): one cache line read per probe.
_HONOURS_BITS = 17
_MIX0 = np.int64(-7046029254386353131)
_MIX1 = np.int64(-4417276706812531889)
_MIX2 = np.int64(-2989050862716231011)


class Setting(NamedTuple):
    """What scoring the graph's hands depends on, and what the player has seen: the lookup
    table, the melds (counts, number, packed), the copies fixed elsewhere (melds and tiles
    seen), the decision hand (its tiles discarded since count as seen), the winds, the
    ruleset and its minimum, the flowers, and `open_pricing`: nonzero to price every ready
    hand also as played open (claims in the continuation of a concealed hand)."""

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
    open_pricing: int


class Model(NamedTuple):
    """The model's bounds and danger as the graph needs them: the budget (shanten + draws a
    kept hand may reach), the discards by others a round, the danger of each tile now and
    the points dealing in costs (zeros: no danger), and the claims: claim_weight[0, t] and
    [1, t] turn tile t's share of the unseen tiles into the chance that a discard by another
    player is a t the hand can pung (any of three a round) or chow (the left player's one);
    no rows: no claims (advice.claim_rates)."""

    budget: int
    ron_discards: float
    deal_in: np.ndarray
    loss: np.ndarray
    claim_weight: np.ndarray


class Graph(NamedTuple):
    """The value graph, as columns with room to grow. 13-tile hands ("nodes", root i is node
    i): their counts, keys, depth (the fewest draws that reach them), deficiency (shanten + 1)
    and useful tiles; the chance of a win on another player's discard per round (ron) and its
    mean score; whether the hand is ready with a wait that can win (valid); the same three
    priced as played open (*_open, with Setting.open_pricing); the chance of a
    draw that can only be thrown back (stay), and over those draws the sums of p x deal_in
    and p x deal_in x loss of the tile (stay_risk, stay_cost); their draws, edges
    edge_start..edge_end, and claim_scale (0: no claims; else what turns the sum of its
    claims' chances into the chance of one in a round). Draws ("edges"): the 14-tile hand
    reached (-1 for a win or a draw that goes back), the draw's chance, the self-drawn win's
    score (0 for none; edge_win_open as played open), the tile drawn and the chance a round
    offers it as a claim instead.
    14-tile hands: their children child_start[j]..child_start[j + 1], the node each discard
    leaves and the tile it discards, and its sole child (-1 for two or more: whether a draw can
    go anywhere but back, read without its children). The hash slots of both kinds of hands, a bit
    set of the 14-tile hands' keys (most draws of a node at the edge make none: the bits
    answer them from the cache); where each depth's nodes and 14-tile hands begin (first13,
first14: by depth, the first index made at or beyond it; the hands are made a depth at a
time), and `sizes`, what is used of each column."""

    counts: np.ndarray
    keys: np.ndarray
    depth: np.ndarray
    dist: np.ndarray
    mask: np.ndarray
    ron: np.ndarray
    ron_score: np.ndarray
    valid: np.ndarray
    ron_open: np.ndarray
    ron_score_open: np.ndarray
    valid_open: np.ndarray
    stay: np.ndarray
    stay_risk: np.ndarray
    stay_cost: np.ndarray
    edge_start: np.ndarray
    edge_end: np.ndarray
    claim_scale: np.ndarray
    edge_hand14: np.ndarray
    edge_p: np.ndarray
    edge_win: np.ndarray
    edge_win_open: np.ndarray
    edge_tile: np.ndarray
    edge_claim: np.ndarray
    child_start: np.ndarray
    children: np.ndarray
    child_tile: np.ndarray
    sole: np.ndarray
    slots13: np.ndarray
    slots14: np.ndarray
    made14: np.ndarray
    first13: np.ndarray
    first14: np.ndarray
    sizes: np.ndarray


# Graph.sizes: the nodes, 14-tile hands, edges and children used, and the hash slots in use of
# each kind of hand (a power of two: the first slots of the arrays; the bit set uses 8 bits a
# 14-tile slot).
N13, N14, N_EDGES, N_CHILDREN, SPAN13, SPAN14 = 0, 1, 2, 3, 4, 5
FIRST_SPAN = 1024
# Slots in use that stay in the cache (256 KB): a node's lookups there are asked for one by one,
# without the bit set.
CACHED_SPAN = 1 << 14
# The most new hands one node's expansion makes: a 14-tile hand a draw, a node a discard of each.
MOST_NEW14 = 34
MOST_NEW13 = 34 * 14
MAX_DEPTH = 16  # deeper than any budget: a hand is at most 6 steps from ready, the exchanges 2 more


@njit(nrt=True, inline="always")
def _new_graph(capacity):
    """A graph with room for `capacity` nodes (2x as many 14-tile hands, 8x edges and
    children). Empty, not zeroed (a graph touches only the room it fills; every field of a
    node is set when it is made or expanded) but for the hash slots and bits. The edges and
    children, which the backward pass reads at every draw, are as narrow as their values
    allow: int32 indices, uint8 tiles, float32 win scores (integers: exact)."""
    cap13, cap14, cap_edges = capacity, 2 * capacity, 8 * capacity
    size13 = 1
    while size13 < 2 * cap13:
        size13 *= 2
    size14 = 1
    while size14 < 2 * cap14:
        size14 *= 2
    return Graph(np.empty((cap13, 34), np.uint8), np.empty((cap13, 2), np.int64), np.empty(cap13, np.int64),
                 np.empty(cap13, np.int64), np.empty(cap13, np.int64), np.empty(cap13, np.float64),
                 np.empty(cap13, np.float64), np.empty(cap13, np.bool_), np.empty(cap13, np.float64),
                 np.empty(cap13, np.float64), np.empty(cap13, np.bool_), np.empty(cap13, np.float64),
                 np.empty(cap13, np.float64), np.empty(cap13, np.float64), np.empty(cap13, np.int64),
                 np.empty(cap13, np.int64), np.empty(cap13, np.float64), np.empty(cap_edges, np.int32),
                 np.empty(cap_edges, np.float64), np.empty(cap_edges, np.float32), np.empty(cap_edges, np.float32),
                 np.empty(cap_edges, np.uint8), np.empty(cap_edges, np.float64), np.empty(cap14 + 1, np.int64),
                 np.empty(cap_edges, np.int32), np.empty(cap_edges, np.uint8), np.empty(cap14, np.int32),
                 np.zeros((size13, 2), np.int64), np.zeros((size14, 2), np.int64), np.zeros(8 * size14 // 64, np.int64),
                 np.zeros(MAX_DEPTH + 2, np.int64), np.zeros(MAX_DEPTH + 2, np.int64),
                 np.array([0, 0, 0, 0, min(FIRST_SPAN, size13), min(FIRST_SPAN, size14)], np.int64))


@njit(inline="always")
def _slot_hash(k0, k1):
    return k0 * _MIX0 ^ k1 * _MIX1  # wraps: a multiplicative hash


@njit(inline="always")
def _find(slots, span, k0, k1):
    """(index of the hand with this key or -1, the slot where it is or would go) among the
    first `span` slots."""
    s = (_slot_hash(k0, k1) >> 24) & (span - 1)
    while True:
        packed = slots[s, 1]
        if packed == 0:
            return -1, s
        if slots[s, 0] == k0 and packed & ((1 << _HONOURS_BITS) - 1) == k1:
            return (packed >> _HONOURS_BITS) - 1, s
        s = (s + 1) & (span - 1)


@njit(inline="always")
def _put(slots, s, k0, k1, index):
    slots[s, 0] = k0
    slots[s, 1] = k1 | ((index + 1) << _HONOURS_BITS)


@njit(inline="always")
def _bits_of(made, span, k0, k1):
    """The two bits of a 14-tile hand's key in the bit set `made` of 8 x `span` bits (word,
    bit of each)."""
    h = (k0 * _MIX2 ^ k1 * _MIX0) >> 16
    n = 8 * span
    a = h & (n - 1)
    b = (h >> 24) & (n - 1)
    return a >> 6, a & 63, b >> 6, b & 63


@njit(inline="always")
def _maybe_made(made, span, k0, k1):
    """False when no 14-tile hand with this key was made (True: perhaps one was)."""
    wa, ba, wb, bb = _bits_of(made, span, k0, k1)
    return (made[wa] >> ba) & 1 != 0 and (made[wb] >> bb) & 1 != 0


@njit(inline="always")
def _mark_made(made, span, k0, k1):
    wa, ba, wb, bb = _bits_of(made, span, k0, k1)
    made[wa] |= np.int64(1) << ba
    made[wb] |= np.int64(1) << bb


@njit(nrt=True)
def _rehash(slots, span, wider, made):
    """The slots in use grown from `span` to `wider` (their hands put again); with `made`,
    the 14-tile hands' bit set made again for the wider span."""
    held = slots[:span].copy()
    slots[:wider] = 0
    if made.shape[0]:
        made[:8 * wider // 64] = 0
    for s in range(span):
        packed = held[s, 1]
        if packed == 0:
            continue
        k0, k1 = held[s, 0], packed & ((1 << _HONOURS_BITS) - 1)
        _, at = _find(slots, wider, k0, k1)
        slots[at, 0] = k0
        slots[at, 1] = packed
        if made.shape[0]:
            _mark_made(made, wider, k0, k1)


@njit(inline="always")
def _short_of_room(graph):
    """Whether one node's expansion could fill the slots in use of either kind past half, and
    they can grow."""
    sizes = graph.sizes
    return ((2 * (sizes[N13] + MOST_NEW13) > sizes[SPAN13] and sizes[SPAN13] < graph.slots13.shape[0])
            or (2 * (sizes[N14] + MOST_NEW14) > sizes[SPAN14] and sizes[SPAN14] < graph.slots14.shape[0]))


@njit(nrt=True)
def _make_room(graph):
    """Widen the slots in use of either kind of hand that one node's expansion could fill past
    half (MOST_NEW13, MOST_NEW14), within the arrays (the capacity bounds the hands)."""
    sizes = graph.sizes
    while sizes[SPAN13] < graph.slots13.shape[0] and 2 * (sizes[N13] + MOST_NEW13) > sizes[SPAN13]:
        _rehash(graph.slots13, sizes[SPAN13], 2 * sizes[SPAN13], graph.made14[:0])
        sizes[SPAN13] *= 2
    while sizes[SPAN14] < graph.slots14.shape[0] and 2 * (sizes[N14] + MOST_NEW14) > sizes[SPAN14]:
        _rehash(graph.slots14, sizes[SPAN14], 2 * sizes[SPAN14], graph.made14)
        sizes[SPAN14] *= 2


@njit(inline="always")
def _new_node(graph, slot, k0, k1, hand, depth, dist, mask):
    """A new node (its room checked by the caller): the hand, its key, where the key is, its
    depth, deficiency and useful mask. Returns its index."""
    c = graph.sizes[N13]
    graph.sizes[N13] = c + 1
    _put(graph.slots13, slot, k0, k1, c)
    graph.keys[c, 0] = k0
    graph.keys[c, 1] = k1
    for t in range(34):
        graph.counts[c, t] = hand[t]
    graph.depth[c] = depth
    graph.dist[c] = dist
    graph.mask[c] = mask
    return c


@njit(inline="always")
def _take_row(sizes, which, capacity):
    """The next row of a bounded array whose rows in use sizes[which] counts, taken; -1
    when all `capacity` are."""
    n = sizes[which]
    if n >= capacity:
        return -1
    sizes[which] = n + 1
    return n


@njit(inline="always")
def _add_child(graph, node, tile):
    """A discard kept by the 14-tile hand being made: the node it leaves and the tile; False
    when the graph is full."""
    n = _take_row(graph.sizes, N_CHILDREN, graph.children.shape[0])
    if n >= 0:
        graph.children[n] = node
        graph.child_tile[n] = tile
    return n >= 0


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


@njit(inline="always")
def _ready_figures(i, graph, setting, model, room, total):
    """Node i's figures as a ready hand, priced as it is (valid, ron, ron_score; each wait's
    self-drawn win score in room.win_score) and, with setting.open_pricing, as played open
    (the *_open columns, room.win_score_open); none for a hand not ready."""
    _priced(i, graph, setting, model, room, total, 0, (graph.valid, graph.ron, graph.ron_score), room.win_score)
    if setting.open_pricing:
        _priced(i, graph, setting, model, room, total, PLAYED_OPEN,
                (graph.valid_open, graph.ron_open, graph.ron_score_open), room.win_score_open)


@njit(nrt=False)  # called twice for a concealed hand with claims: compiled once, not inlined twice
def _priced(i, graph, setting, model, room, total, opened, columns, win_score):
    """Node i's figures as a ready hand scored with the condition bits `opened` (0, or
    fan_aware.PLAYED_OPEN) into `columns`: whether a wait can win (valid), the chance of a win
    on another player's discard per round (ron) and its mean score; each wait's self-drawn
    win score into `win_score` (0 elsewhere)."""
    valid, ron, ron_score = columns
    hand, unseen = room.hand, room.unseen
    for t in range(34):
        win_score[t] = 0.0
    valid[i] = False
    ron[i] = 0.0
    ron_score[i] = 0.0
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
        on_discard = scored_points(setting.table, hand, won_suits, won_honours, setting.melds, w, opened,
                                   setting.seat, setting.prevalent, setting.rules, room.out, room.fan_work,
                                   room.score_vec, room.work)[0]
        self_drawn = scored_points(setting.table, hand, won_suits, won_honours, setting.melds, w,
                                   WIN_SELF_DRAWN | opened, setting.seat, setting.prevalent, setting.rules,
                                   room.out, room.fan_work, room.score_vec, room.work)[0]
        hand[w] -= 1
        if on_discard >= setting.minimum:
            ron_copies += unseen[w]
            ron_total += unseen[w] * winner_gain(on_discard + setting.flowers, False)
            valid[i] = True
        if self_drawn >= setting.minimum:
            win_score[w] = winner_gain(self_drawn + setting.flowers, True)
            valid[i] = True
    if ron_copies > 0:
        ron[i] = 1.0 - (1.0 - ron_copies / total) ** model.ron_discards
        ron_score[i] = ron_total / ron_copies


class Roots(NamedTuple):
    """The hands a graph starts from (3n+1, 34 counts each, the first n rows of `hands`) with
    their deficiencies and useful masks."""

    hands: np.ndarray
    dist: np.ndarray
    mask: np.ndarray
    n: int


class Room(NamedTuple):
    """A build's working arrays: the hand being expanded, its unseen copies, each draw's
    self-drawn win score (as it is and as played open), the melds' check bits, the node's groups and their moves
    (efficiency.moves.Groups), the draws' 14-tile keys and whether to look them up, the fan
    scorer's work."""

    hand: np.ndarray
    unseen: np.ndarray
    win_score: np.ndarray
    win_score_open: np.ndarray
    check_bits: np.ndarray
    groups: Groups
    draw_keys: np.ndarray
    out: np.ndarray
    fan_work: np.ndarray
    score_vec: np.ndarray
    work: np.ndarray


@njit(nrt=True)
def new_room(meld_counts, work):
    out, fan_work, score_vec = new_score_work()
    check = np.empty(1, np.int64)
    check[0] = meld_check_bits(meld_counts)
    return Room(np.empty(34, np.int64), np.empty(34, np.int64), np.zeros(34, np.float64), np.zeros(34, np.float64),
                check, new_groups(),
                np.empty((34, 3), np.int64), out, fan_work, score_vec, work)


@njit(nrt=True)  # only hand_values calls it: linked into its library, not compiled on its own
def build_graph(roots, setting, model, capacity, stop, work):
    """The graph of the model from the Roots, within model.budget. Returns (status, Graph): FULL when it needs more than
    `capacity` nodes (the caller retries with more), STOPPED as soon as stop[0] is nonzero.
    A depth at a time: first the nodes with room in the budget, whose 14-tile hands take the
    discards of that depth, then those at its edge, which make only their useful draws'."""
    graph = _new_graph(capacity)
    if roots.n > capacity:
        return FULL, graph
    for r in range(roots.n):
        k0, k1 = _hand_key(roots.hands[r])
        _, s = _find(graph.slots13, graph.sizes[SPAN13], k0, k1)
        _new_node(graph, s, k0, k1, roots.hands[r], 0, roots.dist[r], roots.mask[r])
    room = new_room(setting.meld_counts, work)
    level = depth = 0
    while level < graph.sizes[N13]:
        graph.first13[depth] = level
        graph.first14[depth] = graph.sizes[N14]
        depth += 1
        level_end = graph.sizes[N13]
        for at_edge in (False, True):
            i = level
            while True:
                status, i = _expand_nodes(i, level_end, at_edge, graph, setting, model, room, stop)
                if status != SHORT:
                    break
                _make_room(graph)
            if status != OK:
                return status, graph
        level = level_end
    for d in range(depth, MAX_DEPTH + 2):
        graph.first13[d] = graph.sizes[N13]
        graph.first14[d] = graph.sizes[N14]
    return OK, graph


@njit(nrt=False)  # one call a pass over a depth's nodes: a call a node would count references to every array
def _expand_nodes(first, last, at_edge, graph, setting, model, room, stop):
    """_expand the nodes first..last-1 that are at the budget's edge (at_edge) or within it.
    Returns (OK, last), or (status, the node it stopped at): SHORT when the hash slots in
    use must grow first (the caller grows them, which allocates, and goes on from there),
    FULL when the graph is full, STOPPED when stop[0] was raised (read before every node)."""
    for i in range(first, last):
        if atomic_load(stop) != 0:
            return STOPPED, i
        if (graph.dist[i] - 1 + graph.depth[i] >= model.budget) == at_edge:
            if _short_of_room(graph):
                return SHORT, i
            status = _expand(i, graph, setting, model, room)
            if status != OK:
                return status, i
    return OK, last


@njit(inline="always")
def _draw_key(k0, k1, u):
    """The key of a hand with key (k0, k1) and one more u."""
    return k0 + POW5[u] * _SUIT_KEY[u], k1 + POW5[u] * (1 - _SUIT_KEY[u])


@njit(inline="always")
def _makes(graph, i, u, at_edge, ready):
    """Whether node i's draw u makes its 14-tile hand when missing: within the budget every
    draw does, at its edge only a useful draw of a hand not ready."""
    return not at_edge or ((graph.mask[i] >> u) & 1 and not ready)


@njit(nrt=False)
def _expand(i, graph, setting, model, room):
    """Node i's ready figures and its draws: each the win, a hand that can only go back
    (stay), or an edge to the 14-tile hand it makes (made the first time, _new_hand14).
    Returns OK, or FULL when the graph is full.

    The lookups of a large graph's draws miss the cache (the hash slots are megabytes): their
    cache lines are asked for all at once first (the bit set's, then the slots' of the draws
    that may have a hand), so that the misses overlap."""
    hand, unseen, win_score, keys = room.hand, room.unseen, room.win_score, room.draw_keys
    for t in range(34):
        hand[t] = graph.counts[i, t]
    total = _unseen(hand, setting.fixed, setting.reference, unseen)
    _ready_figures(i, graph, setting, model, room, total)
    ready = graph.dist[i] == 1
    at_edge = graph.dist[i] - 1 + graph.depth[i] >= model.budget
    span14 = graph.sizes[SPAN14]
    cached = span14 <= CACHED_SPAN  # small slots: the lookups hit the cache, nothing to ask for first
    if not cached:
        for u in range(34):
            if unseen[u] > 0:
                keys[u, 0], keys[u, 1] = _draw_key(graph.keys[i, 0], graph.keys[i, 1], u)
                wa, _, wb, _ = _bits_of(graph.made14, span14, keys[u, 0], keys[u, 1])
                prefetch(graph.made14, wa)
                prefetch(graph.made14, wb)
        for u in range(34):
            if unseen[u] > 0:
                # 2: looked up and made if missing; 1: looked up; 0: certainly missing (the bit set)
                keys[u, 2] = 2 if _makes(graph, i, u, at_edge, ready) else (
                    1 if _maybe_made(graph.made14, span14, keys[u, 0], keys[u, 1]) else 0)
                if keys[u, 2]:
                    prefetch(graph.slots14, (_slot_hash(keys[u, 0], keys[u, 1]) >> 24) & (span14 - 1))
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
            k0, k1 = _draw_key(graph.keys[i, 0], graph.keys[i, 1], u)
            lookup = 2 if _makes(graph, i, u, at_edge, ready) else 1
        else:
            k0, k1, lookup = keys[u, 0], keys[u, 1], keys[u, 2]
        j = -1
        if lookup:
            j, s = _find(graph.slots14, span14, k0, k1)
            if j < 0 and lookup == 2:
                if graph.sizes[N14] >= graph.sole.shape[0]:
                    return FULL
                if not loaded:
                    load_groups(setting.table, hand, setting.meld_counts, room.check_bits[0], 4 - setting.n_melds,
                                room.groups.rows, room.groups.classes, room.work)
                    loaded = True
                j = _new_hand14(i, u, s, k0, k1, graph, setting, model, room)
                if j < 0:
                    return FULL
        goes_on = win_score[u] > 0.0  # the win, or somewhere but back to this hand
        if j >= 0 and not goes_on:
            sole = graph.sole[j]
            goes_on = sole == -1 or (sole >= 0 and sole != i)
        if not goes_on:  # every discard kept after this draw goes back: the hand stays
            stay += p
            stay_risk += p * model.deal_in[u]
            stay_cost += p * model.deal_in[u] * model.loss[u]
            continue
        e = _take_row(graph.sizes, N_EDGES, graph.edge_hand14.shape[0])
        if e < 0:
            return FULL
        graph.edge_hand14[e] = j
        graph.edge_p[e] = p
        graph.edge_win[e] = win_score[u]
        if setting.open_pricing:
            graph.edge_win_open[e] = room.win_score_open[u]
        graph.edge_tile[e] = u
        if model.claim_weight.shape[0]:
            claim = 0.0 if ready or not (graph.mask[i] >> u) & 1 else _claim_chance(hand, u, p, model.claim_weight)
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
def _new_hand14(i, u, slot, k0, k1, graph, setting, model, room):
    """The 14-tile hand node i makes by drawing u (its key k0, k1 going to hash slot `slot`)
    and the discards it keeps: those that leave a node within the budget at the next depth
    (target: shanten + 1 at most budget - depth). The least deficiency a discard leaves is
    the node's less one where u is useful; every discard leaves it or one more, so where the
    target allows one more every discard is kept, else the rows' keeps say which. New nodes
    are made as needed. Returns its index, or -1 when the graph is full."""
    j = graph.sizes[N14]
    graph.sizes[N14] = j + 1
    _put(graph.slots14, slot, k0, k1, j)
    _mark_made(graph.made14, graph.sizes[SPAN14], k0, k1)
    graph.child_start[j] = graph.sizes[N_CHILDREN]
    hand, d = room.hand, graph.depth[i]
    target = model.budget - d
    least = graph.dist[i] - 1 if (graph.mask[i] >> u) & 1 and graph.dist[i] > 1 else graph.dist[i]
    hand[u] += 1
    if target > least:
        kept = np.int64(0)
        for t in range(34):
            if hand[t]:
                kept |= np.int64(1) << t
    else:
        kept = kept_after_draw(setting.table, hand, setting.meld_counts, setting.n_melds, room.check_bits[0],
                               room.groups, u, room.work)
    while kept:
        k = lowest_bit(kept)
        kept &= kept - 1
        c0 = k0 - POW5[k] * _SUIT_KEY[k]
        c1 = k1 - POW5[k] * (1 - _SUIT_KEY[k])
        c, cs = _find(graph.slots13, graph.sizes[SPAN13], c0, c1)
        if c < 0:
            if graph.sizes[N13] >= graph.counts.shape[0]:
                hand[u] -= 1
                return -1
            hand[k] -= 1
            dist, mask = moves_after(setting.table, hand, setting.meld_counts, setting.n_melds, room.check_bits[0],
                                     room.groups, u, k, room.work)
            c = _new_node(graph, cs, c0, c1, hand, d + 1, dist, mask)
            hand[k] += 1
        if not _add_child(graph, c, k):
            hand[u] -= 1
            return -1
    hand[u] -= 1
    first, end = graph.child_start[j], graph.sizes[N_CHILDREN]
    graph.child_start[j + 1] = end
    graph.sole[j] = graph.children[first] if end - first == 1 else (-1 if end > first else -2)
    return j
