"""The kernel that reads a plain compact string (see tiles.add_compact, which calls it).

It lives apart from mjfast.tiles so that parsing and printing hands does not import numba."""

import numpy as np

from .runtime.decorators import njit
from .tile_ids import HONOR_LETTERS, NOT_COMPACT

# What each byte of a compact string is, for the kernel below: 1-9 a digit (its rank), 10-13
# the suit letters m p s z, 20-26 the honour letters E S W N C F P, 0 anything else.
_BYTE_CLASS = np.zeros(256, np.int8)
for _r in range(1, 10):
    _BYTE_CLASS[ord(str(_r))] = _r
for _i, _letter in enumerate("mpsz"):
    _BYTE_CLASS[ord(_letter)] = 10 + _i
for _i, _letter in enumerate(HONOR_LETTERS):
    _BYTE_CLASS[ord(_letter)] = 20 + _i
del _r, _i, _letter
_SUIT_FIRST = np.array([0, 9, 18, 27], np.int64)  # id of rank 1 in m p s z
_SUIT_TOP = np.array([8, 8, 8, 6], np.int64)  # its highest rank - 1


@njit(cache=True)
def add_compact_bytes(text, counts):
    """tiles.add_compact on the string's bytes: the id written last, -1 for no tile, NOT_COMPACT."""
    last = -1
    first = -1  # id of rank 1 in the suit of the digits being read, -1 outside a suit
    top = 0
    fresh = False  # a suit letter read, no digit yet
    for i in range(len(text) - 1, -1, -1):
        kind = _BYTE_CLASS[text[i]]
        if 1 <= kind <= 9:
            if first < 0 or kind - 1 > top:
                return NOT_COMPACT
            counts[first + kind - 1] += 1
            if last < 0:
                last = first + kind - 1
            fresh = False
        elif fresh or kind == 0:
            return NOT_COMPACT
        elif kind < 20:
            first = _SUIT_FIRST[kind - 10]
            top = _SUIT_TOP[kind - 10]
            fresh = True
        else:
            counts[27 + kind - 20] += 1
            if last < 0:
                last = 27 + kind - 20
            first = -1
    return NOT_COMPACT if fresh else last


@njit(cache=True)
def read_concealed_hand(text, counts):
    """A hand without melds from a plain compact string: its tiles added to `counts` (34 zeros)
    and the checks a Hand makes (at most 4 copies of a kind, 13 or 14 tiles). Returns
    (number of tiles << 8) | (id written last + 1), or NOT_COMPACT for anything else: the full
    parser then reads it, or names the problem."""
    last = add_compact_bytes(text, counts)
    if last < 0:
        return NOT_COMPACT
    n = 0
    for t in range(34):
        if counts[t] > 4:
            return NOT_COMPACT
        n += counts[t]
    if n != 13 and n != 14:
        return NOT_COMPACT
    return (n << 8) | (last + 1)
