"""The public per-hand calls: shanten, useful tiles, waits, acceptance, best discards.

Every call takes a Hand or anything parse_hand reads (a compact or Botzone string, a
34-count array, a list of tiles). A uint8 count array of shape (34,) takes a fast path that
skips building a Hand; the kernel checks it and any problem is reported as HandError.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import discard as _k
from .errors import HandError
from .groups import INF
from .hand import Hand, parse_hand, visible_counts
from .lookup import load_table
from .shanten import FORM_NAMES, N_FORMS
from .tiles import N_KINDS, TILE_NAMES

# Kernels see only C-contiguous, writeable uint8 arrays: one compiled signature whatever the
# caller passes (numba compiles read-only arrays separately). Kernels never write to them.
_NO_MELDS = np.zeros(N_KINDS, np.uint8)


@dataclass(frozen=True)
class DiscardOption:
    """One discard of a 3n+2 hand and what the remaining 3n+1 hand has.

    tile: the tile discarded. shanten: of the hand after it. useful: the tiles whose draw
    lowers that shanten (the waits when it is 0). acceptance: unseen copies of them (the
    discarded tile counts as seen). next_acceptance: over the useful draws weighted by
    unseen copies, the acceptance after the draw and the best discard that follows (0.0 when
    the hand is already ready: its useful draws win).
    """

    tile: str
    shanten: int
    useful: tuple[str, ...]
    acceptance: int
    next_acceptance: float

    @property
    def useful_kinds(self) -> int:
        return len(self.useful)


def _hand_arrays(h) -> tuple[np.ndarray, np.ndarray, int]:
    """(standing counts, meld counts, number of melds) of any accepted hand input."""
    if isinstance(h, np.ndarray) and h.dtype == np.uint8 and h.shape == (N_KINDS,):
        if not (h.flags.writeable and h.flags.c_contiguous):
            h = np.array(h)
        status = _k.check_counts(h, _NO_MELDS, 0)
        if status != _k.OK:
            Hand(h)  # raises HandError with the precise message
            raise HandError("invalid count array")  # pragma: no cover - Hand always raises
        return h, _NO_MELDS, 0
    hand = parse_hand(h)
    return np.array(hand.counts), np.array(hand.meld_counts), hand.n_melds


def _names(mask: int) -> list[str]:
    return [TILE_NAMES[t] for t in range(N_KINDS) if (mask >> t) & 1]


def _forms(arrays, prune: bool, with_masks: bool = True) -> tuple[np.ndarray, np.ndarray]:
    counts, meld_counts, n_melds = arrays
    dist = np.empty(N_FORMS, np.int64)
    masks = np.empty(N_FORMS, np.int64)
    _k.forms(load_table(), counts, meld_counts, n_melds, prune, with_masks, dist, masks)
    return dist, masks


def shanten(h) -> int:
    """Shanten over every MCR form the hand may still take: -1 complete, 0 ready."""
    dist, _ = _forms(_hand_arrays(h), True, False)
    return int(dist.min()) - 1


def shanten_by_form(h) -> dict[str, "int | None"]:
    """Shanten of each form; None where the form is impossible (melds, tile limits)."""
    dist, _ = _forms(_hand_arrays(h), False, False)
    return {FORM_NAMES[f]: (int(dist[f]) - 1 if dist[f] < INF else None) for f in range(N_FORMS)}


def _check_waiting(arrays) -> None:
    total = int(arrays[0].sum()) + 3 * arrays[2]
    if total != 13:
        raise HandError(
            f"useful tiles are defined for a hand waiting to draw (3n+1 standing tiles); "
            f"this one has {total} tiles counting melds: use best_discards"
        )


def _waiting_forms(arrays) -> tuple[int, int]:
    """(shanten, useful mask) of a 3n+1 hand given as (counts, meld counts, melds)."""
    _check_waiting(arrays)
    dist, masks = _forms(arrays, True)
    best = int(dist.min())
    mask = 0
    for f in range(N_FORMS):
        if dist[f] == best:
            mask |= int(masks[f])
    return best - 1, mask


def useful_by_form(h) -> dict[str, "list[str] | None"]:
    """Useful tiles of a 3n+1 hand for each form separately; None where the form is impossible."""
    arrays = _hand_arrays(h)
    _check_waiting(arrays)
    dist, masks = _forms(arrays, False)
    return {FORM_NAMES[f]: (_names(int(masks[f])) if dist[f] < INF else None) for f in range(N_FORMS)}


def useful_tiles(h) -> list[str]:
    """Tiles whose draw lowers the shanten of a 3n+1 hand (a kind held 4 times never is)."""
    return _names(_waiting_forms(_hand_arrays(h))[1])


def waits(h) -> list[str]:
    """The winning tiles of a ready 3n+1 hand; [] when the hand is not ready."""
    s, mask = _waiting_forms(_hand_arrays(h))
    return _names(mask) if s == 0 else []


def _unseen(counts, meld_counts, visible) -> np.ndarray:
    seen = visible_counts(visible)
    unseen = np.empty(N_KINDS, np.int64)
    if not _k.unseen_copies(counts, meld_counts, seen, unseen):
        t = int(np.flatnonzero(unseen < 0)[0])
        raise HandError(
            f"tile {TILE_NAMES[t]} is seen {int(seen[t])} times beside "
            f"{int(counts[t]) + int(meld_counts[t])} in the hand; there are only 4 copies"
        )
    return unseen


def acceptance(h, visible=None) -> int:
    """Unseen copies of the useful tiles of a 3n+1 hand, given the tiles seen elsewhere."""
    arrays = _hand_arrays(h)
    _, mask = _waiting_forms(arrays)
    unseen = _unseen(arrays[0], arrays[1], visible)
    return int(_k.masked_sum(mask, unseen))


def _centrality(tile: int) -> int:
    """How connected a tile can be: honours 0, terminals 1, 2/8 2, 3-7 3 (tie-break)."""
    if tile >= 27:
        return 0
    rank = tile % 9
    return min(rank, 8 - rank, 3) if rank not in (0, 8) else 1


def best_discards(h, visible=None, *, next_step: bool = True) -> list[DiscardOption]:
    """Every distinct discard of a 3n+2 hand, best first.

    Ranked by shanten after the discard, then acceptance, then next_acceptance, then the
    less connected tile (honours, terminals, 2/8, middle), then tile order. `next_step=False`
    skips next_acceptance (reported as 0.0), which is much cheaper.
    """
    counts, meld_counts, n_melds = _hand_arrays(h)
    total = int(counts.sum()) + 3 * n_melds
    if total != 14:
        raise HandError(
            f"best_discards needs a hand that has just drawn (3n+2 standing tiles); this one "
            f"has {total} tiles counting melds: use useful_tiles or acceptance"
        )
    unseen = _unseen(counts, meld_counts, visible)
    dist = np.empty(N_KINDS, np.int64)
    masks = np.empty(N_KINDS, np.int64)
    acc = np.empty(N_KINDS, np.int64)
    nxt = np.empty(N_KINDS, np.float64)
    _k.discard_options(load_table(), counts, meld_counts, n_melds, unseen, next_step,
                       dist, masks, acc, nxt)
    options = [
        DiscardOption(
            tile=TILE_NAMES[t],
            shanten=int(dist[t]) - 1,
            useful=tuple(_names(int(masks[t]))),
            acceptance=int(acc[t]),
            next_acceptance=float(nxt[t]),
        )
        for t in range(N_KINDS)
        if counts[t] > 0
    ]
    order = {name: i for i, name in enumerate(TILE_NAMES)}
    options.sort(
        key=lambda o: (o.shanten, -o.acceptance, -o.next_acceptance,
                       _centrality(order[o.tile]), order[o.tile])
    )
    return options
