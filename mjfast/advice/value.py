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
  waits). Throwing the drawn tile back is always allowed.
- Claims (advice.claim_rates): before each draw, a useful tile may be offered by another
  player's discard (a pung of a pair, a chow from the left), taken instead of the draw where
  that does better. A concealed hand is valued both kept concealed without claims and played
  open with them (scored without the concealed fans), each figure the better of the two.

Under that model the figures are exact: the graph of hands is built once (advice.graph), then
one backward pass over the draws left gives every figure for every number of draws at once
(values_by_draws), each with its own optimal policy.
"""

import numpy as np

from ..efficiency.group_dp import INF
from ..efficiency.moves import hand_moves, load_groups, move_groups, new_groups
from ..efficiency.one_hand import check_counts
from ..efficiency.regular import meld_check_bits
from ..efficiency.status import OK, SEEN_TOO_OFTEN
from ..fan.kernel import MELD_BITS
from ..runtime.decorators import njit
from ..runtime.intrinsics import atomic_load
from .fan_aware import PLAYED_OPEN
from .graph import MAX_DEPTH, N13, N14, STOPPED, Model, Roots, Setting, build_graph

# Beyond this shanten the model's exchanges are left out (extra 0): the graph grows about
# tenfold a step (a median of 600,000 hands at four steps), and the figures are small.
MAX_EXCHANGE_SHANTEN = 3


@njit(nrt=True)  # as graph.build_graph: only hand_values calls it
def values_by_draws(graph, n_roots, draws, hazard, risk, figures, out_nodes, stop, played_open, claims):
    """The backward pass over the draws left, the danger `risk` (deal_in, loss, growth), the
    hands priced as they are or as played open (`played_open`, the graph's *_open columns),
    with the claims of the graph's edges or without (`claims`): into
    `figures` (out_ready, out_win, out_score), for every root r and k = 1..draws draws left,
    out_ready[r, k-1] = the probability of being ready with a wait that can win within k
    draws, out_win[r, k-1] = of a valid win within them; out_score[r] = the expected score of
    the win with `draws` left, less the expected cost of dealing in. Each figure with its own
    optimal policy (each later discard the one that maximises it; the score's may fold, see
    the module doc). The model is the same at every draw but for the danger's growth (the
    discard after the draw made with k left is growth[draws - k + 1] x as dangerous as now),
    so the values for k draws left come from those for k - 1.

    Each node's three figures are kept side by side (one cache line a child read), and each
    draw's pass goes only over the hands it can change: those the draws made before can reach
    (depth at most draws - k; nodes and 14-tile hands are made a depth at a time, so these
    are a prefix of each) and that can be ready within the k draws left (deficiency at most
    k + 1: the others' figures are still 0). out_nodes, if it has room ((2, draws + 1, n13)),
    gets every node's win probability and expected score for k = 0..draws, where the draws
    can reach it (the tests' view of the policy). Returns OK, or STOPPED when stop[0] was
    raised (read before every draw)."""
    deal_in, loss, growth = risk
    out_ready, out_win, out_score = figures
    n13, n14 = graph.sizes[N13], graph.sizes[N14]
    stay13, stay_risk13, stay_cost13 = graph.stay, graph.stay_risk, graph.stay_cost
    valid13 = graph.valid_open if played_open else graph.valid
    edge_start, edge_end, edge_child, edge_p = graph.edge_start, graph.edge_end, graph.edge_hand14, graph.edge_p
    edge_win = graph.edge_win_open if played_open else graph.edge_win
    edge_tile, child_start, children, child_tile = graph.edge_tile, graph.child_start, graph.children, graph.child_tile
    edge_claim, claim_scale13 = graph.edge_claim, graph.claim_scale
    dist13 = graph.dist
    ron13, ron_score13 = (graph.ron_open, graph.ron_score_open) if played_open else (graph.ron, graph.ron_score)
    now = np.zeros((n13, 3), np.float64)  # ready, win, score with k - 1 draws left
    nxt = np.zeros((n13, 3), np.float64)
    for i in range(n13):
        now[i, 0] = 1.0 if valid13[i] else 0.0
        nxt[i, 0] = now[i, 0]
    best = np.empty((n14, 3), np.float64)
    risk = np.empty(34, np.float64)  # this draw's discard: the chance it deals in, and its expected cost
    cost = np.empty(34, np.float64)
    go_on = 1.0 - hazard
    keep_nodes = out_nodes.shape[2] >= n13
    if keep_nodes:
        out_nodes[:, 0, :n13] = 0.0
    for k in range(1, draws + 1):
        if atomic_load(stop) != 0:
            return STOPPED
        reach = min(draws - k, MAX_DEPTH)
        last13, last14 = graph.first13[reach + 1], graph.first14[reach + 1]
        g = growth[draws - k + 1]
        for x in range(34):
            risk[x] = g * deal_in[x]
            cost[x] = risk[x] * loss[x]
        for j in range(last14):  # after a draw: the best discard kept, for each figure
            r = 0.0
            w = 0.0
            s = -np.inf
            for e in range(child_start[j], child_start[j + 1]):
                c = children[e]
                keep = 1.0 - risk[child_tile[e]]
                r = max(r, keep * now[c, 0])
                w = max(w, keep * now[c, 1])
                s = max(s, keep * now[c, 2] - cost[child_tile[e]])
            best[j, 0] = r
            best[j, 1] = w
            best[j, 2] = s
        for i in range(last13):
            if dist13[i] > k + 1:
                continue  # not ready within k - 1 draws, nor winning within k: its figures stay 0
            stay = stay13[i] - g * stay_risk13[i]  # the draws thrown back, less the chance they deal in
            ready_i, win_i, score_i = now[i, 0], now[i, 1], now[i, 2]
            r = stay * ready_i
            w = stay * win_i
            s = stay * score_i - g * stay_cost13[i]
            for e in range(edge_start[i], edge_end[i]):
                j = edge_child[e]
                p = edge_p[e]
                won = edge_win[e]
                u = edge_tile[e]
                back = 1.0 - risk[u]  # throwing the drawn tile back: the hand stays, if it does not deal in
                if j < 0:  # the win, or back to this hand
                    r += p * back * ready_i
                    w += p * max(1.0 if won > 0.0 else 0.0, back * win_i)
                    s += p * max(won, back * score_i - cost[u])
                    continue
                r += p * max(best[j, 0], back * ready_i)
                w += p * max(1.0 if won > 0.0 else 0.0, best[j, 1], back * win_i)
                kept = max(best[j, 2], back * score_i - cost[u])  # a discard, at its danger
                s += p * (max(won, kept) if won > 0.0 else kept)
            if claims and claim_scale13[i] > 0.0:  # a claim instead of the draw, where it does better
                gain_r = gain_w = gain_s = 0.0
                for e in range(edge_start[i], edge_end[i]):
                    c = edge_claim[e]
                    if c > 0.0:
                        j = edge_child[e]
                        gain_r += c * max(0.0, best[j, 0] - r)
                        gain_w += c * max(0.0, best[j, 1] - w)
                        gain_s += c * max(0.0, best[j, 2] - s)
                scale = claim_scale13[i]
                r += scale * gain_r
                w += scale * gain_w
                s += scale * gain_s
            nxt[i, 0] = 1.0 if valid13[i] else r
            ron = ron13[i]
            nxt[i, 1] = ron + (1.0 - ron) * go_on * w
            nxt[i, 2] = max(0.0, ron * ron_score13[i] + (1.0 - ron) * go_on * s)  # or fold
        now, nxt = nxt, now
        for r_ in range(n_roots):
            out_ready[r_, k - 1] = now[r_, 0]
            out_win[r_, k - 1] = now[r_, 1]
        if keep_nodes:
            for i in range(n13):
                out_nodes[0, k, i] = now[i, 1]
                out_nodes[1, k, i] = now[i, 2]
    for r_ in range(n_roots):
        out_score[r_] = now[r_, 2]
    return OK


@njit(nrt=True, inline="always")
def _graph_values(roots, setting, model, extra, draws, hazard, growth, stop, figures, open_figures, work):
    """advice.graph.build_graph (with room enough) then values_by_draws into `figures` (the
    hands priced as they are, with the model's claims if the hand is open: Setting.open_pricing
    0) and, with Setting.open_pricing, a second pass into `open_figures` (priced as played
    open, with the claims); the graph's number of 13-tile hands, or STOPPED. The room first
    given is about what such a budget needs (a build that runs out of room starts again with
    twice as much; room not filled
    costs nothing, see advice.graph): measured on random hands, the graph holds at most 134
    hands of 13 tiles at budget 1, 1,029 at 2, 8,913 at 3, 112,685 at 4 (25,466 without
    exchanges); on the real matches of tests/data, up to 133,622 at 4 and 174,081 at 5
    without exchanges."""
    capacity = 1 << max(6, min(18, 3 * model.budget + 5 - (2 if extra == 0 else 0)))  # 64 at least: the roots
    while True:
        status, graph = build_graph(roots, setting, model, capacity, stop, work)
        if status == OK:
            break
        if status == STOPPED:
            return STOPPED
        capacity *= 2
    risk = (model.deal_in, model.loss, growth)
    no_nodes = np.empty((2, 0, 0), np.float64)
    open_pass = setting.open_pricing != 0
    claims_now = model.claim_weight.shape[0] > 0 and not open_pass  # an open hand's claims, at its own prices
    if values_by_draws(graph, roots.n, draws, hazard, risk, figures, no_nodes, stop, False, claims_now) == STOPPED:
        return STOPPED
    if open_pass and values_by_draws(graph, roots.n, draws, hazard, risk, open_figures, no_nodes, stop, True,
                                     True) == STOPPED:
        return STOPPED
    return graph.sizes[N13]


@njit(nrt=True)
def _moves_of_discards(table, hand, meld_counts, n_melds, total, work):
    """(deficiency, useful mask) of the 3n+1 hand each discard of the 3n+2 `hand` leaves
    (INF for kinds not held), or for a 3n+1 `hand`, its own in entry 0 (INF elsewhere)."""
    dist = np.full(34, INF, np.int64)
    mask = np.zeros(34, np.int64)
    groups = new_groups()
    check_bits = meld_check_bits(meld_counts)
    n_sets = 4 - n_melds
    load_groups(table, hand, meld_counts, check_bits, n_sets, groups.rows, groups.classes, work)
    if total % 3 == 1:
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
def hand_values(hand_in, model_in, risk, stop, out, work):
    """The value figures (see the module doc) of a hand of `total` tiles, melds counted as 3,
    its records advice.budget's: `hand_in` a HandInputs (the hand, its table and the
    ruleset), `model_in` a ModelInputs (draws, ron_discards, hazard, extra, the claims'
    weights: no rows for no claims), `risk` a Risk (deal_in, loss, growth) and `out` the
    Figures written (out_ready, out_win, out_score):

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
    draws, ron_discards, hazard, extra, claim_weight = model_in
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
    dist, mask = _moves_of_discards(table, hand, meld_counts, n_melds, total, work)
    best = INF
    for t in range(34):
        best = min(best, dist[t])
    if best - 1 > MAX_EXCHANGE_SHANTEN:
        extra = 0  # the exchanges' graph grows tenfold a step: further away, the lower bound
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
    for t in range(34 if total == 14 else 1):
        out_score[t] = -deal_in[t] * loss[t] if total == 14 and counts[t] else 0.0  # a fold: the cost now only
        for k in range(draws):
            out_ready[t, k] = 0.0
            out_win[t, k] = 0.0
    ready = np.zeros((n_roots, draws), np.float64)
    win = np.zeros((n_roots, draws), np.float64)
    score = np.zeros(n_roots, np.float64)
    # A concealed hand that may claim is valued twice on one graph: kept concealed without
    # claims, and played open with them (priced without its concealed fans); each figure the
    # better of the two. An open hand's claims change no fan of note: one pass, with them.
    concealed = claim_weight.shape[0] > 0 and not _has_open_meld(melds, n_melds)
    setting = Setting(table, meld_counts, n_melds, melds, fixed, hand, seat, prevalent, rules, minimum, flowers,
                      PLAYED_OPEN if concealed else 0)
    open_rows = n_roots if concealed else 0
    open_figures = (np.zeros((open_rows, draws)), np.zeros((open_rows, draws)), np.zeros(open_rows))
    n13 = _graph_values(Roots(roots, root_dist, root_mask, n_roots), setting,
                        Model(budget, ron_discards, deal_in, loss, claim_weight),
                        extra, draws, hazard, growth, stop,
                        (ready, win, score), open_figures, work)
    if n13 == STOPPED:
        return STOPPED, extra, 0
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
