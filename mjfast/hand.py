"""A hand: standing-tile counts, fixed melds and, for a scoring hand, the tile written last.

Bracketed melds follow ChineseOfficialMahjongHelper:

    [123m1]   chow; the digit says which of its tiles was claimed (1-3)
    [555p2]   pung; the digit says who gave it (1 left/上家, 2 across/对家, 3 right/下家)
    [5555p]   concealed kong (also [5555p0])
    [5555p3]  exposed kong claimed from player 3
    [5555p5]  kong added to an exposed pung (5-7 = 4 + who gave the pung)

GB-Mahjong's comma form ``[EEE,2]`` is accepted too. A chow or pung written without a digit
is taken as claimed from the left (digit 1); the digit never changes shanten or fans.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np

from .errors import MAX_COPIES, MAX_MELDS, HandError, seen_too_often, too_many_copies, too_many_melds, wrong_size
from .tiles import (
    N_KINDS,
    TILE_NAMES,
    add_compact,
    botzone_token,
    compact_kernels,
    count_array,
    counts_of,
    format_tiles,
    is_int,
    parse_tiles,
    read_tiles,
    tally,
    tile_id,
)

CHOW, PUNG, KONG = "chow", "pung", "kong"
# The kernels' meld counts of every hand without melds: shared, so a concealed hand allocates
# nothing for it (kernels never write to their inputs)
NO_MELDS = np.zeros(N_KINDS, dtype=np.uint8)
# The key of a Hand's __dict__ that holds its kernel_arrays(), for the per-hand calls to read
# without a method call (no attribute can have this name)
KERNEL_ARRAYS = "kernel arrays"
# [0-9], not \d: \d also matches other scripts' digits ('٣', '３'), which int() would accept
_MELD_BODY_RE = re.compile(r"^\s*(.*?[mpszESWNCFP])\s*,?\s*([0-9])?\s*$")


@dataclass(frozen=True)
class Meld:
    """A fixed set: `tile` is the lowest tile of a chow, or the tile of a pung or kong.

    `offer`: for a chow, which of its three tiles was claimed (1-3); for a pung or kong, who
    gave it (1 left, 2 across, 3 right), 0 for a concealed kong. `added`: a kong made by
    adding the fourth tile to one's own exposed pung.
    """

    kind: str
    tile: int
    offer: int = 1
    added: bool = False

    def __post_init__(self):
        if not isinstance(self.kind, str) or self.kind not in (CHOW, PUNG, KONG):
            raise HandError(f"meld kind must be chow, pung or kong, got {self.kind!r}")
        if not is_int(self.tile) or not (0 <= self.tile < N_KINDS):
            raise HandError(f"meld tile must be a tile id 0..33, got {self.tile!r}")
        if not is_int(self.offer):
            raise HandError(f"meld digit must be an integer, got {self.offer!r}")
        # plain ints, so that str() prints digits and equal melds compare and hash alike
        object.__setattr__(self, "tile", int(self.tile))
        object.__setattr__(self, "offer", int(self.offer))
        object.__setattr__(self, "added", bool(self.added))
        if self.added and self.kind != KONG:
            raise HandError(f"only a kong can be added to a pung, not a {self.kind}")
        if self.kind == CHOW:
            if self.tile >= 27 or self.tile % 9 > 6:
                raise HandError(f"no chow starts at {TILE_NAMES[self.tile]}")
            if self.offer not in (1, 2, 3):
                raise HandError(f"a chow's digit says which tile was claimed (1-3), got {self.offer}")
        elif self.kind == PUNG:
            if self.offer not in (1, 2, 3):
                raise HandError(f"a pung's digit says who gave it (1-3), got {self.offer}")
        else:
            if self.added and self.offer not in (1, 2, 3):
                raise HandError(f"an added kong needs who gave the pung (digits 5-7), got {self.offer}")
            if self.offer not in (0, 1, 2, 3):
                raise HandError(f"a kong's digit is none/0 (concealed), 1-3 (exposed) or 5-7 (added), got {self.offer}")

    @property
    def tiles(self) -> list[int]:
        if self.kind == CHOW:
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * (4 if self.kind == KONG else 3)

    @property
    def concealed(self) -> bool:
        return self.kind == KONG and self.offer == 0

    def __str__(self) -> str:
        body = format_tiles(self.tiles)
        if self.concealed:
            return f"[{body}]"
        return f"[{body}{self.offer + 4 if self.added else self.offer}]"

    def to_pymahjonggb(self) -> tuple[str, str, int]:
        """PyMahjongGB's pack tuple: ("CHI", middle tile, claimed 1-3) / ("PENG"|"GANG", tile, offer).

        PyMahjongGB has no code for an added kong (its offers are 0..3): one is written as the
        exposed kong ("GANG", tile, who gave the pung), so reading it back loses `added` only.
        """
        if self.kind == CHOW:
            return ("CHI", botzone_token(self.tile + 1), self.offer)
        return ("PENG" if self.kind == PUNG else "GANG", botzone_token(self.tile), self.offer)


def parse_meld(meld: "str | Meld | Sequence") -> Meld:
    """A Meld from "[123m1]" / "123m1" / "EEE,2", a Meld, or a PyMahjongGB pack tuple."""
    if isinstance(meld, Meld):
        return meld
    if isinstance(meld, (tuple, list)):
        return _meld_from_pack(meld)
    if not isinstance(meld, str):
        raise HandError(f"a meld must be a string like '[123m1]', got {meld!r}")
    return _meld_from_text(meld)


def _checked_meld(source, kind: str, tile: int, offer: int, added: bool = False) -> Meld:
    """Meld(...), naming the text or pack it was read from in any error."""
    try:
        return Meld(kind, tile, offer, added)
    except HandError as exc:
        raise HandError(f"meld {source!r}: {exc}") from None


@lru_cache(maxsize=1024)
def _meld_from_text(meld: str) -> Meld:
    """The Meld a text names (cached: melds are immutable and a game repeats few texts)."""
    return _read_meld_text(meld)


def _read_meld_text(meld: str) -> Meld:
    text = meld.strip()
    if text.startswith("[") != text.endswith("]"):
        raise HandError(f"malformed meld {meld!r}: unbalanced brackets")
    if text.startswith("["):
        text = text[1:-1]
    m = _MELD_BODY_RE.match(text)
    if not m:
        raise HandError(f"malformed meld {meld!r}: expected tiles then an optional digit, like [123m1]")
    tiles = sorted(parse_tiles(m.group(1)))
    digit = m.group(2)
    if len(tiles) == 3 and tiles[0] == tiles[2]:
        return _checked_meld(meld, PUNG, tiles[0], 1 if digit is None else int(digit))
    if len(tiles) == 3:
        run = tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2
        if tiles[0] >= 27 or not run or tiles[0] // 9 != tiles[2] // 9:
            raise HandError(f"malformed meld {meld!r}: three tiles must be a run in one suit or three of a kind")
        return _checked_meld(meld, CHOW, tiles[0], 1 if digit is None else int(digit))
    if len(tiles) == 4 and tiles[0] == tiles[3]:
        offer = 0 if digit is None else int(digit)
        if offer >= 5:
            if offer > 7:
                raise HandError(f"malformed meld {meld!r}: an added kong's digit is 5, 6 or 7")
            return _checked_meld(meld, KONG, tiles[0], offer - 4, added=True)
        return _checked_meld(meld, KONG, tiles[0], offer)
    raise HandError(f"malformed meld {meld!r}: a meld is a chow, a pung or a kong")


def _meld_from_pack(pack: Sequence) -> Meld:
    if len(pack) != 3:
        raise HandError(f"a PyMahjongGB pack is (kind, tile, offer), got {pack!r}")
    kind, tile, offer = pack
    kinds = {"CHI": CHOW, "PENG": PUNG, "GANG": KONG}
    if not isinstance(kind, str) or kind.upper() not in kinds:
        raise HandError(f"pack kind must be CHI, PENG or GANG, got {kind!r}")
    kind = kinds[kind.upper()]
    t = tile_id(tile)
    if not is_int(offer) or not 0 <= offer <= 3:
        # PyMahjongGB's offers are 0..3 (0 = concealed kong); it has no added-kong code
        raise HandError(f"pack {pack!r}: the offer must be an integer 0..3, got {offer!r}")
    if kind == CHOW and not (t < 27 and 1 <= t % 9 <= 7):
        raise HandError(f"pack {pack!r}: a CHI names the middle tile of a run (2..8 of a suit)")
    return _checked_meld(pack, kind, t - 1 if kind == CHOW else t, int(offer))


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
        meld_counts = np.array(_meld_usage(melds), np.uint8) if melds else NO_MELDS
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


def _meld_usage(melds: "tuple[Meld, ...]") -> list:
    """34 counts of the melds' tiles. Plain lists: numpy costs more than it saves at 34 items."""
    usage = [0] * N_KINDS
    for m in melds:
        for t in m.tiles:
            usage[t] += 1
    return usage


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


