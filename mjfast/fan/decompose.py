"""Every way to split the standing tiles into sets and one pair, without recursion.

The search walks the tiles from the lowest up. At a tile still held it decides, once and for
all, how its copies are used: one pung or none, the pair or not, and the rest as chows
starting there (which take as many copies of the next two tiles). Each split is found exactly
once, and in the order the reference judge lists them (sorted sets compared tile by tile, a
pung before a chow of the same tile), which matters only to break ties between splits of
equal points the way the judge does.

The choices at each level sit in small stack arrays (no recursion: numba issue 6061 makes a
recursive function crash when loaded from the cache).
"""

import numpy as np

from ..runtime.decorators import njit
from ..tileprops import HONORS_START
from .layout import CHOW_SET, PUNG_SET

# A 14-tile hand has at most 4 splits (66677778888999m); the buffers leave room to spare.
MAX_SPLITS = 8
# Split k's sets are at k * SPLIT_SETS .. k * SPLIT_SETS + 3 of the kinds and tiles buffers
# (flat: a 2-d view of the working space costs a reshape call per hand).
SPLIT_SETS = 4
# Working space split_regular needs: three level stacks of 16 and two set lists of 4.
SEARCH_LEN = 3 * 16 + 2 * 4
# (pung, pair) taken at a tile, in the order that lists splits like the judge.
_OPTION_PUNG = np.array([1, 1, 0, 0], np.int64)
_OPTION_PAIR = np.array([0, 1, 0, 1], np.int64)


@njit(cache=True)
def split_regular(counts, n_sets, kinds, tiles, pairs, search):
    """Write every split of `counts` into `n_sets` sets and a pair into kinds, tiles
    (MAX_SPLITS x SPLIT_SETS, flat) and pairs (MAX_SPLITS); return how many.

    `counts` (34, int64) is changed during the search and restored before returning;
    `search` is SEARCH_LEN cells of working space.
    """
    level_tile = search[0:16]
    level_option = search[16:32]
    level_chows = search[32:48]
    set_kind = search[48:52]
    set_tile = search[52:56]
    n_found = 0
    n_placed = 0
    pair = -1
    level = 0
    t = 0
    first_option = 0
    while True:
        while t < 34 and counts[t] == 0:
            t += 1
        advanced = False
        if t == 34:
            if pair >= 0 and n_placed == n_sets and n_found < MAX_SPLITS:
                for i in range(n_sets):
                    kinds[n_found * SPLIT_SETS + i] = set_kind[i]
                    tiles[n_found * SPLIT_SETS + i] = set_tile[i]
                pairs[n_found] = pair
                n_found += 1
        else:
            for option in range(first_option, 4):
                pung = _OPTION_PUNG[option]
                takes_pair = _OPTION_PAIR[option]
                if takes_pair == 1 and pair >= 0:
                    continue
                chows = counts[t] - 3 * pung - 2 * takes_pair
                if chows < 0 or n_placed + pung + chows > n_sets:
                    continue
                if chows > 0 and (t >= HONORS_START or t % 9 > 6 or counts[t + 1] < chows or counts[t + 2] < chows):
                    continue
                level_tile[level] = t
                level_option[level] = option
                level_chows[level] = chows
                if pung == 1:
                    set_kind[n_placed] = PUNG_SET
                    set_tile[n_placed] = t
                    n_placed += 1
                for _ in range(chows):
                    set_kind[n_placed] = CHOW_SET
                    set_tile[n_placed] = t
                    n_placed += 1
                if takes_pair == 1:
                    pair = t
                counts[t] = 0
                if chows > 0:
                    counts[t + 1] -= chows
                    counts[t + 2] -= chows
                level += 1
                t += 1
                first_option = 0
                advanced = True
                break
        if advanced:
            continue
        # Nothing more at this tile: undo the last choice and try its next option.
        if level == 0:
            break
        level -= 1
        t = level_tile[level]
        option = level_option[level]
        chows = level_chows[level]
        pung = _OPTION_PUNG[option]
        takes_pair = _OPTION_PAIR[option]
        counts[t] = 3 * pung + 2 * takes_pair + chows
        if chows > 0:
            counts[t + 1] += chows
            counts[t + 2] += chows
        n_placed -= pung + chows
        if takes_pair == 1:
            pair = -1
        first_option = option + 1
    return n_found
