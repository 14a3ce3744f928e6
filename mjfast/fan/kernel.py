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

from .decompose import new_split_buffers, split_regular
from .forms import (
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
    WIN_KONG,
    WIN_LAST_COPY,
    WIN_SELF_DRAWN,
)
from .names import FLOWER_TILES, N_FANS, PURE_TRIPLE_CHOW, TRIPLE_PUNG
from .rules import condition_fans, tile_fans
from .tileprops import KNITTED, ORPHANS
from .waits import completes_regular

OUT_LEN = N_FANS + 2
AT_TOTAL = N_FANS
AT_CORRECTED = N_FANS + 1
NOT_A_WIN = -1


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
def hand_state(vec, rules):
    """Read a hand vector into a HandState; None-like (n_melds = -1) if it is malformed."""
    counts = np.zeros(34, np.int64)
    fixed = np.zeros(34, np.int64)
    for t in range(34):
        counts[t] = vec[t]
    n_melds = np.int64(vec[AT_N_MELDS])
    meld_kind = np.zeros(4, np.int64)
    meld_tile = np.zeros(4, np.int64)
    meld_open = np.zeros(4, np.int64)
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
    held = counts + fixed
    fours = 0
    for t in range(34):
        if held[t] == 4:
            fours += 1
    win = np.int64(vec[AT_WIN_TILE])
    conditions = correct_conditions(np.int64(vec[AT_CONDITIONS]), counts, fixed, win, kongs > 0)
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
        np.full(1, UNKNOWN, np.int64),
    )


@njit(cache=True)
def score_into(vec, rules, out):
    """Score the hand in `vec` under ruleset code `rules` into `out` (OUT_LEN int64)."""
    for f in range(OUT_LEN):
        out[f] = 0
    out[AT_TOTAL] = NOT_A_WIN
    win = vec[AT_WIN_TILE]
    if win < 0 or win >= 34 or vec[win] == 0:
        return NOT_A_WIN
    hand = hand_state(vec, rules)
    out[AT_CORRECTED] = hand.conditions
    best = np.zeros(N_FANS, np.int64)
    current = np.zeros(N_FANS, np.int64)
    kinds, tiles, pairs = new_split_buffers()
    best_points = -1
    also_seven_pairs = False
    if hand.n_melds == 0:
        points, also_seven_pairs = seven_pairs_form(hand, current)
        if points < 0:
            points = orphans_and_knitted_form(hand, current)
        if points < 0:
            points = knitted_straight_form(hand, current, kinds, tiles, pairs)
        if points < 0:
            points = nine_gates_form(hand, current)
        if points >= 0:
            best_points = points
            best[:] = current
    elif hand.n_melds == 1:
        points = knitted_straight_form(hand, current, kinds, tiles, pairs)
        if points >= 0:
            best_points = points
            best[:] = current

    if best_points < 0 or also_seven_pairs:
        n_sets = 4 - hand.n_melds
        n_splits = split_regular(hand.counts, n_sets, kinds, tiles, pairs)
        if n_splits > 0:
            base = np.zeros(N_FANS, np.int64)
            tile_fans(hand.held, base, True)
            condition_fans(hand.conditions, base)
            set_kind = np.empty(4, np.int64)
            set_tile = np.empty(4, np.int64)
            set_open = np.empty(4, np.int64)
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
    for f in range(N_FANS):
        out[f] = best[f]
    out[AT_TOTAL] = best_points + flowers
    return best_points + flowers


@njit(cache=True)
def score_one(vec, rules):
    """Score one hand vector; returns the OUT_LEN output row."""
    out = np.empty(OUT_LEN, np.int64)
    score_into(vec, rules, out)
    return out


@njit(cache=True)
def _special_form_possible(counts, n_melds):
    """Cheap necessary condition for a special form on these standing tiles (with the win)."""
    if n_melds == 0:
        all_even = True
        all_single = True
        outside_orphans = 0
        for t in range(34):
            all_even = all_even and counts[t] % 2 == 0
            all_single = all_single and counts[t] <= 1
            outside_orphans += counts[t]
        for i in range(13):
            outside_orphans -= counts[ORPHANS[i]]
        if all_even or all_single or outside_orphans == 0:
            return True
    if n_melds <= 1:
        for p in range(6):
            full = True
            for i in range(9):
                if counts[KNITTED[p, i]] == 0:
                    full = False
                    break
            if full:
                return True
    return False


@njit(cache=True)
def score_each_win(vec, rules):
    """For a hand vector whose standing tiles lack the winning tile (3n+1 of them), score the
    hand completed by each tile in turn. Row t of the result is the output row for winning
    tile t (its total is -1 when t does not complete the hand, or when the hand already holds
    all four copies of t: such a tile cannot be drawn or claimed).
    """
    out = np.empty((34, OUT_LEN), np.int64)
    trial = vec.copy()
    counts = np.zeros(34, np.int64)
    for t in range(34):
        counts[t] = vec[t]
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
    for t in range(34):
        if held[t] >= 4:
            for f in range(OUT_LEN):
                out[t, f] = 0
            out[t, AT_TOTAL] = NOT_A_WIN
            continue
        counts[t] += 1
        if completes_regular(counts, -1) or _special_form_possible(counts, vec[AT_N_MELDS]):
            trial[t] += 1
            trial[AT_WIN_TILE] = t
            score_into(trial, rules, out[t])
            trial[t] -= 1
        else:
            for f in range(OUT_LEN):
                out[t, f] = 0
            out[t, AT_TOTAL] = NOT_A_WIN
        counts[t] -= 1
    return out
