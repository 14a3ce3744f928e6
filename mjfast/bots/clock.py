"""The time a bot keeps: Botzone gives 6 s for a bot's first answer of a game and 1 s for each
later one (the JSON input's time_limit says so where present), a late answer being a TLE and a
-30 foul. A bot times each answer from when its request came and gives the value engine what
is left of the limit less a margin, at most `think_ms` an answer (mjfast.advice.budget runs
the engine to that deadline); with less than MIN_BUDGET_MS left it decides without it."""

from __future__ import annotations

from typing import NamedTuple

from ..advice import budget


class Clock(NamedTuple):
    """The time limits a bot keeps (seconds) and what it gives the value engine: an answer's
    engine time is the limit less `margin` (at most half the limit), at most `think_ms`.
    The default think time keeps 99% of answers under a quarter of Botzone's 1 s: on the 970
    discards of tests/data's real matches, a 200 ms budget ranked as often as the strong
    players did as no budget (bench/bench_clock.py)."""

    first: float = 6.0
    """The first answer of a game (Botzone: 6 s)."""
    later: float = 1.0
    """Every later answer (Botzone: 1 s)."""
    margin: float = 0.3
    """Kept for the protocol, the process and the unexpected."""
    think_ms: float = 200.0
    """The most the value engine gets in one answer."""

    def engine_deadline(self, limit: float, started: float) -> budget.Deadline:
        """The deadline of an answer's value queries, the answer started at `started`
        (time.perf_counter) under `limit` seconds."""
        return budget.Deadline(min(self.think_ms, 1000.0 * (limit - min(self.margin, limit / 2))), start=started)


BOTZONE_CLOCK = Clock()


# The least engine time worth a value query (ms): below it an answer takes the fan-aware
# ranking at once.
MIN_BUDGET_MS = 2.0
