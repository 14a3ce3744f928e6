"""Fans made by combining sets: chows with chows, pungs (and kongs) with pungs.

The rules of combination, in the order the kernels apply them:

* A fan made of all four sets (一色四同顺, 一色四步高, 一色四节高, 大四喜, the 双龙会) takes them
  all: no other combination fan is counted (non-repeat and non-separation principles).
* Otherwise a fan made of three sets is counted once, and the fourth set may add at most one
  two-set fan with one of them (non-identical principle). Between two-set fans of 1 point the
  judge prefers 一般高, then 喜相逢, 连六, 老少副; the points do not depend on it.
* Otherwise two-set chow fans follow the account-once principle: a chow not yet combined may
  combine once with one already combined, so n chows give at most n - 1 fans, counted over
  the chows that combine with anything. When more pairs combine, the judge drops repeats of a
  kind first, starting from 老少副, then 连六, 喜相逢, 一般高; mjfast drops them in that order
  too, so that both name the same fans. Pungs have no such limit (two pungs make one fan).

Sets are given by tile: the lowest tile of a chow, the tile of a pung or kong.
"""

import numpy as np

from ..runtime.decorators import njit
from ..tileprops import IS_DRAGON, IS_WIND, RANK, SUIT
from .names import (
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    DOUBLE_PUNG,
    FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS,
    MIXED_DOUBLE_CHOW,
    MIXED_SHIFTED_CHOWS,
    MIXED_SHIFTED_PUNGS,
    MIXED_STRAIGHT,
    MIXED_TRIPLE_CHOW,
    PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS,
    PURE_SHIFTED_PUNGS,
    PURE_STRAIGHT,
    PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    SHORT_STRAIGHT,
    THREE_SUITED_TERMINAL_CHOWS,
    TRIPLE_PUNG,
    TWO_DRAGON_PUNGS,
    TWO_TERMINAL_CHOWS,
)

NONE = -1
# Constants passed to kernels as typed values, not literals: numba compiles a separate copy of
# a function for each literal argument it is called with, which costs compile time only.
ONE, TWO, THREE, SIX = np.int64(1), np.int64(2), np.int64(3), np.int64(6)
# The four 1-point chow fans are consecutive ids; the judge's order of preference among them.
_ONE_POINT_CHOW_FANS = np.array([PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS], np.int64)
# Triples of four sorted sets, tried in this order, with the set left out.
_TRIPLES = np.array([[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 3, 1], [1, 2, 3, 0]], np.int64)
# The six pairs of four sets; the first, second and fourth are the pairs of three.
_PAIRS = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], np.int64)
_PAIRS_OF_THREE = np.array([0, 1, 3], np.int64)


@njit(cache=True)
def _steps(a, b, c, step):
    return b - a == step and c - b == step


@njit
def _consecutive_unordered(a, b, c):
    lo = min(a, min(b, c))
    hi = max(a, max(b, c))
    return hi - lo == 2 and a != b and b != c and a != c


@njit
def two_chows_fan(a, b):
    """The 1-point fan two chows make, or NONE."""
    if SUIT[a] != SUIT[b]:
        return MIXED_DOUBLE_CHOW if RANK[a] == RANK[b] else NONE
    if a - b == 3 or b - a == 3:
        return SHORT_STRAIGHT
    if (RANK[a] == 1 and RANK[b] == 7) or (RANK[a] == 7 and RANK[b] == 1):
        return TWO_TERMINAL_CHOWS
    if a == b:
        return PURE_DOUBLE_CHOW
    return NONE


@njit
def three_chows_fan(a, b, c):
    """The fan three sorted chows make, or NONE."""
    sa, sb, sc = SUIT[a], SUIT[b], SUIT[c]
    ra, rb, rc = RANK[a], RANK[b], RANK[c]
    if sa != sb and sb != sc and sa != sc:
        if _consecutive_unordered(ra, rb, rc):
            return MIXED_SHIFTED_CHOWS
        if ra == rb and rb == rc:
            return MIXED_TRIPLE_CHOW
        if ra != rb and rb != rc and ra != rc and ra % 3 == 1 and rb % 3 == 1 and rc % 3 == 1:
            return MIXED_STRAIGHT  # 123, 456, 789 in three suits
        return NONE
    if sa != sc:
        return NONE
    if _steps(a, b, c, THREE):
        return PURE_STRAIGHT
    if _steps(a, b, c, TWO) or _steps(a, b, c, ONE):
        return PURE_SHIFTED_CHOWS
    if a == b and b == c:
        return PURE_TRIPLE_CHOW
    return NONE


