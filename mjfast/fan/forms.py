"""Scoring each winning form: one split of a regular hand into four sets and a pair, and the
special forms 七对 (连七对), 十三幺, 全不靠 (七星不靠), 组合龙 + set + pair, 九莲宝灯.

Every function fills a fan table (int64 counts by fan id) for one way of reading the hand;
the kernel keeps the reading worth the most points.
"""

import numpy as np

from ..runtime.decorators import njit
from ..tileprops import IS_DRAGON, IS_HONOR, IS_TERMINAL, IS_WIND, KNITTED, ORPHANS, RANK, SUIT
from .combos import chow_fans, pung_fans
from .decompose import split_regular
from .exclusions import apply_exclusions
from .layout import CHOW_SET, KONG_SET, PUNG_SET, WIN_SELF_DRAWN
from .names import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_PUNGS,
    ALL_SIMPLES,
    ALL_TYPES,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CONCEALED_HAND,
    CONCEALED_KONG,
    DRAGON_PUNG,
    FAN_POINTS,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    LESSER_HONORS_AND_KNITTED,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    MELDED_HAND,
    MELDED_KONG,
    N_FANS,
    NINE_GATES,
    NO_HONORS,
    OUTSIDE_HAND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_STRAIGHT,
    QUADRUPLE_CHOW,
    SELF_DRAWN,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SHORT_STRAIGHT,
    SINGLE_WAIT,
    THIRTEEN_ORPHANS,
    TILE_HOG,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGON_PUNGS,
)
from .rules import condition_fans, kong_fans, tile_fans, wind_or_terminal_pung_fans
from .ruleset import (
    CONCEALED_FORMS_FULLY_CONCEALED,
    LIVE_WAITS_ONLY,
    NO_KNITTED_BODY_WAITS,
    SEVEN_PAIRS_PLAIN,
    WAIT_IN_LAST_SET,
)
from .state import TMP_LEN, W_REST, W_TMP, meld_of, split_buffers
from .wait_fans import (
    AS_PAIR,
    hand_unique_wait,
    last_set_place,
    later_set,
    position_in_chow,
    wait_fan,
    wait_position,
)
from .waits import regular_waits

ZERO = np.int64(0)  # typed constants for kernel arguments (see combos.ONE)
NO = np.bool_(False)


@njit(cache=True)
def finish(table, rules):
    """Apply the exclusions, score 无番和 if no fan is left, and return the points."""
    points = apply_exclusions(table, rules)
    if points == 0:
        table[CHICKEN_HAND] = 1
        points = FAN_POINTS[CHICKEN_HAND]
    return points


@njit
def _concealed_form_self_draw(conditions, rules, table):
    """Forms concealed by their shape score 自摸 when self-drawn (ruling 5), or 不求人 under
    Ruleset.concealed_forms_fully_concealed (不求人 then excludes 自摸)."""
    if conditions & WIN_SELF_DRAWN and rules & CONCEALED_FORMS_FULLY_CONCEALED:
        table[FULLY_CONCEALED_HAND] = 1


@njit
def _sort_small(values, n):
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v


@njit
def _pack_trait_fans(kinds, tiles, pair, table):
    """全带幺, 全带五, 全双刻: a property every set and the pair share."""
    with_terminal_or_honor = 0
    with_five = 0
    even_pungs = 0
    for i in range(5):
        if i < 4:
            t = tiles[i]
            is_chow = kinds[i] == CHOW_SET
        else:
            t = pair
            is_chow = False
        if IS_HONOR[t]:
            with_terminal_or_honor += 1
            continue
        r = RANK[t]
        if is_chow:
            if r == 1 or r == 7:
                with_terminal_or_honor += 1
            elif 3 <= r <= 5:
                with_five += 1
        elif r == 1 or r == 9:
            with_terminal_or_honor += 1
        elif r == 5:
            with_five += 1
        elif r % 2 == 0:
            even_pungs += 1
    if with_terminal_or_honor == 5:
        table[OUTSIDE_HAND] = 1
    elif with_five == 5:
        table[ALL_FIVE] = 1
    elif even_pungs == 5:
        table[ALL_EVEN_PUNGS] = 1


