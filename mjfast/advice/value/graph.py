"""The value graph's columns (docs/value-engine.md): the hands the value model plays through
and their draws and discards, in flat arrays with room to grow, and what a graph derives from
its query once (Scope). build.py fills it, pricing.py prices its ready hands, backward.py
reads it."""

from typing import NamedTuple

import numpy as np

from ...runtime.decorators import njit
from .slots import put_slot, rehash_slots

FULL = -1  # the graph ran out of room: the caller gives it more
STOPPED = -2  # the caller's stop flag was raised (a deadline): no figures
SHORT = -3  # the hash slots in use must grow before the next node
TOO_LARGE = -4  # the graph would hold more than MAX_HANDS hands of 13 tiles: no figures
MAX_HANDS = 1 << 18
"""The most 13-tile hands a graph may hold (its room is a power of two): about 150 MB at the
560 bytes a hand measured. The real decisions of tests/data need at most 174,081 (five steps
from ready); a hand six steps away can need two million (1.3 GB, 15 s)."""


class Scope(NamedTuple):
    """What a graph derives from its query once: the exchanges it follows (the model's extra,
    none beyond entry.MAX_EXCHANGE_SHANTEN), the budget (shanten + depth a kept hand may
    reach), the copies fixed elsewhere (melds and tiles seen), the decision hand (its tiles
    discarded since count as seen), and `open_pricing`: nonzero to price every ready hand also
    as played open (claims in the continuation of a concealed hand)."""

    extra: int
    budget: int
    fixed: np.ndarray
    reference: np.ndarray
    open_pricing: int


class Roots(NamedTuple):
    """The hands a graph starts from (3n+1, 34 counts each, the first n rows of `hands`) with
    their deficiencies and useful masks."""

    hands: np.ndarray
    dist: np.ndarray
    mask: np.ndarray
    n: int


class Graph(NamedTuple):
    """The value graph, as columns with room to grow. 13-tile hands ("nodes", root i is node
    i): their counts, keys, depth (the fewest draws that reach them), deficiency (shanten + 1)
    and useful tiles; the chance of a win on another player's discard per round (ron) and its
    mean score; whether the hand is ready with a wait that can win (valid); the same three
    priced as played open (*_open, with Scope.open_pricing); the chance of a draw that can
    only be thrown back (stay), and over those draws the sums of p x deal_in and p x deal_in x
    loss of the tile (stay_risk, stay_cost); their draws, edges edge_start..edge_end, and
    claim_scale (0: no claims; else what turns the sum of its claims' chances into the chance
    of one in a round). Draws ("edges"): the 14-tile hand reached (-1 for a win or a draw that
    goes back), the draw's chance, the self-drawn win's score (0 for none; edge_win_open as
    played open), the tile drawn and the chance a round offers it as a claim instead.
    14-tile hands: their children child_start[j]..child_start[j + 1], the node each discard
    leaves and the tile it discards, and its sole child (-1 for two or more: whether a draw can
    go anywhere but back, read without its children). The hash slots of both kinds of hands, a
    bit set of the 14-tile hands' keys (most draws of a node at the edge make none: the bits
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
def new_graph(capacity):
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
def short_of_room(graph):
    """Whether one node's expansion could fill the slots in use of either kind past half, and
    they can grow."""
    sizes = graph.sizes
    return ((2 * (sizes[N13] + MOST_NEW13) > sizes[SPAN13] and sizes[SPAN13] < graph.slots13.shape[0])
            or (2 * (sizes[N14] + MOST_NEW14) > sizes[SPAN14] and sizes[SPAN14] < graph.slots14.shape[0]))


@njit(nrt=True)
def make_room(graph):
    """Widen the slots in use of either kind of hand that one node's expansion could fill past
    half (MOST_NEW13, MOST_NEW14), within the arrays (the capacity bounds the hands)."""
    sizes = graph.sizes
    while sizes[SPAN13] < graph.slots13.shape[0] and 2 * (sizes[N13] + MOST_NEW13) > sizes[SPAN13]:
        rehash_slots(graph.slots13, sizes[SPAN13], 2 * sizes[SPAN13], graph.made14[:0])
        sizes[SPAN13] *= 2
    while sizes[SPAN14] < graph.slots14.shape[0] and 2 * (sizes[N14] + MOST_NEW14) > sizes[SPAN14]:
        rehash_slots(graph.slots14, sizes[SPAN14], 2 * sizes[SPAN14], graph.made14)
        sizes[SPAN14] *= 2


@njit(inline="always")
def new_node(graph, slot, k0, k1, hand, depth, dist, mask):
    """A new node (its room checked by the caller): the hand, its key, where the key is, its
    depth, deficiency and useful mask. Returns its index."""
    c = graph.sizes[N13]
    graph.sizes[N13] = c + 1
    put_slot(graph.slots13, slot, k0, k1, c)
    graph.keys[c, 0] = k0
    graph.keys[c, 1] = k1
    for t in range(34):
        graph.counts[c, t] = hand[t]
    graph.depth[c] = depth
    graph.dist[c] = dist
    graph.mask[c] = mask
    return c


@njit(inline="always")
def take_row(sizes, which, capacity):
    """The next row of a bounded array whose rows in use sizes[which] counts, taken; -1
    when all `capacity` are."""
    n = sizes[which]
    if n >= capacity:
        return -1
    sizes[which] = n + 1
    return n


@njit(inline="always")
def add_child(graph, node, tile):
    """A discard kept by the 14-tile hand being made: the node it leaves and the tile; False
    when the graph is full."""
    n = take_row(graph.sizes, N_CHILDREN, graph.children.shape[0])
    if n >= 0:
        graph.children[n] = node
        graph.child_tile[n] = tile
    return n >= 0
