"""Batch forms of the per-hand calls for many hands at once, on all cores (mjfast/runtime/threads.py).

Hands are rows of an (N, 34) uint8 count array. Melds are given as their number per hand (an
int for all, or N ints) and, for exact answers under the four-copy rule, the tiles they hold
as an (N, 34) `meld_counts` array; without it the melds' tiles are unknown and lock nothing.
`visible` (N, 34) is what each player has seen elsewhere (discards, other melds).

Every row is checked by the kernel that answers it (a separate checking pass over the input
would cost as much as the answers); a bad row raises HandError naming the first such row and
its problem. Forms a hand cannot take are reported as IMPOSSIBLE (127).
"""

from __future__ import annotations

import numpy as np

from ..errors import HandError
from ..hand import check_tiles
from ..runtime.decorators import njit
from ..runtime.intrinsics import borrowed
from ..runtime.threads import over_rows
from .all_forms import best_of, form_distances
from .discards import discard_options, masked_sum
from .group_dp import INF
from .lookup_table import load_table
from .one_hand import check_counts, unseen_copies
from .regular import distance_of_groups, meld_check_bits, regular
from .scratch import N_FORMS, new_scratch
from .status import OK

IMPOSSIBLE = 127
_CHUNK = 2048  # hands per task at least (each allocates its scratch once)
# A discard analysis costs tens of shanten queries: smaller tasks keep every core busy on a
# few hundred hands (one 2048-hand task would run them all on one core).
_DISCARD_CHUNK = 32
# One row standing for every row: no melds' tiles, nothing else seen.
_NO_ROWS = np.zeros((1, 34), np.uint8)
_NO_MELDS = np.zeros(1, np.int64)


# Inlined into the batch loops, where it pays (mjfast/runtime/decorators.py on inlining).
@njit(inline="always")
def _row(per_row, i):
    """Row i of an input given per hand, or its single row when one row stands for all."""
    return per_row[i if per_row.shape[0] != 1 else 0]


@njit(inline="always")
def _bad(counts, n_melds, meld_counts, i, expected_total):
    """True when hand i is one a Hand would reject, or has the wrong tile total."""
    melds = _row(n_melds, i)
    if melds < 0 or melds > 4:
        return True
    return check_counts(counts[i], _row(meld_counts, i), melds, expected_total) != OK


@njit(inline="always")
def _bad_or_overseen(counts, n_melds, meld_counts, visible, i, expected_total, unseen):
    """_bad, or more than 4 copies of a tile counting what hand i sees; else fills `unseen`
    with the copies of each tile it has not seen."""
    return _bad(counts, n_melds, meld_counts, i, expected_total) or not unseen_copies(
        counts[i], _row(meld_counts, i), _row(visible, i), unseen)


def _kernel_ready(a: np.ndarray) -> np.ndarray:
    """C-contiguous and writeable: the one array type the kernels are compiled for."""
    return np.require(a, requirements=["C", "W"])


def _inputs(counts, melds, meld_counts):
    """(counts, n_melds, meld_counts) kernel-ready; n_melds and meld_counts may be one row
    standing for all. Only shapes and types are checked here; rows are checked in the kernels."""
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.shape[1] != 34:
        raise HandError(f"counts must have shape (N, 34), got {counts.shape}")
    if counts.dtype != np.uint8:
        if counts.dtype.kind not in "iu" or (counts.size and (counts.min() < 0 or counts.max() > 4)):
            raise HandError("counts must be integers 0..4 (uint8 is used as is)")
        counts = counts.astype(np.uint8)
    counts = _kernel_ready(counts)
    n = counts.shape[0]
    n_melds = _kernel_ready(np.asarray(melds, np.int64).reshape(-1))
    if n_melds.shape not in ((1,), (n,)) or (np.ndim(melds) and n_melds.shape != (n,)):
        raise HandError(f"melds must be one int or {n} ints, got shape {np.shape(melds)}")
    if meld_counts is None:
        return counts, n_melds, _NO_ROWS
    meld_counts = _kernel_ready(np.asarray(meld_counts, np.uint8))
    if meld_counts.shape != (n, 34):
        raise HandError(f"meld_counts must have shape ({n}, 34), got {meld_counts.shape}")
    sums = meld_counts.sum(axis=1, dtype=np.int64)
    per_hand = np.broadcast_to(n_melds, (n,))
    bad = np.flatnonzero((sums < 3 * per_hand) | (sums > 4 * per_hand))
    if bad.size:
        i = int(bad[0])
        raise HandError(f"row {i}: meld_counts holds {sums[i]} tiles, not {per_hand[i]} melds")
    return counts, n_melds, meld_counts


def _visible(visible, n):
    if visible is None:
        return _NO_ROWS
    visible = _kernel_ready(np.asarray(visible, np.uint8))
    if visible.shape != (n, 34):
        raise HandError(f"visible must have shape ({n}, 34), got {visible.shape}")
    return visible


