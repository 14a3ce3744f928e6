"""The danger of each discard (mjfast/advice/danger.py) and the value model with it (advice/value.py):
what the danger model must mean, the figures against a brute force of the model with a
uniform danger, the discard now against the figures without danger, and a simulation of the
model's own play with a danger that differs by tile and grows with the draws."""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.advice.claim_rates import claim_weights
from mjfast.advice.danger import LOSS, Danger, Opponent, danger_of, opponent, table_danger, ways_to_wait
from mjfast.game import Replay, read_games
from mjfast.game.state import DISCARD
from mjfast.hand import CHOW, PUNG, Meld, parse_hand

from ..data import LOGS
from .test_value import HAZARD, BruteForce, _graph_of, _play

T = {name: t for t, name in enumerate(mjfast.TILE_NAMES)}
UNSEEN = np.full(34, 3)


def _one(opponent, unseen=UNSEEN, draws=10):
    return danger_of([opponent], unseen, 0, draws)


# --- what the danger model must mean ------------------------------------------------------------

def test_no_opponent_no_danger():
    found = danger_of([], UNSEEN, 0, 6)
    assert not found.deal_in.any() and list(found.growth) == [1.0] * 7 and found.ready == ()


def test_what_an_opponent_threw_away_is_safer_against_them():
    quiet = Opponent(1, (T["5m"],), (), 12)
    threw = Opponent(1, (T["5m"], T["5p"]), (), 12)
    assert _one(threw).deal_in[T["5p"]] < 0.5 * _one(quiet).deal_in[T["5p"]]


def test_an_opponent_further_on_is_more_likely_ready_and_the_danger_grows_with_the_draws():
    early, late = _one(Opponent(2, (), (), 2)), _one(Opponent(2, (), (Meld(PUNG, T["C"], 1), Meld(CHOW, 3, 1)), 14))
    assert early.ready[0] < late.ready[0] < 1 and early.ready[0] < 0.05
    assert (late.deal_in > early.deal_in).all()
    assert early.growth[0] == 1.0 and list(early.growth) == sorted(early.growth) and early.growth[-1] > 2


def test_every_figure_is_a_probability_and_the_loss_the_settlement():
    found = table_danger(_late_table(), 0)
    assert ((found.deal_in >= 0) & (found.deal_in < 1)).all() and (found.loss == LOSS).all() and LOSS > 16
    assert np.allclose(found.cost, found.deal_in * found.loss)


def test_the_ways_to_wait_count_singles_pairs_and_runs():
    unseen = np.zeros(34, np.int64)
    unseen[[T["3m"], T["4m"], T["6m"], T["E"]]] = [2, 3, 1, 4]
    ways = ways_to_wait(unseen)
    assert ways[T["E"]] == 4 + 6  # a single or a pair: honours have no runs
    assert ways[T["5m"]] == 2 * 3 + 3 * 1  # the runs 34m and 46m (no 7m for 67m), no 5m to pair
    assert ways[T["2m"]] == 2 * 3 and ways[T["4m"]] == 3 + 3  # 34m waits on 2m; 4m: a single or a pair
    assert ways[T["9p"]] == 0


def _late_table():
    """A real game's table late in play, as player 0's Play step finds it."""
    game = next(iter(read_games(LOGS / "botzone_mahjong_gb_16matches.txt")))
    last = None
    for step in Replay(game):
        if step.table.phase == DISCARD and step.table.turn == 0 and step.action.kind == "Play":
            last = step.table.copy()
    return last


def test_the_danger_reads_only_what_the_player_sees():
    table = _late_table()
    seen = table_danger(table, 0)
    hidden = table.copy()
    for o in (1, 2, 3):  # other standing tiles: the player's danger cannot change
        hidden.seats[o].concealed = list(np.roll(hidden.seats[o].concealed, 1))
    assert np.array_equal(table_danger(hidden, 0).deal_in, seen.deal_in)
    assert len(seen.ready) == 3 and all(0 < r < 1 for r in seen.ready)


def test_a_tile_passed_since_an_opponents_last_discard_is_safe_against_them():
    passed = Opponent(1, (T["1m"],), (), 12, (T["5p"],))
    assert _one(passed).deal_in[T["5p"]] == 0.0 and _one(passed).deal_in[T["5s"]] > 0.0
    assert opponent("S", "1m", draws=12, passed="5p") == passed  # any notation
    with pytest.raises(mjfast.ArgumentError, match="passed tiles"):
        opponent("S", passed=5)
    both = [Opponent(1, (), (), 12, (T["5p"],)), Opponent(2, (), (), 12)]
    assert danger_of(both, UNSEEN, 0).deal_in[T["5p"]] > 0.0  # passed by one, not by the other


def test_the_table_keeps_what_each_seat_passed_and_the_danger_reads_it():
    game = next(iter(read_games(LOGS / "botzone_mahjong_gb_16matches.txt")))
    since = {p: [] for p in range(4)}  # the others' discards since each seat's own last, from the log
    checked = 0
    for step in Replay(game):
        table = step.table
        if step.action.kind == "Play" and table.turn == 0 and table.phase == DISCARD:
            assert all(table.seats[p].passed == since[p] for p in range(4))
            danger = table_danger(table, 0)
            opponents = [Opponent(o, tuple(table.seats[o].discards), tuple(table.seats[o].melds), table.draws[o],
                                  tuple(t for t in since[o] if table.shown[t] < 3)) for o in (1, 2, 3)]
            unseen = 4 - table.hand(0).counts.astype(int) - table.hand(0).meld_counts - table.visible_to(0)
            expected = danger_of(opponents, np.maximum(unseen, 0), table.prevalent_wind)
            assert np.array_equal(danger.deal_in, expected.deal_in)
            checked += any(since[o] for o in (1, 2, 3))
        if step.action.kind == "Play":
            since[step.action.player] = []
            for p in range(4):
                if p != step.action.player:
                    since[p].append(step.action.tile)
    assert checked > 5


