"""Scoring many hands at once, on all cores (mjfast/runtime/threads.py), and the check of batch input
(one pass in numba: numpy's whole-array checks cost as much as the scoring).

Kept apart from the single-hand kernel so that a user who scores one hand never compiles the
batch version."""

import numpy as np

from ..runtime.decorators import njit
from ..runtime.threads import over_rows
from .kernel import AT_CORRECTED, OUT_LEN, new_work, score_into
from .layout import CHOW_SET, KONG_SET
from .names import N_FANS

# What check_rows finds wrong with a row (api.py words the messages).
(ROW_OK, BAD_COUNT, BAD_WIN_TILE, WIN_TILE_NOT_HELD, BAD_MELD_KIND, MELD_GAP, BAD_MELD_TILE, BAD_CHOW,
 CONCEALED_NOT_KONG, OVER_FOUR, WRONG_TILE_COUNT) = range(11)


@njit(cache=True)
def check_rows(counts, wins, melds):
    """(first bad row, what is wrong) for batch input, or (-1, ROW_OK)."""
    held = np.zeros(34, np.int64)
    for i in range(counts.shape[0]):
        standing = 0
        for t in range(34):
            c = counts[i, t]
            if c < 0 or c > 4:
                return i, BAD_COUNT
            held[t] = c
            standing += c
        win = wins[i]
        if win < 0 or win > 33:
            return i, BAD_WIN_TILE
        if counts[i, win] == 0:
            return i, WIN_TILE_NOT_HELD
        n_melds = 0
        for j in range(4):
            kind, tile, is_open = melds[i, j, 0], melds[i, j, 1], melds[i, j, 2]
            if kind < 0 or kind > KONG_SET or is_open < 0 or is_open > 1:
                return i, BAD_MELD_KIND
            if kind == 0:
                continue
            if n_melds != j:
                return i, MELD_GAP
            n_melds += 1
            if tile < 0 or tile > 33:
                return i, BAD_MELD_TILE
            if kind == CHOW_SET:
                if tile >= 27 or tile % 9 > 6:
                    return i, BAD_CHOW
                held[tile] += 1
                held[tile + 1] += 1
                held[tile + 2] += 1
            else:
                held[tile] += 4 if kind == KONG_SET else 3
            if kind != KONG_SET and is_open == 0:
                return i, CONCEALED_NOT_KONG
        for t in range(34):
            if held[t] > 4:
                return i, OVER_FOUR
        if standing != 14 - 3 * n_melds:
            return i, WRONG_TILE_COUNT
    return -1, ROW_OK

# Rows per task at least: each task allocates its working space once.
CHUNK = 256


@njit(cache=True, nogil=True)
def score_range(start, stop, vecs, rules, totals, fans, conditions):
    """Scores rows start..stop of the hand vectors `vecs` into totals, fans and conditions."""
    work = new_work()
    row = np.empty(OUT_LEN, np.int64)
    for i in range(start, stop):
        totals[i] = score_into(vecs[i], rules, row, work)
        for f in range(N_FANS):
            fans[i, f] = row[f]
        conditions[i] = row[AT_CORRECTED]


def score_rows(vecs: np.ndarray, rules: int):
    """Totals (int64, -1 for no win), fan counts (uint8, N x N_FANS) and corrected win
    conditions (uint8) for the hand vectors `vecs` (N x VEC_LEN)."""
    n = vecs.shape[0]
    totals = np.empty(n, np.int64)
    fans = np.empty((n, N_FANS), np.uint8)
    conditions = np.empty(n, np.uint8)
    over_rows(score_range, n, CHUNK, vecs, np.int64(rules), totals, fans, conditions)
    return totals, fans, conditions
