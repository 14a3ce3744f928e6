"""The scoring kernel: one hand vector (see layout) in, its best reading's fans out.

Order of work, following the reference judge:
1. correct the win conditions that the hand contradicts (correct_conditions);
2. without melds, try the special forms: 七对/连七对, 全不靠/七星不靠, 十三幺, then the
   组合龙 form, then 九莲宝灯; with one meld, only the 组合龙 form;
3. when no special form fits, or the hand is a plain 七对 (a regular reading may score more),
   score every split into sets and a pair and keep the most points. Between equal points the
   judge keeps the first split in its order unless a later one has 一色三同顺 or 三同刻, or
   the hand also reads as 七对; mjfast breaks ties the same way so that both name the same fans.

The output row holds the fan counts (N_FANS), then the total with flowers (-1: not a win),
then the corrected conditions.
"""

import numpy as np
from numba import njit

from .decompose import MAX_SPLITS, SEARCH_LEN, split_regular
from .forms import (
    TMP_LEN,
    UNKNOWN,
    HandState,
    knitted_straight_form,
    nine_gates_form,
    orphans_and_knitted_form,
    score_split,
    seven_pairs_form,
)
from .layout import (
    AT_CONDITIONS,
    AT_FLOWERS,
    AT_MELD_KIND,
    AT_MELD_OPEN,
    AT_MELD_TILE,
    AT_N_MELDS,
    AT_PREVALENT_WIND,
    AT_SEAT_WIND,
    AT_WIN_TILE,
    CHOW_SET,
    KONG_SET,
    VEC_LEN,
    WIN_KONG,
    WIN_LAST_COPY,
    WIN_SELF_DRAWN,
)
from .names import DISPLAY_ORDER, FLOWER_TILES, N_FANS, PURE_TRIPLE_CHOW, TRIPLE_PUNG
from .rules import condition_fans, tile_fans
from .tileprops import KNITTED, ORPHANS
from .waits import regular_waits, seven_pairs_wait

# The output row: fan counts by id, the total with flowers (NOT_A_WIN if the hand is no win),
# the corrected win conditions, then the fans present as (id, count) pairs in display order
# (names.DISPLAY_ORDER), preceded by how many there are: a caller can build its list of fans
# from those few numbers instead of looking at every fan id.
AT_TOTAL = N_FANS
AT_CORRECTED = N_FANS + 1
AT_N_LISTED = N_FANS + 2
AT_LISTED = N_FANS + 3
MAX_LISTED = 24
OUT_LEN = AT_LISTED + 2 * MAX_LISTED
NOT_A_WIN = -1

# One int64 buffer holds all the working space of one hand's scoring, so that scoring
# allocates nothing per hand (allocation is most of the cost of a small kernel, and serialises
# threads in a batch). Offsets of its parts:
_W_COUNTS = 0
_W_FIXED = _W_COUNTS + 34
_W_HELD = _W_FIXED + 34
_W_MELDS = _W_HELD + 34  # kind, tile, open: 3 x 4
_W_UNIQUE = _W_MELDS + 12
_W_BEST = _W_UNIQUE + 1
_W_CURRENT = _W_BEST + N_FANS
_W_BASE = _W_CURRENT + N_FANS
_W_SPLIT_KINDS = _W_BASE + N_FANS
_W_SPLIT_TILES = _W_SPLIT_KINDS + 4 * MAX_SPLITS
_W_SPLIT_PAIRS = _W_SPLIT_TILES + 4 * MAX_SPLITS
_W_SETS = _W_SPLIT_PAIRS + MAX_SPLITS  # kind, tile, open of the four sets: 3 x 4
_W_SEARCH = _W_SETS + 12
_W_REST = _W_SEARCH + SEARCH_LEN
_W_TMP = _W_REST + 34
WORK_LEN = _W_TMP + TMP_LEN


