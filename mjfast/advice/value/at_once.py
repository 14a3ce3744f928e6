"""A computation's value queries answered on every core: the computation runs once dry (each
query it asks is recorded and answered with zero figures), the queries run on several
threads at once (the entry kernel runs without the GIL, on a scratch a thread), then the
computation runs again with their answers at hand (budget.run reads them: budget.PREPARED). The figures
are those each query gets alone, without a deadline. It pays where one computation asks many
independent queries and nothing else is using the cores: the review of one game (97% of its
time is the value kernel), not an archive's, whose games already run a process a core.

The computation must ask the same queries whatever their figures (a query it asks only on
the second pass just runs there), and do nothing on its dry pass that it cannot do twice."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from . import budget
from .query import Query, figures_for


def query_key(query: Query) -> tuple:
    """All a query's figures depend on, hashable: queries of one key have the same figures."""
    p, m, r = query.position, query.model, query.risk
    return (p.counts.tobytes(), p.meld_counts.tobytes(), p.n_melds, p.melds, p.total, p.visible.tobytes(), p.seat,
            p.prevalent, p.rules, p.minimum, p.flowers, m.draws, m.ron_discards, m.hazard.tobytes(), m.ending, m.extra,
            m.claim_weight.shape, m.claim_weight.tobytes(), r.deal_in.tobytes(), r.loss.tobytes(),
            r.growth.tobytes(), query.shanten)


class _Recording:
    """The dry pass: every query recorded, answered with zero figures."""

    def __init__(self):
        self.asked: dict = {}

    def answer(self, query: Query) -> tuple:
        self.asked.setdefault(query_key(query), query)
        zeros = figures_for(query)
        for column in zeros:
            column.fill(0.0)
        return 0, 0, zeros


class _Answers:
    """The second pass: the answers found, by query key (None for a query not asked before)."""

    def __init__(self, found: dict):
        self.found = found

    def answer(self, query: Query) -> "tuple | None":
        return self.found.get(query_key(query))


def _answered(queries: dict, threads: int) -> dict:
    """{key: budget.run's answer} of every query of `queries` ({key: Query}), `threads` at a
    time, the farthest from ready (the largest graphs) first."""
    keys = sorted(queries, key=lambda k: -queries[k].shanten)
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="mjfast-value") as pool:
        return dict(zip(keys, pool.map(lambda k: budget.run(queries[k]), keys)))


def with_queries_at_once(compute, threads: int):
    """compute() with its value queries run `threads` at a time (see the module doc); compute()
    as it is for one thread, or inside another such computation."""
    if threads <= 1 or budget.PREPARED.get() is not None:
        return compute()
    recording = _Recording()
    token = budget.PREPARED.set(recording)
    try:
        compute()
    finally:
        budget.PREPARED.reset(token)
    token = budget.PREPARED.set(_Answers(_answered(recording.asked, threads)))
    try:
        return compute()
    finally:
        budget.PREPARED.reset(token)

