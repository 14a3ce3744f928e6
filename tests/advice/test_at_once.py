"""A computation's value queries answered on every core (mjfast/advice/value/at_once.py): a dry
pass records them, threads answer them, and the computation's second pass reads the answers:
the same results as alone, a query only the second pass asks still answered, one pass where
there is one thread or an outer such computation."""

from __future__ import annotations

import mjfast
from mjfast.advice.value import at_once, budget

HANDS = ["123m456p789s1357sE", "123m456p78s1157sEC", "269m378p13446sSWC", "1389m1479p2368sEN"]


def _figures(hand):
    return [(o.tile, o.win_probability, o.expected_score, o.win_by_draw, o.model)
            for o in mjfast.best_discards(hand, draws=6)]


def test_the_results_are_those_of_the_computation_alone_and_each_query_runs_once(monkeypatch):
    alone = [_figures(h) for h in HANDS]
    passes = []
    ran = []
    run = budget.run

    def counted(query, stop=budget._NEVER):
        if budget.PREPARED.get() is None:  # a query run for real, not recorded or read back
            ran.append(at_once.query_key(query))
        return run(query, stop)

    monkeypatch.setattr(budget, "run", counted)

    def compute():
        passes.append(type(budget.PREPARED.get()).__name__)
        return [_figures(h) for h in HANDS + HANDS[:1]]  # the first hand asked twice

    assert at_once.with_queries_at_once(compute, 2) == alone + alone[:1]
    assert passes == ["_Recording", "_Answers"]
    assert len(ran) == len(set(ran)) == len(HANDS)  # each distinct query once, on the threads


def test_a_query_only_the_second_pass_asks_is_run_there():
    passes = []

    def compute():
        passes.append(1)
        return [_figures(h) for h in (HANDS[:1] if len(passes) == 1 else HANDS[:2])]

    assert at_once.with_queries_at_once(compute, 2) == [_figures(h) for h in HANDS[:2]]


def test_one_thread_or_an_outer_computation_runs_it_once():
    calls = []

    def inner():
        calls.append(type(budget.PREPARED.get()).__name__)
        return _figures(HANDS[0])

    assert at_once.with_queries_at_once(inner, 1) == _figures(HANDS[0]) and calls == ["NoneType"]
    calls.clear()
    assert at_once.with_queries_at_once(lambda: at_once.with_queries_at_once(inner, 2), 2) == _figures(HANDS[0])
    assert calls == ["_Recording", "_Answers"]  # the inner one ran inside the outer's passes
