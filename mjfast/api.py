"""The public per-hand calls: shanten, useful tiles, waits, acceptance, best discards.

Every call takes a Hand or anything parse_hand reads (a compact or Botzone string, a
34-count array, a list of tiles). Count arrays and plain strings without melds skip
building a Hand: one kernel call checks the tiles and answers, and only when it reports a
problem is the input parsed again in full, to raise HandError with the precise message.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import hand_kernels as _k
from .direct import DirectKernel
from .errors import HandError
from .groups import INF
from .hand import Hand, parse_hand, visible_counts
from .lookup import load_table
from .forms import FORM_NAMES, N_FORMS
from .tiles import N_KINDS, TILE_NAMES, compact_counts, parse_tiles, tally

# Kernels see only C-contiguous, writeable uint8 arrays: one compiled signature whatever the
# caller passes (numba compiles read-only arrays separately). Kernels never write to them.
_NO_MELDS = np.zeros(N_KINDS, np.uint8)
_UINT8 = _NO_MELDS.dtype
_HAND_SHAPE = (N_KINDS,)
_NOTHING_SEEN = np.zeros(N_KINDS, np.uint8)
# The per-hand kernels, called without numba's type dispatch after their first call: every
# argument below is converted first (see mjfast.direct).
_shanten_of = DirectKernel(_k.shanten_of)
_forms_of = DirectKernel(_k.forms_of)
_useful_of = DirectKernel(_k.useful_of)
_discards_of = DirectKernel(_k.discards_of)
_context: "tuple[np.ndarray, np.ndarray] | None" = None


def _kernel_context() -> "tuple[np.ndarray, np.ndarray]":
    """(table, scratch) for the per-hand kernels, made once per process. The scratch's memo
    of melded groups (see forms._group_dp) serves every later query. Kernels hold the GIL,
    so calls from several Python threads never share the scratch at the same time."""
    global _context
    if _context is None:
        from .forms import new_scratch

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


class WaitFans(NamedTuple):
    """A wait of a ready hand and the fans its win scores, flowers aside (they add to the
    total but not toward the 8-fan minimum): on a discard and on a self-draw."""

    tile: str
    discard: int
    self_drawn: int


class DiscardOption(NamedTuple):
    """One discard of a 3n+2 hand and what the remaining 3n+1 hand has.

    tile: the tile discarded. shanten: of the hand after it. acceptance: unseen copies of
    its useful tiles (the discarded tile counts as seen). next_acceptance: over the useful
    draws weighted by unseen copies, the acceptance after the draw and the best discard that
    follows; worked out for the discards that keep the best shanten (the only ones it ranks),
    0.0 for the others and when the hand is already ready (its useful draws win). useful_mask: the
    useful tiles as bits (tile id t is bit t); `useful` gives their names (the waits when
    shanten is 0).

    Fan-aware figures (best_discards(..., fan_aware=True), see mjfast.advice), None or empty
    otherwise: valid_acceptance — ready: unseen copies of the waits whose discard win reaches
    the minimum; one step away: unseen copies of the draws that make a ready hand with at
    least one such wait; None further away, and None for discards that leave the hand further
    than another discard that is ready with a valid wait (they cannot rank above it, so their
    fans are not worked out). With fan_aware, next_acceptance is worked out only for the
    discards still tied for first place when it is reached in the ranking (0.0 elsewhere). next_valid_acceptance: one step away, the valid
    acceptance after each useful draw and the best discard, averaged over the draws by their
    unseen copies. valid_draws_mask / valid_draws: those draws. wait_fans: ready, each wait
    with its fans (WaitFans). effective_shanten: the shanten that counts in MCR — a ready
    hand none of whose waits reaches the minimum is one step away (its valid acceptance then
    counts the draws after which a discard gives it valid waits), and a hand one step away
    whose draws all lead to such hands is two steps away.
    """

    tile: str
    shanten: int
    acceptance: int
    next_acceptance: float
    useful_mask: int
    valid_acceptance: "int | None" = None
    next_valid_acceptance: float = 0.0
    valid_draws_mask: int = 0
    wait_fans: "tuple[WaitFans, ...]" = ()
    effective_shanten: "int | None" = None

    @property
    def useful(self) -> tuple[str, ...]:
        return tile_names(self.useful_mask)

    @property
    def useful_kinds(self) -> int:
        return bin(self.useful_mask).count("1")

    @property
    def valid_draws(self) -> tuple[str, ...]:
        return tile_names(self.valid_draws_mask)

    def __repr__(self) -> str:
        fans = ""
        if self.valid_acceptance is not None:
            fans = f", valid_acceptance={self.valid_acceptance}"
        return (f"DiscardOption(tile={self.tile!r}, shanten={self.shanten}, acceptance={self.acceptance}, "
                f"next_acceptance={self.next_acceptance:.3f}, useful={self.useful}{fans})")


def _hand_arrays(h) -> tuple[np.ndarray, np.ndarray, int]:
    """(standing counts, meld counts, number of melds), kernel-ready, from any hand input.

    Count arrays and plain strings are not checked here: the kernels check them and
    _raise_for re-parses them for the message."""
    if h.__class__ is np.ndarray and h.dtype is _UINT8 and h.shape == _HAND_SHAPE:
        return (h if h.flags.carray else np.array(h)), _NO_MELDS, 0  # carray: C-contiguous, aligned, writeable
    if h.__class__ is str and "[" not in h:
        counts = compact_counts(h)
        if counts is not None:
            return counts, _NO_MELDS, 0
        ids = parse_tiles(h)
        if len(ids) <= 14:  # counts fit a byte; the kernel checks everything else
            return np.array(tally(ids), np.uint8), _NO_MELDS, 0
        return parse_hand(h).kernel_arrays()  # raises the precise HandError
    if isinstance(h, Hand):
        return h.kernel_arrays()
    return parse_hand(h).kernel_arrays()


def _raise_for(status: int, h, wanted: str, visible=None) -> None:
    """Turn a kernel status into the HandError a full parse gives, naming the problem."""
    hand = parse_hand(h)  # raises for over-full or mis-sized hands
    if status == _k.SEEN_TOO_OFTEN:
        seen = visible_counts(visible)
        total = hand.counts.astype(int) + hand.meld_counts + seen
        t = int(np.flatnonzero(total > 4)[0])
        raise HandError(
            f"tile {TILE_NAMES[t]} is seen {int(seen[t])} times beside "
            f"{int(hand.counts[t]) + int(hand.meld_counts[t])} in the hand; there are only 4 copies"
        )
    total = hand.n_standing + 3 * hand.n_melds
    raise HandError(f"{wanted}; this hand has {total} tiles counting melds")


def _visible(visible) -> np.ndarray:
    if visible is None:
        return _NOTHING_SEEN
    return np.array(visible_counts(visible))


def shanten(h) -> int:
    """Shanten over every MCR form the hand may still take: -1 complete, 0 ready."""
    table, work = _context or _kernel_context()
    if h.__class__ is np.ndarray and h.dtype is _UINT8 and h.shape == _HAND_SHAPE and h.flags.carray:
        # a bot's count array, as the kernel takes it: _hand_arrays inlined (a third of the call)
        counts, meld_counts, n_melds = h, _NO_MELDS, 0
    else:
        counts, meld_counts, n_melds = _hand_arrays(h)
    s = _shanten_of.call(table, counts, meld_counts, n_melds, work)
    if s <= -100:
        _raise_for(-100 - s, h, "a hand has 13 or 14 tiles counting melds")
    return s


def _forms(h, prune: bool, with_masks: bool, wanted_total: int = 0):
    counts, meld_counts, n_melds = _hand_arrays(h)
    dist = np.empty(N_FORMS, np.int64)
    masks = np.empty(N_FORMS, np.int64)
    table, work = _context or _kernel_context()
    status = _forms_of.call(table, counts, meld_counts, n_melds, wanted_total, prune, with_masks, dist, masks, work)
    if status != _k.OK:
        _raise_for(status, h, _WAITING if wanted_total == 13 else "a hand has 13 or 14 tiles counting melds")
    return dist, masks


_WAITING = ("useful tiles are defined for a hand waiting to draw (3n+1 standing tiles, 13 "
            "counting melds): for a hand that has drawn, use best_discards")
_DRAWN = ("best_discards needs a hand that has just drawn (3n+2 standing tiles, 14 counting "
          "melds): for a waiting hand, use useful_tiles or acceptance")


def shanten_by_form(h) -> dict[str, "int | None"]:
    """Shanten of each form; None where the form is impossible (melds, tile limits)."""
    dist, _ = _forms(h, False, False)
    return {FORM_NAMES[f]: (int(dist[f]) - 1 if dist[f] < INF else None) for f in range(N_FORMS)}


def useful_by_form(h) -> dict[str, "list[str] | None"]:
    """Useful tiles of a 3n+1 hand for each form separately; None where the form is impossible."""
    dist, masks = _forms(h, False, True, 13)
    return {FORM_NAMES[f]: (list(tile_names(int(masks[f]))) if dist[f] < INF else None) for f in range(N_FORMS)}


def _useful(h, visible=None) -> tuple[int, int, int]:
    """(shanten, useful mask, acceptance) of a 3n+1 hand."""
    counts, meld_counts, n_melds = _hand_arrays(h)
    table, work = _context or _kernel_context()
    status, s, mask, acc = _useful_of.call(table, counts, meld_counts, n_melds, _visible(visible), work)
    if status != _k.OK:
        _raise_for(status, h, _WAITING, visible)
    return s, mask, acc


def useful_tiles(h) -> list[str]:
    """Tiles whose draw lowers the shanten of a 3n+1 hand (a kind held 4 times never is)."""
    return list(tile_names(_useful(h)[1]))


def waits(h) -> list[str]:
    """The winning tiles of a ready 3n+1 hand; [] when the hand is not ready."""
    s, mask, _ = _useful(h)
    return list(tile_names(mask)) if s == 0 else []


def acceptance(h, visible=None) -> int:
    """Unseen copies of the useful tiles of a 3n+1 hand, given the tiles seen elsewhere."""
    return _useful(h, visible)[2]


# _new_option(DiscardOption, fields): an option from all its fields in order, without the
# keyword-handling __new__ (a list of options is built on every query). The kernels' rows
# are float64; their integer columns are converted in one numpy cast, not one int() a cell.
_new_option = tuple.__new__


_fan_calls = None
_fan_discards_of: "DirectKernel | None" = None


def _load_fan_calls():
    """The fan-aware path's modules, imported on first use (importing mjfast stays light,
    and import statements inside best_discards would cost microseconds on every call)."""
    global _fan_calls, _fan_discards_of
    from . import advice
    from .fan.conditions import flower_count, wind_index
    from .fan.encode import pack_melds
    from .fan.ruleset import ruleset_of

    _fan_discards_of = DirectKernel(advice.fan_discards_of)
    _fan_calls = (flower_count, wind_index, pack_melds, ruleset_of)
    return _fan_calls


def best_discards(h, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0, fan_aware=True,
                  next_step=True, ruleset=None) -> list[DiscardOption]:
    """Every distinct discard of a 3n+2 hand, best first.

    fan_aware (the default): each option also carries its valid acceptance (see
    DiscardOption), and the ranking puts effective shanten first (a result whose waits or
    draws cannot reach the 8-fan minimum counts as one step further), then valid acceptance
    where known (plain acceptance elsewhere), next valid acceptance, acceptance,
    next_acceptance, then the less connected tile (honours, terminals, 2/8, middle), then
    tile order. Winds (E S W N) and the ruleset change the fans; `flowers` is accepted for
    completeness: flowers never count toward the minimum.

    fan_aware=False ranks by pure efficiency: shanten, acceptance, next_acceptance, then the
    same tie-breaks; next_step=False (plain ranking only) also skips next_acceptance (0.0).
    """
    if fan_aware and not (h.__class__ is np.ndarray or (h.__class__ is str and "[" not in h)):
        h = h if isinstance(h, Hand) else parse_hand(h)  # once: the fan kernels need its melds too
    counts, meld_counts, n_melds = _hand_arrays(h)
    table, work = _context or _kernel_context()
    if not fan_aware:
        rows = np.empty((N_KINDS, 5), np.float64)
        status, n = _discards_of.call(table, counts, meld_counts, n_melds, _visible(visible), bool(next_step), rows,
                                      work)
        if status != _k.OK:
            _raise_for(status, h, _DRAWN, visible)
        return [
            _new_option(DiscardOption, (TILE_NAMES[t], s, a, x, m, None, 0.0, 0, (), None))
            for (t, s, a, _, m), x in zip(rows[:n].astype(np.int64).tolist(), rows[:n, 3].tolist())
        ]
    flower_count, wind_index, pack_melds, ruleset_of = _fan_calls or _load_fan_calls()
    rules = ruleset_of(ruleset)
    seat = wind_index(seat_wind, "seat_wind")
    prevalent = wind_index(prevalent_wind, "prevalent_wind")
    flower_count(flowers)
    melds = pack_melds(h.melds) if n_melds else 0
    rows = np.empty((N_KINDS, 9), np.float64)
    wait_points = np.zeros((N_KINDS, N_KINDS, 2), np.int64)
    status, n = _fan_discards_of.call(table, counts, meld_counts, n_melds, melds, _visible(visible),
                                      seat, prevalent, rules.code, rules.minimum, True, rows, wait_points, work)
    if status != _k.OK:
        _raise_for(status, h, _DRAWN, visible)
    options = []
    floats = rows[:n, [3, 6]].tolist()
    for (t, s, a, _, m, valid, _, draws, effective), (x, next_valid) in zip(rows[:n].astype(np.int64).tolist(), floats):
        waits = ()
        if s == 0:
            fans = wait_points[t].tolist()  # one conversion, not two numpy scalars a wait
            waits = tuple(WaitFans(TILE_NAMES[w], *fans[w]) for w in range(N_KINDS) if (m >> w) & 1)
        options.append(_new_option(DiscardOption, (TILE_NAMES[t], s, a, x, m, None if valid < 0 else valid, next_valid,
                                                   draws, waits, effective)))
    return options
