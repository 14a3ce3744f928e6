"""Scoring many hands at once, in parallel over the rows (prange), on all cores.

Kept apart from the single-hand kernel so that a user who scores one hand never compiles the
parallel version."""

import numpy as np
from numba import njit, prange

from .kernel import OUT_LEN, score_into


@njit(cache=True, parallel=True)
def score_rows(vecs, rules):
    """Output rows (N x OUT_LEN) for the hand vectors `vecs` (N x VEC_LEN)."""
    out = np.empty((vecs.shape[0], OUT_LEN), np.int64)
    for i in prange(vecs.shape[0]):
        score_into(vecs[i], rules, out[i])
    return out
