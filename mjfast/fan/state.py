"""What the scoring of one hand knows about it, and the working space it scores in.

HandState holds the hand's scalars (winning tile, corrected conditions, winds, ruleset code,
melds counted) and three arrays: the standing counts with the winning tile, every copy the
hand holds (melds included), and `work`, one int64 buffer for everything else (the melds, the
splits, scratch space). Few arrays matter: every call that passes a HandState touches the
reference count of each array in it, and with a dozen arrays that cost more than the
scoring of a simple form.
"""

from collections import namedtuple

import numpy as np

from ..runtime.decorators import njit
from . import layout
from .decompose import MAX_SPLITS, SEARCH_LEN, SPLIT_SETS
from .names import N_FANS

HandState = namedtuple(
    "HandState", "win conditions seat prevalent rules n_melds n_open_melds hog counts held work"
)

# unique_wait states (work[W_UNIQUE]), computed when a split first needs it.
UNKNOWN, NOT_UNIQUE, UNIQUE = -1, 0, 1
# Scratch cells one form's scoring may use (work[W_TMP:W_TMP + TMP_LEN]).
TMP_LEN = 18

# One int64 buffer holds all the working space of one hand's scoring, so that scoring
# allocates nothing per hand (allocation is much of the cost of a small kernel, and serialises
# threads in a batch). Offsets of its parts:
W_COUNTS = 0
W_FIXED = W_COUNTS + 34
W_HELD = W_FIXED + 34
W_MELDS = W_HELD + 34  # kinds, tiles, open flags: 3 x 4
W_UNIQUE = W_MELDS + 12
W_BEST = W_UNIQUE + 1
W_CURRENT = W_BEST + N_FANS
W_BASE = W_CURRENT + N_FANS
W_SPLIT_KINDS = W_BASE + N_FANS
W_SPLIT_TILES = W_SPLIT_KINDS + SPLIT_SETS * MAX_SPLITS
W_SPLIT_PAIRS = W_SPLIT_TILES + SPLIT_SETS * MAX_SPLITS
W_SETS = W_SPLIT_PAIRS + MAX_SPLITS  # kind, tile, open of the four sets: 3 x 4
W_SEARCH = W_SETS + 12
W_REST = W_SEARCH + SEARCH_LEN
W_TMP = W_REST + 34
WORK_LEN = W_TMP + TMP_LEN


@njit
def new_work():
    """Working space for score_into (reusable from one hand to the next; every part is
    written before it is read, so it needs no zeroing)."""
    return np.empty(WORK_LEN, np.int64)


@njit
def correct_conditions(conditions, counts, fixed, win, has_kong):
    """The win conditions as the judge corrects them.

    - 和绝张 is impossible while the hand holds another copy of the winning tile, and
      certain when three copies are in its own melds.
    - 杠上开花 needs a kong among the melds; 抢杠和 needs a winning tile that the hand holds
      nowhere else (the robbed kong has the other three).
    """
    if counts[win] != 1:
        conditions &= ~layout.WIN_LAST_COPY
    if fixed[win] == 3:
        conditions |= layout.WIN_LAST_COPY
    if conditions & layout.WIN_KONG:
        if conditions & layout.WIN_SELF_DRAWN:
            if not has_kong:
                conditions &= ~layout.WIN_KONG
        elif fixed[win] != 0 or counts[win] != 1:
            conditions &= ~layout.WIN_KONG
    return conditions


@njit
def hand_state(vec, rules, work):
    """Read a hand vector into a HandState; counts and held are views of `work`."""
    counts = work[W_COUNTS:W_COUNTS + 34]
    fixed = work[W_FIXED:W_FIXED + 34]
    held = work[W_HELD:W_HELD + 34]
    for t in range(34):
        counts[t] = vec[t]
        fixed[t] = 0
    n_melds = np.int64(vec[layout.AT_N_MELDS])
    n_open = 0
    kongs = 0
    for i in range(n_melds):
        kind = np.int64(vec[layout.AT_MELD_KIND + i])
        tile = np.int64(vec[layout.AT_MELD_TILE + i])
        work[W_MELDS + i] = kind
        work[W_MELDS + 4 + i] = tile
        work[W_MELDS + 8 + i] = vec[layout.AT_MELD_OPEN + i]
        n_open += vec[layout.AT_MELD_OPEN + i]
        if kind == layout.CHOW_SET:
            fixed[tile] += 1
            fixed[tile + 1] += 1
            fixed[tile + 2] += 1
        elif kind == layout.KONG_SET:
            fixed[tile] += 4
            kongs += 1
        else:
            fixed[tile] += 3
    fours = 0
    for t in range(34):
        held[t] = counts[t] + fixed[t]
        if held[t] == 4:
            fours += 1
    win = np.int64(vec[layout.AT_WIN_TILE])
    conditions = correct_conditions(np.int64(vec[layout.AT_CONDITIONS]), counts, fixed, win, kongs > 0)
    work[W_UNIQUE] = UNKNOWN
    return HandState(
        win,
        conditions,
        np.int64(vec[layout.AT_SEAT_WIND]),
        np.int64(vec[layout.AT_PREVALENT_WIND]),
        np.int64(rules),
        n_melds,
        np.int64(n_open),
        fours - kongs,
        counts,
        held,
        work,
    )


@njit
def meld_of(hand, i):
    """(kind, tile, open) of meld i."""
    return hand.work[W_MELDS + i], hand.work[W_MELDS + 4 + i], hand.work[W_MELDS + 8 + i]


@njit
def split_buffers(work):
    """The split buffers in `work`: kinds and tiles (MAX_SPLITS x SPLIT_SETS, flat), pairs,
    search space."""
    return (
        work[W_SPLIT_KINDS:W_SPLIT_KINDS + SPLIT_SETS * MAX_SPLITS],
        work[W_SPLIT_TILES:W_SPLIT_TILES + SPLIT_SETS * MAX_SPLITS],
        work[W_SPLIT_PAIRS:W_SPLIT_PAIRS + MAX_SPLITS],
        work[W_SEARCH:W_SEARCH + SEARCH_LEN],
    )
