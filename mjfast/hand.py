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
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from .errors import HandError
from .tiles import (
    N_KINDS,
    TILE_NAMES,
    botzone_token,
    counts_of,
    format_tiles,
    is_botzone,
    parse_tiles,
    tile_id,
)

CHOW, PUNG, KONG = "chow", "pung", "kong"
MAX_MELDS = 4
_MELD_BODY_RE = re.compile(r"^\s*(.*?[mpszESWNCFP])\s*,?\s*(\d)?\s*$")


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
        if self.kind not in (CHOW, PUNG, KONG):
            raise HandError(f"meld kind must be chow, pung or kong, got {self.kind!r}")
        if not (0 <= self.tile < N_KINDS):
            raise HandError(f"meld tile id {self.tile} is out of range 0..33")
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
        """PyMahjongGB's pack tuple: ("CHI", middle tile, claimed 1-3) / ("PENG"|"GANG", tile, offer)."""
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
    text = meld.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    m = _MELD_BODY_RE.match(text)
    if not m:
        raise HandError(f"malformed meld {meld!r}: expected tiles then an optional digit, like [123m1]")
    tiles = sorted(parse_tiles(m.group(1)))
    digit = m.group(2)
    if len(tiles) == 3 and tiles[0] == tiles[2]:
        offer = 1 if digit is None else int(digit)
        return Meld(PUNG, tiles[0], offer)
    if len(tiles) == 3:
        if tiles[0] >= 27 or not (tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2) or tiles[0] // 9 != tiles[2] // 9:
            raise HandError(f"malformed meld {meld!r}: three tiles must be a run in one suit or three of a kind")
        return Meld(CHOW, tiles[0], 1 if digit is None else int(digit))
    if len(tiles) == 4 and tiles[0] == tiles[3]:
        offer = 0 if digit is None else int(digit)
        if offer >= 5:
            if offer > 7:
                raise HandError(f"malformed meld {meld!r}: an added kong's digit is 5, 6 or 7")
            return Meld(KONG, tiles[0], offer - 4, added=True)
        return Meld(KONG, tiles[0], offer)
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
    if not isinstance(offer, (int, np.integer)):
        raise HandError(f"pack offer must be an integer, got {offer!r}")
    if kind == CHOW:
        return Meld(CHOW, t - 1, int(offer)) if t < 27 and 1 <= t % 9 <= 7 else _bad_chow(pack)
    return Meld(kind, t, int(offer))


def _bad_chow(pack) -> Meld:
    raise HandError(f"pack {pack!r}: a CHI names the middle tile of a run (2..8 of a suit)")


@dataclass(frozen=True, eq=False)
class Hand:
    """Standing tiles as 34 counts, fixed melds, and `last_tile`, the standing tile written
    last (the winning tile when the hand is scored), or None when the input had no order.

    A Hand always holds 13 or 14 tiles counting each meld as three: 3n+1 standing tiles
    (waiting to draw) or 3n+2 (after drawing, before discarding), n = 4 - number of melds.
    """

    counts: np.ndarray
    melds: tuple[Meld, ...] = ()
    last_tile: "int | None" = None
    meld_counts: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        counts = np.asarray(self.counts, dtype=np.uint8).copy()
        counts.flags.writeable = False
        object.__setattr__(self, "counts", counts)
        melds = tuple(parse_meld(m) for m in self.melds)
        object.__setattr__(self, "melds", melds)
        if len(melds) > MAX_MELDS:
            raise HandError(f"{len(melds)} melds: a hand has at most 4")
        usage = np.zeros(N_KINDS, dtype=np.uint8)
        for m in melds:
            for t in m.tiles:
                usage[t] += 1
        usage.flags.writeable = False
        object.__setattr__(self, "meld_counts", usage)
        total = counts.astype(np.int64) + usage
        over = np.flatnonzero(total > 4)
        if over.size:
            t = int(over[0])
            raise HandError(
                f"tile {TILE_NAMES[t]} appears {int(total[t])} times "
                f"({int(counts[t])} standing + {int(usage[t])} in melds); there are only 4 copies"
            )
        n = self.n_standing
        expected = (13 - 3 * len(melds), 14 - 3 * len(melds))
        if n not in expected:
            raise HandError(
                f"{n} standing tiles with {len(melds)} meld(s): a hand needs "
                f"{expected[0]} (waiting) or {expected[1]} (after a draw) standing tiles"
            )
        if self.last_tile is not None and counts[self.last_tile] == 0:
            raise HandError(f"last tile {TILE_NAMES[self.last_tile]} is not among the standing tiles")

    @property
    def n_standing(self) -> int:
        return int(self.counts.sum())

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
        """(packs, standing tiles) in PyMahjongGB's form; the last tile is left in the hand."""
        ids = [t for t in range(N_KINDS) for _ in range(int(self.counts[t]))]
        return tuple(m.to_pymahjonggb() for m in self.melds), tuple(botzone_token(t) for t in ids)

    def with_counts(self, counts: np.ndarray) -> "Hand":
        """The same melds with other standing tiles (validated again)."""
        return Hand(counts, self.melds)


