"""The non-repeat principle (不重复原则) as data: which fans a fan excludes.

A fan excludes another when every hand that has the first necessarily has the second (大四喜
has four wind pungs, so it is always 碰碰和). The principle applies to single fans only: two
fans that together imply a third do not exclude it (绿一色 + 清一色 still score 断幺, ruling 12).

Some exclusions never need a table entry because the scoring never produces both fans: the
combination rules in `combos` stop at the largest fan a group of sets makes (一色四同顺 never
computes 一色三同顺), the kong rules give one kong fan and one concealed-pung fan at most
(ruling 14), and the special forms score their own short list (九莲宝灯's extra 幺九刻 for a
2, 5 or 8 is its own rule, ruling 11). Entries for such pairs are listed anyway where the
rules name them, so that this table reads like the rule book; they cost nothing.

The table is applied in fan-id order (highest fans first), and a fan that is excluded does not
go on to exclude others. The order never matters: where A excludes B and B excludes a fan that
A does not, the scoring never produces A and B together (tests/fan/test_fan_rules.py lists them).
"""

import numpy as np

from ..runtime.decorators import njit
from ..runtime.intrinsics import lowest_bit
from . import names as n
from .ruleset import ALL_TERMINALS_NO_TRIPLE_PUNG, BIG_FANS_VOID_SUIT

