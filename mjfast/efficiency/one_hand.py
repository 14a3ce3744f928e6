"""The one-hand entry kernels of the shanten core: one call from Python checks the input and
does the work (the discards' rankings are mjfast.advice's: plain.discards_of,
fan_aware.fan_discards_of).

Each returns a status (status.OK, or the code of what is wrong, which the Python layer turns
into a HandError message) so that a per-hand query costs a single dispatch. `work` is a
scratch (scratch.new_scratch) that the caller keeps from one call to the next: besides saving
an allocation, its memos then serve every later query. Acceptance counts *unseen* copies: 4
minus the copies in the hand, its melds and whatever else the caller has seen.
"""

import numpy as np

from ..compact_kernel import read_compact
from ..runtime.decorators import njit
from .all_forms import all_forms, best_of
from .discards import masked_sum
from .group_dp import INF
from .scratch import N_FORMS, form_rows
from .status import BAD_TILE_COUNT, OK, SEEN_TOO_OFTEN, TOO_MANY_COPIES


@njit
def check_counts(counts, meld_counts, n_melds, wanted_total):
    """OK, or the problem a Hand would report (over 4 copies, a wrong tile total).
    wanted_total 13 or 14 demands that total; 0 accepts either."""
    total = 3 * n_melds
    most = 0
    for t in range(34):  # no early exit: the loop vectorises, and bad input is rare
        most = max(most, np.int64(counts[t]) + np.int64(meld_counts[t]))
        total += counts[t]
    if most > 4:
        return TOO_MANY_COPIES
    if wanted_total:
        return OK if total == wanted_total else BAD_TILE_COUNT
    return OK if total == 13 or total == 14 else BAD_TILE_COUNT


@njit
def unseen_copies(counts, meld_counts, visible, out):
    """out[t] = copies of t not in the hand, its melds or `visible`; False if any is negative."""
    ok = True
    for t in range(34):
        u = 4 - np.int64(counts[t]) - meld_counts[t] - visible[t]
        if u < 0:
            ok = False
        out[t] = u
    return ok


@njit
def check_seen(counts, meld_counts, n_melds, wanted_total, visible, unseen):
    """check_counts, then unseen_copies: OK with `unseen` filled, or the status of the fault."""
    status = check_counts(counts, meld_counts, n_melds, wanted_total)
    if status != OK:
        return status
    if not unseen_copies(counts, meld_counts, visible, unseen):
        return SEEN_TOO_OFTEN
    return OK


@njit(cache=True, nrt=True)  # its form rows are views of `work`, counted where the caller counts (see below)
def shanten_of(table, counts, meld_counts, n_melds, work):
    """Shanten over all forms, or -100 - status for input a Hand would reject."""
    status = check_counts(counts, meld_counts, n_melds, 0)
    if status != OK:
        return -100 - status
    dist, masks = form_rows(work)
    all_forms(table, counts, meld_counts, n_melds, True, False, dist, masks, work)
    best = INF
    for f in range(N_FORMS):
        best = min(best, dist[f])
    return best - 1


@njit(cache=True, nrt=False)
def shanten_of_counts(table, counts, meld_counts, n_melds, work):
    """shanten_of for a call from Python (shanten of counts or a Hand): compiled without
    reference counts, its array arguments come from Python without numba's record of each (a
    fifth of shanten(counts)); shanten_of, which it calls, stays counted, so that the views it
    makes of `work` are counted as its other callers count them (a kernel compiled without
    counts that returned a view to a counted caller would have it freed)."""
    return shanten_of(table, counts, meld_counts, n_melds, work)


# What shanten_of_text returns for a string the fast reader refuses (the Python layer reads it).
NOT_READ = -1000


@njit(cache=True, nrt=True)
def shanten_of_text(table, text, work):
    """shanten_of of a compact string without melds (its ASCII bytes), read by the notation's
    fast reader (compact_kernel.read_compact) in the same call; NOT_READ where the reader
    refuses it. For shanten(text): one call from Python, no counts made there."""
    counts = np.zeros(34, np.uint8)
    if read_compact(text, np.empty(0, np.uint8), counts) < 0:
        return NOT_READ
    return shanten_of(table, counts, np.zeros(34, np.uint8), 0, work)


@njit(cache=True, nrt=False)
def forms_of(table, counts, meld_counts, n_melds, wanted_total, prune, with_masks, dist, masks, work):
    """Every form's deficiency and mask into dist / masks (see all_forms.all_forms); status.
    It allocates nothing: its arrays come from Python without numba's records (shanten_of)."""
    status = check_counts(counts, meld_counts, n_melds, wanted_total)
    if status == OK:
        all_forms(table, counts, meld_counts, n_melds, prune, with_masks, dist, masks, work)
    return status


@njit(cache=True)
def useful_of(table, counts, meld_counts, n_melds, visible, work):
    """(status, shanten, useful mask, acceptance) of a 3n+1 hand given the tiles seen."""
    unseen = np.empty(34, np.int64)
    status = check_seen(counts, meld_counts, n_melds, 13, visible, unseen)
    if status != OK:
        return status, 0, np.int64(0), 0
    dist, masks = form_rows(work)
    all_forms(table, counts, meld_counts, n_melds, True, True, dist, masks, work)
    d, m = best_of(dist, masks)
    return OK, d - 1, m, masked_sum(m, unseen)
