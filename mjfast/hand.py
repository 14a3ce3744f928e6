"""A hand: standing-tile counts, fixed melds (mjfast.melds) and, for a scoring hand, the tile
written last; parse_hand, which makes one from any notation, and check_tiles, the one check
behind every message about a hand's tiles.

Hands are made here only: Hand(...) checks everything; parse_hand's fast paths make a Hand of
tiles they have already checked (_trusted_hand). The kernels reach a hand's arrays through
one method, Hand.kernel_arrays().
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from .errors import MAX_COPIES, MAX_MELDS, HandError, seen_too_often, too_many_copies, too_many_melds, wrong_size
from .melds import CHOW, KONG, PUNG, Meld, meld_from_text, meld_usage, parse_meld, parse_melds, split_melds
from .tiles import (
    MAX_TILES,
    N_KINDS,
    NO_IDS,
    NOT_COMPACT,
    TILE_NAMES,
    botzone_token,
    compact_reader,
    count_array,
    counts_of,
    format_tiles,
    read_tiles,
    tally,
    tile_id,
)

__all__ = ["CHOW", "KONG", "NO_MELDS", "PUNG", "Hand", "Meld", "check_tiles", "parse_hand", "parse_meld",
           "parse_melds", "require_size", "standing_less", "visible_counts"]

# The kernels' meld counts of every hand without melds: shared, so a concealed hand allocates
# nothing for it (kernels never write to their inputs)
NO_MELDS = np.zeros(N_KINDS, dtype=np.uint8)
# The key of a Hand's __dict__ that holds its kernel_arrays() (no attribute can have this name)
KERNEL_ARRAYS = "kernel arrays"


class _ReadOnlyView:
    """A Hand's `counts` or `meld_counts`: a read-only view of one of its kernel arrays, made
    on first read and kept (most hands a bot or the service parses are only ever read by the
    kernels, and making the view costs a fifth of parsing them)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, hand, owner=None):
        if hand is None:
            return self
        view = _read_only_view(hand.__dict__[KERNEL_ARRAYS][self.index])
        hand.__dict__[self.name] = view  # read from the instance from now on: this is a non-data descriptor
        return view


class Hand:
    """Standing tiles as 34 counts, fixed melds, and `last_tile`, the standing tile written
    last (the winning tile when the hand is scored), or None when the input had no order.

    A Hand always holds 13 or 14 tiles counting each meld as three: 3n+1 standing tiles
    (waiting to draw) or 3n+2 (after drawing, before discarding), n = 4 - number of melds.
    Hands are immutable: `counts` and `meld_counts` are read-only, attributes cannot be set.
    """

    counts = _ReadOnlyView(0)
    """34 counts of the standing tiles (uint8, read-only)."""
    meld_counts = _ReadOnlyView(1)
    """34 counts of the tiles in the melds (uint8, read-only)."""
    melds: "tuple[Meld, ...]"
    last_tile: "int | None"
    _n_standing: int

    def __init__(self, counts, melds=(), last_tile=None) -> None:
        counts = count_array(counts)  # a checked copy: no cast may wrap -1 into 255
        n = sum(counts.tolist())  # faster than numpy's sum on 34 items; kept for n_standing
        melds = parse_melds(melds)
        if len(melds) > MAX_MELDS:
            raise too_many_melds(len(melds))
        meld_counts = np.array(meld_usage(melds), np.uint8) if melds else NO_MELDS
        check_tiles(counts, meld_counts, len(melds))
        if last_tile is not None:
            last_tile = tile_id(last_tile)
            if counts[last_tile] == 0:
                raise HandError(f"last tile {TILE_NAMES[last_tile]} is not among the standing tiles")
        self.__dict__.update({"melds": melds, "last_tile": last_tile, "_n_standing": n,
                              KERNEL_ARRAYS: (counts, meld_counts, len(melds))})

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"a Hand is immutable: cannot set {name!r} (with_counts or parse_hand make another)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Hand is immutable: cannot delete {name!r}")

    @property
    def n_standing(self) -> int:
        return self._n_standing

    @property
    def n_melds(self) -> int:
        return len(self.melds)

    @property
    def drawn(self) -> bool:
        """True for a 3n+2 hand (it must discard or win), False for a 3n+1 hand."""
        return self.n_standing % 3 == 2

    @property
    def concealed(self) -> bool:
        """No claimed melds (concealed kongs keep a hand concealed)."""
        return all(m.concealed for m in self.melds)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return (
            np.array_equal(self.counts, other.counts)
            and self.melds == other.melds
            and self.last_tile == other.last_tile
        )

    def __hash__(self) -> int:
        return hash((self.counts.tobytes(), self.melds, self.last_tile))

    def __str__(self) -> str:
        return self.to_compact()

    def __repr__(self) -> str:
        return f"Hand({self.to_compact()!r})"

    def to_compact(self) -> str:
        """Compact notation: melds, then standing tiles; `last_tile`, if known, written last."""
        melds = "".join(str(m) for m in self.melds)
        if self.last_tile is None:
            return melds + format_tiles(self.counts)
        rest = self.counts.copy()
        rest[self.last_tile] -= 1
        return melds + format_tiles(rest) + format_tiles([self.last_tile])

    def to_botzone(self) -> str:
        """Standing tiles as Botzone tokens (melds are not part of that notation)."""
        ids = [t for t in range(N_KINDS) for _ in range(int(self.counts[t]))]
        if self.last_tile is not None:
            ids.remove(self.last_tile)
            ids.append(self.last_tile)
        return " ".join(botzone_token(t) for t in ids)

    def to_pymahjonggb(self) -> tuple[tuple, tuple]:
        """(packs, standing tiles) in PyMahjongGB's form; the last tile is left in the hand,
        written last, so that parse_hand(tiles, packs) gives the same Hand back."""
        return tuple(m.to_pymahjonggb() for m in self.melds), tuple(self.to_botzone().split())

    def derived(self, name: str, make):
        """make(self), made on the first call for `name` and kept on the hand (a Hand is
        immutable, so it never goes stale): mjfast.fan's encoded hand, which costs more to
        build than a query's Python layer."""
        key = "derived " + name  # no attribute can have this name
        value = self.__dict__.get(key)
        if value is None:
            value = make(self)
            self.__dict__[key] = value
        return value

    def kernel_arrays(self) -> "tuple[np.ndarray, np.ndarray, int]":
        """(counts, meld counts, number of melds) as the kernels take them: writeable uint8
        arrays (the kernels are compiled for those only, and never write to them), the ones
        `counts` and `meld_counts` are read-only views of."""
        return self.__dict__[KERNEL_ARRAYS]

    def with_counts(self, counts: "np.ndarray | Sequence[int]") -> "Hand":
        """The same melds with other standing tiles (validated again)."""
        return Hand(counts, self.melds)


