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
then the corrected conditions; calls from Python get its summary (see SUMMARY_LEN).
"""

import numpy as np

from ..runtime.decorators import njit
from ..tileprops import KNITTED, ORPHANS, RANK, SUIT
from . import layout
from .decompose import SPLIT_SETS, split_regular
from .forms import knitted_straight_form, nine_gates_form, orphans_and_knitted_form, score_split, seven_pairs_form
from .names import DISPLAY_ORDER, FLOWER_TILES, N_FANS, PURE_TRIPLE_CHOW, TRIPLE_PUNG
from .rules import condition_fans, tile_fans
from .state import W_BASE, W_BEST, W_CURRENT, W_SETS, WORK_LEN, hand_state, meld_of, new_work, split_buffers
from .waits import NO_TILE, regular_waits, seven_pairs_wait

# The output row: fan counts by id, the total with flowers (NOT_A_WIN if the hand is no win),
# and the corrected win conditions.
AT_TOTAL = N_FANS
AT_CORRECTED = N_FANS + 1
OUT_LEN = N_FANS + 2
NOT_A_WIN = -1
YES = np.bool_(True)  # a typed constant for kernel arguments (see combos.ONE)

# What a call from Python gets back instead of the row: a tuple of SUMMARY_LEN ints (a numpy
# array costs microseconds to hand back to Python, a few ints almost nothing): the total, what
# was scored (the corrected conditions, the winds and the winning tile, see SCORED_WIN_SHIFT),
# then the fans present in display order (names.DISPLAY_ORDER), packed FANS_PER_WORD to an
# int, each as id | count << 7 (a zero entry ends the list).
FAN_BITS = 11
FANS_PER_WORD = 5
SUMMARY_WORDS = 6  # room for 30 fans (100,000 random wins score 12 different fans at most)
SUMMARY_LEN = 2 + SUMMARY_WORDS

VEC_LEN = layout.VEC_LEN  # a hand vector's length: the fan-aware advice sizes its vectors by it


@njit
def _standing_count_ok(vec):
    """True if the standing tiles number 14 - 3 x melds (a complete hand's count)."""
    n = 0
    for t in range(34):
        n += vec[t]
    return n == 14 - 3 * vec[layout.AT_N_MELDS]


@njit
def _count_shape(counts):
    """(kinds held an odd number of times, kinds held) of 34 standing counts."""
    odd = 0
    held = 0
    for t in range(34):
        odd += counts[t] & 1
        held += counts[t] > 0
    return odd, held


# Without reference counts whoever calls it (it allocates nothing): otherwise the scorer is compiled
# with its first caller's choice, and a batch compiled first scored 25% slower.
@njit(shared=True, nrt=False)
def score_into(vec, rules, out, work):
    """Score the hand in `vec` under ruleset code `rules` into `out` (OUT_LEN int64), using
    `work` (WORK_LEN int64, from new_work) as working space. Returns the total or NOT_A_WIN."""
    win = vec[layout.AT_WIN_TILE]
    if win < 0 or win >= 34 or vec[win] == 0 or not _standing_count_ok(vec):
        return _no_win(out)
    hand = hand_state(vec, rules, work)
    best = work[W_BEST:W_BEST + N_FANS]
    current = work[W_CURRENT:W_CURRENT + N_FANS]
    best_points = -1
    also_seven_pairs = False
    # Each special form is tried only where the counts allow it (most hands allow none):
    # 七对 needs every count even; 十三幺 and 全不靠 13 or 14 kinds; the 组合龙 its 9 kinds;
    # 九莲宝灯 the 9 ranks of one suit and nothing else.
    odd, kinds_held = _count_shape(hand.counts)
    if hand.n_melds == 0:
        points = NOT_A_WIN
        if odd == 0:
            points, also_seven_pairs = seven_pairs_form(hand, current)
        if points < 0 and kinds_held >= 13:
            points = orphans_and_knitted_form(hand, current)
        if points < 0 and kinds_held >= 9:
            points = knitted_straight_form(hand, current)
        if points < 0 and kinds_held == 9:
            points = nine_gates_form(hand, current)
        if points >= 0:
            best_points = points
            best, current = current, best  # keep the better table, reuse the other
    elif hand.n_melds == 1 and kinds_held >= 9:
        points = knitted_straight_form(hand, current)
        if points >= 0:
            best_points = points
            best, current = current, best

    if best_points < 0 or also_seven_pairs:
        n_sets = 4 - hand.n_melds
        kinds, tiles, pairs, search = split_buffers(work)
        n_splits = split_regular(hand.counts, n_sets, kinds, tiles, pairs, search)
        if n_splits > 0:
            base = work[W_BASE:W_BASE + N_FANS]
            for f in range(N_FANS):
                base[f] = 0
            tile_fans(hand.held, base, YES)
            condition_fans(hand.conditions, base)
            set_kind = work[W_SETS:W_SETS + 4]
            set_tile = work[W_SETS + 4:W_SETS + 8]
            set_open = work[W_SETS + 8:W_SETS + 12]
            for i in range(hand.n_melds):
                set_kind[i], set_tile[i], set_open[i] = meld_of(hand, i)
            for k in range(n_splits):
                for i in range(n_sets):
                    set_kind[hand.n_melds + i] = kinds[k * SPLIT_SETS + i]
                    set_tile[hand.n_melds + i] = tiles[k * SPLIT_SETS + i]
                    set_open[hand.n_melds + i] = 0
                points = score_split(set_kind, set_tile, set_open, pairs[k], base, current, hand)
                if points > best_points or (
                    points == best_points
                    and (current[PURE_TRIPLE_CHOW] > 0 or current[TRIPLE_PUNG] > 0 or also_seven_pairs)
                ):
                    best_points = points
                    best, current = current, best
    if best_points < 0:
        return _no_win(out)
    flowers = vec[layout.AT_FLOWERS]
    best[FLOWER_TILES] = flowers
    for f in range(N_FANS):
        out[f] = best[f]
    out[AT_TOTAL] = best_points + flowers
    out[AT_CORRECTED] = hand.conditions
    return best_points + flowers


@njit
def _no_win(out):
    for f in range(OUT_LEN):
        out[f] = 0
    out[AT_TOTAL] = NOT_A_WIN
    return NOT_A_WIN


@njit
def summary_into(out, vec, dest):
    """Write the summary of output row `out`, scored from hand vector `vec` (see SUMMARY_LEN),
    into dest[:SUMMARY_LEN]."""
    dest[0] = out[AT_TOTAL]
    dest[1] = (out[AT_CORRECTED] | np.int64(vec[layout.AT_SEAT_WIND]) << SEAT_SHIFT
               | np.int64(vec[layout.AT_PREVALENT_WIND]) << PREVALENT_SHIFT
               | np.int64(vec[layout.AT_WIN_TILE]) << SCORED_WIN_SHIFT)
    for w in range(SUMMARY_WORDS):
        dest[2 + w] = 0
    listed = 0
    for k in range(N_FANS):
        f = DISPLAY_ORDER[k]
        if out[f] != 0 and listed < SUMMARY_WORDS * FANS_PER_WORD:
            dest[2 + listed // FANS_PER_WORD] |= (f | out[f] << 7) << (FAN_BITS * (listed % FANS_PER_WORD))
            listed += 1


# A call from Python passes few values (each argument costs dispatch time): the standing counts
# (an array), the hand code (the melds and the winning tile as one int) and the setup (the win
# conditions, winds, flowers and ruleset as one int).
# Hand code: 9 bits per meld (kind 2 bits, tile 6 bits, open 1 bit), meld i at bit 9i, the
# count at bit 36, the winning tile at WIN_SHIFT.
MELD_BITS = 9
MELD_COUNT_SHIFT = 36
WIN_SHIFT = 40
MELDS_MASK = (1 << WIN_SHIFT) - 1
# Setup: the WIN_* condition bits (0-3), then the seat wind, the prevalent wind, the flowers and
# the ruleset code (Ruleset.code) at these bits. The summary's second value ("scored") has the
# corrected conditions and both winds at the same bits, and the winning tile at SCORED_WIN_SHIFT.
SEAT_SHIFT = 4
PREVALENT_SHIFT = 6
FLOWERS_SHIFT = 8
RULES_SHIFT = 12
SCORED_WIN_SHIFT = 8


@njit
def fill_vector(vec, counts, melds, win, conditions, seat, prevalent, flowers):
    """Write the hand vector (see layout) of standing counts and packed melds into `vec`
    (advice.fan_aware fills one it keeps)."""
    for t in range(34):
        vec[t] = counts[t]
    for i in range(34, VEC_LEN):
        vec[i] = 0
    n_melds = melds >> MELD_COUNT_SHIFT
    vec[layout.AT_N_MELDS] = n_melds
    for i in range(n_melds):
        code = melds >> (MELD_BITS * i)
        vec[layout.AT_MELD_KIND + i] = code & 3
        vec[layout.AT_MELD_TILE + i] = (code >> 2) & 63
        vec[layout.AT_MELD_OPEN + i] = (code >> 8) & 1
    vec[layout.AT_WIN_TILE] = win
    vec[layout.AT_CONDITIONS] = conditions
    vec[layout.AT_SEAT_WIND] = seat
    vec[layout.AT_PREVALENT_WIND] = prevalent
    vec[layout.AT_FLOWERS] = flowers


@njit
def _fill_setup_vector(vec, counts, melds, win, setup):
    """Write the hand vector of standing counts, packed melds, the winning tile and a setup
    into `vec`."""
    fill_vector(vec, counts, melds, win, setup & 15, (setup >> SEAT_SHIFT) & 3, (setup >> PREVALENT_SHIFT) & 3,
                 (setup >> FLOWERS_SHIFT) & 15)


# score_hand's one allocation: the working space, the output row, the summary, and the hand
# vector (int16) in the last VEC_WORDS cells.
AT_OUT = WORK_LEN
AT_SUMMARY = AT_OUT + OUT_LEN
AT_VEC = AT_SUMMARY + SUMMARY_LEN
VEC_WORDS = (VEC_LEN + 3) // 4
SPACE_LEN = AT_VEC + VEC_WORDS


@njit(cache=True)
def score_hand(counts, hand_code, setup):
    """Score one hand given as standing counts (with the winning tile), its hand code and
    setup (see WIN_SHIFT and SEAT_SHIFT); returns its summary (see SUMMARY_LEN)."""
    # One allocation for everything (each allocation costs about as much as a small form's
    # scoring).
    space = np.empty(SPACE_LEN, np.int64)
    vec = space[AT_VEC:].view(np.int16)
    _fill_setup_vector(vec, counts, hand_code & MELDS_MASK, hand_code >> WIN_SHIFT, setup)
    out = space[AT_OUT:AT_SUMMARY]
    score_into(vec, setup >> RULES_SHIFT, out, space[:WORK_LEN])
    s = space[AT_SUMMARY:AT_VEC]
    summary_into(out, vec, s)
    return (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])


@njit
def _special_candidates(counts13, held, n_melds):
    """The tiles that may complete a special form (a superset, as a 34-bit mask): the seven
    pairs wait; the thirteen orphans' missing tile (all thirteen when none is missing); the
    tiles missing from a knitted straight and the honours (全不靠); the missing tile of a
    knitted straight, or what completes the set and pair beside a full one."""
    mask = np.int64(0)
    if n_melds > 1:
        return mask
    for p in range(6):
        missing = -1
        n_missing = 0
        for i in range(9):
            if counts13[KNITTED[p, i]] == 0:
                missing = KNITTED[p, i]
                n_missing += 1
        if n_missing == 1:
            mask |= np.int64(1) << missing
        elif n_missing == 0:
            rest = counts13.copy()
            for i in range(9):
                rest[KNITTED[p, i]] -= 1
            mask |= regular_waits(rest, held, YES, NO_TILE)
    if n_melds == 1:
        return mask
    single = seven_pairs_wait(counts13)
    if single >= 0:
        mask |= np.int64(1) << single
    outside_orphans = 0
    orphans_missing = 0
    for t in range(34):
        outside_orphans += counts13[t]
    for i in range(13):
        outside_orphans -= counts13[ORPHANS[i]]
        if counts13[ORPHANS[i]] == 0:
            orphans_missing += 1
    if outside_orphans == 0:
        for i in range(13):
            if orphans_missing == 0 or counts13[ORPHANS[i]] == 0:
                mask |= np.int64(1) << ORPHANS[i]
    # 全不靠 / 七星不靠: 13 different tiles, the suited ones on one knitted straight: the
    # missing tiles of that straight and the missing honours.
    residues = 0  # bit 3s+r: suit s holds a tile of rank r (mod 3)
    for t in range(34):
        if counts13[t] > 1:
            return mask
        if counts13[t] == 1 and t < 27:
            residues |= 1 << (3 * SUIT[t] + (RANK[t] - 1) % 3)
    lines = 0
    empty_suit = -1
    for suit in range(3):
        own = (residues >> (3 * suit)) & 7
        if own == 0:
            empty_suit = suit
        elif own != 1 and own != 2 and own != 4 or lines & own:
            return mask
        lines |= own
    for t in range(34):
        if counts13[t] == 0:
            if t >= 27:
                mask |= np.int64(1) << t
            else:
                own = (residues >> (3 * SUIT[t])) & 7
                line = 1 << ((RANK[t] - 1) % 3)
                if own == line or (SUIT[t] == empty_suit and not lines & line):
                    mask |= np.int64(1) << t
    return mask


NOT_READY_SIZE = -1


@njit(cache=True)
def score_each_win(counts13, melds, setup, found):
    """For standing tiles that lack the winning tile (3n+1 of them), packed melds and a setup,
    score the hand completed by each tile that wins, into `found` (34 x SUMMARY_LEN): one row
    per winning tile, its summary (see SUMMARY_LEN; it names the tile). Returns how many rows, or
    NOT_READY_SIZE if the standing tiles are not 13 - 3 x melds. A tile the hand already holds
    all four copies of is no win: it cannot be drawn or claimed.

    The rows go to a buffer from the caller: handing a fresh array back to Python costs more
    than scoring a win.
    """
    n_melds = melds >> MELD_COUNT_SHIFT
    standing = 0
    for t in range(34):
        standing += counts13[t]
    if standing != 13 - 3 * n_melds:
        return NOT_READY_SIZE
    vec = np.empty(VEC_LEN, np.int16)
    _fill_setup_vector(vec, counts13, melds, NO_TILE, setup)  # no winning tile yet
    work = new_work()
    counts = np.zeros(34, np.int64)
    for t in range(34):
        counts[t] = counts13[t]
    held = counts.copy()
    for i in range(n_melds):
        tile = vec[layout.AT_MELD_TILE + i]
        kind = vec[layout.AT_MELD_KIND + i]
        if kind == layout.CHOW_SET:
            held[tile] += 1
            held[tile + 1] += 1
            held[tile + 2] += 1
        else:
            held[tile] += 4 if kind == layout.KONG_SET else 3
    candidates = regular_waits(counts, held, YES, NO_TILE) | _special_candidates(counts, held, n_melds)
    out = np.empty(OUT_LEN, np.int64)
    n = 0
    for t in range(34):
        if candidates >> t & 1 and held[t] < 4:
            vec[t] += 1
            vec[layout.AT_WIN_TILE] = t
            if score_into(vec, setup >> RULES_SHIFT, out, work) != NOT_A_WIN:
                summary_into(out, vec, found[n])
                n += 1
            vec[t] -= 1
    return n
