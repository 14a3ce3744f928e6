"""The public per-hand calls of the shanten core: shanten, useful tiles, waits, acceptance
(the discards' rankings, claims and values are mjfast.advice's, on top of these).

Every call takes a Hand or anything parse_hand reads (a compact or Botzone string, a
34-count array, a list of tiles). Count arrays and plain strings without melds skip
building a Hand: one kernel call checks the tiles and answers, and only when it reports a
problem is the input read again in full, to raise the HandError that names it
(mjfast.hand.check_tiles words every fault).
"""

from __future__ import annotations

import numpy as np

from ..hand import NO_MELDS, Hand, check_tiles, parse_hand, visible_counts
from ..runtime.dispatch import DirectKernel
from ..tiles import N_KINDS, TILE_NAMES, compact_counts, parse_tiles, tally
from . import one_hand as _k
from .all_forms import FORM_NAMES
from .group_dp import INF
from .lookup_table import load_table
from .scratch import N_FORMS
from .status import OK

# Kernels see only C-contiguous, writeable uint8 arrays: one compiled signature whatever the
# caller passes (numba compiles read-only arrays separately). Kernels never write to them.
_UINT8 = NO_MELDS.dtype
_HAND_SHAPE = (N_KINDS,)
_NOTHING_SEEN = np.zeros(N_KINDS, np.uint8)
# The per-hand kernels, called without numba's type dispatch after their first call: every
# argument below is converted first (see mjfast.runtime.dispatch.DirectKernel).
_shanten_of = DirectKernel(_k.shanten_of_counts)
_shanten_of_text = DirectKernel(_k.shanten_of_text)
_forms_of = DirectKernel(_k.forms_of)
_useful_of = DirectKernel(_k.useful_of)
_context: "tuple[np.ndarray, np.ndarray] | None" = None


def kernel_context() -> "tuple[np.ndarray, np.ndarray]":
    """(lookup table, scratch) the per-hand kernels share, made once per process. The
    scratch's memos (melded groups, scored hands) serve every later query. Kernels hold the
    GIL, so calls from several Python threads never share the scratch at the same time."""
    global _context
    if _context is None:
        from .scratch import new_scratch

        _context = (load_table(), new_scratch())
    return _context


_BIT_NAMES = {1 << t: name for t, name in enumerate(TILE_NAMES)}


def tile_names(mask: int) -> tuple[str, ...]:
    """Names of the tiles in a 34-bit mask, in tile order."""
    names = []
    while mask:
        low = mask & -mask
        names.append(_BIT_NAMES[low])
        mask ^= low
    return tuple(names)


def hand_arrays(h) -> tuple[np.ndarray, np.ndarray, int]:
    """(standing counts, meld counts, number of melds), kernel-ready, from any hand input.

    Count arrays and plain strings are not checked here: the kernels check them and
    raise_for_status reads them again for the message."""
    if h.__class__ is np.ndarray and h.dtype is _UINT8 and h.shape == _HAND_SHAPE:
        return (h if h.flags.carray else np.array(h)), NO_MELDS, 0  # carray: C-contiguous, aligned, writeable
    if h.__class__ is str and "[" not in h:
        counts = compact_counts(h)
        if counts is not None:
            return counts, NO_MELDS, 0
        ids = parse_tiles(h)
        if len(ids) <= 14:  # counts fit a byte; the kernel checks everything else
            return np.array(tally(ids), np.uint8), NO_MELDS, 0
        return parse_hand(h).kernel_arrays()  # raises the HandError that names the problem
    if isinstance(h, Hand):
        return h.kernel_arrays()
    return parse_hand(h).kernel_arrays()


def raise_for_status(h, needs: "int | None", call: str, visible=None) -> None:
    """Raise the HandError behind a kernel's status: the input read in full names it."""
    hand = parse_hand(h)  # raises for a hand no call takes
    check_tiles(hand.counts, hand.meld_counts, hand.n_melds, needs, call,
                None if visible is None else visible_counts(visible))


def visible_array(visible) -> np.ndarray:
    if visible is None:
        return _NOTHING_SEEN
    return np.array(visible_counts(visible))


def shanten(h) -> int:
    """Shanten over every MCR form the hand may still take: -1 complete, 0 ready."""
    table, work = _context or kernel_context()
    if h.__class__ is np.ndarray and h.dtype is _UINT8 and h.shape == _HAND_SHAPE and h.flags.carray:
        # a bot's count array, as the kernel takes it: no melds, nothing to convert
        s = _shanten_of.call(table, h, NO_MELDS, 0, work)
    elif h.__class__ is str:
        # a compact string read and answered in one kernel call (the fast reader inside)
        s = _shanten_of_text.call(table, h.encode("ascii", "replace"), work)
        if s == _k.NOT_READ:  # another notation, or the checked reader's
            s = _shanten_of.call(table, *hand_arrays(h), work)
    else:
        s = _shanten_of.call(table, *(h.kernel_arrays() if h.__class__ is Hand else hand_arrays(h)), work)
    if s <= -100:
        raise_for_status(h, None, "shanten")
    return s


def _forms(h, prune: bool, with_masks: bool, needs: "int | None", call: str):
    counts, meld_counts, n_melds = hand_arrays(h)
    dist = np.empty(N_FORMS, np.int64)
    masks = np.empty(N_FORMS, np.int64)
    table, work = _context or kernel_context()
    status = _forms_of.call(table, counts, meld_counts, n_melds, needs or 0, prune, with_masks, dist, masks, work)
    if status != OK:
        raise_for_status(h, needs, call)
    return dist, masks


def shanten_by_form(h) -> dict[str, "int | None"]:
    """Shanten of each form; None where the form is impossible (melds, tile limits)."""
    dist, _ = _forms(h, False, False, None, "shanten_by_form")
    return {FORM_NAMES[f]: (int(dist[f]) - 1 if dist[f] < INF else None) for f in range(N_FORMS)}


def useful_by_form(h) -> dict[str, "list[str] | None"]:
    """Useful tiles of a 3n+1 hand for each form separately; None where the form is impossible."""
    dist, masks = _forms(h, False, True, 13, "useful_by_form")
    return {FORM_NAMES[f]: (list(tile_names(int(masks[f]))) if dist[f] < INF else None) for f in range(N_FORMS)}


def _useful(h, visible, call: str) -> tuple[int, int, int]:
    """(shanten, useful mask, acceptance) of a 3n+1 hand."""
    counts, meld_counts, n_melds = hand_arrays(h)
    table, work = _context or kernel_context()
    status, s, mask, acc = _useful_of.call(table, counts, meld_counts, n_melds, visible_array(visible), work)
    if status != OK:
        raise_for_status(h, 13, call, visible)
    return s, mask, acc


def useful_tiles(h) -> list[str]:
    """Tiles whose draw lowers the shanten of a 3n+1 hand (a kind held 4 times never is)."""
    return list(tile_names(_useful(h, None, "useful_tiles")[1]))


def waits(h) -> list[str]:
    """The winning tiles of a ready 3n+1 hand; [] when the hand is not ready."""
    s, mask, _ = _useful(h, None, "waits")
    return list(tile_names(mask)) if s == 0 else []


def acceptance(h, visible=None) -> int:
    """Unseen copies of the useful tiles of a 3n+1 hand, given the tiles seen elsewhere."""
    return _useful(h, visible, "acceptance")[2]
