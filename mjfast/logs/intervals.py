"""95% intervals of the figures the summaries report: Wilson's for a share, mean ± 1.96
standard errors for a mean (from a count, a sum and a sum of squares, so that they add up
chunk by chunk). mjfast.review's summaries use the same."""

from __future__ import annotations

import math

Z = 1.96


def wilson(k: int, n: int) -> "list | None":
    """Wilson's 95% interval of the share k / n."""
    if n == 0:
        return None
    p = k / n
    d = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / d
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def mean_interval(n: int, total: float, squares: float) -> dict:
    """{"n", "mean", "interval"} of n values of sum `total` and sum of squares `squares`: the
    interval mean ± 1.96 standard errors (None for fewer than two values)."""
    if not n:
        return {"n": 0, "mean": None, "interval": None}
    mean = total / n
    interval = None
    if n > 1:
        variance = max(0.0, (squares - n * mean * mean) / (n - 1))
        half = Z * math.sqrt(variance / n)
        interval = [round(mean - half, 4), round(mean + half, 4)]
    return {"n": n, "mean": round(mean, 4), "interval": interval}
