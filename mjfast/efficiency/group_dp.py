"""Distances of one tile group (a suit, or the honours) to every partial regular target.

A *group* is 9 suit tiles (chows allowed) or the 7 honours (no chows). For a group's counts
`c` and per-tile limits `caps` (4 minus the copies locked in the hand's own melds), the
distance to "m sets and p pairs inside this group" is the fewest tiles that must be added so
that some choice of m sets and p pairs fits in the group, no tile used more than its cap:

    dist[p, m] = min over targets T (m sets, p pairs, T <= caps) of sum(max(0, T - c))

Entries are stored flat as ``p * 5 + m`` (10 values); impossible targets get INF.
Alongside each distance, `masks[p, m]` has bit j set when drawing tile j lowers it by one,
and `keeps[p, m]` when discarding tile j (held) leaves it as it is: the move masks.

`group_distances` is the single definition of these numbers: the lookup tables are built by
it (tables/build.py) and it is called directly at run time for a group whose caps are below 4.
"""

import numpy as np

from ..runtime.decorators import njit

INF = 99
N_ENTRIES = 10  # p in 0..1, m in 0..4
MAX_GROUP_TILES = 14  # a hand never holds more standing tiles than this

# DP state: sets begun so far (0..4), pairs (0..1), chows begun at the previous rank (0..4),
# chows begun two ranks back (0..4), packed as ((m * 2 + p) * 5 + a) * 5 + b.
_N_STATES = 5 * 2 * 5 * 5


@njit
def _dp_rank(cur, nxt, i, n, have, cap, chows, max_sets):
    """One rank of the dynamic programme: the states after tile i (held `have` times, usable
    `cap` times) of a group of n tiles, into nxt, from the states before it in cur. States
    with more than max_sets sets are left out (INF)."""
    nxt[:] = INF
    max_new_runs = max_sets if (chows and i + 2 < n) else 0
    for m in range(max_sets + 1):
        for p in range(2):
            for a in range(5):
                # runs begun at i-1 and i-2 both need tile i: more of them than the cap
                # allows ends every path through these states
                for b in range(min(5, cap - a + 1)):
                    base_cost = cur[((m * 2 + p) * 5 + a) * 5 + b]
                    if base_cost >= INF:
                        continue
                    through = a + b
                    for q in range(2):  # a pung of tile i
                        for r in range(2 - p):  # the pair on tile i
                            for x in range(max_new_runs + 1):  # runs begun at tile i
                                m2 = m + x + q
                                use = through + x + 3 * q + 2 * r
                                if m2 > max_sets or use > cap:
                                    break
                                cost = base_cost + (use - have if use > have else 0)
                                ns = ((m2 * 2 + p + r) * 5 + x) * 5 + a
                                if cost < nxt[ns]:
                                    nxt[ns] = cost


@njit
def _dp_result(last, out):
    """The distances from the states after the last tile: no runs may be left open."""
    for k in range(N_ENTRIES):
        out[k] = INF
    for m in range(5):
        for p in range(2):
            v = last[(m * 2 + p) * 25]
            if v < INF:
                out[p * 5 + m] = v


@njit(cache=True, nrt=True)  # allocates: callable from kernels compiled without reference counting
def group_distances(counts, caps, chows, out, max_sets=4):
    """Fill out[p*5+m] with the distance of the group to m sets + p pairs (see module doc).

    counts, caps: int arrays of the group's tiles; chows: whether runs are allowed.
    max_sets: entries with more sets are left INF (a hand with melds needs fewer sets, and
    the DP's states shrink with them).
    Dynamic programme over ranks; the state carries the runs still waiting for tiles.
    """
    n = counts.shape[0]
    cur = np.full(_N_STATES, INF, np.int32)
    nxt = np.empty(_N_STATES, np.int32)
    cur[0] = 0
    for i in range(n):
        _dp_rank(cur, nxt, i, n, counts[i], caps[i], chows, max_sets)
        cur, nxt = nxt, cur
    _dp_result(cur, out)