EXCLUDES: dict[int, tuple[int, ...]] = {
    n.BIG_FOUR_WINDS: (n.BIG_THREE_WINDS, n.LITTLE_FOUR_WINDS, n.ALL_PUNGS, n.PREVALENT_WIND, n.SEAT_WIND,
                       n.PUNG_OF_TERMINALS_OR_HONORS),
    n.BIG_THREE_DRAGONS: (n.LITTLE_THREE_DRAGONS, n.TWO_DRAGON_PUNGS, n.DRAGON_PUNG),
    n.ALL_GREEN: (n.HALF_FLUSH, n.ONE_VOIDED_SUIT),
    n.NINE_GATES: (n.FULL_FLUSH, n.CONCEALED_HAND, n.ONE_VOIDED_SUIT, n.NO_HONORS),
    n.FOUR_KONGS: (n.THREE_KONGS, n.TWO_MELDED_KONGS, n.TWO_CONCEALED_KONGS, n.CONCEALED_KONG_AND_MELDED_KONG,
                   n.MELDED_KONG, n.CONCEALED_KONG, n.ALL_PUNGS, n.SINGLE_WAIT),
    n.SEVEN_SHIFTED_PAIRS: (n.SEVEN_PAIRS, n.FULL_FLUSH, n.CONCEALED_HAND, n.ONE_VOIDED_SUIT, n.NO_HONORS,
                            n.SINGLE_WAIT),
    n.THIRTEEN_ORPHANS: (n.ALL_TERMINALS_AND_HONORS, n.ALL_TYPES, n.CONCEALED_HAND, n.SINGLE_WAIT),
    n.ALL_TERMINALS: (n.ALL_TERMINALS_AND_HONORS, n.ALL_PUNGS, n.OUTSIDE_HAND, n.PUNG_OF_TERMINALS_OR_HONORS,
                      n.NO_HONORS, n.DOUBLE_PUNG),
    n.LITTLE_FOUR_WINDS: (n.BIG_THREE_WINDS, n.PUNG_OF_TERMINALS_OR_HONORS),
    n.LITTLE_THREE_DRAGONS: (n.TWO_DRAGON_PUNGS, n.DRAGON_PUNG),
    n.ALL_HONORS: (n.ALL_TERMINALS_AND_HONORS, n.ALL_PUNGS, n.OUTSIDE_HAND, n.PUNG_OF_TERMINALS_OR_HONORS,
                   n.ONE_VOIDED_SUIT),
    n.FOUR_CONCEALED_PUNGS: (n.THREE_CONCEALED_PUNGS, n.TWO_CONCEALED_PUNGS, n.ALL_PUNGS, n.CONCEALED_HAND),
    n.PURE_TERMINAL_CHOWS: (n.SEVEN_PAIRS, n.FULL_FLUSH, n.ALL_CHOWS, n.PURE_DOUBLE_CHOW, n.TWO_TERMINAL_CHOWS,
                            n.ONE_VOIDED_SUIT, n.NO_HONORS),
    n.QUADRUPLE_CHOW: (n.PURE_TRIPLE_CHOW, n.PURE_SHIFTED_PUNGS, n.PURE_DOUBLE_CHOW, n.TILE_HOG),
    n.FOUR_PURE_SHIFTED_PUNGS: (n.PURE_SHIFTED_PUNGS, n.PURE_TRIPLE_CHOW, n.ALL_PUNGS),
    n.FOUR_PURE_SHIFTED_CHOWS: (n.PURE_SHIFTED_CHOWS, n.SHORT_STRAIGHT, n.TWO_TERMINAL_CHOWS),
    n.THREE_KONGS: (n.TWO_MELDED_KONGS, n.TWO_CONCEALED_KONGS, n.CONCEALED_KONG_AND_MELDED_KONG, n.MELDED_KONG,
                    n.CONCEALED_KONG),
    n.ALL_TERMINALS_AND_HONORS: (n.ALL_PUNGS, n.OUTSIDE_HAND, n.PUNG_OF_TERMINALS_OR_HONORS),
    n.SEVEN_PAIRS: (n.CONCEALED_HAND, n.SINGLE_WAIT),
    n.GREATER_HONORS_AND_KNITTED: (n.LESSER_HONORS_AND_KNITTED, n.ALL_TYPES, n.CONCEALED_HAND, n.SINGLE_WAIT),
    n.ALL_EVEN_PUNGS: (n.ALL_PUNGS, n.ALL_SIMPLES, n.NO_HONORS),
    n.FULL_FLUSH: (n.ONE_VOIDED_SUIT, n.NO_HONORS),
    n.PURE_TRIPLE_CHOW: (n.PURE_SHIFTED_PUNGS, n.PURE_DOUBLE_CHOW),
    n.PURE_SHIFTED_PUNGS: (n.PURE_TRIPLE_CHOW,),
    n.UPPER_TILES: (n.UPPER_FOUR, n.NO_HONORS),
    n.MIDDLE_TILES: (n.ALL_SIMPLES, n.NO_HONORS),
    n.LOWER_TILES: (n.LOWER_FOUR, n.NO_HONORS),
    n.THREE_SUITED_TERMINAL_CHOWS: (n.MIXED_DOUBLE_CHOW, n.TWO_TERMINAL_CHOWS, n.ALL_CHOWS, n.NO_HONORS),
    n.ALL_FIVE: (n.ALL_SIMPLES, n.NO_HONORS),
    n.LESSER_HONORS_AND_KNITTED: (n.ALL_TYPES, n.CONCEALED_HAND, n.SINGLE_WAIT),
    n.UPPER_FOUR: (n.NO_HONORS,),
    n.LOWER_FOUR: (n.NO_HONORS,),
    n.REVERSIBLE_TILES: (n.ONE_VOIDED_SUIT,),
    n.LAST_TILE_DRAW: (n.SELF_DRAWN,),
    n.OUT_WITH_REPLACEMENT_TILE: (n.SELF_DRAWN,),
    n.ROBBING_THE_KONG: (n.LAST_TILE,),
    n.HALF_FLUSH: (n.ONE_VOIDED_SUIT,),
    n.MELDED_HAND: (n.SINGLE_WAIT,),
    n.TWO_CONCEALED_KONGS: (n.CONCEALED_KONG, n.TWO_CONCEALED_PUNGS),
    n.TWO_DRAGON_PUNGS: (n.DRAGON_PUNG,),
    n.FULLY_CONCEALED_HAND: (n.CONCEALED_HAND, n.SELF_DRAWN),
    n.TWO_MELDED_KONGS: (n.MELDED_KONG,),
    n.CONCEALED_KONG_AND_MELDED_KONG: (n.MELDED_KONG, n.CONCEALED_KONG),
    n.ALL_CHOWS: (n.NO_HONORS,),
    n.ALL_SIMPLES: (n.NO_HONORS,),
}

