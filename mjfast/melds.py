"""Melds: the fixed sets of a hand and their notation.

Bracketed melds follow ChineseOfficialMahjongHelper:

    [123m1]   chow; the digit says which of its tiles was claimed (1-3)
    [555p2]   pung; the digit says who gave it (1 left/上家, 2 across/对家, 3 right/下家)
    [5555p]   concealed kong (also [5555p0])
    [5555p3]  exposed kong claimed from player 3
    [5555p5]  kong added to an exposed pung (5-7 = 4 + who gave the pung)

GB-Mahjong's comma form ``[EEE,2]`` is accepted too. A chow or pung written without a digit
is taken as claimed from the left (digit 1); the digit never changes shanten or fans. The
tiles inside and between brackets are read by the notation's readers (mjfast.tiles).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from .errors import HandError
from .tiles import N_KINDS, TILE_NAMES, botzone_token, format_tiles, is_int, parse_tiles, tile_id

CHOW, PUNG, KONG = "chow", "pung", "kong"
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
    return meld_from_text(meld)


def _checked_meld(source, kind: str, tile: int, offer: int, added: bool = False) -> Meld:
    """Meld(...), naming the text or pack it was read from in any error."""
    try:
        return Meld(kind, tile, offer, added)
    except HandError as exc:
        raise HandError(f"meld {source!r}: {exc}") from None


@lru_cache(maxsize=1024)
def meld_from_text(meld: str) -> Meld:
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


def meld_usage(melds: "tuple[Meld, ...]") -> list:
    """34 counts of the melds' tiles. Plain lists: numpy costs more than it saves at 34 items."""
    usage = [0] * N_KINDS
    for m in melds:
        for t in m.tiles:
            usage[t] += 1
    return usage


def parse_melds(melds) -> tuple[Meld, ...]:
    """Melds from a string of bracketed melds ("[123m1][EEE2]"), or from an iterable of melds
    as strings, Meld objects or PyMahjongGB packs; None means no melds."""
    if melds is None:
        return ()
    if isinstance(melds, str):
        texts, ids = split_melds(melds)
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


def split_melds(text: str) -> tuple[list[str], list[int]]:
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