def _split_melds(text: str) -> tuple[list[str], str, list[int]]:
    """Meld texts, the standing-tile text, and ids in written order."""
    melds = []
    standing_parts = []
    pos = 0
    while pos < len(text):
        open_at = text.find("[", pos)
        close_at = text.find("]", pos)
        if close_at != -1 and (open_at == -1 or close_at < open_at):
            raise HandError(f"']' at position {close_at} in {text!r} has no matching '['")
        if open_at == -1:
            standing_parts.append(text[pos:])
            break
        standing_parts.append(text[pos:open_at])
        close_at = text.find("]", open_at)
        if close_at == -1:
            raise HandError(f"'[' at position {open_at} in {text!r} is never closed")
        if "[" in text[open_at + 1:close_at]:
            raise HandError(f"nested '[' in {text!r}")
        melds.append(text[open_at + 1:close_at])
        pos = close_at + 1
    standing = "".join(standing_parts)
    return melds, standing, parse_tiles(standing) if standing.strip() else []


def parse_hand(hand, melds: Iterable = ()) -> Hand:
    """A Hand from any accepted notation.

    `hand` may be a compact string with bracketed melds (``"[123m1]456p789sEEE5m"``), a Botzone
    token string, a 34-count array, a list of tile names or ids, or a Hand (returned as is when
    no extra melds are given). `melds` adds melds as strings, Meld objects or PyMahjongGB packs.
    """
    extra = [parse_meld(m) for m in melds]
    if isinstance(hand, Hand):
        return hand if not extra else Hand(hand.counts, hand.melds + tuple(extra), hand.last_tile)
    if isinstance(hand, str):
        if is_botzone(hand):
            ids = parse_tiles(hand)
            meld_texts: list[str] = []
        else:
            meld_texts, _, ids = _split_melds(hand)
        counts = np.bincount(np.asarray(ids, dtype=np.int64), minlength=N_KINDS)
        over = np.flatnonzero(counts > 4)
        if over.size:
            t = int(over[0])
            raise HandError(f"tile {TILE_NAMES[t]} appears {int(counts[t])} times in {hand!r}; there are only 4 copies")
        all_melds = tuple(parse_meld(m) for m in meld_texts) + tuple(extra)
        return Hand(counts, all_melds, ids[-1] if ids else None)
    if isinstance(hand, (bytes, bytearray)):
        raise HandError("a hand must be a str, a 34-count array or a list of tiles, not bytes")
    try:
        counts = counts_of(hand)
    except TypeError as exc:
        raise HandError(f"cannot read a hand from {type(hand).__name__}: {exc}") from None
    ordered = None
    if not isinstance(hand, np.ndarray):
        seq = list(hand)
        if len(seq) != N_KINDS and seq:
            ordered = tile_id(seq[-1])
    return Hand(counts, tuple(extra), ordered)


def visible_counts(visible) -> np.ndarray:
    """34 counts of tiles seen elsewhere (discards, other players' melds), from any notation:
    a string (bracketed melds allowed: their tiles count), a 34-count array, tile names/ids,
    or None for nothing seen."""
    if visible is None:
        return np.zeros(N_KINDS, np.uint8)
    if isinstance(visible, str):
        meld_texts, _, ids = _split_melds(visible) if not is_botzone(visible) else ([], "", parse_tiles(visible))
        for m in meld_texts:
            ids.extend(parse_meld(m).tiles)
        return counts_of(ids)
    if isinstance(visible, Hand):
        return (visible.counts + visible.meld_counts).astype(np.uint8)
    try:
        return counts_of(visible)
    except TypeError as exc:
        raise HandError(f"cannot read visible tiles from {type(visible).__name__}: {exc}") from None