@njit(inline="always")
def score_split(kinds, tiles, opens, pair, base, table, hand):
    """Points of one split into four sets (melds first) and a pair; fans into `table`.

    `base` holds the fans of the tiles and the win conditions, the same for every split;
    `hand` is the hand's state.HandState.
    """
    for f in range(N_FANS):
        table[f] = base[f]
    win = hand.win
    self_drawn = hand.conditions & WIN_SELF_DRAWN
    tmp = hand.work[W_TMP:W_TMP + TMP_LEN]
    chow_lows = tmp[0:4]
    pung_tiles = tmp[4:8]
    # Counters start as typed zeros (not literals): see combos.ONE.
    n_chows = ZERO
    n_pungs = ZERO
    melded_kongs = ZERO
    concealed_kongs = ZERO
    concealed_pungs = ZERO
    win_in_concealed_chow = False
    for i in range(4):
        t = tiles[i]
        if kinds[i] == CHOW_SET:
            chow_lows[n_chows] = t
            n_chows += 1
            if opens[i] == 0 and t <= win <= t + 2:
                win_in_concealed_chow = True
        else:
            pung_tiles[n_pungs] = t
            n_pungs += 1
            if kinds[i] == KONG_SET:
                if opens[i] == 1:
                    melded_kongs += 1
                else:
                    concealed_kongs += 1
            elif opens[i] == 0:
                concealed_pungs += 1
    # A pung completed by a discard is not concealed, unless the discard can be read as part
    # of a concealed chow instead.
    if not self_drawn and not win_in_concealed_chow:
        for i in range(4):
            if kinds[i] == PUNG_SET and opens[i] == 0 and tiles[i] == win:
                concealed_pungs -= 1
    _sort_small(chow_lows, n_chows)
    _sort_small(pung_tiles, n_pungs)

    kong_fans(melded_kongs, concealed_kongs, concealed_pungs, table, hand.rules)
    if n_pungs == 4 and table[FOUR_KONGS] == 0 and table[FOUR_CONCEALED_PUNGS] == 0:
        table[ALL_PUNGS] = 1
    for i in range(n_pungs):
        if IS_DRAGON[pung_tiles[i]]:
            table[DRAGON_PUNG] += 1
    chow_fans(chow_lows, n_chows, pair, table, tmp[8:18])
    pung_fans(pung_tiles, n_pungs, table)
    if n_chows == 4:
        if pair < 27:
            table[ALL_CHOWS] = 1
    elif table[TWO_DRAGON_PUNGS] > 0 and IS_DRAGON[pair]:
        table[TWO_DRAGON_PUNGS] = 0
        table[LITTLE_THREE_DRAGONS] = 1
    elif table[BIG_THREE_WINDS] > 0 and IS_WIND[pair]:
        table[BIG_THREE_WINDS] = 0
        table[LITTLE_FOUR_WINDS] = 1
    three_winds = table[BIG_THREE_WINDS] > 0 or table[LITTLE_FOUR_WINDS] > 0
    for i in range(n_pungs):
        wind_or_terminal_pung_fans(pung_tiles[i], hand.seat, hand.prevalent, three_winds, table)

    if hand.n_open_melds == 0:
        table[FULLY_CONCEALED_HAND if self_drawn else CONCEALED_HAND] = 1
    elif hand.n_open_melds == 4 and not self_drawn:
        table[MELDED_HAND] = 1
    if table[FOUR_CONCEALED_PUNGS] > 0 and table[FULLY_CONCEALED_HAND] > 0:
        if not hand.rules & CONCEALED_FORMS_FULLY_CONCEALED:
            table[FULLY_CONCEALED_HAND] = 0
            table[SELF_DRAWN] = 1
    _pack_trait_fans(kinds, tiles, pair, table)
    if table[QUADRUPLE_CHOW] == 0:
        table[TILE_HOG] = hand.hog

    if table[MELDED_HAND] == 0 and table[FOUR_KONGS] == 0:
        if hand.rules & WAIT_IN_LAST_SET:
            where = last_set_place(kinds, tiles, hand.n_melds, pair, win)
        else:
            where = wait_position(kinds, tiles, opens, 4, pair, win)
        if where != 0 and hand_unique_wait(hand):
            wait_fan(where, table)
    return finish(table, hand.rules)


