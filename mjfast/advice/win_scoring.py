"""A win's fans as the rankings' look-aheads ask for them: scored by mjfast.fan's kernel
through a memo kept in the kernels' scratch from one call to the next. The fan-aware ranking's
one-step pass reaches the same completed hands through different draws and discards, and a
player's successive turns reach many of the same; the value engine prices every ready hand of
its graph here (advice/value/pricing.py), as the hand is or as played open (PLAYED_OPEN)."""

from typing import NamedTuple

import numpy as np

from ..efficiency.lookup_table import group_rank
from ..efficiency.scratch import SCORE_MEMO, SCORE_MEMO_ROW, SCORE_MEMO_SLOTS
from ..fan.kernel import NOT_A_WIN, OUT_LEN, VEC_LEN, fill_vector, score_into
from ..fan.names import (
    CLOSED_WAIT,
    CONCEALED_HAND,
    EDGE_WAIT,
    FAN_POINTS,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS_AND_KNITTED,
    LESSER_HONORS_AND_KNITTED,
    NINE_GATES,
    SELF_DRAWN,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SINGLE_WAIT,
    THIRTEEN_ORPHANS,
)
from ..fan.state import new_work
from ..runtime.decorators import njit

# A condition bit of scored_points' callers, not the fan kernel's: score the hand as if it had
# claimed a meld (the value model's claims, advice.value.graph.Scope.open_pricing): its standing
# tiles are scored as they are, without 门前清 or 不求人 (自摸 then counts), and the forms that
# must be concealed are no win. What it cannot know: which of its sets was claimed (a
# claimed pung still counts as a concealed pung).
PLAYED_OPEN = 1 << 4
_CONCEALED_ONLY = (SEVEN_PAIRS, SEVEN_SHIFTED_PAIRS, THIRTEEN_ORPHANS, GREATER_HONORS_AND_KNITTED,
                   LESSER_HONORS_AND_KNITTED, NINE_GATES)
# Odd 64-bit multipliers of the memo's hash (from the golden ratio and two hash finalisers).
_MIX0 = np.int64(-7046029254386353131)
_MIX1 = np.int64(-4417276706812531889)
_MIX2 = np.int64(-7723592293110705685)


class ScoreWork(NamedTuple):
    """Where wins are scored: the fan kernel's output row, working space and hand vector, and
    the kernels' scratch that holds the memo (efficiency.scratch.SCORE_MEMO)."""

    out: np.ndarray
    fan_work: np.ndarray
    score_vec: np.ndarray
    work: np.ndarray


@njit
def new_score_work(work):
    """A ScoreWork over the kernels' scratch `work`."""
    return ScoreWork(np.empty(OUT_LEN, np.int64), new_work(), np.empty(VEC_LEN, np.int16), work)


@njit
def _shape_fans(points, out):
    """The fans of a scored hand's wait shape (边张/坎张/单钓将), 0 for no win."""
    return out[EDGE_WAIT] + out[CLOSED_WAIT] + out[SINGLE_WAIT] if points >= 0 else 0


@njit(cache=True, nrt=False)  # into buffers its callers allocated: the whole fan scorer runs without reference counts
def _scored(counts, melds, win, conditions, seat, prevalent, rules, out, fan_work, score_vec):
    """(fans << 8) | fans of the wait's shape, of a hand scored afresh (see scored_points)."""
    fill_vector(score_vec, counts, melds, win, conditions & ~PLAYED_OPEN, seat, prevalent, 0)
    points = score_into(score_vec, rules, out, fan_work)
    if conditions & PLAYED_OPEN and points >= 0:
        for f in _CONCEALED_ONLY:
            if out[f]:
                return NOT_A_WIN << 8
        points -= FAN_POINTS[CONCEALED_HAND] * out[CONCEALED_HAND]
        if out[FULLY_CONCEALED_HAND]:
            points += FAN_POINTS[SELF_DRAWN] - FAN_POINTS[FULLY_CONCEALED_HAND]
    return (points << 8) | _shape_fans(points, out)


@njit
def _clear_score_memo(work):
    for i in range(SCORE_MEMO_SLOTS):
        work[SCORE_MEMO + 1 + i * SCORE_MEMO_ROW] = -1
    work[SCORE_MEMO] = 1


@njit
def hand_ranks(table, hand):
    """The groups' ranks of a hand as the memo's key holds them: (the three suits' packed in
    19 bits each, the honours')."""
    suits = group_rank(table, hand, 0) | (group_rank(table, hand, 1) << 19) | (group_rank(table, hand, 2) << 38)
    return np.int64(suits), np.int64(group_rank(table, hand, 3))


@njit
def ranks_with(table, counts, ranks, w):
    """hand_ranks of a hand plus tile w (`counts` holds it) from the hand's own `ranks`: only
    w's group changes, so the waits of one hand cost a group's rank each, not four."""
    suits, honours = ranks
    if w >= 27:
        return suits, np.int64(group_rank(table, counts, 3))
    shift = 19 * (w // 9)
    return (suits & ~(np.int64(0x7FFFF) << shift)) | (np.int64(group_rank(table, counts, w // 9)) << shift), honours


@njit
def scored_points(position, counts, ranks, win, conditions, scoring):
    """(fans, fans the wait's shape gave: 边张/坎张/单钓将) of the complete hand `counts` won on
    `win` (flowers aside; its ranks `ranks`, see hand_ranks) with the melds, winds and rules of
    the Position `position` (advice.position), memoised in `scoring`'s scratch from one call to
    the next. Direct-mapped, keyed by everything the score depends on (so an entry never goes
    stale): the groups' ranks, the winning tile and conditions, the packed melds, the winds and
    the rules."""
    suits, honours = ranks
    melds, seat, prevalent, rules = position.melds, position.seat, position.prevalent, position.rules
    work = scoring.work
    k0 = suits
    k1 = honours | (win << 17) | (conditions << 23)
    k2 = melds | (seat << 40) | (prevalent << 42) | (rules << 44)
    if work[SCORE_MEMO] == 0:
        _clear_score_memo(work)
    h = k0 * _MIX0 ^ k1 * _MIX1 ^ k2 * _MIX2  # wraps: a multiplicative hash
    at = SCORE_MEMO + 1 + ((h >> 40) & (SCORE_MEMO_SLOTS - 1)) * SCORE_MEMO_ROW
    if work[at] != k0 or work[at + 1] != k1 or work[at + 2] != k2:
        work[at] = k0
        work[at + 1] = k1
        work[at + 2] = k2
        work[at + 3] = _scored(counts, melds, win, conditions, seat, prevalent, rules, scoring.out, scoring.fan_work,
                               scoring.score_vec)
    packed = work[at + 3]
    return packed >> 8, packed & 0xFF
