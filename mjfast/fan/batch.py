"""Scoring many hands at once, in parallel over the rows (prange), on all cores.

Kept apart from the single-hand kernel so that a user who scores one hand never compiles the
parallel version."""

import numpy as np
from numba import njit, prange

from .kernel import AT_CORRECTED, OUT_LEN, new_work, score_into
from .names import N_FANS

# Rows per task: each task allocates its working space once.
CHUNK = 256


@njit(cache=True, parallel=True)
def score_rows(vecs, rules):
    """Totals (int64, -1 for no win), fan counts (uint8, N x N_FANS) and corrected win
    conditions (uint8) for the hand vectors `vecs` (N x VEC_LEN)."""
    n = vecs.shape[0]
    totals = np.empty(n, np.int64)
    fans = np.empty((n, N_FANS), np.uint8)
    conditions = np.empty(n, np.uint8)
    n_chunks = (n + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        work = new_work()
        row = np.empty(OUT_LEN, np.int64)
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            totals[i] = score_into(vecs[i], rules, row, work)
            for f in range(N_FANS):
                fans[i, f] = row[f]
            conditions[i] = row[AT_CORRECTED]
    return totals, fans, conditions