@njit
def seven_pairs_form(hand, table):
    """七对 or 连七对 if every standing count is even; returns (points, plain 七对) or (-1, False)."""
    counts = hand.counts
    first = -1
    for t in range(34):
        if counts[t] % 2 != 0:
            return -1, False
        if first < 0 and counts[t] > 0:
            first = t
    for f in range(N_FANS):
        table[f] = 0
    shifted = first < 27 and RANK[first] <= 3
    if shifted:
        for k in range(7):
            if counts[first + k] != 2:
                shifted = False
                break
    if shifted:
        table[SEVEN_SHIFTED_PAIRS] = 1
        if RANK[first] == 2:
            table[ALL_SIMPLES] = 1
    else:
        table[SEVEN_PAIRS] = 1
        tile_fans(hand.held, table, hand.rules & SEVEN_PAIRS_PLAIN == 0)
        fours = 0
        for t in range(34):
            if counts[t] == 4:
                fours += 1
        table[TILE_HOG] = fours
    condition_fans(hand.conditions, table)
    _concealed_form_self_draw(hand.conditions, hand.rules, table)
    return finish(table, hand.rules), not shifted


@njit
def _honors_and_knitted(counts):
    """For 14 different tiles: the number of suited ones if they lie on one knitted straight
    (1-4-7, 2-5-8, 3-6-9, one line per suit), else -1."""
    residues = 0  # bit 3s+r: suit s holds a tile of rank r (mod 3)
    suited = 0
    for t in range(34):
        if counts[t] > 1:
            return -1
        if counts[t] == 1 and t < 27:
            residues |= 1 << (3 * SUIT[t] + (RANK[t] - 1) % 3)
            suited += 1
    lines = 0  # the lines used, over all suits
    for suit in range(3):
        own = (residues >> (3 * suit)) & 7
        if own != 1 and own != 2 and own != 4:
            return -1  # a suit with two lines, or none
        if lines & own:
            return -1  # two suits on one line
        lines |= own
    return suited


@njit
def orphans_and_knitted_form(hand, table):
    """十三幺, 全不靠 or 七星不靠; returns the points or -1."""
    counts = hand.counts
    orphans = 0
    for i in range(13):
        if counts[ORPHANS[i]] == 0:
            orphans = -1
            break
        orphans += counts[ORPHANS[i]]
    suited = -1 if orphans == 14 else _honors_and_knitted(counts)
    if orphans != 14 and not 7 <= suited <= 9:
        return -1
    for f in range(N_FANS):
        table[f] = 0
    if orphans == 14:
        table[THIRTEEN_ORPHANS] = 1
    elif suited == 7:
        table[GREATER_HONORS_AND_KNITTED] = 1  # all seven honours
    else:
        table[LESSER_HONORS_AND_KNITTED] = 1
        if suited == 9:
            table[KNITTED_STRAIGHT] = 1
    condition_fans(hand.conditions, table)
    _concealed_form_self_draw(hand.conditions, hand.rules, table)
    return finish(table, hand.rules)


@njit
def nine_gates_form(hand, table):
    """九莲宝灯: 1112345678999 of one suit before the win, and a tile of that suit; -1 if not."""
    win = hand.win
    if win >= 27:
        return -1
    start = 9 * SUIT[win]
    in_suit = 0
    for r in range(9):
        in_suit += hand.counts[start + r]
    if in_suit != 14:
        return -1
    for r in range(9):
        before = hand.counts[start + r] - (1 if start + r == win else 0)
        if before != (3 if r == 0 or r == 8 else 1):
            return -1
    for f in range(N_FANS):
        table[f] = 0
    table[NINE_GATES] = 1
    # What the 14 tiles also make, beyond what 九莲宝灯 already implies (ruling 11).
    r = RANK[win]
    if r == 1 or r == 9:
        table[PURE_STRAIGHT] = 1
        table[TILE_HOG] = 1
    else:
        if r == 2 or r == 5 or r == 8:
            table[TWO_CONCEALED_PUNGS] = 1
            table[PUNG_OF_TERMINALS_OR_HONORS] = 1
        if r != 5:
            table[SHORT_STRAIGHT] = 1
    condition_fans(hand.conditions, table)
    _concealed_form_self_draw(hand.conditions, hand.rules, table)
    return finish(table, hand.rules)