def parse_melds(melds) -> tuple[Meld, ...]:
    """Melds from a string of bracketed melds ("[123m1][EEE2]"), or from an iterable of melds
    as strings, Meld objects or PyMahjongGB packs; None means no melds."""
    if melds is None:
        return ()
    if isinstance(melds, str):
        texts, ids = _split_melds(melds)
        if ids:
            raise HandError(f"{melds!r} has tiles outside brackets: only melds are expected here")
        return tuple(parse_meld(m) for m in texts)
    if isinstance(melds, Meld):
        return (melds,)
    try:
        items = list(melds)
    except TypeError:
        raise HandError(f"melds must be a string or a list of melds, got {type(melds).__name__}") from None
    return tuple(parse_meld(m) for m in items)


def _split_melds(text: str) -> tuple[list[str], list[int]]:
    """The meld texts inside brackets, and the ids of the standing tiles in written order.

    Each stretch of tiles between brackets is read on its own: joined, "12[345m1]3m" would
    silently give 1m2m3m, the digits borrowing a suit letter from across a meld.
    """
    melds: list[str] = []
    ids: list[int] = []
    pos = 0
    while pos < len(text):
        open_at = text.find("[", pos)
        close_at = text.find("]", pos)
        if close_at != -1 and (open_at == -1 or close_at < open_at):
            raise HandError(f"']' at position {close_at} in {text!r} has no matching '['")
        end = len(text) if open_at == -1 else open_at
        ids.extend(_tiles_between(text, pos, end))
        if open_at == -1:
            break
        close_at = text.find("]", open_at)
        if close_at == -1:
            raise HandError(f"'[' at position {open_at} in {text!r} is never closed")
        nested = text.find("[", open_at + 1, close_at)
        if nested != -1:
            raise HandError(f"'[' at position {nested} in {text!r} is nested inside the meld opened at {open_at}")
        melds.append(text[open_at + 1:close_at])
        pos = close_at + 1
    return melds, ids


