"""The backward pass over the draws left (docs/value-engine.md): every figure of every root for
every number of draws at once, each node's value for k draws from its children's for k - 1."""

import numpy as np

from ...efficiency.status import OK
from ...runtime.decorators import njit
from ...runtime.intrinsics import atomic_load
from .graph import MAX_DEPTH, N13, N14, STOPPED


@njit
def fold_value(model, draws):
    """The expected score of folding with `draws` left (no win, no deal-in): each round the
    race (model.hazard) may end the hand at a cost of model.ending; 0 without the race."""
    value = 0.0
    for k in range(1, draws + 1):
        h = model.hazard[model.draws - k]
        value = (1.0 - h) * value - h * model.ending
    return value


@njit(nrt=True)  # as build.build_graph: only the entry kernel calls it
def values_by_draws(graph, n_roots, query, figures, out_nodes, stop, played_open, claims):
    """The backward pass over the query's draws, with its danger (query.risk: deal_in, loss,
    growth), the hands priced as they are or as played open (`played_open`, the graph's *_open
    columns), with the claims of the graph's edges or without (`claims`): into `figures`
    (out_ready, out_win, out_score), for every root r and k = 1..draws draws left,
    out_ready[r, k-1] = the probability of being ready with a wait that can win within k
    draws, out_win[r, k-1] = of a valid win within them; out_score[r] = the expected score of
    the win with `draws` left, less the expected cost of dealing in. Each figure with its own
    optimal policy (each later discard the one that maximises it; the score's may fold, see
    the module doc of entry.py). The model is the same at every draw but for the danger's
    growth (the discard after the draw made with k left is growth[draws - k + 1] x as
    dangerous as now), so the values for k draws left come from those for k - 1.

    Each node's three figures are kept side by side (one cache line a child read), and each
    draw's pass goes only over the hands it can change: those the draws made before can reach
    (depth at most draws - k; nodes and 14-tile hands are made a depth at a time, so these
    are a prefix of each) and that can be ready within the k draws left (deficiency at most
    k + 1: the others' figures are still 0). out_nodes, if it has room ((2, draws + 1, n13)),
    gets every node's win probability and expected score for k = 0..draws, where the draws
    can reach it (the tests' view of the policy). Returns OK, or STOPPED when stop[0] was
    raised (read before every draw)."""
    draws, hazard, ending = query.model.draws, query.model.hazard, query.model.ending
    deal_in, loss, growth = query.risk
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
    fold = 0.0  # folding's figure with k draws left: no win, no deal-in, the race's other endings
    keep_nodes = out_nodes.shape[2] >= n13
    if keep_nodes:
        out_nodes[:, 0, :n13] = 0.0
    for k in range(1, draws + 1):
        if atomic_load(stop) != 0:
            return STOPPED
        reach = min(draws - k, MAX_DEPTH)
        last13, last14 = graph.first13[reach + 1], graph.first14[reach + 1]
        g = growth[draws - k + 1]
        h = hazard[draws - k]  # the race: the round before this draw ends the hand, at a cost of `ending`
        go_on = 1.0 - h
        fold = go_on * fold - h * ending
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
            if dist13[i] > k + 1:  # not ready within k - 1 draws, nor winning within k: it folds
                if ending != 0.0:  # (without the race folding is worth 0, as the buffers hold)
                    nxt[i, 2] = fold
                continue
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
            nxt[i, 2] = max(fold, ron * ron_score13[i] + (1.0 - ron) * (go_on * s - h * ending))
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