@njit
def knitted_body(counts):
    """Which of the six knitted straights (tileprops.KNITTED) the counts hold all of, or -1."""
    for p in range(6):
        full = True
        for i in range(9):
            if counts[KNITTED[p, i]] == 0:
                full = False
                break
        if full:
            return p
    return -1


@njit
def knitted_straight_form(hand, table):
    """组合龙 + one set + a pair (the set may be the one meld); returns the points or -1."""
    counts = hand.counts
    has_pair = False
    for t in range(34):
        if counts[t] >= 2:
            has_pair = True
    if not has_pair:
        return -1
    body = knitted_body(counts)
    if body < 0:
        return -1
    rest = hand.work[W_REST:W_REST + 34]
    for t in range(34):
        rest[t] = counts[t]
    for i in range(9):
        rest[KNITTED[body, i]] -= 1
    kinds, tiles, pairs, search = split_buffers(hand.work)
    if split_regular(rest, 1 - hand.n_melds, kinds, tiles, pairs, search) != 1:
        return -1
    if hand.n_melds == 1:
        kind, tile, is_open = meld_of(hand, ZERO)
    else:
        kind, tile, is_open = kinds[0], tiles[0], 0
    pair = pairs[0]
    for f in range(N_FANS):
        table[f] = 0
    table[KNITTED_STRAIGHT] = 1
    held = hand.held
    if kind == CHOW_SET:
        if pair < 27:
            table[ALL_CHOWS] = 1
        if held[pair] == 4:
            table[TILE_HOG] = 1
    elif IS_HONOR[tile]:
        if IS_WIND[tile]:
            wind_or_terminal_pung_fans(tile, hand.seat, hand.prevalent, NO, table)
            if IS_DRAGON[pair]:
                table[ALL_TYPES] = 1
        else:
            table[DRAGON_PUNG] = 1
            if IS_WIND[pair]:
                table[ALL_TYPES] = 1
    else:
        if IS_TERMINAL[tile]:
            table[PUNG_OF_TERMINALS_OR_HONORS] = 1
        if pair < 27:
            table[NO_HONORS] = 1
        if kind != KONG_SET and held[tile] == 4:
            table[TILE_HOG] = 1
    condition_fans(hand.conditions, table)
    self_drawn = hand.conditions & WIN_SELF_DRAWN
    if is_open == 1:
        if kind == KONG_SET:
            table[MELDED_KONG] = 1
    else:
        if kind == KONG_SET:
            table[CONCEALED_KONG] = 1
        table[FULLY_CONCEALED_HAND if self_drawn else CONCEALED_HAND] = 1

    win = hand.win
    in_body = False
    for i in range(9):
        if KNITTED[body, i] == win:
            in_body = True
    body_waits = hand.rules & NO_KNITTED_BODY_WAITS == 0
    if hand.n_melds == 0:
        # The wait fans look at the set and pair beside the knitted straight only (ruling 4).
        if (body_waits or not in_body) and rest[win] >= 1:
            rest[win] -= 1
            waits = regular_waits(rest, held, hand.rules & LIVE_WAITS_ONLY != 0, win)
            rest[win] += 1
            if waits & ~(np.int64(1) << win) == 0:
                if hand.rules & WAIT_IN_LAST_SET:
                    start, where = (pair, AS_PAIR) if pair == win else (-1, 0)
                    where = later_set(kind, tile, win, start, where)[1]
                else:
                    where = AS_PAIR if pair == win else 0
                    if kind == CHOW_SET:
                        where |= position_in_chow(tile, win)
                wait_fan(where, table)
    elif not in_body or (body_waits and counts[win] == 3):
        # Beside a meld the standing tiles are the knitted straight and the pair: a winning
        # tile outside the straight is a single wait; inside it, a single wait only if the
        # pair is of that tile too.
        table[SINGLE_WAIT] = 1
    return finish(table, hand.rules)