def _tiles_between(text: str, start: int, end: int) -> list[int]:
    """Tile ids of text[start:end], a stretch of standing tiles beside bracketed melds."""
    part = text[start:end]
    if not part.strip():
        return []
    try:
        return parse_tiles(part)
    except HandError as exc:
        if part == text:
            raise
        # positions in the message count from the start of this stretch: say where it is
        raise HandError(f"{exc} (the tiles at position {start} of {text!r})") from None


def parse_hand(hand, melds: Iterable = ()) -> Hand:
    """A Hand from any accepted notation.

    `hand` may be a compact string with bracketed melds (``"[123m1]456p789sEEE5m"``), a Botzone
    token string, a 34-count array, a list of tile names or ids, or a Hand (returned as is when
    no extra melds are given). `melds` adds melds: a string of bracketed melds, or a list of
    strings, Meld objects or PyMahjongGB packs.
    """
    if hand.__class__ is str and not melds:
        if len(hand) <= 40 and "[" not in hand:  # the commonest input, a bot's: one kernel reads and checks it
            counts = np.zeros(N_KINDS, np.uint8)
            found = (_read_concealed or _concealed_reader())(hand.encode("ascii", "replace"), counts)
            if found >= 0:  # else not plain compact notation, or not a hand: the full parser names the problem
                return _checked_hand(counts, (), found >> 8, (found & 255) - 1, NO_MELDS)
        else:
            fast = _compact_hand(hand)
            if fast is not None:
                return fast
    return _parse_any(hand, melds)


