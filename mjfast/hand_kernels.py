"""Numba entry points for one hand: one call from Python does the checking and the work.

Each returns a status (OK or a code the Python layer turns into a HandError message) so
that a per-hand query costs a single dispatch. `work` is a scratch from
forms.new_scratch that the caller keeps from one call to the next: besides saving an
allocation, its memo of melded groups then serves every later query. Acceptance counts *unseen* copies: 4 minus
the copies in the hand, its melds and whatever else the caller has seen.
"""

import numpy as np

from .jit import njit
from .discard import discard_options, masked_sum
from .groups import INF
from .forms import N_FORMS, all_forms, best_of, form_rows

# Status codes; the Python layer turns them into HandError messages.
OK, TOO_MANY_COPIES, BAD_TILE_COUNT, SEEN_TOO_OFTEN = 0, 1, 2, 3


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


@njit(cache=True)
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


@njit(cache=True)
def forms_of(table, counts, meld_counts, n_melds, wanted_total, prune, with_masks, dist, masks, work):
    """Every form's deficiency and mask into dist / masks (see forms.all_forms); status."""
    status = check_counts(counts, meld_counts, n_melds, wanted_total)
    if status == OK:
        all_forms(table, counts, meld_counts, n_melds, prune, with_masks, dist, masks, work)
    return status


@njit(cache=True)
def useful_of(table, counts, meld_counts, n_melds, visible, work):
    """(status, shanten, useful mask, acceptance) of a 3n+1 hand given the tiles seen."""
    status = check_counts(counts, meld_counts, n_melds, 13)
    if status != OK:
        return status, 0, np.int64(0), 0
    unseen = np.empty(34, np.int64)
    if not unseen_copies(counts, meld_counts, visible, unseen):
        return SEEN_TOO_OFTEN, 0, np.int64(0), 0
    dist, masks = form_rows(work)
    all_forms(table, counts, meld_counts, n_melds, True, True, dist, masks, work)
    d, m = best_of(dist, masks)
    return OK, d - 1, m, masked_sum(m, unseen)


@njit(inline="always")
def _centrality(t):
    """How connected a tile can be: honours 0, terminals 1, 2/8 2, 3-7 3 (tie-break)."""
    if t >= 27:
        return 0
    r = t % 9
    return 1 if r == 0 or r == 8 else min(r, 8 - r, 3)


@njit(inline="always")
def set_efficiency_keys(keys, t, shanten, acceptance, next_acceptance):
    """Row t of the plain ranking's keys (for _ranked): shanten, then acceptance and next
    acceptance (most first), then the less connected tile."""
    keys[t, 0] = shanten
    keys[t, 1] = -acceptance
    keys[t, 2] = -next_acceptance
    keys[t, 3] = _centrality(t)


@njit
def _ranked(n_keys, keys, held):
    """Tile ids of the held kinds, sorted by their rows of `keys` (lexicographic, smallest
    first); ties keep tile order."""
    order = np.empty(34, np.int64)
    n = 0
    for t in range(34):
        if not held[t]:
            continue
        i = n
        while i > 0:
            p = order[i - 1]
            before = False
            decided = False
            for k in range(n_keys):
                if keys[p, k] != keys[t, k]:
                    before = keys[p, k] < keys[t, k]
                    decided = True
                    break
            if before or not decided:
                break
            order[i] = p
            i -= 1
        order[i] = t
        n += 1
    return order[:n]


@njit(cache=True)
def discards_of(table, counts, meld_counts, n_melds, visible, with_next, out, work):
    """Every discard of a 3n+2 hand, best first, as rows of out (34 x 5): tile, shanten,
    acceptance, next acceptance, useful mask. Returns (status, number of rows).

    Ranked by shanten, then acceptance, then next acceptance, then the less connected tile
    (honours, terminals, 2/8, middle), then tile order.
    """
    status = check_counts(counts, meld_counts, n_melds, 14)
    if status != OK:
        return status, 0
    unseen = np.empty(34, np.int64)
    if not unseen_copies(counts, meld_counts, visible, unseen):
        return SEEN_TOO_OFTEN, 0
    dist = np.empty(34, np.int64)
    masks = np.empty(34, np.int64)
    acc = np.empty(34, np.int64)
    nxt = np.empty(34, np.float64)
    discard_options(table, counts, meld_counts, n_melds, unseen, with_next, dist, masks, acc, nxt, work)
    keys = np.empty((34, 4), np.float64)
    for t in range(34):
        set_efficiency_keys(keys, t, dist[t] - 1, acc[t], nxt[t])
    order = _ranked(4, keys, dist < INF)
    for i in range(order.shape[0]):
        t = order[i]
        out[i, 0] = t
        out[i, 1] = dist[t] - 1
        out[i, 2] = acc[t]
        out[i, 3] = nxt[t]
        out[i, 4] = masks[t]
    return OK, order.shape[0]
