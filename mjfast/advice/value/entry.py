"""The value engine's entry kernel: for every discard of a hand, the probability of being ready
with a wait that can win, the probability of a valid win, and the expected score of that win,
with the rest of the hand played to maximise each figure. docs/advice.md states the model; in
short:

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
- The danger (mjfast.advice.danger): a discard of tile x s draws from now deals in with
  probability growth[s] x deal_in[x], ending the game at a cost of loss[x] points; at every
  turn the player may instead fold (discard safe tiles to the end: no win, no cost), so that
  no hand's expected score is below 0. Without danger (zeros) the figures are those of the
  model without it.
- The continuation: after each draw, any discard (or a win); the hands considered are those
  within `extra` steps of the best route: a hand reached after d draws is kept when its
  shanten + d is at most the best discard's shanten + extra (exchanges that keep or lose a
  step are in the model, as MCR needs them: a ready hand short of 8 fans must change its
  waits). Throwing the drawn tile back is always allowed.
- Claims (advice.claim_rates): before each draw, a useful tile may be offered by another
  player's discard (a pung of a pair, a chow from the left), taken instead of the draw where
  that does better. A concealed hand is valued both kept concealed without claims and played
  open with them (scored without the concealed fans), each figure the better of the two.

Under that model the figures are exact: the graph of hands is built once (build.py), then one
backward pass over the draws left gives every figure for every number of draws at once
(backward.py), each with its own optimal policy.
"""

import numpy as np

from ...efficiency.group_dp import INF
from ...efficiency.moves import hand_moves, load_groups, move_groups, new_groups
from ...efficiency.one_hand import check_counts
from ...efficiency.regular import meld_check_bits
from ...efficiency.status import OK, SEEN_TOO_OFTEN
from ...fan.kernel import MELD_BITS
from ...runtime.decorators import njit
from ..win_scoring import PLAYED_OPEN
from .backward import fold_value, values_by_draws
from .build import build_graph
from .graph import MAX_HANDS, N13, STOPPED, TOO_LARGE, Roots, Scope

# Beyond this shanten the model's exchanges are left out (extra 0): the graph grows about
# tenfold a step (a median of 600,000 hands at four steps), and the figures are small.
MAX_EXCHANGE_SHANTEN = 3


@njit(nrt=True, inline="always")
def _graph_values(roots, query, scope, stop, figures, open_figures, work):
    """build.build_graph (with room enough) then backward.values_by_draws into `figures` (the
    hands priced as they are, with the model's claims if the hand is open: Scope.open_pricing
    0) and, with Scope.open_pricing, a second pass into `open_figures` (priced as played
    open, with the claims); the graph's number of 13-tile hands, or STOPPED, or TOO_LARGE when
    it would hold more than graph.MAX_HANDS. The room first
    given is about what such a budget needs (a build that runs out of room starts again with
    twice as much; room not filled costs nothing, see graph.new_graph): measured on random
    hands, the graph holds at most 134 hands of 13 tiles at budget 1, 1,029 at 2, 8,913 at 3,
    112,685 at 4 (25,466 without exchanges); on the real matches of tests/data, up to 133,622
    at 4 and 174,081 at 5 without exchanges."""
    capacity = 1 << max(6, min(18, 3 * scope.budget + 5 - (2 if scope.extra == 0 else 0)))  # 64 at least: the roots
    while True:
        status, graph = build_graph(roots, query, scope, capacity, stop, work)
        if status == OK:
            break
        if status == STOPPED:
            return STOPPED
        capacity *= 2
        if capacity > MAX_HANDS:
            return TOO_LARGE
    no_nodes = np.empty((2, 0, 0), np.float64)
    open_pass = scope.open_pricing != 0
    claims_now = query.model.claim_weight.shape[0] > 0 and not open_pass  # an open hand's claims, at its own prices
    if values_by_draws(graph, roots.n, query, figures, no_nodes, stop, False, claims_now) == STOPPED:
        return STOPPED
    if open_pass and values_by_draws(graph, roots.n, query, open_figures, no_nodes, stop, True, True) == STOPPED:
        return STOPPED
    return graph.sizes[N13]


@njit(nrt=True)
def _moves_of_discards(position, hand, work):
    """(deficiency, useful mask) of the 3n+1 hand each discard of the 3n+2 `hand` leaves
    (INF for kinds not held), or for a 3n+1 `hand`, its own in entry 0 (INF elsewhere)."""
    table, meld_counts, n_melds = position.table, position.meld_counts, position.n_melds
    dist = np.full(34, INF, np.int64)
    mask = np.zeros(34, np.int64)
    groups = new_groups()
    check_bits = meld_check_bits(meld_counts)
    n_sets = 4 - n_melds
    load_groups(table, hand, meld_counts, check_bits, n_sets, groups.rows, groups.classes, work)
    if position.total % 3 == 1:
        dist[0], mask[0] = hand_moves(table, hand, meld_counts, n_melds, groups.rows, groups.classes, groups.rest, work)
        return dist, mask
    for t in range(34):
        if hand[t] == 0:
            continue
        hand[t] -= 1
        move_groups(table, hand, meld_counts, check_bits, n_sets, groups, t, -1, work)  # t's group reloaded
        dist[t], mask[t] = hand_moves(table, hand, meld_counts, n_melds, groups.moved_rows, groups.moved_classes,
                                      groups.rest, work)
        hand[t] += 1
    return dist, mask


