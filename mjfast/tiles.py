"""Tile ids, names and the tile-sequence notations mjfast reads and writes.

There are 34 tile kinds, indexed in the MCR reference order:

    0-8   1m..9m   characters (万)
    9-17  1p..9p   dots (饼/筒)
    18-26 1s..9s   bamboo (条)
    27-30 E S W N  winds
    31-33 C F P    red (中), green (发), white (白) dragons

Accepted notations for a sequence of tiles (melds are parsed by :mod:`mjfast.hand`):

* compact: ``123m456p789s`` with honours as the letters ``ESWNCFP`` or as ``1z``..``7z``
  (1z-7z = E S W N C F P, the MCR order; tenhou's 5z-7z are the dragons in reverse order);
* Botzone tokens: ``W1``..``W9`` (m), ``B1``..``B9`` (p), ``T1``..``T9`` (s), ``F1``..``F4``
  (E S W N), ``J1``..``J3`` (C F P), separated by spaces or commas;
* a list of tile names or ids, or a 34-count array (see :func:`counts_of`).
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

import numpy as np

from .errors import HandError

N_KINDS = 34
SUITS = "mps"
HONOR_LETTERS = "ESWNCFP"
TILE_NAMES: tuple[str, ...] = tuple(
    [f"{r}{s}" for s in SUITS for r in range(1, 10)] + list(HONOR_LETTERS)
)
TILE_INDEX: dict[str, int] = {name: i for i, name in enumerate(TILE_NAMES)}
TERMINALS_AND_HONORS: tuple[int, ...] = (0, 8, 9, 17, 18, 26) + tuple(range(27, 34))

_BOTZONE_SUIT = {"W": 0, "B": 9, "T": 18}
_BOTZONE_RE = re.compile(r"^[\s,]*(?:(?:[WBT][1-9]|F[1-4]|J[1-3]|H[1-8])[\s,]*)+$")
_BOTZONE_TOKEN_RE = re.compile(r"[A-Z]\d")


def tile_name(tile: int) -> str:
    """The name ("1m".."9s", "E".."P") of tile id 0..33."""
    return TILE_NAMES[tile]


def tile_id(tile: "str | int") -> int:
    """The id of one tile given by name ("5m", "E", "7z"), Botzone token ("W5", "F1") or id."""
    if isinstance(tile, (int, np.integer)) and not isinstance(tile, bool):
        if 0 <= int(tile) < N_KINDS:
            return int(tile)
        raise HandError(f"tile id {tile} is out of range 0..33")
    if not isinstance(tile, str):
        raise HandError(f"a tile must be a name like '5m' or 'E', got {tile!r}")
    ids = parse_tiles(tile)
    if len(ids) != 1:
        raise HandError(f"{tile!r} is not a single tile")
    return ids[0]


def is_botzone(text: str) -> bool:
    """True when `text` is written in Botzone tokens (W1 B2 T3 F4 J1 ...)."""
    return bool(_BOTZONE_RE.match(text))


def _parse_botzone(text: str) -> list[int]:
    tiles = []
    for token in _BOTZONE_TOKEN_RE.findall(text):
        letter, rank = token[0], int(token[1])
        if letter == "H":
            raise HandError(f"{token} is a flower: flowers are given as a count, not as tiles")
        if letter in _BOTZONE_SUIT:
            tiles.append(_BOTZONE_SUIT[letter] + rank - 1)
        elif letter == "F":
            tiles.append(27 + rank - 1)
        else:  # J1..J3 = C F P
            tiles.append(31 + rank - 1)
    return tiles


def _parse_compact(text: str) -> list[int]:
    tiles: list[int] = []
    digits: list[tuple[int, int]] = []  # (rank, position) waiting for their suit letter
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch in "123456789":
            digits.append((int(ch), pos))
        elif ch in "mps":
            if not digits:
                raise HandError(f"suit letter '{ch}' at position {pos} has no digits before it in {text!r}")
            base = 9 * SUITS.index(ch)
            tiles.extend(base + rank - 1 for rank, _ in digits)
            digits = []
        elif ch == "z":
            if not digits:
                raise HandError(f"suit letter 'z' at position {pos} has no digits before it in {text!r}")
            for rank, dpos in digits:
                if rank > 7:
                    raise HandError(f"'{rank}z' at position {dpos} is not an honour: honours are 1z..7z")
                tiles.append(27 + rank - 1)
            digits = []
        elif ch in HONOR_LETTERS:
            if digits:
                raise HandError(
                    f"digits before position {pos} in {text!r} have no suit letter (m, p, s or z)"
                )
            tiles.append(27 + HONOR_LETTERS.index(ch))
        elif ch == "0":
            raise HandError(f"'0' at position {pos} in {text!r}: MCR has no red fives; ranks are 1..9")
        else:
            raise HandError(f"unknown character {ch!r} at position {pos} in {text!r}")
    if digits:
        raise HandError(f"digits at the end of {text!r} have no suit letter (m, p, s or z)")
    return tiles


def parse_tiles(text: str) -> list[int]:
    """Tile ids of a plain tile sequence in compact or Botzone notation, in written order."""
    if not isinstance(text, str):
        raise HandError(f"expected a tile string, got {type(text).__name__}")
    if "[" in text or "]" in text:
        raise HandError(f"melds in brackets are not allowed here: {text!r}")
    if is_botzone(text):
        return _parse_botzone(text)
    return _parse_compact(text)


def counts_of(tiles: "str | Iterable | np.ndarray", *, max_copies: int = 4) -> np.ndarray:
    """A 34-count array (uint8) from any accepted notation: string, 34 counts, or tile names/ids.

    A sequence of exactly 34 integers is read as counts; any other sequence as a list of tiles.
    """
    if isinstance(tiles, str):
        ids = parse_tiles(tiles)
        counts = np.bincount(np.asarray(ids, dtype=np.int64), minlength=N_KINDS)
    else:
        counts = _counts_from_sequence(tiles)
    over = np.flatnonzero(counts > max_copies)
    if over.size:
        t = int(over[0])
        raise HandError(f"tile {TILE_NAMES[t]} appears {int(counts[t])} times; there are only 4 copies")
    return counts.astype(np.uint8)


def _counts_from_sequence(tiles) -> np.ndarray:
    if isinstance(tiles, np.ndarray) and tiles.dtype.kind in "iu" and tiles.shape == (N_KINDS,):
        arr = tiles.astype(np.int64)
    else:
        seq = list(tiles)
        if len(seq) == N_KINDS and all(_is_int(x) for x in seq):
            arr = np.asarray(seq, dtype=np.int64)
        else:
            ids = [tile_id(x) for x in seq]
            return np.bincount(np.asarray(ids, dtype=np.int64), minlength=N_KINDS)
    if arr.ndim != 1 or arr.shape[0] != N_KINDS:
        raise HandError(f"a count array must have 34 entries, got shape {arr.shape}")
    if (arr < 0).any():
        t = int(np.flatnonzero(arr < 0)[0])
        raise HandError(f"negative count {int(arr[t])} for tile {TILE_NAMES[t]}")
    return arr


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def format_tiles(tiles: "Sequence[int] | np.ndarray", *, ordered: bool = False) -> str:
    """Compact notation of tiles: a 34-count array, or a list of ids (sorted unless `ordered`).

    With `ordered`, the ids keep their order and each run of one suit gets its own letter,
    so that the last tile written stays last (the winning tile of a scoring hand).
    """
    if isinstance(tiles, np.ndarray) and tiles.shape == (N_KINDS,):
        ids = [t for t in range(N_KINDS) for _ in range(int(tiles[t]))]
    else:
        ids = [int(t) for t in tiles]
        if not ordered:
            ids.sort()
    out: list[str] = []
    pending_suit = None
    for t in ids:
        suit = t // 9 if t < 27 else None
        if suit != pending_suit and pending_suit is not None:
            out.append(SUITS[pending_suit])
        pending_suit = suit
        out.append(str(t % 9 + 1) if suit is not None else HONOR_LETTERS[t - 27])
    if pending_suit is not None:
        out.append(SUITS[pending_suit])
    return "".join(out)


def botzone_token(tile: int) -> str:
    """The Botzone token of tile id `tile` (W1..W9 B1..B9 T1..T9 F1..F4 J1..J3)."""
    if tile < 27:
        return "WBT"[tile // 9] + str(tile % 9 + 1)
    if tile < 31:
        return f"F{tile - 26}"
    return f"J{tile - 30}"


def format_botzone(tiles: "Sequence[int] | np.ndarray") -> str:
    """Botzone tokens separated by spaces, for a 34-count array or a list of ids."""
    if isinstance(tiles, np.ndarray) and tiles.shape == (N_KINDS,):
        ids = [t for t in range(N_KINDS) for _ in range(int(tiles[t]))]
    else:
        ids = list(tiles)
    return " ".join(botzone_token(int(t)) for t in ids)
