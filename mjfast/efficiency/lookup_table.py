"""The regular-form lookup table: layout, loading, and the kernels that read it.

The table is one int32 array (one argument to pass across the Python/numba boundary):

    [SUIT_OFFSETS_AT ...)   9 x 15 x 5 rank offsets of a suit pattern (see groups.rank_offsets)
    [HONOR_OFFSETS_AT ...)  7 x 15 x 5 rank offsets of an honour pattern
    [SUIT_CLASS_AT ...)     class id of each of the 405,350 suit patterns with <= 14 tiles
    [HONOR_CLASS_AT ...)    class id of each of the 43,130 honour patterns
    [SUIT_DCLASS_AT ...)    distance-only class of each suit pattern, 4 one-byte ids per int
    [HONOR_DCLASS_AT ...)   the same for honour patterns
    [DROWS_AT ...)          10 distances per distance-only class (room for 256 classes): the
                            classes of the group patterns, then those only merges reach
    [KNITTED_AT ...)        per suit pattern, for each knitted part j (1-4-7, 2-5-8, 3-6-9):
                            the distances of the pattern less the part's held tiles to one
                            set, one pair, and both (3 bits each, 9 bits per part)
    [KNITTED_MASK_AT ...)   per suit pattern and part: the masks of those three entries
                            (9 bits each)
    [MERGE_AT ...)          256 x 256 one-byte ids, four per int: the distance class of the
                            merge (groups.merge_rows) of class a (a group's, or groups merged)
                            with suit class b
    [ROWS_AT ...)           10 packed entries per class: distance | (mask << 8), the mask
                            of the draws that lower the distance (group_dp)

Patterns are ranked (not indexed in base 5) so only reachable patterns are stored, and
patterns with the same 10 entries share one class row. Shanten alone needs only the
distances, which take 130 distinct rows: that path reads a 0.4 MB byte map and a 5 KB row
table that stay in cache. Merging those rows suit by suit reaches only 50 more, so the merge
of the three suits is two lookups in a 64 KB table (merged_class); it takes the honours'
classes first too, so that any three groups merge by lookups. Useful tiles read the 82,689
(distance, mask) rows; a discard's keeps are read from distance rows (efficiency.moves).
tables/build.py writes it; `load_table` finds it in the installed package or the source tree.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..runtime.decorators import njit
from .group_dp import MAX_GROUP_TILES, N_ENTRIES, count_patterns

BUDGET = MAX_GROUP_TILES + 1
SUIT_OFFSETS_AT = 0
HONOR_OFFSETS_AT = SUIT_OFFSETS_AT + 9 * BUDGET * 5
N_SUIT_PATTERNS = int(count_patterns(9)[9, MAX_GROUP_TILES])
N_HONOR_PATTERNS = int(count_patterns(7)[7, MAX_GROUP_TILES])
SUIT_CLASS_AT = HONOR_OFFSETS_AT + 7 * BUDGET * 5
HONOR_CLASS_AT = SUIT_CLASS_AT + N_SUIT_PATTERNS
SUIT_DCLASS_AT = HONOR_CLASS_AT + N_HONOR_PATTERNS
HONOR_DCLASS_AT = SUIT_DCLASS_AT + (N_SUIT_PATTERNS + 3) // 4
DROWS_AT = HONOR_DCLASS_AT + (N_HONOR_PATTERNS + 3) // 4
MAX_DCLASSES = 256
KNITTED_AT = DROWS_AT + MAX_DCLASSES * N_ENTRIES
KNITTED_MASK_AT = KNITTED_AT + N_SUIT_PATTERNS
MERGE_AT = KNITTED_MASK_AT + 3 * N_SUIT_PATTERNS
ROWS_AT = MERGE_AT + MAX_DCLASSES * MAX_DCLASSES // 4
TABLE_FILE = "regular.npy"

_table: "np.ndarray | None" = None


def table_path() -> Path:
    here = Path(__file__).resolve().parent.parent  # the mjfast package
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


# Inlined into their callers: the batch loops run 8-15% faster so (mjfast/runtime/decorators.py on inlining).
@njit(inline="always")
def pattern_rank(table, offsets_at, counts, start, n):
    rank = 0
    prefix = 0
    for i in range(n):
        c = counts[start + i]
        rank += table[offsets_at + (i * BUDGET + prefix) * 5 + c]
        prefix += c
    return rank


@njit(cache=True, inline="always")
def group_rank(table, counts, g):
    """Rank of group g's pattern (g = 0, 1, 2 the suits, 3 the honours)."""
    if g == 3:
        return pattern_rank(table, HONOR_OFFSETS_AT, counts, 27, 7)
    return pattern_rank(table, SUIT_OFFSETS_AT, counts, 9 * g, 9)


@njit(cache=True, inline="always")
def masked_row(table, g, rank):
    """Offset of the 10 packed (distance | mask << 8) entries of a group pattern."""
    return ROWS_AT + table[(HONOR_CLASS_AT if g == 3 else SUIT_CLASS_AT) + rank] * N_ENTRIES


@njit(inline="always")
def _byte(table, at, i):
    """Byte i of the one-byte ids packed four per int from table[at] (tables/build.py's
    _pack_bytes)."""
    return (table[at + (i >> 2)] >> ((i & 3) * 8)) & 0xFF


@njit(cache=True, inline="always")
def distance_class(table, g, rank):
    """Distance-only class of a group pattern (0-255)."""
    return _byte(table, HONOR_DCLASS_AT if g == 3 else SUIT_DCLASS_AT, rank)


@njit(inline="always")
def class_row(dclass):
    """Offset of the 10 distances of a distance-only class."""
    return DROWS_AT + dclass * N_ENTRIES


@njit(cache=True, inline="always")
def distance_row(table, g, rank):
    """Offset of the 10 distances of a group pattern."""
    return class_row(distance_class(table, g, rank))


@njit(inline="always")
def merged_class(table, a, b):
    """Distance class of the merge of class a (a suit's, or suits' already merged) with the
    class b of a suit."""
    return _byte(table, MERGE_AT, a * MAX_DCLASSES + b)


@njit(inline="always")
def knitted_rest(table, suit_rank, part):
    """(set, pair, set and pair) distances of a suit pattern less knitted part `part`."""
    packed = table[KNITTED_AT + suit_rank] >> (9 * part)
    return packed & 7, (packed >> 3) & 7, (packed >> 6) & 7


@njit(inline="always")
def knitted_rest_masks(table, suit_rank, part):
    """The useful-tile masks (suit-local bits) of the three knitted_rest entries."""
    packed = table[KNITTED_MASK_AT + 3 * suit_rank + part]
    return packed & 0x1FF, (packed >> 9) & 0x1FF, (packed >> 18) & 0x1FF
