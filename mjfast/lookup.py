"""The regular-form lookup table: layout, loading, and the kernels that read it.

The table is one int32 array (one argument to pass across the Python/numba boundary):

    [SUIT_OFFSETS_AT ...)   9 x 15 x 5 rank offsets of a suit pattern (see groups.rank_offsets)
    [HONOR_OFFSETS_AT ...)  7 x 15 x 5 rank offsets of an honour pattern
    [SUIT_CLASS_AT ...)     class id of each of the 405,350 suit patterns with <= 14 tiles
    [HONOR_CLASS_AT ...)    class id of each of the 43,130 honour patterns
    [ROWS_AT ...)           10 packed entries per class: distance | (mask << 8)

Patterns are ranked (not indexed in base 5) so only reachable patterns are stored, and
patterns with the same 10 entries share one class row; the whole table is about 2 MB.
tables/build.py writes it; `load_table` finds it in the installed package or the source tree.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from .groups import MAX_GROUP_TILES, N_ENTRIES, count_patterns

BUDGET = MAX_GROUP_TILES + 1
SUIT_OFFSETS_AT = 0
HONOR_OFFSETS_AT = SUIT_OFFSETS_AT + 9 * BUDGET * 5
N_SUIT_PATTERNS = int(count_patterns(9)[9, MAX_GROUP_TILES])
N_HONOR_PATTERNS = int(count_patterns(7)[7, MAX_GROUP_TILES])
SUIT_CLASS_AT = HONOR_OFFSETS_AT + 7 * BUDGET * 5
HONOR_CLASS_AT = SUIT_CLASS_AT + N_SUIT_PATTERNS
ROWS_AT = HONOR_CLASS_AT + N_HONOR_PATTERNS
TABLE_FILE = "regular.npy"

_table: "np.ndarray | None" = None


def table_path() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "_tables" / TABLE_FILE, here.parent / "tables" / TABLE_FILE):
        if candidate.exists():
            return candidate
    raise FileNotFoundError(
        f"mjfast lookup table {TABLE_FILE} not found next to the package or in tables/; "
        "run `python tables/build.py` in a source checkout"
    )


def load_table() -> np.ndarray:
    """The table (loaded once per process)."""
    global _table
    if _table is None:
        _table = np.load(table_path())
    return _table


@njit(cache=True, inline="always")
def pattern_rank(table, offsets_at, counts, start, n):
    rank = 0
    prefix = 0
    for i in range(n):
        c = counts[start + i]
        rank += table[offsets_at + (i * BUDGET + prefix) * 5 + c]
        prefix += c
    return rank


@njit(cache=True, inline="always")
def suit_row(table, counts, start):
    """Offset of the 10 packed entries of the suit starting at tile `start`."""
    r = pattern_rank(table, SUIT_OFFSETS_AT, counts, start, 9)
    return ROWS_AT + table[SUIT_CLASS_AT + r] * N_ENTRIES


@njit(cache=True, inline="always")
def honor_row(table, counts):
    r = pattern_rank(table, HONOR_OFFSETS_AT, counts, 27, 7)
    return ROWS_AT + table[HONOR_CLASS_AT + r] * N_ENTRIES