def _read_only_view(counts: np.ndarray) -> np.ndarray:
    view = counts.view()
    view.setflags(write=False)
    return view


def standing_less(hand: "Hand", remove: dict) -> np.ndarray:
    """The standing counts of `hand` less `remove` ({tile: copies}): the standing tiles left
    when a claim or a kong takes some into a meld."""
    counts = np.array(hand.counts)
    for tile, n in remove.items():
        counts[tile] -= n
    return counts


def check_tiles(counts, meld_counts, n_melds: int, needs: "int | None" = None, call: str = "", visible=None) -> None:
    """Raise the HandError of the first fault of a hand's tiles (34 standing counts, 34 counts
    of its melds' tiles, the number of melds) and of what else was seen (`visible`, 34 counts,
    if given): too many melds, too many copies of a tile, a tile count no hand has (or not
    `needs`, 13 or 14 counting melds, as the call named `call` needs), too many copies seen.
    The one check behind every message: Hand, the per-hand calls and the batch calls use it."""
    if not 0 <= n_melds <= MAX_MELDS:
        raise too_many_melds(n_melds)
    standing, locked = _ints(counts), _ints(meld_counts)
    held = [a + b for a, b in zip(standing, locked)]  # lists: numpy costs more at 34 items
    if max(held) > MAX_COPIES:
        t = next(t for t, n in enumerate(held) if n > MAX_COPIES)
        raise too_many_copies(t, standing[t], locked[t])
    n = sum(standing)
    if n + 3 * n_melds not in ((13, 14) if needs is None else (needs,)):
        raise wrong_size(n, n_melds, needs, call)
    if visible is not None:
        for t, seen in enumerate(_ints(visible)):
            if held[t] + seen > MAX_COPIES:
                raise seen_too_often(t, held[t], seen)


def _ints(counts) -> list:
    return counts.tolist() if isinstance(counts, np.ndarray) else [int(c) for c in counts]


def require_size(hand: "Hand", needs: int, call: str) -> None:
    """Raise the HandError of a valid hand of the other size than the call needs (13: waiting
    to draw, 14: just drawn): the guard of the calls that take only one kind."""
    if hand.n_standing + 3 * hand.n_melds != needs:
        raise wrong_size(hand.n_standing, hand.n_melds, needs, call)