# --- the value model with the danger --------------------------------------------------------------

@pytest.mark.parametrize("text, draws, risk", [
    ("123m456p789s11sEE3m", 2, 0.05),  # ready: the discard after a draw that does not win is a risk
    ("123m456p789s1357sE", 2, 0.02),
    ("234m567p33s4678sCC", 2, 0.2),  # enough danger that folding pays at some hands
])
@pytest.mark.parametrize("claims", [0.0, 1.0])
def test_a_uniform_danger_gives_the_brute_force_of_the_model(text, draws, risk, claims):
    hand = parse_hand(text)
    counts = hand.counts.astype(np.int64)
    growth = np.linspace(1.0, 1.6, draws + 1)
    deal_in, loss = np.full(34, risk), np.full(34, 20.0)
    model = mjfast.ValueModel(hazard=HAZARD, claims=claims)
    brutes = [BruteForce(counts, risk=risk, loss=20.0, growth=growth, draws=draws)]
    if claims:  # a concealed hand: the better of kept concealed and played open with its claims
        brutes.append(BruteForce(counts, risk=risk, loss=20.0, growth=growth, draws=draws,
                                 claims=claim_weights(model._replace(draws=draws))))
    danger = Danger(deal_in, loss, growth, ())
    for o in mjfast.best_discards(text, draws=draws, danger=danger, model=model):
        after = counts.copy()
        after[T[o.tile]] -= 1
        win, score = np.max([brute.win_and_score(after.tobytes(), draws) for brute in brutes], axis=0)
        if o.shanten > 1:
            continue  # beyond the graph's budget: a fold's figures (checked below)
        assert o.win_probability == pytest.approx((1 - risk) * win, abs=1e-9), o.tile
        assert o.expected_score == pytest.approx((1 - risk) * score - risk * 20.0, abs=1e-9), o.tile
        assert o.deal_in == risk and o.deal_in_cost == pytest.approx(risk * 20.0)


def test_the_discard_now_costs_its_own_danger_and_a_fold_costs_nothing_more():
    text, draws = "123m456p789s1357sE", 6
    plain = {o.tile: o for o in mjfast.best_discards(text, draws=draws)}
    deal_in = np.zeros(34)
    deal_in[[T["E"], T["1s"], T["5s"], T["3s"]]] = [0.02, 0.05, 0.3, 0.1]
    now_only = Danger(deal_in, np.full(34, 21.0), np.array([1.0] + [0.0] * draws), ())
    timed = {o.tile: o for o in mjfast.best_discards(text, draws=draws, danger=now_only)}
    for tile, o in timed.items():
        d = deal_in[T[tile]]
        if plain[tile].expected_score > 0:
            assert o.expected_score == pytest.approx((1 - d) * plain[tile].expected_score - d * 21.0, abs=1e-12)
            assert o.win_probability == pytest.approx((1 - d) * plain[tile].win_probability, abs=1e-12)
        else:  # beyond the graph: the discard, then a fold
            assert o.expected_score == pytest.approx(-d * 21.0) and o.win_probability == 0.0
    assert timed["5s"].expected_score < plain["5s"].expected_score - 6  # 30% to pay 21


def test_a_far_hand_facing_a_ready_opponent_folds():
    far = "1358m2469p1378sEC"  # four steps from ready
    assert mjfast.shanten(far) == 4
    pushed = mjfast.best_discards(far, draws=10)[0].tile
    safe = next(t for t in ("5m", "4p", "7s", "6p") if t != pushed and mjfast.parse_hand(far).counts[T[t]])
    deal_in = np.full(34, 0.3)
    deal_in[T[safe]] = 0.0  # the one safe tile: a useful one, that no player without danger throws
    danger = Danger(deal_in, np.full(34, 30.0), np.full(11, 1.0), (0.9,))
    best = mjfast.best_discards(far, draws=10, danger=danger)[0]
    assert best.tile == safe and best.expected_score >= 0.0


def test_the_danger_is_checked():
    with pytest.raises(mjfast.ArgumentError, match="danger must be a Danger of mjfast.advice.danger"):
        mjfast.best_discards("123m456p789s1357sE", danger=np.zeros(34))
    with pytest.raises(mjfast.ArgumentError, match="a Danger needs deal_in"):
        mjfast.best_discards("123m456p789s1357sE", draws=10, danger=Danger(np.zeros(34), np.zeros(34), np.ones(5), ()))
    with pytest.raises(mjfast.ArgumentError, match="a Danger needs deal_in"):
        mjfast.best_discards("123m456p789s1357sE", danger=Danger(np.full(34, 2.0), np.zeros(34), np.ones(11), ()))


# --- a simulation of the model's own play ---------------------------------------------------------

def test_a_simulation_of_the_model_with_danger_agrees_with_its_figures():
    draws, games = 8, 8000
    rng = np.random.default_rng(7)
    deal_in = rng.uniform(0.0, 0.06, 34)
    loss = rng.uniform(15.0, 30.0, 34)
    growth = np.linspace(1.0, 2.0, draws + 1)
    graph, nodes, _, expected = _graph_of("1237m345p3456sEEN", draws, deal_in, loss, growth)
    points = np.array([_play(graph, nodes, draws, 1, rng, deal_in, loss, growth)[1] for _ in range(games)])
    assert abs(points.mean() - expected) <= 4 * points.std() / np.sqrt(games) + 1e-9
    assert (points < 0).mean() > 0.02  # the danger dealt in often enough to matter
    _, _, _, without = _graph_of("1237m345p3456sEEN", draws)
    assert expected < without
