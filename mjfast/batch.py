"""Batch forms of the per-hand calls for many hands at once, on all cores.

Hands are rows of an (N, 34) uint8 count array. Melds are given as their number per hand (an
int for all, or N ints) and, for exact answers under the four-copy rule, the tiles they hold
as an (N, 34) `meld_counts` array; without it the melds' tiles are unknown and lock nothing.
`visible` (N, 34) is what each player has seen elsewhere (discards, other melds).

Every input is checked first; a bad row raises HandError naming the row and the problem.
Forms a hand cannot take are reported as IMPOSSIBLE (127).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import discard as _k
from .hand_kernels import OK, check_counts, unseen_copies
from .errors import HandError
from .groups import INF
from .lookup import load_table
from .forms import N_FORMS, all_forms, best_of, meld_check_bits, new_scratch, regular, regular_distance
from .tiles import TILE_NAMES

IMPOSSIBLE = 127
_CHUNK = 2048  # hands per scratch allocation in the parallel loops


@njit(cache=True)
def _first_bad_row(counts, n_melds, meld_counts, expected_total):
    """Index of the first row a Hand would reject (or with the wrong total), else -1."""
    for i in range(counts.shape[0]):
        if n_melds[i] < 0 or n_melds[i] > 4:
            return i
        if check_counts(counts[i], meld_counts[i], n_melds[i], 0) != OK:
            return i
        total = 3 * n_melds[i]
        for t in range(34):
            total += counts[i, t]
        if expected_total > 0 and total != expected_total:
            return i
    return -1


def _kernel_ready(a: np.ndarray) -> np.ndarray:
    """C-contiguous and writeable: the one array type the kernels are compiled for."""
    return np.require(a, requirements=["C", "W"])


def _inputs(counts, melds, meld_counts, expected_total=0):
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.shape[1] != 34:
        raise HandError(f"counts must have shape (N, 34), got {counts.shape}")
    if counts.dtype != np.uint8:
        if counts.dtype.kind not in "iu" or (counts.size and (counts.min() < 0 or counts.max() > 4)):
            raise HandError("counts must be integers 0..4 (uint8 is used as is)")
        counts = counts.astype(np.uint8)
    counts = _kernel_ready(counts)
    n = counts.shape[0]
    n_melds = np.broadcast_to(np.asarray(melds, np.int64), (n,)).copy() if np.ndim(melds) == 0 else np.asarray(melds, np.int64)
    if n_melds.shape != (n,):
        raise HandError(f"melds must be one int or {n} ints, got shape {n_melds.shape}")
    if meld_counts is None:
        meld_counts = np.zeros((n, 34), np.uint8)
    else:
        meld_counts = _kernel_ready(np.asarray(meld_counts, np.uint8))
        if meld_counts.shape != (n, 34):
            raise HandError(f"meld_counts must have shape ({n}, 34), got {meld_counts.shape}")
        sums = meld_counts.sum(axis=1, dtype=np.int64)
        bad = np.flatnonzero((sums < 3 * n_melds) | (sums > 4 * n_melds))
        if bad.size:
            i = int(bad[0])
            raise HandError(f"row {i}: meld_counts holds {sums[i]} tiles, not {n_melds[i]} melds")
    bad = _first_bad_row(counts, n_melds, meld_counts, expected_total)
    if bad >= 0:
        raise HandError(f"row {bad}: {_row_problem(counts[bad], int(n_melds[bad]), meld_counts[bad], expected_total)}")
    return counts, n_melds, meld_counts


def _row_problem(counts, n_melds, meld_counts, expected_total) -> str:
    if not 0 <= n_melds <= 4:
        return f"{n_melds} melds: a hand has 0 to 4"
    total = counts.astype(np.int64) + meld_counts
    if (total > 4).any():
        t = int(np.flatnonzero(total > 4)[0])
        return f"tile {TILE_NAMES[t]} appears {int(total[t])} times counting melds; there are only 4 copies"
    n = int(counts.sum())
    wanted = [expected_total - 3 * n_melds] if expected_total else [13 - 3 * n_melds, 14 - 3 * n_melds]
    return f"{n} standing tiles with {n_melds} meld(s); this call needs {' or '.join(map(str, wanted))}"


def _visible(visible, counts, meld_counts):
    n = counts.shape[0]
    if visible is None:
        visible = np.zeros((n, 34), np.uint8)
    visible = _kernel_ready(np.asarray(visible, np.uint8))
    if visible.shape != (n, 34):
        raise HandError(f"visible must have shape ({n}, 34), got {visible.shape}")
    over = counts.astype(np.int16) + meld_counts + visible > 4
    if over.any():
        i, t = np.argwhere(over)[0]
        raise HandError(f"row {i}: tile {t} is seen more than 4 times counting hand, melds and visible")
    return visible


@njit(cache=True, parallel=True)
def _shanten_kernel(table, counts, n_melds, meld_counts, out):
    n = counts.shape[0]
    for chunk in prange((n + _CHUNK - 1) // _CHUNK):
        work = new_scratch()
        dist = np.empty(N_FORMS, np.int64)
        masks = np.empty(N_FORMS, np.int64)
        for i in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            all_forms(table, counts[i], meld_counts[i], n_melds[i], True, False, dist, masks, work)
            best = INF
            for f in range(N_FORMS):
                best = min(best, dist[f])
            out[i] = best - 1


@njit(cache=True, parallel=True)
def _regular_kernel(table, counts, n_melds, meld_counts, out):
    n = counts.shape[0]
    for chunk in prange((n + _CHUNK - 1) // _CHUNK):
        work = new_scratch()
        for i in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            if n_melds[i] == 0:
                out[i] = regular_distance(table, counts[i], 4, work) - 1
            else:
                locked = meld_check_bits(meld_counts[i])
                out[i] = regular(table, counts[i], meld_counts[i], locked, 4 - n_melds[i], False, work)[0] - 1


@njit(cache=True, parallel=True)
def _forms_kernel(table, counts, n_melds, meld_counts, with_masks, out_dist, out_mask):
    n = counts.shape[0]
    for chunk in prange((n + _CHUNK - 1) // _CHUNK):
        work = new_scratch()
        dist = np.empty(N_FORMS, np.int64)
        masks = np.empty(N_FORMS, np.int64)
        for i in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            all_forms(table, counts[i], meld_counts[i], n_melds[i], False, with_masks, dist, masks, work)
            for f in range(N_FORMS):
                out_dist[i, f] = dist[f] - 1 if dist[f] < INF else IMPOSSIBLE
                out_mask[i, f] = masks[f]


@njit(cache=True, parallel=True)
def _useful_kernel(table, counts, n_melds, meld_counts, visible, out_shanten, out_useful, out_acceptance):
    n = counts.shape[0]
    for chunk in prange((n + _CHUNK - 1) // _CHUNK):
        work = new_scratch()
        dist = np.empty(N_FORMS, np.int64)
        masks = np.empty(N_FORMS, np.int64)
        unseen = np.empty(34, np.int64)
        for i in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            all_forms(table, counts[i], meld_counts[i], n_melds[i], True, True, dist, masks, work)
            d, m = best_of(dist, masks)
            out_shanten[i] = d - 1
            out_useful[i] = m
            unseen_copies(counts[i], meld_counts[i], visible[i], unseen)
            out_acceptance[i] = _k.masked_sum(m, unseen)


@njit(cache=True, parallel=True)
def _discard_kernel(table, counts, n_melds, meld_counts, visible, with_next,
                    out_shanten, out_acceptance, out_next):
    n = counts.shape[0]
    for chunk in prange((n + _CHUNK - 1) // _CHUNK):
        work = new_scratch()
        for i in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            _discards_row(table, counts, n_melds, meld_counts, visible, with_next, out_shanten, out_acceptance,
                          out_next, i, work)


@njit(cache=True)
def _discards_row(table, counts, n_melds, meld_counts, visible, with_next, out_shanten, out_acceptance, out_next, i,
                  work):
    """Every discard of hand i into row i of the outputs."""
    unseen = np.empty(34, np.int64)
    unseen_copies(counts[i], meld_counts[i], visible[i], unseen)
    dist = np.empty(34, np.int64)
    masks = np.empty(34, np.int64)
    acc = np.empty(34, np.int64)
    nxt = np.empty(34, np.float64)
    _k.discard_options(table, counts[i], meld_counts[i], n_melds[i], unseen, with_next, dist, masks, acc, nxt, work)
    for t in range(34):
        out_shanten[i, t] = dist[t] - 1 if dist[t] < INF else IMPOSSIBLE
        out_acceptance[i, t] = acc[t]
        out_next[i, t] = nxt[t]


def _mask_rows_to_bool(masks: np.ndarray) -> np.ndarray:
    return ((masks[..., None] >> np.arange(34, dtype=np.int64)) & 1).astype(bool)


def shanten(counts, melds=0, meld_counts=None) -> np.ndarray:
    """(N,) int8 shanten over all forms of N hands (3n+1 or 3n+2 tiles each)."""
    counts, n_melds, meld_counts = _inputs(counts, melds, meld_counts)
    out = np.empty(counts.shape[0], np.int8)
    _shanten_kernel(load_table(), counts, n_melds, meld_counts, out)
    return out


def regular_shanten(counts, melds=0, meld_counts=None) -> np.ndarray:
    """(N,) int8 shanten of the regular form alone (four sets and a pair)."""
    counts, n_melds, meld_counts = _inputs(counts, melds, meld_counts)
    out = np.empty(counts.shape[0], np.int8)
    _regular_kernel(load_table(), counts, n_melds, meld_counts, out)
    return out


def shanten_by_form(counts, melds=0, meld_counts=None) -> np.ndarray:
    """(N, 5) int8 shanten per form (mjfast.forms.FORM_NAMES order), IMPOSSIBLE = 127."""
    counts, n_melds, meld_counts = _inputs(counts, melds, meld_counts)
    out = np.empty((counts.shape[0], N_FORMS), np.int8)
    masks = np.empty((counts.shape[0], N_FORMS), np.int64)
    _forms_kernel(load_table(), counts, n_melds, meld_counts, False, out, masks)
    return out


def useful(counts, melds=0, meld_counts=None, visible=None):
    """For N waiting (3n+1) hands: (shanten (N,) int8, useful tiles (N, 34) bool,
    acceptance (N,) int16 = unseen copies of the useful tiles given `visible`)."""
    counts, n_melds, meld_counts = _inputs(counts, melds, meld_counts, expected_total=13)
    visible = _visible(visible, counts, meld_counts)
    n = counts.shape[0]
    s = np.empty(n, np.int8)
    masks = np.empty(n, np.int64)
    acc = np.empty(n, np.int16)
    _useful_kernel(load_table(), counts, n_melds, meld_counts, visible, s, masks, acc)
    return s, _mask_rows_to_bool(masks), acc


def discards(counts, melds=0, meld_counts=None, visible=None, next_step=False):
    """For N drawn (3n+2) hands, every discard at once, indexed by tile id:
    (shanten (N, 34) int8, IMPOSSIBLE where the tile is not held; acceptance (N, 34) int16;
    next_acceptance (N, 34) float32, zeros unless `next_step`). Same semantics as
    mjfast.best_discards (the discarded tile counts as seen)."""
    counts, n_melds, meld_counts = _inputs(counts, melds, meld_counts, expected_total=14)
    visible = _visible(visible, counts, meld_counts)
    n = counts.shape[0]
    s = np.empty((n, 34), np.int8)
    acc = np.empty((n, 34), np.int16)
    nxt = np.empty((n, 34), np.float32)
    _discard_kernel(load_table(), counts, n_melds, meld_counts, visible, bool(next_step), s, acc, nxt)
    return s, acc, nxt