@njit(inline="always")
def _has_open_meld(melds, n_melds):
    """Whether the packed melds (fan.encode.pack_melds) hold one that is not a concealed kong."""
    for i in range(n_melds):
        if (melds >> (MELD_BITS * i + 8)) & 1:
            return True
    return False


@njit(cache=True, nogil=True)
def hand_values(query, stop, out, work):
    """The value figures (see the module doc) of a query.Query: its Position's hand of `total`
    tiles, melds counted as 3, under its Model and Risk, into the Figures `out` (out_ready,
    out_win, out_score):

    - 14, every discard: for each kind t held, out_ready[t, k] and out_win[t, k] within k + 1
      draws (k < draws) and out_score[t], the discard itself dealing in with probability
      deal_in[t]; for kinds not held 0, and for discards beyond the model's budget (more than
      `extra` steps behind the best discard) no win and the cost of dealing in now (a fold);
    - 13, the hand as it stands (a claim passed, or the hand after a kong before its
      replacement draw): row 0 of each.

    Beyond MAX_EXCHANGE_SHANTEN the figures leave exchanges out (a lower bound). A graph that
    would hold more than graph.MAX_HANDS hands gives status TOO_LARGE and no figures. The kernel
    stops as soon as stop[0] is nonzero, with status STOPPED and no figures: it runs without
    the GIL so that another thread can raise it at a deadline (`work` must then be its own).
    Returns (status, the `extra` used, the graph's 13-tile hands). One kernel for both, so
    that the graph's code is compiled once."""
    position, model, risk = query.position, query.model, query.risk
    counts, meld_counts, total = position.counts, position.meld_counts, position.total
    deal_in, loss = risk.deal_in, risk.loss
    draws = model.draws
    out_ready, out_win, out_score = out
    status = check_counts(counts, meld_counts, position.n_melds, total)
    if status != OK:
        return status, 0, 0
    fixed = np.empty(34, np.int64)
    for t in range(34):
        fixed[t] = np.int64(meld_counts[t]) + np.int64(position.visible[t])
        if fixed[t] + counts[t] > 4:
            return SEEN_TOO_OFTEN, 0, 0
    hand = counts.astype(np.int64)
    roots = np.empty((34, 34), np.int64)
    root_dist = np.empty(34, np.int64)
    root_mask = np.empty(34, np.int64)
    kind_of = np.zeros(34, np.int64)  # the row of each root's figures
    n_roots = 0
    dist, mask = _moves_of_discards(position, hand, work)
    best = INF
    for t in range(34):
        best = min(best, dist[t])
    # Beyond MAX_EXCHANGE_SHANTEN, the lower bound: the exchanges' graph grows tenfold a step
    extra = 0 if best - 1 > MAX_EXCHANGE_SHANTEN else model.extra
    budget = best - 1 + extra
    for t in range(34):  # the discards within the budget (for 13 tiles, the hand itself)
        if dist[t] < INF and dist[t] - 1 <= budget:
            roots[n_roots, :] = hand
            if total == 14:
                roots[n_roots, t] -= 1
            root_dist[n_roots] = dist[t]
            root_mask[n_roots] = mask[t]
            kind_of[n_roots] = t
            n_roots += 1
    fold = fold_value(model, draws)  # 0 without the race
    for t in range(34 if total == 14 else 1):  # a fold: the cost now only, then the race's other endings
        if total == 13:
            out_score[t] = fold
        else:
            out_score[t] = -deal_in[t] * loss[t] + (1.0 - deal_in[t]) * fold if counts[t] else 0.0
        for k in range(draws):
            out_ready[t, k] = 0.0
            out_win[t, k] = 0.0
    ready = np.zeros((n_roots, draws), np.float64)
    win = np.zeros((n_roots, draws), np.float64)
    score = np.zeros(n_roots, np.float64)
    # A concealed hand that may claim is valued twice on one graph: kept concealed without
    # claims, and played open with them (priced without its concealed fans); each figure the
    # better of the two. An open hand's claims change no fan of note: one pass, with them.
    concealed = model.claim_weight.shape[0] > 0 and not _has_open_meld(position.melds, position.n_melds)
    scope = Scope(extra, budget, fixed, hand, PLAYED_OPEN if concealed else 0)
    open_rows = n_roots if concealed else 0
    open_figures = (np.zeros((open_rows, draws)), np.zeros((open_rows, draws)), np.zeros(open_rows))
    n13 = _graph_values(Roots(roots, root_dist, root_mask, n_roots), query, scope, stop, (ready, win, score),
                        open_figures, work)
    if n13 == STOPPED or n13 == TOO_LARGE:
        return n13, extra, 0
    # Loops, not np.maximum: its code in a cached library loads numba's compiler set-up with
    # it (tests/runtime/test_kernel_cache.py).
    if concealed:
        open_ready, open_win, open_score = open_figures
        for r in range(n_roots):
            score[r] = max(score[r], open_score[r])
            for k in range(draws):
                ready[r, k] = max(ready[r, k], open_ready[r, k])
                win[r, k] = max(win[r, k], open_win[r, k])
    for r in range(n_roots):
        t = kind_of[r]
        safe = 1.0 - deal_in[t] if total == 14 else 1.0  # the discard now deals in, or the game goes on
        out_score[t] = safe * score[r] - (1.0 - safe) * loss[t]
        for k in range(draws):
            out_ready[t, k] = safe * ready[r, k]
            out_win[t, k] = safe * win[r, k]
    return OK, extra, n13
