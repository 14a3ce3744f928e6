"""The value engine on a clock: a query's deadline, the flag that stops the entry kernel at it,
and the richest model that fits the time left.

Without a budget a query runs the value model as its Model states it (exchanges within
`extra` steps, none beyond entry.MAX_EXCHANGE_SHANTEN); where a graph would hold more than
graph.MAX_HANDS hands (its memory bound), the model without exchanges, or where even that
would, no value figures (the fan-aware ranking). With a budget (`budget_ms`):

1. every graph of the query is first built without exchanges: the lower bound, a few
   milliseconds up to three steps from ready (the graph with exchanges is about 45 times
   larger, measured on the real matches of tests/data: 14 to 360 times);
2. where the model has exchanges, they are worked out unless even their least estimate (the
   lower bound's hands x EXCHANGE_GROWTH x the cost of a hand measured so far) passes the
   time left: a graph that may fit is tried, the deadline stops it where it does not;
3. a graph still building at the deadline (or past MAX_HANDS) stops (the kernel reads a
   flag that a watchdog thread raises), and the answer is the last model every graph of the query finished: the
   lower bound, or, when not even that finished, no value figures at all (the caller falls
   back to the fan-aware ranking, microseconds).

Every answer names its model (MODELS), one for all the figures of a query, so that no figure
is silently of another model. The entry kernel runs without the GIL (so that the watchdog can
run) on a scratch of each thread's own: queries in several threads run at once.
"""

from __future__ import annotations

import threading
import time
from contextvars import ContextVar

import numpy as np

from ...errors import ArgumentError
from .query import Figures, Query, figures_for

VALUE = "value"
"""The value model as ValueModel states it: the figures a query without a budget gets."""
NO_EXCHANGE = "value-no-exchange"
"""The value model without exchanges (a lower bound of every figure): the budget had no room
for the exchanges the model would use, or their graph would pass graph.MAX_HANDS."""
FAN_AWARE = "fan-aware"
"""No value figures: the lexicographic fan-aware ranking (asked for, or no value graph fitted
the budget, or the hand is so far from ready that its graph would pass graph.MAX_HANDS)."""
EFFICIENCY = "efficiency"
"""No fan or value figures: pure efficiency."""
MODELS = (VALUE, NO_EXCHANGE, FAN_AWARE, EFFICIENCY)

EXCHANGE_GROWTH = 14
"""The fewest times the graph without exchanges the one with them holds (measured on the real
matches' decisions of tests/data: 14 to 360 times, a median of 45): exchanges that would not fit
the time left even so are not tried; the others are, until the deadline."""
US_PER_HAND = 5.0
"""The first estimate of a graph's cost per 13-tile hand (µs, build and backward pass; 3 to
5 measured here on graphs of 2,000 hands or more). Queries then measure it (observe)."""
MAX_BUDGET_MS = 600_000


def check_budget(budget_ms) -> "float | None":
    """A budget argument checked: None (no deadline) or milliseconds, more than 0."""
    if budget_ms is None:
        return None
    if isinstance(budget_ms, bool) or not isinstance(budget_ms, (int, float, np.integer, np.floating)) \
            or not 0 < budget_ms <= MAX_BUDGET_MS:
        raise ArgumentError(f"budget_ms is the milliseconds a query may take, more than 0 and at most {MAX_BUDGET_MS} "
                            f"(or None: no deadline); got {budget_ms!r}")
    return float(budget_ms)


class Deadline:
    """A point in time (time.perf_counter's clock) and the milliseconds left until it."""

    __slots__ = ("at",)

    def __init__(self, budget_ms: float, start: "float | None" = None):
        self.at = (time.perf_counter() if start is None else start) + budget_ms / 1000.0

    def left_ms(self) -> float:
        return max(0.0, (self.at - time.perf_counter()) * 1000.0)


class _Watchdog:
    """One daemon thread that raises each armed flag (flag[0] = 1) at its deadline."""

    def __init__(self):
        self.changed = threading.Condition(threading.Lock())
        self.armed: dict[int, tuple[float, np.ndarray]] = {}
        self.thread: "threading.Thread | None" = None

    def arm(self, at: float, flag: np.ndarray) -> None:
        with self.changed:
            self.armed[id(flag)] = (at, flag)
            if self.thread is None:
                self.thread = threading.Thread(target=self._watch, name="mjfast-deadlines", daemon=True)
                self.thread.start()
            self.changed.notify()

    def disarm(self, flag: np.ndarray) -> None:
        with self.changed:
            self.armed.pop(id(flag), None)

    def _watch(self) -> None:
        with self.changed:
            while True:
                if not self.armed:
                    self.changed.wait()
                    continue
                now = time.perf_counter()
                for key, (at, flag) in list(self.armed.items()):
                    if at <= now:
                        flag[0] = 1
                        del self.armed[key]
                if self.armed:
                    self.changed.wait(min(at for at, _ in self.armed.values()) - now)