# compact_kernel.read_concealed_hand's entry point, once loaded and called (see mjfast.runtime.dispatch.DirectKernel)
_read_concealed = None


def _concealed_reader():
    global _read_concealed
    kernel = compact_kernels()[1]
    if kernel.bound:
        _read_concealed = kernel.call
    return kernel.call


def _parse_any(hand, melds: Iterable) -> Hand:
    """parse_hand without its fast path: every notation, every check, every message."""
    extra = parse_melds(melds)
    if isinstance(hand, Hand):
        return hand if not extra else Hand(hand.counts, hand.melds + extra, hand.last_tile)
    if isinstance(hand, str):
        meld_texts, ids = _split_melds(hand)
        counts = tally(ids)
        all_melds = tuple(parse_meld(m) for m in meld_texts) + extra
        return Hand(counts, all_melds, ids[-1] if ids else None)
    if isinstance(hand, (bytes, bytearray, memoryview)):
        raise HandError(f"a hand must be a str, a 34-count array or a list of tiles, not {type(hand).__name__}")
    read, order = read_tiles(hand)
    return Hand(read, extra, order[-1] if order else None)


def _compact_hand(text: str) -> "Hand | None":
    """The Hand of a compact string with bracketed melds and no spaces between tiles
    ("[123m1][EEE2]456p789s5m"), read in one pass and checked as Hand checks it, or None for
    anything else: the full parser then reads it, or names the problem (tests/efficiency/test_direct.py
    shows the two never disagree). parse_hand reads a hand without melds itself.

    A bot asks about a new hand every turn; the general parser costs more than the answer."""
    if len(text) > 80 or "[" not in text:
        return None
    counts = np.zeros(N_KINDS, np.uint8)
    pieces = text.split("[")
    last = add_compact(pieces[0], counts)
    if last is None or len(pieces) > MAX_MELDS + 1:
        return None
    melds = []
    usage = [0] * N_KINDS
    for piece in pieces[1:]:
        body, closed, rest = piece.partition("]")
        after = add_compact(rest, counts) if closed else None
        if after is None:
            return None
        last = after if after >= 0 else last
        try:
            meld = _meld_from_text(body)
        except HandError:
            return None
        melds.append(meld)
        for t in meld.tiles:
            usage[t] += 1
    listed = counts.tolist()
    n = sum(listed)
    if n + 3 * len(melds) not in (13, 14) or max(listed) > 4:
        return None
    if melds and any(u + c > 4 for u, c in zip(usage, listed)):
        return None
    return _checked_hand(counts, tuple(melds), n, last, np.array(usage, np.uint8) if melds else NO_MELDS)


def _checked_hand(counts: np.ndarray, melds: tuple, n_standing: int, last: int, meld_counts: np.ndarray) -> Hand:
    """A Hand of tiles already checked as Hand checks them, without its __init__ (`last` -1
    for no order)."""
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
        meld_texts, ids = _split_melds(visible)
        for m in meld_texts:
            ids.extend(parse_meld(m).tiles)
        return counts_of(ids)
    if isinstance(visible, Hand):
        return (visible.counts + visible.meld_counts).astype(np.uint8)
    return counts_of(visible)
