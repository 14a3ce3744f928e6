"""Every tile fact the kernels test, in one place: per-tile properties as constant arrays
indexed by tile id (0-33), and the tile sets of the special forms, as arrays and as 34-bit
masks (bit t for tile id t).

Ids follow mjfast.tiles: 0-8 characters, 9-17 dots, 18-26 bamboo, 27-30 E S W N,
31-33 C F P (red, green, white dragons).
"""

import numpy as np

HONORS_START = 27
WINDS_START = 27
DRAGONS_START = 31
RED, GREEN, WHITE = 31, 32, 33


def _flags(tiles) -> np.ndarray:
    out = np.zeros(34, np.bool_)
    out[list(tiles)] = True
    return out


# 0, 1, 2 for the three suits, 3 for honours.
SUIT = np.array([t // 9 if t < 27 else 3 for t in range(34)], np.int64)
# 1-9 for suited tiles, 0 for honours.
RANK = np.array([t % 9 + 1 if t < 27 else 0 for t in range(34)], np.int64)
IS_TERMINAL = _flags(t for t in range(27) if t % 9 in (0, 8))
IS_HONOR = _flags(range(27, 34))
IS_WIND = _flags(range(27, 31))
IS_DRAGON = _flags(range(31, 34))
IS_TERMINAL_OR_HONOR = IS_TERMINAL | IS_HONOR
# 绿一色: 2 3 4 6 8 bamboo and the green dragon.
IS_GREEN = _flags([19, 20, 21, 23, 25, GREEN])
# 推不倒: tiles whose face has no top or bottom: 1234589 dots, 245689 bamboo, white dragon.
IS_REVERSIBLE = _flags([9 + r - 1 for r in (1, 2, 3, 4, 5, 8, 9)] + [18 + r - 1 for r in (2, 4, 5, 6, 8, 9)] + [WHITE])
# The six knitted straights (组合龙): which knitted part (0: 1-4-7, 1: 2-5-8, 2: 3-6-9) each
# suit (m, p, s) gives, and their nine tiles each.
KNITTED_PARTS_OF = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], np.int64)
KNITTED = np.array([sorted(9 * s + part + 3 * k for s, part in enumerate(parts) for k in range(3))
                    for parts in KNITTED_PARTS_OF], np.int64)
# The thirteen terminals and honours of 十三幺.
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], np.int64)


def _bits(tiles) -> int:
    return sum(1 << int(t) for t in tiles)


# The same sets as masks, for the efficiency kernels' bit operations.
ORPHAN_BITS = _bits(ORPHANS)
HONOR_BITS = _bits(range(HONORS_START, 34))
# KNITTED_PART[s, j]: the knitted tiles 1-4-7 (j=0), 2-5-8 (j=1) or 3-6-9 (j=2) of suit s.
KNITTED_PART = np.array([[_bits([9 * s + j, 9 * s + j + 3, 9 * s + j + 6]) for j in range(3)] for s in range(3)],
                        np.int64)
KNITTED_BITS = np.array([_bits(tiles) for tiles in KNITTED], np.int64)
HONORS_KNITTED_BITS = KNITTED_BITS | HONOR_BITS