@njit
def four_chows_fan(a, b, c, d):
    """The fan four sorted chows make together, or NONE."""
    if SUIT[a] != SUIT[d]:
        return NONE
    if (_steps(a, b, c, ONE) and d - c == 1) or (_steps(a, b, c, TWO) and d - c == 2):
        return FOUR_PURE_SHIFTED_CHOWS
    if a == d:
        return QUADRUPLE_CHOW
    return NONE


@njit
def terminal_chows_fan(lows, pair):
    """一色双龙会 or 三色双龙会 for four chows and the pair, or NONE: 123 and 789 twice, with a
    pair of fives, in one suit or in the two suits other than the pair's."""
    if pair >= 27 or RANK[pair] != 5:
        return NONE
    # 123 and 789 chows per suit, as 4-bit fields (suit s at bit 4s) of one integer each.
    low_in = 0
    high_in = 0
    for i in range(4):
        t = lows[i]
        if RANK[t] == 1:
            low_in += 1 << (4 * SUIT[t])
        elif RANK[t] == 7:
            high_in += 1 << (4 * SUIT[t])
        else:
            return NONE
    shift = 4 * SUIT[pair]
    if (low_in >> shift) & 15 == 2 and (high_in >> shift) & 15 == 2:
        return PURE_TERMINAL_CHOWS
    one_each_elsewhere = 0x111 - (1 << shift)
    if low_in == one_each_elsewhere and high_in == one_each_elsewhere:
        return THREE_SUITED_TERMINAL_CHOWS
    return NONE


@njit
def _extra_chow_fan(a, b, c, extra):
    """The one fan the chow left beside a three-chow fan adds, in the judge's preference."""
    f0 = two_chows_fan(a, extra)
    f1 = two_chows_fan(b, extra)
    f2 = two_chows_fan(c, extra)
    for k in range(4):
        fan = _ONE_POINT_CHOW_FANS[k]
        if f0 == fan or f1 == fan or f2 == fan:
            return fan
    return NONE


@njit
def _count_once(pair_fans, n_pairs, limit, table, per_kind):
    """Add the two-chow fans found between pairs of chows, at most `limit` of them, dropping
    repeats of a kind first and 老少副 before 连六, 喜相逢, 一般高. `per_kind`: 4 cells of
    scratch."""
    for k in range(4):
        per_kind[k] = 0
    found = 0
    for i in range(n_pairs):
        if pair_fans[i] != NONE:
            per_kind[pair_fans[i] - PURE_DOUBLE_CHOW] += 1
            found += 1
    keep = 1
    while found > limit and keep >= 0:
        for k in range(3, -1, -1):
            while per_kind[k] > keep and found > limit:
                per_kind[k] -= 1
                found -= 1
        keep -= 1
    for k in range(4):
        table[PURE_DOUBLE_CHOW + k] += per_kind[k]


@njit
def chow_fans(lows, n, pair, table, scratch):
    """Add the fans of the hand's `n` chows (`lows` sorted ascending) to `table`.
    `scratch`: 10 cells of working space."""
    if n == 2:
        fan = two_chows_fan(lows[0], lows[1])
        if fan != NONE:
            table[fan] += 1
        return
    pair_fans = scratch[:6]
    per_kind = scratch[6:10]
    if n == 3:
        fan = three_chows_fan(lows[0], lows[1], lows[2])
        if fan != NONE:
            table[fan] += 1
            return
        for k in range(3):
            row = _PAIRS_OF_THREE[k]
            pair_fans[k] = two_chows_fan(lows[_PAIRS[row, 0]], lows[_PAIRS[row, 1]])
        _count_once(pair_fans, THREE, TWO, table, per_kind)
        return
    if n != 4:
        return
    fan = terminal_chows_fan(lows, pair)
    if fan == NONE:
        fan = four_chows_fan(lows[0], lows[1], lows[2], lows[3])
    if fan != NONE:
        table[fan] += 1
        return
    for k in range(4):
        a, b, c, left_out = lows[_TRIPLES[k, 0]], lows[_TRIPLES[k, 1]], lows[_TRIPLES[k, 2]], lows[_TRIPLES[k, 3]]
        fan = three_chows_fan(a, b, c)
        if fan != NONE:
            table[fan] += 1
            extra = _extra_chow_fan(a, b, c, left_out)
            if extra != NONE:
                table[extra] += 1
            return
    for k in range(6):
        pair_fans[k] = two_chows_fan(lows[_PAIRS[k, 0]], lows[_PAIRS[k, 1]])
    # n chows combine into at most n - 1 fans, less one for each chow that combines with none.
    limit = THREE
    for i in range(4):
        alone = True
        for k in range(6):
            if (_PAIRS[k, 0] == i or _PAIRS[k, 1] == i) and pair_fans[k] != NONE:
                alone = False
        if alone:
            limit -= 1
    if limit > 0:
        _count_once(pair_fans, SIX, limit, table, per_kind)