@njit(cache=True)
def new_work():
    """Working space for score_into (reusable from one hand to the next; every part is
    written before it is read, so it needs no zeroing)."""
    return np.empty(WORK_LEN, np.int64)


@njit(cache=True)
def correct_conditions(conditions, counts, fixed, win, has_kong):
    """The win conditions as the judge corrects them.

    - 和绝张 is impossible while the hand holds another copy of the winning tile, and
      certain when three copies are in its own melds.
    - 杠上开花 needs a kong among the melds; 抢杠和 needs a winning tile that the hand holds
      nowhere else (the robbed kong has the other three).
    """
    if counts[win] != 1:
        conditions &= ~WIN_LAST_COPY
    if fixed[win] == 3:
        conditions |= WIN_LAST_COPY
    if conditions & WIN_KONG:
        if conditions & WIN_SELF_DRAWN:
            if not has_kong:
                conditions &= ~WIN_KONG
        elif fixed[win] != 0 or counts[win] != 1:
            conditions &= ~WIN_KONG
    return conditions


@njit(cache=True)
def hand_state(vec, rules, work):
    """Read a hand vector into a HandState whose arrays are views of `work`."""
    counts = work[_W_COUNTS:_W_COUNTS + 34]
    fixed = work[_W_FIXED:_W_FIXED + 34]
    held = work[_W_HELD:_W_HELD + 34]
    for t in range(34):
        counts[t] = vec[t]
        fixed[t] = 0
    n_melds = np.int64(vec[AT_N_MELDS])
    meld_kind = work[_W_MELDS:_W_MELDS + 4]
    meld_tile = work[_W_MELDS + 4:_W_MELDS + 8]
    meld_open = work[_W_MELDS + 8:_W_MELDS + 12]
    n_open = 0
    kongs = 0
    for i in range(n_melds):
        kind = np.int64(vec[AT_MELD_KIND + i])
        tile = np.int64(vec[AT_MELD_TILE + i])
        meld_kind[i] = kind
        meld_tile[i] = tile
        meld_open[i] = vec[AT_MELD_OPEN + i]
        n_open += meld_open[i]
        if kind == CHOW_SET:
            fixed[tile] += 1
            fixed[tile + 1] += 1
            fixed[tile + 2] += 1
        elif kind == KONG_SET:
            fixed[tile] += 4
            kongs += 1
        else:
            fixed[tile] += 3
    fours = 0
    for t in range(34):
        held[t] = counts[t] + fixed[t]
        if held[t] == 4:
            fours += 1
    win = np.int64(vec[AT_WIN_TILE])
    conditions = correct_conditions(np.int64(vec[AT_CONDITIONS]), counts, fixed, win, kongs > 0)
    unique_wait = work[_W_UNIQUE:_W_UNIQUE + 1]
    unique_wait[0] = UNKNOWN
    return HandState(
        win,
        conditions,
        np.int64(vec[AT_SEAT_WIND]),
        np.int64(vec[AT_PREVALENT_WIND]),
        np.int64(rules),
        n_melds,
        meld_kind,
        meld_tile,
        meld_open,
        n_open,
        fours - kongs,
        counts,
        held,
        unique_wait,
        work[_W_SPLIT_KINDS:_W_SPLIT_KINDS + 4 * MAX_SPLITS].reshape((MAX_SPLITS, 4)),
        work[_W_SPLIT_TILES:_W_SPLIT_TILES + 4 * MAX_SPLITS].reshape((MAX_SPLITS, 4)),
        work[_W_SPLIT_PAIRS:_W_SPLIT_PAIRS + MAX_SPLITS],
        work[_W_SEARCH:_W_SEARCH + SEARCH_LEN],
        work[_W_REST:_W_REST + 34],
        work[_W_TMP:_W_TMP + TMP_LEN],
    )


@njit(cache=True)
def _standing_count_ok(vec):
    """True if the standing tiles number 14 - 3 x melds (a complete hand's count)."""
    n = 0
    for t in range(34):
        n += vec[t]
    return n == 14 - 3 * vec[AT_N_MELDS]


