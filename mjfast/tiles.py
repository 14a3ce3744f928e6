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

from .errors import HandError, too_many_copies
from .tile_ids import (  # noqa: F401 (the notation's names)
    HONOR_LETTERS,
    MAX_TILES,
    N_KINDS,
    NOT_COMPACT,
    SUITS,
    TILE_INDEX,
    TILE_NAMES,
)

_BOTZONE_SUIT = {"W": 0, "B": 9, "T": 18}
_BOTZONE_RE = re.compile(r"^[\s,]*(?:(?:[WBT][1-9]|F[1-4]|J[1-3]|H[1-8])[\s,]*)+$")
_BOTZONE_TOKEN_RE = re.compile(r"[A-Z]\d")



def tile_name(tile: "int | str") -> str:
    """The name ("1m".."9s", "E".."P") of tile id 0..33 (or of any one-tile notation)."""
    return TILE_NAMES[tile_id(tile)]


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


# The fast reader (compact_kernel.read_compact), loaded on first use: importing the notation
# does not import numba. Strings it refuses go to the checked reader, _parse_compact_checked.
NO_IDS = np.zeros(0, np.uint8)  # a reading's `ids` when only the counts are wanted
_reader = None  # the fast reader's DirectKernel, made on first use
_read = None  # its entry point, once bound (runtime.dispatch.DirectKernel)


def compact_reader():
    """(call, bound): the fast reader's call, read_compact(data, ids, counts) on a string's
    ASCII bytes (compact_kernel.read_compact: n | (last + 1) << 16 | (most copies) << 24, or
    NOT_COMPACT), and whether it is its entry point, which the caller may then keep."""
    global _reader, _read
    if _read is not None:
        return _read, True
    if _reader is None:
        from .compact_kernel import read_compact
        from .runtime.dispatch import DirectKernel

        _reader = DirectKernel(read_compact)
    if _reader.bound:
        _read = _reader.call
    return _reader.call, _reader.bound


def read_compact(text: str, ids: np.ndarray, counts: np.ndarray) -> int:
    """The fast reader on `text` (see compact_reader); text that is not ASCII is not compact."""
    return (_read or compact_reader()[0])(text.encode("ascii", "replace"), ids, counts)


def compact_counts(text: str) -> "np.ndarray | None":
    """34 counts (uint8) of a compact string, or None where the fast reader refuses it (the
    checked reader then reads it, or names the problem). The per-hand calls take this path
    for strings: they need counts, not tiles in order."""
    counts = np.zeros(N_KINDS, np.uint8)
    return counts if read_compact(text, NO_IDS, counts) != NOT_COMPACT else None


def _parse_compact_checked(text: str) -> list[int]:
    """The checked reader of the compact notation: every character checked, every fault worded
    (the fast reader, compact_kernel.read_compact, leaves it what it refuses)."""
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
    ids = np.empty(len(text), np.uint8)  # room for every tile: a tile takes a character at least
    found = read_compact(text, ids, np.zeros(N_KINDS, np.uint8))
    if found == NOT_COMPACT:
        return _parse_compact_checked(text)
    return ids[len(text) - (found & MAX_TILES):].tolist()


def counts_of(tiles: "str | Iterable | np.ndarray", *, max_copies: int = 4) -> np.ndarray:
    """A 34-count array (uint8) from any accepted notation: string, 34 counts, or tile names/ids.

    A sequence of exactly 34 integers is read as counts; any other sequence as a list of tiles.
    """
    if isinstance(tiles, str):
        ids = parse_tiles(tiles)
        counts = np.bincount(np.asarray(ids, dtype=np.int64), minlength=N_KINDS)
        _check_copies(counts, max_copies)
        return counts.astype(np.uint8)
    counts, _ = read_tiles(tiles, max_copies=max_copies)
    return counts