@njit
def two_pungs_fan(a, b):
    """双同刻 or 双箭刻 for two pungs, or NONE."""
    if a < 27 and b < 27:
        return DOUBLE_PUNG if RANK[a] == RANK[b] else NONE
    if IS_DRAGON[a] and IS_DRAGON[b]:
        return TWO_DRAGON_PUNGS
    return NONE


@njit
def three_pungs_fan(a, b, c):
    """The fan three sorted pungs make, or NONE."""
    if c < 27:
        sa, sb, sc = SUIT[a], SUIT[b], SUIT[c]
        if sa != sb and sb != sc and sa != sc:
            if _consecutive_unordered(RANK[a], RANK[b], RANK[c]):
                return MIXED_SHIFTED_PUNGS
            if RANK[a] == RANK[b] and RANK[b] == RANK[c]:
                return TRIPLE_PUNG
            return NONE
        if sa == sc and _steps(a, b, c, ONE):
            return PURE_SHIFTED_PUNGS
        return NONE
    if IS_WIND[a] and IS_WIND[b] and IS_WIND[c]:
        return BIG_THREE_WINDS
    if IS_DRAGON[a] and IS_DRAGON[b] and IS_DRAGON[c]:
        return BIG_THREE_DRAGONS
    return NONE


@njit
def four_pungs_fan(a, b, c, d):
    """一色四节高 or 大四喜 for four sorted pungs, or NONE."""
    if d < 27 and SUIT[a] == SUIT[d] and _steps(a, b, c, ONE) and d - c == 1:
        return FOUR_PURE_SHIFTED_PUNGS
    if IS_WIND[a] and IS_WIND[b] and IS_WIND[c] and IS_WIND[d]:
        return BIG_FOUR_WINDS
    return NONE


@njit
def pung_fans(tiles, n, table):
    """Add the fans of the hand's `n` pungs and kongs (`tiles` sorted ascending) to `table`."""
    if n < 2:
        return
    if n == 2:
        fan = two_pungs_fan(tiles[0], tiles[1])
        if fan != NONE:
            table[fan] += 1
        return
    if n == 4:
        fan = four_pungs_fan(tiles[0], tiles[1], tiles[2], tiles[3])
        if fan != NONE:
            table[fan] += 1
            return
        for k in range(4):
            fan = three_pungs_fan(tiles[_TRIPLES[k, 0]], tiles[_TRIPLES[k, 1]], tiles[_TRIPLES[k, 2]])
            if fan != NONE:
                table[fan] += 1
                left_out = _TRIPLES[k, 3]
                # The pung left out combines once, with the first pung it makes a fan with.
                for i in range(4):
                    if i != left_out:
                        extra = two_pungs_fan(tiles[i], tiles[left_out])
                        if extra != NONE:
                            table[extra] += 1
                            return
                return
        for k in range(6):
            fan = two_pungs_fan(tiles[_PAIRS[k, 0]], tiles[_PAIRS[k, 1]])
            if fan != NONE:
                table[fan] += 1
        return
    fan = three_pungs_fan(tiles[0], tiles[1], tiles[2])
    if fan != NONE:
        table[fan] += 1
        return
    for k in range(3):
        row = _PAIRS_OF_THREE[k]
        fan = two_pungs_fan(tiles[_PAIRS[row, 0]], tiles[_PAIRS[row, 1]])
        if fan != NONE:
            table[fan] += 1