def parse_hand(hand, melds: Iterable = ()) -> Hand:
    """A Hand from any accepted notation.

    `hand` may be a compact string with bracketed melds (``"[123m1]456p789sEEE5m"``), a Botzone
    token string, a 34-count array, a list of tile names or ids, or a Hand (returned as is when
    no extra melds are given). `melds` adds melds: a string of bracketed melds, or a list of
    strings, Meld objects or PyMahjongGB packs.
    """
    if hand.__class__ is str and not melds:
        if "[" not in hand:  # the commonest input, a bot's: the fast reader reads it, one check decides
            counts = np.zeros(N_KINDS, np.uint8)
            found = (_read or _reader())(hand.encode("ascii", "replace"), NO_IDS, counts)
            n = found & 0xFFFF  # MAX_TILES: the tiles read (NOT_COMPACT gives 0xFFFE)
            if 13 <= n <= 14 and found < _FIVE_COPIES:  # a hand's size, at most MAX_COPIES of a kind
                return _trusted_hand(counts, (), n, ((found >> 16) & 255) - 1, NO_MELDS)
        else:
            fast = _compact_hand(hand)
            if fast is not None:
                return fast
    return _parse_any(hand, melds)  # else the checked path: it reads it, or names the problem


_FIVE_COPIES = (MAX_COPIES + 1) << 24  # a reading whose most copies of a kind are more than MAX_COPIES

# The fast reader's entry point, once bound (tiles.compact_reader): parse_hand calls it without
# the binding's checks.
_read = None


def _reader():
    global _read
    read, bound = compact_reader()
    if bound:
        _read = read
    return read


def _parse_any(hand, melds: Iterable) -> Hand:
    """parse_hand without its fast path: every notation, every check, every message."""
    extra = parse_melds(melds)
    if isinstance(hand, Hand):
        return hand if not extra else Hand(hand.counts, hand.melds + extra, hand.last_tile)
    if isinstance(hand, str):
        meld_texts, ids = split_melds(hand)
        counts = tally(ids)
        all_melds = tuple(parse_meld(m) for m in meld_texts) + extra
        return Hand(counts, all_melds, ids[-1] if ids else None)
    if isinstance(hand, (bytes, bytearray, memoryview)):
        raise HandError(f"a hand must be a str, a 34-count array or a list of tiles, not {type(hand).__name__}")
    read, order = read_tiles(hand)
    return Hand(read, extra, order[-1] if order else None)


def _compact_hand(text: str) -> "Hand | None":
    """The Hand of a compact string with bracketed melds ("[123m1][EEE2]456p789s5m"): the
    tiles between brackets read by the fast reader, the melds as meld_from_text reads them,
    checked as Hand checks them; None for anything else, which the checked path then reads, or
    names the problem (tests/efficiency/test_direct.py shows the two never disagree).
    parse_hand reads a hand without melds itself.

    A bot asks about a new hand every turn; the checked path costs more than the answer."""
    if len(text) > 80 or "[" not in text:
        return None
    pieces = text.split("[")
    if len(pieces) > MAX_MELDS + 1:
        return None
    counts = np.zeros(N_KINDS, np.uint8)
    read = _read or _reader()
    found = read(pieces[0].encode("ascii", "replace"), NO_IDS, counts)
    if found < 0:
        return None
    n, last = found & MAX_TILES, ((found >> 16) & 255) - 1
    melds = []
    for piece in pieces[1:]:
        body, closed, rest = piece.partition("]")
        found = read(rest.encode("ascii", "replace"), NO_IDS, counts) if closed else NOT_COMPACT
        if found < 0:
            return None
        if found & MAX_TILES:
            n, last = n + (found & MAX_TILES), ((found >> 16) & 255) - 1
        try:
            melds.append(meld_from_text(body))
        except HandError:
            return None
    if n + 3 * len(melds) not in (13, 14) or found >> 24 > MAX_COPIES:
        return None
    usage = meld_usage(tuple(melds))
    if melds and any(u + c > MAX_COPIES for u, c in zip(usage, counts.tolist())):
        return None
    return _trusted_hand(counts, tuple(melds), n, last, np.array(usage, np.uint8) if melds else NO_MELDS)


def _trusted_hand(counts: np.ndarray, melds: tuple, n_standing: int, last: int, meld_counts: np.ndarray) -> Hand:
    """A Hand of tiles its caller has checked as Hand checks them, without Hand's __init__
    (`last` -1 for no order): parse_hand's fast paths."""
    hand = object.__new__(Hand)
    fields = hand.__dict__
    fields["melds"] = melds
    fields["last_tile"] = last if last >= 0 else None
    fields["_n_standing"] = n_standing
    fields[KERNEL_ARRAYS] = (counts, meld_counts, len(melds))
    return hand


def visible_counts(visible) -> np.ndarray:
    """34 counts of tiles seen elsewhere (discards, other players' melds), from any notation:
    a string (bracketed melds allowed: their tiles count), a 34-count array, tile names/ids,
    or None for nothing seen."""
    if visible is None:
        return np.zeros(N_KINDS, np.uint8)
    if isinstance(visible, str):
        meld_texts, ids = split_melds(visible)
        for m in meld_texts:
            ids.extend(parse_meld(m).tiles)
        return counts_of(ids)
    if isinstance(visible, Hand):
        return (visible.counts + visible.meld_counts).astype(np.uint8)
    return counts_of(visible)
