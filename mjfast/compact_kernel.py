"""The fast reader of the compact notation: one kernel, read_compact. tiles.py calls it for
every compact string (mjfast.tiles.parse_tiles, the hands' fast paths, shanten of a string)
and hands what it refuses to the checked reader, tiles._parse_compact_checked, which reads
it or words what is wrong. The two agree on every string the kernel reads
(tests/test_tiles.py, tests/efficiency/test_direct.py).

It lives apart from mjfast.tiles so that importing the notation does not import numba.
"""

import numpy as np

from .runtime.decorators import njit
from .tile_ids import HONOR_LETTERS, MAX_TILES, NOT_COMPACT

# What each byte is, for the kernel: 1-9 a digit (its rank), 10-13 the suit letters m p s z,
# 20-26 the honour letters E S W N C F P, _SPACE white space (as str.isspace has it), 0 the rest.
_SPACE = 30
_BYTE_CLASS = np.zeros(256, np.int8)
for _c in range(128):
    if chr(_c).isspace():
        _BYTE_CLASS[_c] = _SPACE
for _r in range(1, 10):
    _BYTE_CLASS[ord(str(_r))] = _r
for _i, _letter in enumerate("mpsz"):
    _BYTE_CLASS[ord(_letter)] = 10 + _i
for _i, _letter in enumerate(HONOR_LETTERS):
    _BYTE_CLASS[ord(_letter)] = 20 + _i
del _c, _r, _i, _letter
_SUIT_FIRST = np.array([0, 9, 18, 27], np.int64)  # id of rank 1 in m p s z
_SUIT_TOP = np.array([8, 8, 8, 6], np.int64)  # its highest rank - 1


@njit(cache=True, nrt=False)  # allocates nothing: its arguments come from Python without numba's records
def read_compact(text, ids, counts):
    """The tiles of a compact string (its ASCII bytes; white space anywhere is skipped, as the
    checked reader skips it): each one added to `counts` (uint8) and, where `ids` has room
    (len(ids) >= the number of tiles), the ids written in order at the end of `ids`.

    Returns n | (id written last + 1) << 16 | (the largest of `counts` after) << 24 for n
    tiles, or NOT_COMPACT for anything the checked reader must read (not the notation, a count
    that would pass 255, more than MAX_TILES tiles); `counts` is then partly filled.

    Read right to left, every digit meets its suit letter before itself, and the first tile met
    is the last written: in Python the loop cost more than a shanten."""
    last = -1
    first = -1  # id of rank 1 in the suit of the digits being read, -1 outside a suit
    top = 0
    fresh = False  # a suit letter read, no digit yet
    n = 0
    room = ids.shape[0]
    for i in range(len(text) - 1, -1, -1):
        kind = _BYTE_CLASS[text[i]]
        if kind == _SPACE:
            continue
        if 1 <= kind <= 9:
            if first < 0 or kind - 1 > top:
                return NOT_COMPACT
            tile = first + kind - 1
            fresh = False
        elif fresh or kind == 0:
            return NOT_COMPACT
        elif kind < 20:
            first = _SUIT_FIRST[kind - 10]
            top = _SUIT_TOP[kind - 10]
            fresh = True
            continue
        else:
            tile = 27 + kind - 20
            first = -1
        if counts[tile] == 255 or n == MAX_TILES:
            return NOT_COMPACT
        counts[tile] += 1
        n += 1
        if n <= room:
            ids[room - n] = tile
        if last < 0:
            last = tile
    if fresh:
        return NOT_COMPACT
    biggest = 0
    for t in range(34):
        biggest = max(biggest, counts[t])
    return n | ((last + 1) << 16) | (np.int64(biggest) << 24)
