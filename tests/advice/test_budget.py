"""The value engine on a clock (mjfast/advice/value/budget.py): a budget never changes figures that fit it,
names the model of every answer, falls back to the lower bound and then to the fan-aware
ranking, and a raised stop flag stops the kernel. A graph past its memory bound (MAX_HANDS)
falls back the same way, with a budget or without."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import mjfast
from mjfast.advice.model import ValueModel
from mjfast.advice.value import budget, entry
from mjfast.advice.value.query import NO_CLAIMS, Figures, Model, Position, Query, Risk
from mjfast.efficiency.api import kernel_context
from mjfast.fan.ruleset import JUDGE
from mjfast.hand import parse_hand

ONE_STEP = "123m456p789s1357sE"  # exchanges in the model: a graph of hundreds of hands
FAR = "269m378p13446sSWC"  # five steps from ready (a real hand): the lower bound alone, about a second


def _figures(options):
    return [(o.tile, o.win_probability, o.expected_score, o.ready_by_draw, o.win_by_draw) for o in options]


def test_a_budget_that_fits_changes_nothing_and_says_value():
    plain = mjfast.best_discards(ONE_STEP, draws=9)
    timed = mjfast.best_discards(ONE_STEP, draws=9, budget_ms=60_000)
    assert _figures(timed) == _figures(plain)
    assert {o.model for o in plain} == {o.model for o in timed} == {"value"}
    assert mjfast.best_discards(ONE_STEP, ranking="fan-aware")[0].model == "fan-aware"
    assert mjfast.best_discards(ONE_STEP, ranking="efficiency")[0].model == "efficiency"
    kept = mjfast.hand_value("123m456p78s1157sE", draws=6)
    assert mjfast.hand_value("123m456p78s1157sE", draws=6, budget_ms=60_000) == kept and kept.model == "value"


def test_no_room_for_exchanges_gives_the_lower_bound_and_says_so(monkeypatch):
    monkeypatch.setattr(budget, "EXCHANGE_GROWTH", 10 ** 12)  # no estimate fits
    timed = mjfast.best_discards(ONE_STEP, draws=9, budget_ms=60_000)
    lower = mjfast.best_discards(ONE_STEP, draws=9, model=ValueModel(extra=0))
    assert {o.model for o in timed} == {"value-no-exchange"} and {o.model for o in lower} == {"value"}
    assert _figures(timed) == _figures(lower)
    full = {o.tile: o.expected_score for o in mjfast.best_discards(ONE_STEP, draws=9)}
    assert all(o.expected_score <= full[o.tile] + 1e-12 for o in timed)  # a lower bound
    assert any(o.expected_score < full[o.tile] for o in timed)


def test_the_model_itself_without_exchanges_is_the_full_model(monkeypatch):
    """Beyond MAX_EXCHANGE_SHANTEN the model has no exchanges: the lower bound is all of it."""
    monkeypatch.setattr(budget, "EXCHANGE_GROWTH", 10 ** 12)
    hand = "1389m1479p2368sEN"  # four steps from ready
    assert mjfast.shanten(hand) > entry.MAX_EXCHANGE_SHANTEN
    assert {o.model for o in mjfast.best_discards(hand, draws=4, budget_ms=60_000)} == {"value"}


def test_no_room_at_all_falls_back_to_the_fan_aware_ranking():
    # the lower bound is all of FAR's model (five steps away): had the deadline not stopped
    # its graph, the answer would be of model "value"
    timed = mjfast.best_discards(FAR, draws=9, budget_ms=5)
    lexicographic = mjfast.best_discards(FAR, ranking="fan-aware")
    assert timed == lexicographic and {o.model for o in timed} == {"fan-aware"}
    assert all(o.win_probability is None for o in timed)


def _kernel_query(text: str, shanten: int) -> tuple:
    """(the entry kernel's Query of a 14-tile hand, 9 draws; its Figures; a scratch)."""
    counts, meld_counts, n_melds = parse_hand(text).kernel_arrays()
    table, work = kernel_context()
    query = Query(Position(table, counts, meld_counts, n_melds, 0, 14, np.zeros(34, np.uint8), 0, 0, JUDGE.code,
                           JUDGE.minimum, 0),
                  Model(9, 2.0, np.zeros(9), 0.0, 1, NO_CLAIMS), Risk(np.zeros(34), np.zeros(34), np.ones(10)), shanten)
    return query, Figures(np.empty((34, 9)), np.empty((34, 9)), np.empty(34)), work


SIX_STEPS = "1m2m4m8m1p4p8p1s2s4s8sENC"  # its graph without exchanges would hold two million hands (1.3 GB)


def test_a_graph_past_its_memory_bound_gives_no_figures_and_says_so():
    assert mjfast.shanten(SIX_STEPS) == 6
    query, out, work = _kernel_query(SIX_STEPS, 6)
    assert entry.hand_values(query, np.zeros(1, np.int64), out, work)[0] == entry.TOO_LARGE
    asked = mjfast.best_discards(SIX_STEPS)  # with a budget or without: the fan-aware ranking, named
    assert asked == mjfast.best_discards(SIX_STEPS, budget_ms=60_000) == mjfast.best_discards(SIX_STEPS,
                                                                                               ranking="fan-aware")
    assert {o.model for o in asked} == {"fan-aware"} and all(o.expected_score is None for o in asked)
    thirteen = mjfast.hand_value(SIX_STEPS[:-1])
    assert thirteen.model == "fan-aware" and thirteen.win_probability is None


def test_exchanges_past_the_memory_bound_give_the_lower_bound_and_say_so(monkeypatch):
    """Without a budget too, where the exchange graph would pass MAX_HANDS (none of tests/data's
    decisions: at most 133,622 hands, three steps from ready) the model without exchanges."""
    run = budget.run

    def bounded(query, stop=budget._NEVER):  # the exchange graphs as if past the bound
        return (entry.TOO_LARGE, 0, None) if query.model.extra else run(query, stop)

    monkeypatch.setattr(budget, "run", bounded)
    lower = mjfast.best_discards(ONE_STEP, draws=9)
    monkeypatch.undo()
    assert {o.model for o in lower} == {"value-no-exchange"}
    assert _figures(lower) == _figures(mjfast.best_discards(ONE_STEP, draws=9, model=ValueModel(extra=0)))


def test_a_raised_flag_stops_the_kernel_and_a_late_one_mid_graph():
    query, out, work = _kernel_query(FAR, 5)
    raised = np.ones(1, np.int64)
    assert entry.hand_values(query, raised, out, work)[0] == entry.STOPPED
    late = np.zeros(1, np.int64)
    timer = threading.Timer(0.02, late.fill, (1,))
    timer.start()
    status, _, hands = entry.hand_values(query, late, out, work)  # nogil: the timer runs meanwhile
    timer.join()
    assert (status, hands) == (entry.STOPPED, 0)
    status, _, hands = entry.hand_values(query, np.zeros(1, np.int64), out, work)
    assert status == 0 and hands > 100_000  # the graph that was stopped is that large


def test_claims_share_one_model_and_fall_back_to_the_fan_aware_order(monkeypatch):
    plain = mjfast.claim_options("123m456p78s1157sE", "9s", offered_by=1, draws=8)
    assert [o.action for o in plain] == ["chow", "pass"] and {o.model for o in plain} == {"value"}
    assert mjfast.claim_options("123m456p78s1157sE", "9s", offered_by=1, draws=8, budget_ms=60_000) == plain
    fan_aware = mjfast.claim_options("123m456p78s1157sE", "9s", offered_by=1, ranking="fan-aware")
    assert [(o.action, o.discard, o.model) for o in fan_aware] == [("chow", "E", "fan-aware"),
                                                                   ("pass", None, "fan-aware")]
    assert fan_aware[0].valid_acceptance > 0 and fan_aware[0].expected_score is None
    monkeypatch.setattr(budget, "EXCHANGE_GROWTH", 10 ** 12)
    lower = mjfast.claim_options("123m456p78s1157sE", "9s", offered_by=1, draws=8, budget_ms=60_000)
    assert {o.model for o in lower} == {"value-no-exchange"}
    assert all(a.expected_score < b.expected_score for a, b in zip(lower, plain))


def test_a_claim_that_gains_nothing_ranks_below_passing_in_the_fan_aware_order():
    # a pung of W leaves the hand as far from ready as it is: passing first
    options = mjfast.claim_options("WW12m45p789s13sEC", "W", offered_by=2, ranking="fan-aware")
    assert [(o.action, o.shanten) for o in options] == [("pass", 2), ("pung", 2)]
    # one that makes it ready with waits worth 8 fans goes first
    options = mjfast.claim_options("WW123m456p789s1sE", "W", offered_by=2, ranking="fan-aware")
    assert [(o.action, o.shanten) for o in options] == [("pung", 0), ("pass", 1)] and options[0].valid_acceptance


@pytest.mark.parametrize("bad", [0, -5, "10", True, 10 ** 9, float("nan")])
def test_a_bad_budget_is_an_argument_error(bad):
    with pytest.raises(mjfast.ArgumentError, match="budget_ms is the milliseconds a query may take"):
        mjfast.best_discards(ONE_STEP, budget_ms=bad)
    with pytest.raises(mjfast.ArgumentError, match="budget_ms"):
        mjfast.claim_options("123m456p78s1157sE", "9s", budget_ms=bad)


def test_queries_in_several_threads_run_each_on_its_own_scratch_with_the_same_figures():
    """The entry kernel runs without the GIL on each thread's scratch: queries asked at once
    from several threads (the HTTP service's) get the figures each gets alone."""
    hands = [ONE_STEP, "123m456p78s1157sEC", "269m378p13446sSWC", "1389m1479p2368sEN", "11m234p567s789sEEC"]
    alone = {h: _figures(mjfast.best_discards(h, draws=6)) for h in hands}
    found: dict = {}
    scratches: dict = {}
    start = threading.Barrier(len(hands))

    def ask(h):
        start.wait()
        for _ in range(3):
            found.setdefault(h, []).append(_figures(mjfast.best_discards(h, draws=6)))
        scratches[h] = budget._scratch()  # held: a finished thread's scratch freed could lend its id

    threads = [threading.Thread(target=ask, args=(h,)) for h in hands]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert all(found[h] == [alone[h]] * 3 for h in hands)
    assert len({id(s) for s in scratches.values()}) == len(hands)  # a scratch a thread