@njit(cache=True)
def score_into(vec, rules, out, work):
    """Score the hand in `vec` under ruleset code `rules` into `out` (OUT_LEN int64), using
    `work` (WORK_LEN int64, from new_work) as working space. Returns the total or NOT_A_WIN."""
    for f in range(OUT_LEN):
        out[f] = 0
    out[AT_TOTAL] = NOT_A_WIN
    win = vec[AT_WIN_TILE]
    if win < 0 or win >= 34 or vec[win] == 0 or not _standing_count_ok(vec):
        return NOT_A_WIN
    hand = hand_state(vec, rules, work)
    out[AT_CORRECTED] = hand.conditions
    best = work[_W_BEST:_W_BEST + N_FANS]
    current = work[_W_CURRENT:_W_CURRENT + N_FANS]
    best_points = -1
    also_seven_pairs = False
    if hand.n_melds == 0:
        points, also_seven_pairs = seven_pairs_form(hand, current)
        if points < 0:
            points = orphans_and_knitted_form(hand, current)
        if points < 0:
            points = knitted_straight_form(hand, current)
        if points < 0:
            points = nine_gates_form(hand, current)
        if points >= 0:
            best_points = points
            best[:] = current
    elif hand.n_melds == 1:
        points = knitted_straight_form(hand, current)
        if points >= 0:
            best_points = points
            best[:] = current

    if best_points < 0 or also_seven_pairs:
        n_sets = 4 - hand.n_melds
        kinds, tiles, pairs = hand.split_kinds, hand.split_tiles, hand.split_pairs
        n_splits = split_regular(hand.counts, n_sets, kinds, tiles, pairs, hand.search)
        if n_splits > 0:
            base = work[_W_BASE:_W_BASE + N_FANS]
            base[:] = 0
            tile_fans(hand.held, base, True)
            condition_fans(hand.conditions, base)
            set_kind = work[_W_SETS:_W_SETS + 4]
            set_tile = work[_W_SETS + 4:_W_SETS + 8]
            set_open = work[_W_SETS + 8:_W_SETS + 12]
            for i in range(hand.n_melds):
                set_kind[i] = hand.meld_kind[i]
                set_tile[i] = hand.meld_tile[i]
                set_open[i] = hand.meld_open[i]
            for k in range(n_splits):
                for i in range(n_sets):
                    set_kind[hand.n_melds + i] = kinds[k, i]
                    set_tile[hand.n_melds + i] = tiles[k, i]
                    set_open[hand.n_melds + i] = 0
                points = score_split(set_kind, set_tile, set_open, pairs[k], base, current, hand)
                if points > best_points or (
                    points == best_points
                    and (current[PURE_TRIPLE_CHOW] > 0 or current[TRIPLE_PUNG] > 0 or also_seven_pairs)
                ):
                    best_points = points
                    best[:] = current
    if best_points < 0:
        return NOT_A_WIN
    flowers = vec[AT_FLOWERS]
    best[FLOWER_TILES] = flowers
    listed = 0
    for k in range(N_FANS):
        f = DISPLAY_ORDER[k]
        out[f] = best[f]
        if best[f] != 0 and listed < MAX_LISTED:
            out[AT_LISTED + 2 * listed] = f
            out[AT_LISTED + 2 * listed + 1] = best[f]
            listed += 1
    out[AT_N_LISTED] = listed
    out[AT_TOTAL] = best_points + flowers
    return best_points + flowers


# Melds packed in one integer for calls from Python (one int is cheaper to pass than an array):
# 9 bits per meld (kind 2 bits, tile 6 bits, open 1 bit), meld i at bit 9i, the count at bit 36.
MELD_BITS = 9
MELD_COUNT_SHIFT = 36