# Strict 1998 readings (Ruleset switches off): these fans also exclude 缺一门 / 三同刻.
VOID_SUIT_EXCLUDED_BY = (n.BIG_THREE_DRAGONS, n.LITTLE_THREE_DRAGONS, n.BIG_THREE_WINDS, n.QUADRUPLE_CHOW,
                         n.FOUR_PURE_SHIFTED_PUNGS, n.FOUR_PURE_SHIFTED_CHOWS)


def _table(void_suit_strict: bool, triple_pung_strict: bool) -> list[list[int]]:
    rows = [list(EXCLUDES.get(f, ())) for f in range(n.N_FANS)]
    if void_suit_strict:
        for f in VOID_SUIT_EXCLUDED_BY:
            rows[f].append(n.ONE_VOIDED_SUIT)
    if triple_pung_strict:
        rows[n.ALL_TERMINALS].append(n.TRIPLE_PUNG)
    return rows


# Fan sets as bit masks: two int64 words of WORD_BITS fans each (ids 0-40, 41-81), so that
# no bit lands on the sign. The kernels below are inlined where they are called (once each):
# a call that passes the table costs more in reference counting than their bodies.
WORD_BITS = 41
assert n.N_FANS <= 2 * WORD_BITS
# The first fan id of each word, typed (see combos.ONE).
LOW_FIRST, HIGH_FIRST = np.int64(0), np.int64(WORD_BITS)


def _masks(variants) -> np.ndarray:
    """[variant, fan, word]: the fans each fan excludes, as two mask words."""
    masks = np.zeros((len(variants), n.N_FANS, 2), np.int64)
    for v, rows in enumerate(variants):
        for f, row in enumerate(rows):
            for g in row:
                masks[v, f, g // WORD_BITS] |= 1 << (g % WORD_BITS)
    return masks


# Variant v of the table: bit 0 = strict 缺一门 rule, bit 1 = strict 三同刻 rule.
EXCLUDED_MASKS = _masks([_table(bool(v & 1), bool(v & 2)) for v in range(4)])


@njit
def _present(table, first, last):
    """The fans first..last-1 with a count in `table`, as a mask word (bit f - first)."""
    word = np.int64(0)
    for f in range(first, last):
        word |= np.int64(table[f] > 0) << (f - first)
    return word


@njit
def _points(table, word, first):
    """Points of the fans in mask `word` (fan ids from `first`)."""
    points = np.int64(0)
    while word:
        f = first + lowest_bit(word)
        word &= word - 1
        points += table[f] * n.FAN_POINTS[f]
    return points


@njit
def _zero(table, word, first):
    """Zero the counts of the fans in mask `word` (fan ids from `first`)."""
    while word:
        table[first + lowest_bit(word)] = 0
        word &= word - 1


@njit
def _drop_excluded(found, first, low, high, variant):
    """In id order, let each fan of mask `found` (ids from `first`) that is still present in
    (low, high) when its turn comes drop the fans it excludes; return what is left."""
    while found:
        f = first + lowest_bit(found)
        found &= found - 1
        if (low if first == LOW_FIRST else high) >> (f - first) & 1:
            low &= ~EXCLUDED_MASKS[variant, f, 0]
            high &= ~EXCLUDED_MASKS[variant, f, 1]
    return low, high


@njit
def apply_exclusions(table, rules):
    """Zero every fan that a fan present in `table` excludes; return the points of the fans
    left. Works on mask words: a hand has a handful of fans, the table has 82 entries."""
    variant = (1 if rules & BIG_FANS_VOID_SUIT else 0) | (2 if rules & ALL_TERMINALS_NO_TRIPLE_PUNG else 0)
    found_low = _present(table, LOW_FIRST, HIGH_FIRST)
    found_high = _present(table, HIGH_FIRST, n.N_FANS)
    low, high = _drop_excluded(found_low, LOW_FIRST, found_low, found_high, variant)
    low, high = _drop_excluded(found_high, HIGH_FIRST, low, high, variant)
    _zero(table, found_low & ~low, LOW_FIRST)
    _zero(table, found_high & ~high, HIGH_FIRST)
    return _points(table, low, LOW_FIRST) + _points(table, high, HIGH_FIRST)
