"""The value figures (the value engine, mjfast/advice/value/), checked three ways:

- against a brute-force enumeration of the stated model (every draw, every discard, no graph)
  on small cases, where the graph's budget cannot cut a winning line (draws left at most the
  best shanten + 1): the figures agree to rounding;
- against a simulation of the model's own decision process on seeded draws (the graph's
  hands, its draw chances, the chances of a win on a discard, the play its values choose):
  the simulated win rate and mean score agree with the figures within four standard errors;
- and on what the figures must mean: certain wins, no win below 8 fans, more draws never
  lower a chance, the ranking by them, the claims.
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

import numpy as np
import pytest

import mjfast
from mjfast.advice.claim_rates import claim_weights
from mjfast.advice.model import ValueModel, draws_left
from mjfast.advice.value import backward, build, entry
from mjfast.advice.value import graph as G
from mjfast.advice.value.query import NO_CLAIMS, Figures, Model, Position, Query, Risk
from mjfast.efficiency import api
from mjfast.efficiency.discards import discard_sweep
from mjfast.fan import score
from mjfast.fan.ruleset import JUDGE
from mjfast.hand import Hand, parse_hand
from mjfast.runtime.decorators import njit
from mjfast.tiles import botzone_token, tile_id

from ..puzzles import agreement, load_puzzles


# build.build_graph and backward.values_by_draws are linked into hand_values only: the tests call them through these.
@njit(nrt=True, no_cpython_wrapper=False)
def _build(roots, query, scope, capacity, stop, work):
    return build.build_graph(roots, query, scope, capacity, stop, work)


@njit(nrt=True, no_cpython_wrapper=False)
def _values_by_draws(graph, n_roots, query, figures, out_nodes, stop):
    return backward.values_by_draws(graph, n_roots, query, figures, out_nodes, stop, False, True)

RON = 2.0
Points = namedtuple("Points", "points total")
HAZARD = 0.05


# --- the brute force --------------------------------------------------------------------------

class BruteForce:
    """The model of value.py written out as an expectimax over every draw and discard (no
    graph, no budget), memoised on (hand, draws left): the figures of a concealed 13-tile hand.
    `reference`: the decision hand (its tiles discarded since count as seen). With `risk`, a
    danger the same for every tile: a discard s draws from now (of `draws` in all) deals in
    with probability risk x growth[s] and costs `loss`; the player may fold before any draw.
    With `claims` (the 2 x 34 weights of advice.graph.Model.claim_weight), the claims of a hand
    not ready: before each draw a useful tile may be offered instead (a pung of a pair from
    any of three discards, a chow from the left player's), taken where it does better, the
    hand scored as played open (no 门前清 or 不求人, no concealed-only form). With `hazard`
    (one a draw, of `draws`) and `ending`, the race: the round before the draw s + 1 draws
    from now ends the hand with probability hazard[s], costing `ending` (folding too)."""

    def __init__(self, reference, visible=None, seat="E", prevalent="E", flowers=0, risk=0.0, loss=0.0,
                 growth=None, draws=0, claims=None, hazard=None, ending=0.0):
        self.claims = claims
        self.hazard = np.full(draws, HAZARD) if hazard is None else hazard  # a round's chance to end the hand
        self.ending = ending
        self.reference = np.array(reference, np.int64)
        self.fixed = np.zeros(34, np.int64) if visible is None else np.array(visible, np.int64)
        self.conditions = dict(seat_wind=seat, prevalent_wind=prevalent, flowers=flowers)
        self.risk, self.loss, self.draws = risk, loss, draws
        self.growth = np.ones(draws + 1) if growth is None else growth
        self._ready = lru_cache(maxsize=None)(self._ready)
        self.ready_chance = lru_cache(maxsize=None)(self.ready_chance)
        self.win_and_score = lru_cache(maxsize=None)(self.win_and_score)

    def unseen(self, hand):
        return np.maximum(0, 4 - self.fixed - np.maximum(hand, self.reference))

    def _ready(self, key):
        """(can win, ron copies, ron score total, {wait: self-drawn score}) of a 13-tile hand."""
        hand = np.frombuffer(key, np.int64)
        unseen = self.unseen(hand)
        if mjfast.shanten(hand.astype(np.uint8)) != 0:
            return False, 0, 0.0, {}
        can_win, copies, total, self_drawn = False, 0, 0.0, {}
        for w in mjfast.waits(hand.astype(np.uint8)):
            t = mjfast.parse_tiles(w)[0]
            if unseen[t] <= 0:
                continue
            won = hand.copy()
            won[t] += 1
            text = Hand(won.astype(np.uint8), (), t)
            on_discard = self.played(score(text, **self.conditions))
            by_self = self.played(score(text, self_drawn=True, **self.conditions))
            if on_discard.points >= 8:
                can_win, copies, total = True, copies + unseen[t], total + unseen[t] * (24 + on_discard.total)
            if by_self.points >= 8:
                can_win = True
                self_drawn[t] = 3.0 * (8 + by_self.total)
        return can_win, copies, total, self_drawn

    def played(self, result):
        """(points, total) of a FanResult, as an open hand's when the hand may claim."""
        points, total = result.points, result.total
        if self.claims is not None:
            names = [f.name_en for f in result.fans]
            concealed_only = {"Seven Pairs", "Seven Shifted Pairs", "Thirteen Orphans", "Nine Gates",
                              "Greater Honors and Knitted Tiles", "Lesser Honors and Knitted Tiles"}
            if concealed_only & set(names):
                return Points(-1, -1)
            lost = 2 * names.count("Concealed Hand") + 3 * names.count("Fully Concealed Hand")
            points, total = points - lost, total - lost
        return Points(points, total)

    def with_claims(self, hand, unseen, figures, draw):
        """The figures of a draw, `draw`, with the claims that beat it; figures[u]: after u."""
        if self.claims is None or mjfast.shanten(hand.astype(np.uint8)) == 0:
            return draw
        n = unseen.sum()
        chances = []
        for u in np.flatnonzero(unseen):
            more = hand.copy()
            more[u] += 1
            if mjfast.shanten(more.astype(np.uint8)) >= mjfast.shanten(hand.astype(np.uint8)):
                continue  # not useful
            share = unseen[u] / n
            if hand[u] >= 2:
                c = 1 - (1 - self.claims[0, u] * share) ** 3
            elif u < 27 and any(0 <= u % 9 + a and u % 9 + b <= 8 and hand[u + a] and hand[u + b]
                                for a, b in ((-2, -1), (-1, 1), (1, 2))):
                c = self.claims[1, u] * share
            else:
                continue
            chances.append((c, figures[u]))
        if not chances:
            return draw
        total = sum(c for c, _ in chances)
        scale = (1 - np.prod([1 - c for c, _ in chances])) / total
        return tuple(d + scale * sum(c * max(0.0, f[i] - d) for c, f in chances) for i, d in enumerate(draw))

    def ready_chance(self, key, k):
        """The chance that the 13-tile hand `key` is ready with a wait that can win within k draws."""
        if self._ready(key)[0]:
            return 1.0
        if k == 0:
            return 0.0
        hand = np.frombuffer(key, np.int64)
        unseen = self.unseen(hand)
        chance = 0.0
        after_draw = {}
        for u in np.flatnonzero(unseen):
            drawn = hand.copy()
            drawn[u] += 1
            best = 0.0
            for d in np.flatnonzero(drawn):
                after = drawn.copy()
                after[d] -= 1
                best = max(best, self.ready_chance(after.tobytes(), k - 1))
            chance += unseen[u] / unseen.sum() * best
            after_draw[u] = (best,)
        return self.with_claims(hand, unseen, after_draw, (chance,))[0]

    def win_and_score(self, key, k):
        """(the chance of a valid win, its expected score) of the 13-tile hand `key` with k draws
        left, each with its own best play."""
        if k == 0:
            return 0.0, 0.0
        h = self.hazard[self.draws - k] if self.draws else HAZARD
        hand = np.frombuffer(key, np.int64)
        _, copies, total, self_drawn = self._ready(key)
        unseen = self.unseen(hand)
        n = unseen.sum()
        ron = 1.0 - (1.0 - copies / n) ** RON if copies else 0.0
        risk = self.risk * self.growth[self.draws - k + 1] if self.risk else 0.0
        w = s = 0.0
        after_draw = {}
        for u in np.flatnonzero(unseen):
            drawn = hand.copy()
            drawn[u] += 1
            best_w = best_s = -np.inf
            for d in np.flatnonzero(drawn):  # every discard (the last at its danger too)
                after = drawn.copy()
                after[d] -= 1
                later_w, later_s = self.win_and_score(after.tobytes(), k - 1)
                best_w = max(best_w, (1 - risk) * later_w)
                best_s = max(best_s, (1 - risk) * later_s - risk * self.loss)
            won = self_drawn.get(u, 0.0)
            w += unseen[u] / n * max(1.0 if won else 0.0, best_w)
            s += unseen[u] / n * (max(won, best_s) if won else best_s)
            after_draw[u] = (best_w, best_s)
        w, s = self.with_claims(hand, unseen, after_draw, (w, s))
        ron_score = total / copies if copies else 0.0
        go_on = (1 - ron) * (1 - h)
        return ron + go_on * w, max(self.fold(k), ron * ron_score + (1 - ron) * ((1 - h) * s - h * self.ending))

    def fold(self, k):
        """Folding with k draws left: no win, no deal-in; the race ends the hand at its cost."""
        value = 0.0
        for j in range(1, k + 1):
            h = self.hazard[self.draws - j] if self.draws else HAZARD
            value = (1 - h) * value - h * self.ending
        return value


def _query(hand: Hand, draws: int, visible=None, claims=NO_CLAIMS, risk=None, extra: int = 1, hazard=None,
           ending: float = 0.0) -> Query:
    """The value Query of a hand of 14 tiles (the judge's rules, east, no flowers): the test's
    model (RON, HAZARD, or a hazard a draw and the race's `ending`), `claims` (claim_weights),
    the danger `risk` (none by default)."""
    counts, meld_counts, n_melds = hand.kernel_arrays()
    table, _ = api.kernel_context()
    seen = np.zeros(34, np.uint8) if visible is None else np.array(visible, np.uint8)
    risk = Risk(np.zeros(34), np.zeros(34), np.ones(draws + 1)) if risk is None else risk
    return Query(Position(table, counts, meld_counts, n_melds, 0, 14, seen, 0, 0, JUDGE.code, JUDGE.minimum, 0),
                 Model(draws, RON, np.full(draws, HAZARD) if hazard is None else hazard, ending, extra, claims),
                 risk, 0)


def _kernel_figures(text: str, draws: int, visible=None, claims=NO_CLAIMS, hazard=None, ending=0.0):
    """{tile: (ready curve, win curve, score)} of every discard, from hand_values."""
    hand = parse_hand(text)
    counts = hand.counts
    _, work = api.kernel_context()
    ready = np.empty((34, draws))
    win = np.empty((34, draws))
    scores = np.empty(34)
    status, _, _ = entry.hand_values(_query(hand, draws, visible, claims, hazard=hazard, ending=ending),
                                     np.zeros(1, np.int64),
                                     Figures(ready, win, scores), work)
    assert status == 0
    return {mjfast.TILE_NAMES[t]: (ready[t], win[t], scores[t]) for t in range(34) if counts[t]}


@pytest.mark.parametrize("text, draws", [
    ("123m456p789s11sEE3m", 1),  # ready waits, one draw: the ron chance and the self-draw
    ("123m456p789s1357sE", 2),  # one step: a draw to get ready, one to win
    ("234m567p33s4678sCC", 2),
])
def test_the_figures_are_the_brute_force_of_the_model(text, draws):
    hand = parse_hand(text)
    counts = hand.counts.astype(np.int64)
    brute = BruteForce(counts)
    figures = _kernel_figures(text, draws)
    for tile, (ready, win, expected) in figures.items():
        after = counts.copy()
        after[mjfast.parse_tiles(tile)[0]] -= 1
        key = after.tobytes()
        assert (win[-1], expected) == pytest.approx(brute.win_and_score(key, draws), abs=1e-9), tile
        assert ready[0] == pytest.approx(brute.ready_chance(key, 1), abs=1e-9), tile  # ready within one draw


@pytest.mark.parametrize("text, draws", [
    ("123m456p789s11sEE3m", 2),  # ready: the race may end the hand before each draw
    ("123m456p789s1357sE", 2),
])
def test_the_race_figures_are_the_brute_force_of_the_model(text, draws):
    # a hazard that grows, as the race's does (at 3 draws the brute force, which has no budget,
    # finds routes two steps behind the best that the model leaves out)
    hazard = np.linspace(0.02, 0.3, draws)
    hand = parse_hand(text)
    counts = hand.counts.astype(np.int64)
    brute = BruteForce(counts, hazard=hazard, ending=12.9, draws=draws)
    fold = brute.fold(draws)
    assert fold == pytest.approx(-12.9 * (1 - np.prod(1 - hazard)))  # the hand ends by another's win, or not
    for tile, (_, win, expected) in _kernel_figures(text, draws, hazard=hazard, ending=12.9).items():
        after = counts.copy()
        after[mjfast.parse_tiles(tile)[0]] -= 1
        if mjfast.shanten(after.astype(np.uint8)) > mjfast.shanten(text) + 1:
            assert (win[-1], expected) == (0.0, pytest.approx(fold)), tile  # beyond the budget: a fold
            continue
        assert (win[-1], expected) == pytest.approx(brute.win_and_score(after.tobytes(), draws), abs=1e-9), tile
        assert expected >= fold - 1e-12  # folding is always a choice


def test_a_hand_that_cannot_win_in_time_is_worth_the_race_s_other_endings():
    hazard = np.array([0.1, 0.2])
    figures = _kernel_figures("1358m2469p1378sEC", 2, hazard=hazard, ending=10.0)  # four steps, two draws
    assert {(float(win[-1]), round(float(expected), 12)) for _, win, expected in figures.values()} == \
        {(0.0, round(-10.0 * (1 - 0.9 * 0.8), 12))}


@pytest.mark.parametrize("text, draws, gains", [
    ("123m456p789s1357sE", 2, True),  # one step: 2s and 6s can be chowed, or drawn; 清龙 is 16 open
    ("234m567p33s4678sCC", 2, False),  # the pungs and chows are there, but open its wins fall short of 8
    ("11m345p5678s22sEEN", 2, True),  # pungs of 1m, 2s and E, chows: some wins keep 8 open
])
def test_the_figures_with_claims_are_the_brute_force_of_the_model(text, draws, gains):
    """A concealed hand with claims: the better, figure by figure, of the hand kept concealed
    (no claims) and the hand played open with its claims."""
    hand = parse_hand(text)
    counts = hand.counts.astype(np.int64)
    weights = claim_weights(ValueModel(draws=draws, claims=1.0))
    concealed, played_open = BruteForce(counts), BruteForce(counts, claims=weights)
    figures = _kernel_figures(text, draws, claims=weights)
    gained = 0
    for tile, (ready, win, expected) in figures.items():
        after = counts.copy()
        after[mjfast.parse_tiles(tile)[0]] -= 1
        key = after.tobytes()
        kept, opened = concealed.win_and_score(key, draws), played_open.win_and_score(key, draws)
        assert (win[-1], expected) == pytest.approx(np.maximum(kept, opened), abs=1e-9), tile
        ready_one = max(concealed.ready_chance(key, 1), played_open.ready_chance(key, 1))
        assert ready[0] == pytest.approx(ready_one, abs=1e-9), tile
        gained += opened[0] > kept[0] + 1e-9
    assert bool(gained) == gains  # whether the claims raise some discard's chance


# --- the simulation ----------------------------------------------------------------------------

def _graph_of(text: str, draws: int, deal_in=None, loss=None, growth=None):
    """The graph of the best discard's hand and every node's figures for 0..draws draws (with
    the danger deal_in, loss, growth if given)."""
    deal_in = np.zeros(34) if deal_in is None else deal_in
    loss = np.zeros(34) if loss is None else loss
    growth = np.ones(draws + 1) if growth is None else growth
    hand = parse_hand(text)
    counts, meld_counts, n_melds = hand.kernel_arrays()
    table, work = api.kernel_context()
    hand14 = counts.astype(np.int64)
    dist, mask = np.empty(34, np.int64), np.empty(34, np.int64)
    discard_sweep(table, hand14, meld_counts, n_melds, dist, mask, work, np.empty(5, np.int64), np.empty(5, np.int64))
    t = int(np.argmin(dist))
    root = hand14.copy()
    root[t] -= 1
    query = _query(hand, draws, risk=Risk(deal_in, loss, growth))
    scope = G.Scope(1, int(dist[t]) - 1 + 1, np.zeros(34, np.int64), hand14, 0)
    status, graph = _build(G.Roots(root[None, :], dist[t:t + 1], mask[t:t + 1], 1), query, scope, 1 << 16,
                           np.zeros(1, np.int64), work)
    assert status == 0
    nodes = np.zeros((2, draws + 1, graph.sizes[G.N13]))
    out_ready, out_win, out_score = np.empty((1, draws)), np.empty((1, draws)), np.empty(1)
    _values_by_draws(graph, 1, query, (out_ready, out_win, out_score), nodes, np.zeros(1, np.int64))
    return graph, nodes, out_win[0, -1], out_score[0]


def _play(graph, nodes, draws, figure, rng, deal_in=None, loss=None, growth=None):
    """One game of the model from node 0, played by the values of `figure` (0 win, 1 score),
    with the danger deal_in, loss, growth if given: returns (won, points), points negative
    for a deal-in."""
    ron, ron_score, stay = graph.ron, graph.ron_score, graph.stay
    stay_risk, stay_cost = graph.stay_risk, graph.stay_cost
    edge_start, edge_end, edge_child = graph.edge_start, graph.edge_end, graph.edge_hand14
    edge_p, edge_win = graph.edge_p, graph.edge_win
    edge_tile, child_start, children, child_tile = graph.edge_tile, graph.child_start, graph.children, graph.child_tile
    deal_in = np.zeros(34) if deal_in is None else deal_in
    loss = np.zeros(34) if loss is None else loss
    growth = np.ones(draws + 1) if growth is None else growth
    values = nodes[figure]
    i = 0
    for k in range(draws, 0, -1):
        if figure == 1 and values[k, i] <= 0.0:
            return False, 0.0  # the model folds (or has no win left)
        if rng.random() < ron[i]:
            return True, ron_score[i]
        if rng.random() < HAZARD:
            return False, 0.0
        g = growth[draws - k + 1]
        r = rng.random() - stay[i]
        if r < 0:  # a draw that can only go back: its danger, on average over those draws
            if stay_risk[i] > 0 and rng.random() < g * stay_risk[i] / stay[i]:
                return False, -stay_cost[i] / stay_risk[i]
            continue
        for e in range(edge_start[i], edge_end[i]):
            r -= edge_p[e]
            if r < 0:
                break
        else:
            continue
        j = edge_child[e]
        choices = [(i, edge_tile[e])]  # throwing the drawn tile back, or a discard the graph keeps
        choices += [(children[c], child_tile[c]) for c in range(child_start[j], child_start[j + 1])] if j >= 0 else []
        later, cost = values[k - 1], loss if figure == 1 else np.zeros(34)
        worth = [(1 - g * deal_in[t]) * later[c] - g * deal_in[t] * cost[t] for c, t in choices]
        best, tile = choices[int(np.argmax(worth))]
        won = edge_win[e]
        if won > 0 and (1.0 if figure == 0 else won) >= max(worth):
            return True, won
        if deal_in[tile] > 0 and rng.random() < g * deal_in[tile]:
            return False, -loss[tile]
        i = best
    return False, 0.0


@pytest.mark.parametrize("text", ["123m456p789s1357sE", "1237m345p3456sEEN"])
def test_a_simulation_of_the_model_agrees_with_the_figures(text):
    draws, games = 8, 6000
    graph, nodes, win, expected = _graph_of(text, draws)
    rng = np.random.default_rng(2026)
    wins = np.array([_play(graph, nodes, draws, 0, rng)[0] for _ in range(games)], float)
    points = np.array([_play(graph, nodes, draws, 1, rng)[1] for _ in range(games)])
    assert abs(wins.mean() - win) <= 4 * wins.std() / np.sqrt(games) + 1e-9
    assert abs(points.mean() - expected) <= 4 * points.std() / np.sqrt(games) + 1e-9
    assert 0.05 < win < 0.99  # a figure with room to disagree


# --- what the figures mean -----------------------------------------------------------------------

def test_a_complete_hand_left_ready_wins_and_more_draws_never_lower_a_chance():
    options = mjfast.best_discards("123m456p789s11sEE3m", draws=12)
    for o in options:
        assert list(o.win_by_draw) == sorted(o.win_by_draw) and list(o.ready_by_draw) == sorted(o.ready_by_draw)
        assert 0.0 <= o.win_probability <= 1.0 and o.expected_score >= 0.0
        assert o.win_probability == o.win_by_draw[-1] and len(o.win_by_draw) == 12
    ready = [o for o in options if o.shanten == 0 and o.valid_acceptance]
    assert ready and all(o.ready_by_draw[0] == 1.0 for o in ready)


def test_a_wait_short_of_8_fans_never_wins():
    hand = "[123p1][345s2]99m5m6m6sW7s8s"  # discarding W waits on 4m/7m for 3 fans (4 self-drawn)
    short = next(o for o in mjfast.best_discards(hand, draws=1) if o.tile == "W")
    assert short.shanten == 0 and all(max(w.discard, w.self_drawn) < 8 for w in short.wait_fans)
    assert short.win_probability == 0.0 and short.expected_score == 0.0  # one draw: no time to change
    later = next(o for o in mjfast.best_discards(hand, draws=12) if o.tile == "W")
    assert later.win_probability > 0.0  # with time, the model changes the waits


def test_the_ranking_goes_by_the_figure_and_keeps_the_other_figures():
    hand = "[345m1][345p1]4m5m6m7m4s5s9p9p"
    by_score = mjfast.best_discards(hand)
    by_chance = mjfast.best_discards(hand, ranking="win-probability")
    lexicographic = mjfast.best_discards(hand, ranking="fan-aware")
    assert [o.expected_score for o in by_score] == sorted((o.expected_score for o in by_score), reverse=True)
    assert [o.win_probability for o in by_chance] == sorted((o.win_probability for o in by_chance), reverse=True)
    assert by_score[0].tile == "4m"  # the only discard whose waits both reach 8 fans
    figures = {o.tile: (o.acceptance, o.valid_acceptance, o.effective_shanten) for o in lexicographic}
    assert {o.tile: (o.acceptance, o.valid_acceptance, o.effective_shanten) for o in by_score} == figures
    assert all(o.win_probability is None for o in lexicographic)


def test_the_drawn_tile_goes_first_among_near_ties_only():
    hand = "123m456p789s556sWN"  # W and N: two plain winds, the same figures
    plain = mjfast.best_discards(hand)
    assert [o.tile for o in plain[:2]] == ["W", "N"] and plain[0].expected_score == plain[1].expected_score
    for drawn in ("N", tile_id("N")):
        first = mjfast.best_discards(hand, drawn=drawn)
        assert [o.tile for o in first[:2]] == ["N", "W"] and first[2:] == plain[2:]
    assert mjfast.best_discards(hand, drawn="W") == plain
    # a discard clearly worse than the best stays where its figure puts it
    worse = mjfast.best_discards(hand, drawn="6s")
    assert worse == plain and next(o for o in plain if o.tile == "6s").expected_score < 0.999 * plain[0].expected_score
    assert mjfast.best_discards(hand, drawn="N", ranking="win-probability")[0].tile == "N"
    with pytest.raises(mjfast.HandError, match="drawn tile E is not among the standing tiles"):
        mjfast.best_discards(hand, drawn="E")
    with pytest.raises(mjfast.HandError, match="not a single tile"):
        mjfast.best_discards(hand, drawn="NN")


def test_the_expert_puzzles_under_the_value_ranking():
    tally, wrong = agreement(load_puzzles(), lambda hand: mjfast.best_discards(hand)[0].tile)
    (ready_ok, ready_n), (step_ok, step_n) = tally["ready"], tally["one_step"]
    print(f"value ranking: ready puzzles {ready_ok}/{ready_n}, one-step puzzles {step_ok}/{step_n}")
    assert (ready_n, step_n) == (263, 664)
    assert ready_ok >= 0.99 * ready_n and step_ok >= 0.88 * step_n


def test_the_model_is_checked():
    with pytest.raises(mjfast.ArgumentError, match="draws must be an integer 1..40"):
        mjfast.best_discards("123m456p789s1357sE", draws=0)
    with pytest.raises(mjfast.ArgumentError, match="unknown ranking"):
        mjfast.best_discards("123m456p789s1357sE", ranking="luck")
    with pytest.raises(mjfast.ArgumentError, match="value model out of range"):
        mjfast.best_discards("123m456p789s1357sE", model=ValueModel(hazard=1.5))
    assert draws_left(21) == 11 and draws_left(0) == 1 and draws_left(92) == 40


# --- claims --------------------------------------------------------------------------------------

def test_claims_offer_what_the_rules_allow_and_rank_it():
    # 78s from the left: a chow of 9s makes the hand ready (pure straight in bamboo? no: 789s)
    options = mjfast.claim_options("123m456p78s1157sE", "9s", offered_by=1)
    actions = [o.action for o in options]
    assert sorted(actions) == ["chow", "pass"] and options[0].action == "chow"
    chow = options[0]
    assert chow.meld == "[789s3]" and chow.discard is not None and chow.shanten == 0
    assert [o.expected_score for o in options] == sorted((o.expected_score for o in options), reverse=True)
    across = [o.action for o in mjfast.claim_options("123m456p78s1157sE", "9s", offered_by=2)]
    assert across == ["pass"]  # a chow only from the left
    assert [o.action for o in mjfast.claim_options("123m456p78s1157sE", "9s", 1, last_discard=True)] == ["pass"]


def test_a_winning_discard_is_a_certain_win_and_pungs_and_kongs_are_offered():
    options = mjfast.claim_options("EEE123m456p789s1s", "1s", offered_by=2, seat_wind="E", prevalent_wind="E")
    win = options[0]
    assert win.action == "win" and win.win_probability == 1.0 and win.fans >= 8
    assert win.expected_score == 24 + score("EEE123m456p789s1s1s", seat_wind="E", prevalent_wind="E").total
    melds = {o.action: o.meld for o in mjfast.claim_options("EEE123m456p789s1s", "E", offered_by=3)}
    assert melds["kong"] == "[EEEE3]" and melds["pung"] == "[EEE3]"  # three held: either
    pung = {o.action: o for o in mjfast.claim_options("EE123m456p789s11s", "E", offered_by=3)}["pung"]
    assert pung.meld == "[EEE3]" and pung.discard is not None
    with pytest.raises(mjfast.HandError, match="waiting to draw"):
        mjfast.claim_options("EE123m456p789s11sW", "E")


def test_mjfast_bot_discards_by_the_value_ranking():
    from mjfast.game import MjfastBot

    bot = MjfastBot()
    bot.respond("0 0 0")
    bot.respond("1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T3 T5 F1")
    answer = bot.respond("2 J1")
    expected = mjfast.best_discards("123m456p789s135sEC", seat_wind="E", prevalent_wind="E",
                                    draws=draws_left(bot.table.tiles_left(0)))[0].tile
    assert answer == "PLAY " + botzone_token(tile_id(expected))


def test_mjfast_bot_throws_back_the_drawn_tile_of_a_tie():
    from mjfast.game import MjfastBot

    for drawn in ("F4", "F3"):  # N or W drawn to 123m456p789s556s and the other wind: the same figures
        bot = MjfastBot()
        bot.respond("0 0 0")
        held = "F3" if drawn == "F4" else "F4"
        bot.respond(f"1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 T5 T5 T6 {held}")
        assert bot.respond(f"2 {drawn}") == f"PLAY {drawn}"


def test_a_graph_too_small_for_its_roots_asks_for_room():
    """The first room of a graph must hold its roots: a ready hand without exchanges once got
    room for 8 hands and had more discards that keep it ready (a write past the arrays)."""
    hand = parse_hand("[123m2]11234p234678s")  # complete: many discards keep it ready
    counts, meld_counts, n_melds = hand.kernel_arrays()
    table, work = api.kernel_context()
    hand14 = counts.astype(np.int64)
    dist, mask = np.empty(34, np.int64), np.empty(34, np.int64)
    discard_sweep(table, hand14, meld_counts, n_melds, dist, mask, work, np.empty(5, np.int64), np.empty(5, np.int64))
    ready = [t for t in range(34) if counts[t] and dist[t] == 1]
    assert len(ready) > 8
    roots = np.zeros((34, 34), np.int64)
    for r, t in enumerate(ready):
        roots[r] = hand14
        roots[r, t] -= 1
    args = (G.Roots(roots, dist[ready], mask[ready], len(ready)), _query(hand, 6, extra=0),
            G.Scope(0, 0, np.zeros(34, np.int64), hand14, 0))
    assert _build(*args, 8, np.zeros(1, np.int64), work)[0] == G.FULL
    assert _build(*args, 64, np.zeros(1, np.int64), work)[0] == entry.OK
    lower = {o.tile: o.expected_score for o in mjfast.best_discards(hand, draws=6, model=ValueModel(extra=0))}
    full = {o.tile: o.expected_score for o in mjfast.best_discards(hand, draws=6)}
    assert all(lower[t] <= full[t] + 1e-12 for t in full) and max(lower.values()) > 0