@njit(cache=True)
def _vector(counts, melds, win, conditions, seat, prevalent, flowers):
    """A hand vector (see layout) from standing counts and packed melds."""
    vec = np.zeros(VEC_LEN, np.int16)
    for t in range(34):
        vec[t] = counts[t]
    n_melds = melds >> MELD_COUNT_SHIFT
    vec[AT_N_MELDS] = n_melds
    for i in range(n_melds):
        code = melds >> (MELD_BITS * i)
        vec[AT_MELD_KIND + i] = code & 3
        vec[AT_MELD_TILE + i] = (code >> 2) & 63
        vec[AT_MELD_OPEN + i] = (code >> 8) & 1
    vec[AT_WIN_TILE] = win
    vec[AT_CONDITIONS] = conditions
    vec[AT_SEAT_WIND] = seat
    vec[AT_PREVALENT_WIND] = prevalent
    vec[AT_FLOWERS] = flowers
    return vec


@njit(cache=True)
def score_hand(counts, melds, win, conditions, seat, prevalent, flowers, rules):
    """Score one hand given as standing counts (with the winning tile) and packed melds;
    returns the OUT_LEN output row."""
    out = np.empty(OUT_LEN, np.int64)
    score_into(_vector(counts, melds, win, conditions, seat, prevalent, flowers), rules, out, new_work())
    return out


@njit(cache=True)
def _special_candidates(counts13, n_melds):
    """Tiles that might complete a special form (a superset, as a 34-bit mask): the seven
    pairs wait; the thirteen orphans when only orphans are held; every tile when the tiles
    are all different (全不靠) or hold eight of a knitted straight's nine (组合龙 forms)."""
    every = (np.int64(1) << 34) - 1
    if n_melds > 1:
        return np.int64(0)
    for p in range(6):
        missing = 0
        for i in range(9):
            if counts13[KNITTED[p, i]] == 0:
                missing += 1
        if missing <= 1:
            return every
    if n_melds == 1:
        return np.int64(0)
    mask = np.int64(0)
    single = seven_pairs_wait(counts13)
    if single >= 0:
        mask |= np.int64(1) << single
    all_single = True
    outside_orphans = 0
    for t in range(34):
        all_single = all_single and counts13[t] <= 1
        outside_orphans += counts13[t]
    for i in range(13):
        outside_orphans -= counts13[ORPHANS[i]]
    if all_single:
        return every
    if outside_orphans == 0:
        for i in range(13):
            mask |= np.int64(1) << ORPHANS[i]
    return mask


@njit(cache=True)
def score_each_win(counts13, melds, conditions, seat, prevalent, flowers, rules):
    """For standing tiles that lack the winning tile (3n+1 of them) and packed melds, score
    the hand completed by each tile that wins. Returns (winning tiles, their output rows).
    A tile the hand already holds all four copies of is no win: it cannot be drawn or claimed.
    """
    vec = _vector(counts13, melds, 0, conditions, seat, prevalent, flowers)
    work = new_work()
    counts = np.zeros(34, np.int64)
    for t in range(34):
        counts[t] = counts13[t]
    held = counts.copy()
    for i in range(vec[AT_N_MELDS]):
        tile = vec[AT_MELD_TILE + i]
        kind = vec[AT_MELD_KIND + i]
        if kind == CHOW_SET:
            held[tile] += 1
            held[tile + 1] += 1
            held[tile + 2] += 1
        else:
            held[tile] += 4 if kind == KONG_SET else 3
    candidates = regular_waits(counts, held, True) | _special_candidates(counts, vec[AT_N_MELDS])
    tiles = np.empty(34, np.int64)
    rows = np.empty((34, OUT_LEN), np.int64)
    n = 0
    for t in range(34):
        if candidates >> t & 1 and held[t] < 4:
            vec[t] += 1
            vec[AT_WIN_TILE] = t
            if score_into(vec, rules, rows[n], work) != NOT_A_WIN:
                tiles[n] = t
                n += 1
            vec[t] -= 1
    return tiles[:n], rows[:n]