def _raise_for_bad_rows(status, counts, n_melds, meld_counts, visible=None, needs=None, call=""):
    """HandError naming the first row a kernel flagged (status[i] != 0), if any, and its fault
    (mjfast.hand.check_tiles words it)."""
    if not status.any():
        return
    i = int(np.argmax(status != 0))

    def row(per_row):  # as the kernels' _row
        return per_row[i if per_row.shape[0] != 1 else 0]

    try:
        check_tiles(counts[i], row(meld_counts), int(row(n_melds)), needs, call,
                    None if visible is None else row(visible))
    except HandError as exc:
        raise HandError(f"row {i}: {exc}") from None
    raise AssertionError(f"row {i} was flagged by the kernel but has no fault")


# Each kernel answers rows start..stop without the GIL; over_rows runs it over every row.

@njit(inline="always")
def _shared(table, counts, n_melds, meld_counts):
    """A task's inputs, which every thread shares for the whole call: uncounted (every row view of
    a counted array counts it up and down atomically; runtime.intrinsics.borrowed)."""
    return borrowed(table), borrowed(counts), borrowed(n_melds), borrowed(meld_counts)


@njit(inline="always")
def _form_buffers():
    """A task's working space for form_distances: scratch, and each form's distance and mask."""
    return new_scratch(), np.empty(N_FORMS, np.int64), np.empty(N_FORMS, np.int64)


@njit(cache=True, nogil=True)
def _shanten_kernel(start, stop, table, counts, n_melds, meld_counts, out, status):
    table, counts, n_melds, meld_counts = _shared(table, counts, n_melds, meld_counts)
    out, status = borrowed(out), borrowed(status)  # the outputs too: the caller holds them
    work, dist, masks = _form_buffers()
    for i in range(start, stop):
        if _bad(counts, n_melds, meld_counts, i, 0):
            status[i] = 1
            continue
        # apart from _forms_kernel: one kernel for both, form_distances' flags no longer constant, ran 5% slower
        form_distances(table, counts[i], _row(meld_counts, i), _row(n_melds, i), True, False, dist, masks, work)
        best = INF
        for f in range(N_FORMS):
            best = min(best, dist[f])
        out[i] = best - 1


@njit(cache=True, nogil=True)
def _regular_kernel(start, stop, table, counts, n_melds, meld_counts, out, status):
    table, counts, n_melds, meld_counts = _shared(table, counts, n_melds, meld_counts)
    out, status = borrowed(out), borrowed(status)  # the outputs too: the caller holds them
    work = new_scratch()
    for i in range(start, stop):
        if _bad(counts, n_melds, meld_counts, i, 0):
            status[i] = 1
            continue
        melds = _row(n_melds, i)
        if melds == 0:  # a constant set count lets the final merge unroll
            out[i] = distance_of_groups(table, counts[i], 4) - 1
        else:
            in_melds = _row(meld_counts, i)
            out[i] = regular(table, counts[i], in_melds, meld_check_bits(in_melds), 4 - melds, False, work)[0] - 1


@njit(cache=True, nogil=True)
def _forms_kernel(start, stop, table, counts, n_melds, meld_counts, out, status):
    table, counts, n_melds, meld_counts = _shared(table, counts, n_melds, meld_counts)
    out, status = borrowed(out), borrowed(status)  # the outputs too: the caller holds them
    work, dist, masks = _form_buffers()
    for i in range(start, stop):
        if _bad(counts, n_melds, meld_counts, i, 0):
            status[i] = 1
            continue
        form_distances(table, counts[i], _row(meld_counts, i), _row(n_melds, i), False, False, dist, masks, work)
        for f in range(N_FORMS):
            out[i, f] = dist[f] - 1 if dist[f] < INF else IMPOSSIBLE


@njit(cache=True, nogil=True)
def _useful_kernel(start, stop, table, counts, n_melds, meld_counts, visible, out_shanten, out_useful, out_acceptance,
                   status):
    table, counts, n_melds, meld_counts = _shared(table, counts, n_melds, meld_counts)
    visible, status = borrowed(visible), borrowed(status)
    out_shanten, out_useful, out_acceptance = borrowed(out_shanten), borrowed(out_useful), borrowed(out_acceptance)
    work, dist, masks = _form_buffers()
    unseen = np.empty(34, np.int64)
    for i in range(start, stop):
        if _bad_or_overseen(counts, n_melds, meld_counts, visible, i, 13, unseen):
            status[i] = 1
            continue
        form_distances(table, counts[i], _row(meld_counts, i), _row(n_melds, i), True, True, dist, masks, work)
        d, m = best_of(dist, masks)
        out_shanten[i] = d - 1
        for t in range(34):
            out_useful[i, t] = (m >> t) & 1
        out_acceptance[i] = masked_sum(m, unseen)