_watchdog = _Watchdog()
_NEVER = np.zeros(1, np.int64)  # the stop flag of a query without a deadline: never raised
_us_per_hand = US_PER_HAND
_engine = None  # the entry kernel (runtime.dispatch.DirectKernel of entry.hand_values), once loaded
_scratches = threading.local()  # each thread's scratch of the entry kernel (its memo of scored hands)


def _load_engine():
    global _engine
    if _engine is None:
        from ...runtime.dispatch import DirectKernel
        from .entry import hand_values

        _engine = DirectKernel(hand_values)
    return _engine


def _scratch():
    """This thread's scratch: the kernel runs without the GIL, so queries in several threads
    run at once, each on its own (1.3 MB, its memo kept from one of the thread's queries to
    the next)."""
    work = getattr(_scratches, "work", None)
    if work is None:
        from ...efficiency.scratch import new_scratch

        work = _scratches.work = new_scratch()
    return work


# Answers prepared for this context's queries (at_once.py): while set, run() asks it first.
PREPARED: ContextVar = ContextVar("mjfast_value_prepared", default=None)


def run(query: Query, stop: np.ndarray = _NEVER) -> tuple:
    """(status, the graph's 13-tile hands, Figures) of one query (entry.hand_values), or the
    answer prepared for it (PREPARED)."""
    global _us_per_hand
    prepared = PREPARED.get()
    if prepared is not None:
        answer = prepared.answer(query)
        if answer is not None:
            return answer
    hand_values = _engine or _load_engine()
    figures = figures_for(query)
    start = time.perf_counter()
    status, _, hands = hand_values.call(query, stop, figures, _scratch())
    if status == 0 and hands >= 2000:  # smaller graphs are mostly the call's own cost
        _us_per_hand = 0.8 * _us_per_hand + 0.2 * (time.perf_counter() - start) * 1e6 / hands
    return status, hands, figures


def without_exchanges(query: Query) -> Query:
    """The query's lower bound: its model without exchanges."""
    return query._replace(model=query.model._replace(extra=0))


def _has_exchanges(query: Query) -> bool:
    """Whether the query's model has exchanges (none beyond entry.MAX_EXCHANGE_SHANTEN)."""
    from .entry import MAX_EXCHANGE_SHANTEN

    return bool(query.model.extra) and query.shanten <= MAX_EXCHANGE_SHANTEN


def _to_the_end(queries: "list[Query]") -> "tuple[int, list[Figures] | None, str]":
    """value_figures without a deadline: the model as asked; where a graph would pass
    graph.MAX_HANDS, the model without exchanges; where even that would, no figures."""
    from .entry import TOO_LARGE

    tries = [(VALUE, queries)]
    if any(_has_exchanges(query) for query in queries):
        tries.append((NO_EXCHANGE, [without_exchanges(query) for query in queries]))
    for model, asked in tries:
        found = []
        for query in asked:
            status, _, figures = run(query)
            if status == TOO_LARGE:
                break
            if status != 0:
                return status, None, model
            found.append(figures)
        else:
            return 0, found, model
    return 0, None, FAN_AWARE


def value_figures(queries: "list[Query]", budget_ms: "float | None") -> "tuple[int, list[Figures] | None, str]":
    """(status, [Figures of each query] or None, model) of a query's graphs under the budget
    (see the module doc); status is the first bad input's (efficiency.status), else 0 (OK)."""
    from .entry import STOPPED, TOO_LARGE

    if budget_ms is None:
        return _to_the_end(queries)
    deadline = Deadline(budget_ms)
    stop = np.zeros(1, np.int64)
    _watchdog.arm(deadline.at, stop)
    try:
        lower, sizes = [], []
        for query in queries:
            status, hands, figures = run(without_exchanges(query), stop)
            if status == STOPPED or status == TOO_LARGE:
                return 0, None, FAN_AWARE
            if status != 0:
                return status, None, FAN_AWARE
            lower.append(figures)
            sizes.append(hands)
        richer = [i for i, query in enumerate(queries) if _has_exchanges(query)]
        if not richer:
            return 0, lower, VALUE  # the model itself has no exchanges here
        estimate_ms = sum(sizes[i] for i in richer) * EXCHANGE_GROWTH * _us_per_hand / 1000.0
        if estimate_ms > deadline.left_ms():
            return 0, lower, NO_EXCHANGE
        found = list(lower)
        for i in richer:
            status, _, figures = run(queries[i], stop)
            if status != 0:
                return 0, lower, NO_EXCHANGE
            found[i] = figures
        return 0, found, VALUE
    finally:
        _watchdog.disarm(stop)
