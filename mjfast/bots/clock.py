"""The time a bot keeps: Botzone gives 6 s for a bot's first answer of a game and 1 s for each
later one (the JSON input's time_limit says so where present), a late answer being a TLE and a
-30 foul. A bot times each answer from when its request came and gives the value engine what
is left of the limit less a margin, at most `budget_ms` an answer (mjfast.advice.value.budget
runs the engine to that deadline); with less than MIN_BUDGET_MS left it decides without it."""

from __future__ import annotations

import warnings
from typing import NamedTuple

from ..advice.value import budget


class _ClockFields(NamedTuple):
    first: float = 6.0
    """The first answer of a game (Botzone: 6 s)."""
    later: float = 1.0
    """Every later answer (Botzone: 1 s)."""
    margin: float = 0.3
    """Kept for the protocol, the process and the unexpected."""
    budget_ms: float = 200.0
    """The most the value engine gets in one answer (its time budget, as best_discards' budget_ms)."""


class Clock(_ClockFields):
    """The time limits a bot keeps (seconds) and what it gives the value engine: an answer's
    engine time is the limit less `margin` (at most half the limit), at most `budget_ms`.
    The default budget keeps 99% of answers under a quarter of Botzone's 1 s: on the 970
    discards of tests/data's real matches, a 200 ms budget ranked as often as the strong
    players did as no budget (bench/bench_clock.py). `think_ms`, its name until issue 58,
    still works and warns (DeprecationWarning)."""

    __slots__ = ()

    def __new__(cls, first: float = 6.0, later: float = 1.0, margin: float = 0.3, budget_ms: float = 200.0, *,
                think_ms: "float | None" = None):
        if think_ms is not None:
            warnings.warn("Clock(think_ms=) is Clock(budget_ms=) (docs/glossary.md: budget)", DeprecationWarning,
                          stacklevel=2)
            budget_ms = think_ms
        return super().__new__(cls, first, later, margin, budget_ms)

    @property
    def think_ms(self) -> float:
        warnings.warn("Clock.think_ms is Clock.budget_ms (docs/glossary.md: budget)", DeprecationWarning, stacklevel=2)
        return self.budget_ms

    def engine_deadline(self, limit: float, started: float) -> budget.Deadline:
        """The deadline of an answer's value queries, the answer started at `started`
        (time.perf_counter) under `limit` seconds."""
        return budget.Deadline(min(self.budget_ms, 1000.0 * (limit - min(self.margin, limit / 2))), start=started)


BOTZONE_CLOCK = Clock()


# The least engine time worth a value query (ms): below it an answer takes the fan-aware
# ranking at once.
MIN_BUDGET_MS = 2.0