@njit(cache=True, nogil=True)
def _discard_kernel(start, stop, table, counts, n_melds, meld_counts, visible, with_next, out_shanten, out_acceptance,
                    out_next, status):
    table, counts, n_melds, meld_counts = _shared(table, counts, n_melds, meld_counts)
    visible, status = borrowed(visible), borrowed(status)
    out_shanten, out_acceptance, out_next = borrowed(out_shanten), borrowed(out_acceptance), borrowed(out_next)
    work = new_scratch()
    unseen = np.empty(34, np.int64)
    dist = np.empty(34, np.int64)
    masks = np.empty(34, np.int64)
    acc = np.empty(34, np.int64)
    nxt = np.empty(34, np.float64)
    for i in range(start, stop):
        if _bad_or_overseen(counts, n_melds, meld_counts, visible, i, 14, unseen):
            status[i] = 1
            continue
        discard_options(table, counts[i], _row(meld_counts, i), _row(n_melds, i), unseen, with_next, dist, masks,
                        acc, nxt, work)
        for t in range(34):
            out_shanten[i, t] = dist[t] - 1 if dist[t] < INF else IMPOSSIBLE
            out_acceptance[i, t] = acc[t]
            out_next[i, t] = nxt[t]


def _per_hand(kernel, counts, melds, meld_counts, forms: int = 0) -> np.ndarray:
    """kernel's int8 answer for each of N hands: (N,), or (N, forms) with `forms`."""
    counts, n_melds, meld_counts = _inputs(counts, melds, meld_counts)
    out = np.empty((counts.shape[0], forms) if forms else counts.shape[0], np.int8)
    status = np.zeros(counts.shape[0], np.uint8)
    over_rows(kernel, counts.shape[0], _CHUNK, load_table(), counts, n_melds, meld_counts, out, status)
    _raise_for_bad_rows(status, counts, n_melds, meld_counts)
    return out


def shanten(counts, melds=0, meld_counts=None) -> np.ndarray:
    """(N,) int8 shanten over all forms of N hands (3n+1 or 3n+2 tiles each)."""
    return _per_hand(_shanten_kernel, counts, melds, meld_counts)


def regular_shanten(counts, melds=0, meld_counts=None) -> np.ndarray:
    """(N,) int8 shanten of the regular form alone (four sets and a pair)."""
    return _per_hand(_regular_kernel, counts, melds, meld_counts)


def shanten_by_form(counts, melds=0, meld_counts=None) -> np.ndarray:
    """(N, 5) int8 shanten per form (mjfast.efficiency.all_forms.FORM_NAMES order), IMPOSSIBLE = 127."""
    return _per_hand(_forms_kernel, counts, melds, meld_counts, N_FORMS)


def useful(counts, melds=0, meld_counts=None, visible=None):
    """For N waiting (3n+1) hands: (shanten (N,) int8, useful tiles (N, 34) bool,
    acceptance (N,) int16 = unseen copies of the useful tiles given `visible`)."""
    counts, n_melds, meld_counts = _inputs(counts, melds, meld_counts)
    n = counts.shape[0]
    visible = _visible(visible, n)
    s = np.empty(n, np.int8)
    useful_tiles = np.empty((n, 34), np.bool_)
    acc = np.empty(n, np.int16)
    status = np.zeros(n, np.uint8)
    over_rows(_useful_kernel, n, _CHUNK, load_table(), counts, n_melds, meld_counts, visible, s, useful_tiles, acc,
              status)
    _raise_for_bad_rows(status, counts, n_melds, meld_counts, visible, 13, "batch.useful")
    return s, useful_tiles, acc


def discards(counts, melds=0, meld_counts=None, visible=None, next_step=False):
    """For N drawn (3n+2) hands, every discard at once, indexed by tile id:
    (shanten (N, 34) int8, IMPOSSIBLE where the tile is not held; acceptance (N, 34) int16;
    next_acceptance (N, 34) float32, zeros unless `next_step`). Same semantics as
    mjfast.best_discards (the discarded tile counts as seen)."""
    counts, n_melds, meld_counts = _inputs(counts, melds, meld_counts)
    n = counts.shape[0]
    visible = _visible(visible, n)
    s = np.empty((n, 34), np.int8)
    acc = np.empty((n, 34), np.int16)
    nxt = np.empty((n, 34), np.float32)
    status = np.zeros(n, np.uint8)
    over_rows(_discard_kernel, n, _DISCARD_CHUNK, load_table(), counts, n_melds, meld_counts, visible, bool(next_step),
              s, acc, nxt, status)
    _raise_for_bad_rows(status, counts, n_melds, meld_counts, visible, 14, "batch.discards")
    return s, acc, nxt