def read_tiles(tiles, *, max_copies: int = 4) -> "tuple[np.ndarray, list[int] | None]":
    """(34 counts as uint8, tile ids in written order or None) of a count array or tile list.

    The ids are None when the input was counts: counts carry no order, so no last tile.
    """
    if isinstance(tiles, (str, bytes, bytearray, memoryview)):
        # a str is a notation (counts_of), and bytes iterate as small ints, which would be
        # silently read as tile ids: refuse both here rather than guess
        raise HandError(f"expected a count array or a list of tiles, not {type(tiles).__name__}")
    if isinstance(tiles, np.ndarray) and tiles.ndim != 1:
        raise HandError(f"tiles must be one-dimensional (34 counts or a list of tiles), got shape {tiles.shape}")
    if isinstance(tiles, np.ndarray) and tiles.shape == (N_KINDS,) and tiles.dtype.kind in "iufcb":
        return count_array(tiles, max_copies=max_copies), None
    try:
        seq = list(tiles)
    except TypeError:
        raise HandError(
            f"cannot read tiles from {type(tiles).__name__}: expected a string, 34 counts or a list of tiles"
        ) from None
    all_ints = all(is_int(x) for x in seq)
    if len(seq) == N_KINDS and all_ints:
        return count_array(seq, max_copies=max_copies), None
    try:
        ids = [tile_id(x) for x in seq]
        counts = np.bincount(np.asarray(ids, dtype=np.int64), minlength=N_KINDS)
        _check_copies(counts, max_copies)
    except HandError as exc:
        if not all_ints:
            raise
        # 33 or 35 integers are more likely a miscounted count array than tile ids: say both
        raise HandError(f"{exc} (read as {len(seq)} tile ids: a count array has exactly 34 entries)") from None
    return counts.astype(np.uint8), ids


def tally(ids) -> list[int]:
    """34 counts (a list) of tile ids: plain Python, cheaper than numpy for a hand's tiles."""
    counts = [0] * N_KINDS
    for t in ids:
        counts[t] += 1
    return counts


def count_array(values, *, max_copies: int = 4) -> np.ndarray:
    """`values`, 34 integer counts (an array or a sequence), checked and copied as uint8.

    The range is checked before any cast, so that 256 or 2**64 cannot wrap into a valid count.
    """
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "iu":
            raise HandError(f"a count array must hold integers, got dtype {values.dtype}")
        if values.shape != (N_KINDS,):
            raise HandError(f"a count array must have 34 entries, got shape {values.shape}")
        seq = values.tolist()  # exact Python ints: nothing can wrap in the checks below
        # min/max of a 34-item list beat numpy's reductions on so small an array
        if min(seq) >= 0 and max(seq) <= max_copies:
            return values.astype(np.uint8)
    else:
        try:
            if isinstance(values, (str, bytes, bytearray)):
                raise TypeError  # a notation, not counts: parse_hand and counts_of read those
            seq = list(values)
        except TypeError:
            raise HandError(f"a count array must be 34 integers, got {type(values).__name__}") from None
        if len(seq) != N_KINDS:
            raise HandError(f"a count array must have 34 entries, got {len(seq)}")
        if all(type(x) is int for x in seq) and min(seq) >= 0 and max(seq) <= max_copies:
            return np.array(seq, dtype=np.uint8)
    for t, x in enumerate(seq):  # something is wrong: find the first culprit and name it
        if not is_int(x):
            raise HandError(f"a count array must hold integers, got {x!r} for tile {TILE_NAMES[t]}")
        if x < 0:
            raise HandError(f"negative count {x} for tile {TILE_NAMES[t]}")
        if x > max_copies:
            raise too_many_copies(t, x)
    return np.array(seq, dtype=np.uint8)


def _check_copies(counts: np.ndarray, max_copies: int) -> None:
    over = np.flatnonzero(counts > max_copies)
    if over.size:
        t = int(over[0])
        raise too_many_copies(t, int(counts[t]))


def is_int(x) -> bool:
    """An integer (Python or numpy), not a bool: what counts and tile ids may be."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def format_tiles(tiles: "Sequence[int] | np.ndarray", *, ordered: bool = False) -> str:
    """Compact notation of tiles: a 34-count array, or a list of ids (sorted unless `ordered`).

    With `ordered`, the ids keep their order and each run of one suit gets its own letter,
    so that the last tile written stays last (the winning tile of a scoring hand).
    """
    ids = _ids_of(tiles)
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


def botzone_token(tile: "int | str") -> str:
    """The Botzone token of tile id `tile` (W1..W9 B1..B9 T1..T9 F1..F4 J1..J3)."""
    tile = tile_id(tile)  # an id out of range would print as a plausible wrong token
    if tile < 27:
        return "WBT"[tile // 9] + str(tile % 9 + 1)
    if tile < 31:
        return f"F{tile - 26}"
    return f"J{tile - 30}"


def format_botzone(tiles: "Sequence[int] | np.ndarray") -> str:
    """Botzone tokens separated by spaces, for a 34-count array or a list of ids."""
    return " ".join(botzone_token(t) for t in _ids_of(tiles))


def _ids_of(tiles: "Sequence[int] | np.ndarray") -> list[int]:
    """Tile ids, in order, of a 34-count array or of a list of tile ids or names."""
    if isinstance(tiles, np.ndarray) and tiles.shape == (N_KINDS,):
        counts = count_array(tiles)
        return [t for t in range(N_KINDS) for _ in range(int(counts[t]))]
    return [tile_id(t) for t in tiles]