@njit(shared=True, nrt=True)  # allocates: callable from kernels compiled without reference counting
def group_distances_and_masks(counts, caps, chows, dist, masks, keeps, max_sets=4):
    """group_distances plus, per entry, two tile masks: `masks`, the tiles whose draw lowers it
    by one; `keeps`, the tiles held whose discard leaves it as it is (a discard never lowers
    a distance, and raises it by one at most).

    Each tile j's probes (the group with one more j, and with one fewer) share the states
    before rank j with the group's own run, so they start there: 45 rank steps for the nine
    probes of each kind instead of 81."""
    n = counts.shape[0]
    before = np.empty((n + 1, _N_STATES), np.int32)  # before[i]: the states before tile i
    before[0, :] = INF
    before[0, 0] = 0
    for i in range(n):
        _dp_rank(before[i], before[i + 1], i, n, counts[i], caps[i], chows, max_sets)
    _dp_result(before[n], dist)
    probe = np.empty(N_ENTRIES, np.int32)
    cur = np.empty(_N_STATES, np.int32)
    nxt = np.empty(_N_STATES, np.int32)
    for k in range(N_ENTRIES):
        masks[k] = 0
        keeps[k] = 0
    for j in range(n):
        for change in (1, -1):
            if (change == 1 and counts[j] >= caps[j]) or (change == -1 and counts[j] == 0):
                continue
            _dp_rank(before[j], cur, j, n, counts[j] + change, caps[j], chows, max_sets)
            for i in range(j + 1, n):
                _dp_rank(cur, nxt, i, n, counts[i], caps[i], chows, max_sets)
                cur, nxt = nxt, cur
            _dp_result(cur, probe)
            for k in range(N_ENTRIES):
                if change == 1 and probe[k] < dist[k]:
                    masks[k] |= 1 << j
                elif change == -1 and probe[k] == dist[k] and dist[k] < INF:
                    keeps[k] |= 1 << j


def count_patterns(n_digits: int, budget: int = MAX_GROUP_TILES) -> np.ndarray:
    """ways[k, b] = number of k-digit patterns (digits 0..4) with digit sum <= b."""
    ways = np.zeros((n_digits + 1, budget + 1), np.int64)
    ways[0, :] = 1
    for k in range(1, n_digits + 1):
        for b in range(budget + 1):
            ways[k, b] = sum(ways[k - 1, b - v] for v in range(5) if b - v >= 0)
    return ways


def rank_offsets(n_digits: int, budget: int = MAX_GROUP_TILES) -> np.ndarray:
    """offsets[i, s, c]: added to a pattern's rank when digit i is c after a prefix sum of s.

    The rank of a pattern is its position in the lexicographic list of all patterns whose
    digit sum is at most `budget`, so the tables hold only patterns a hand can have
    (405,350 for a suit instead of 5**9).
    """
    ways = count_patterns(n_digits, budget)
    off = np.zeros((n_digits, budget + 1, 5), np.int32)
    for i in range(n_digits):
        rest = n_digits - 1 - i
        for s in range(budget + 1):
            acc = 0
            for c in range(5):
                off[i, s, c] = acc
                left = budget - s - c
                acc += ways[rest, left] if left >= 0 else 0
    return off


def enumerate_patterns(n_digits: int, budget: int = MAX_GROUP_TILES) -> np.ndarray:
    """All patterns with digit sum <= budget, in rank order, as an (N, n_digits) uint8 array."""
    rows: list[tuple[int, ...]] = []

    def walk(prefix: list[int], left: int) -> None:
        if len(prefix) == n_digits:
            rows.append(tuple(prefix))
            return
        for c in range(min(4, left) + 1):
            prefix.append(c)
            walk(prefix, left - c)
            prefix.pop()

    walk([], budget)
    return np.asarray(rows, dtype=np.uint8)


@njit(cache=True)  # tables/build.py calls it from Python
def merge_rows(a, b, out):
    """out = the distances of two disjoint groups taken together: each entry the best split
    of its pairs and sets between them (a min-plus merge of two rows; all entries finite).
    tables/build.py merges the suits' rows with it, once for all (lookup.merged_class)."""
    for m in range(5):
        best0 = INF
        best1 = INF
        for i in range(m + 1):
            best0 = min(best0, a[i] + b[m - i])
            best1 = min(best1, a[5 + i] + b[m - i], a[i] + b[5 + m - i])
        out[m] = best0
        out[5 + m] = best1
