"""What a decision gives up against mjfast's best by value, and when that makes it a bad move.

    points_lost(best_expected_score, chosen_expected_score)   # >= 0: the value ranking's first is best
    bad_move(points_lost, best_expected_score)                # True when it lost too much

A decision's points lost are the expected score of mjfast's best option minus that of the
option chosen (the figures of best_discards or claim_options: the Botzone settlement points
the hand is expected to win). A move is **bad** when it loses at least BAD_POINTS points and
at least BAD_SHARE of the best option's expected score: the first keeps near-ties of a hand
worth little from counting, the second keeps a point or two of a 40-point hand from counting.
The review (mjfast.review) and the log analysis (mjfast.logs --value) flag by this one rule.
Both functions take numbers or numpy arrays.
"""

from __future__ import annotations

import numpy as np

BAD_POINTS = 1.0
"""A bad move loses at least this many points of expected score..."""
BAD_SHARE = 0.10
"""...and at least this share of the best option's expected score."""


def points_lost(best, chosen):
    """The expected score the choice gives up against the best (never negative: figures of
    one ranking, whose first is the best; rounding is clipped)."""
    return np.maximum(np.asarray(best, np.float64) - np.asarray(chosen, np.float64), 0.0) if isinstance(
        best, np.ndarray) else max(float(best) - float(chosen), 0.0)


def bad_move(lost, best):
    """Whether losing `lost` points against a best option worth `best` is a bad move (see the
    module doc)."""
    if isinstance(lost, np.ndarray):
        return (lost >= BAD_POINTS) & (lost >= BAD_SHARE * np.abs(best))
    return bool(lost >= BAD_POINTS and lost >= BAD_SHARE * abs(best))
