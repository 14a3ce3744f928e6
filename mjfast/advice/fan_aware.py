"""Fan-aware discard advice: efficiency that knows the 8-fan minimum.

In MCR a win needs 8 fans (flowers aside), so a wait that cannot reach them is no wait at
all. For each discard of a 3n+2 hand this adds, to the plain figures of discards.py:

* ready after the discard: each wait's fans on a discard win and on a self-draw, and the
  valid acceptance, the unseen copies of the waits that reach the minimum on a discard win
  (a wait that needs the self-draw's extra fan is not counted: most wins are on discards);
* one step from ready: the draws that lead to a ready hand with at least one valid wait
  (their unseen copies are the valid acceptance) and, over all useful draws weighted by
  their unseen copies, the valid acceptance after the best discard that follows;
* further away: nothing more (see mjfast.advice.options.best_discards for the ranking).

Fans come from mjfast.fan's scoring kernel, through a memo kept in the kernels' scratch from
one call to the next (points): in the one-step pass different draws and discards reach the
same completed hands, and a player's successive turns reach many of the same.
"""

import itertools
from typing import NamedTuple

import numpy as np

from ..efficiency.discards import (
    all_interchangeable_honours,
    discard_options,
    draw_sweep,
    kinds_within,
    masked_sum,
    new_pair_memo,
    next_acceptances,
    prepare_look_ahead,
    recalled,
    remember_missed,
)
from ..efficiency.group_dp import INF
from ..efficiency.one_hand import check_seen
from ..efficiency.regular import meld_check_bits
from ..efficiency.scratch import N_FORMS
from ..efficiency.status import OK
from ..fan.layout import WIN_SELF_DRAWN
from ..runtime.decorators import njit
from ..runtime.intrinsics import lowest_bit
from .ranking import FAN_KEYS, NEXT_KEY, ranked, set_fan_aware_keys, tied_for_first
from .rows import (
    ACCEPTANCE,
    EFFECTIVE_SHANTEN,
    NEXT_ACCEPTANCE,
    NEXT_VALID_ACCEPTANCE,
    SHANTEN,
    TILE,
    UNKNOWN,
    USEFUL_MASK,
    VALID_ACCEPTANCE,
    VALID_DRAWS_MASK,
)
from .win_scoring import hand_ranks, new_score_work, ranks_with, scored_points

_EVERY_TILE = (1 << 34) - 1


def _chow(suit: int, rank: int) -> list[int]:
    return [9 * suit + rank + i for i in range(3)]


def _fan_patterns() -> tuple[np.ndarray, np.ndarray]:
    """The three-chow patterns behind the commonest ways to 8 fans: 三色三同顺 (8),
    三色三步高 (6), 花龙 (8), 清龙 (16), 一色三步高 (16). Returns (per pattern, up to 9
    (tile, copies needed) pairs; points per pattern)."""
    patterns = []
    for r in range(7):
        patterns.append((8, _chow(0, r) + _chow(1, r) + _chow(2, r)))
    for r in range(5):
        for perm in itertools.permutations(range(3)):
            patterns.append((6, _chow(perm[0], r) + _chow(perm[1], r + 1) + _chow(perm[2], r + 2)))
    for perm in itertools.permutations(range(3)):
        patterns.append((8, _chow(perm[0], 0) + _chow(perm[1], 3) + _chow(perm[2], 6)))
    for s in range(3):
        patterns.append((16, _chow(s, 0) + _chow(s, 3) + _chow(s, 6)))
        for step in (1, 2):
            for r in range(7 - 2 * step):
                patterns.append((16, _chow(s, r) + _chow(s, r + step) + _chow(s, r + 2 * step)))
    # Sparse: each pattern as (tile, copies needed) pairs, padded with copies 0.
    need = np.zeros((len(patterns), 9, 2), np.int64)
    for p, (_, tiles) in enumerate(patterns):
        kinds, copies = np.unique(tiles, return_counts=True)
        need[p, : len(kinds), 0] = kinds
        need[p, : len(kinds), 1] = copies
    return need, np.array([p for p, _ in patterns], np.float64)


PATTERN_NEED, PATTERN_POINTS = _fan_patterns()


def _patterns_by_tile(need: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each tile, the patterns that use it and the copies each needs: (pattern ids,
    copies, number of patterns), padded rows of a 34-row table."""
    pattern, slot = np.nonzero(need[:, :, 1] > 0)  # a pattern's kinds, in pattern order
    tile = need[pattern, slot, 0]
    order = np.argsort(tile, kind="stable")
    counts = np.bincount(tile, minlength=34)
    ids = np.zeros((34, counts.max()), np.int64)
    copies = np.zeros((34, counts.max()), np.int64)
    column = np.arange(len(order)) - np.repeat(np.cumsum(counts) - counts, counts)
    ids[tile[order], column] = pattern[order]
    copies[tile[order], column] = need[pattern, slot, 1][order]
    return ids, copies, counts.astype(np.int64)


TILE_PATTERNS, TILE_PATTERN_NEED, TILE_N_PATTERNS = _patterns_by_tile(PATTERN_NEED)
# 0.5 ** m for the tiles a pattern can miss (at most its 9, plus the one a discard takes):
# read from a table, where the power costs a call to pow in each of the sweep's ~600 terms.
HALF_POWERS = 0.5 ** np.arange(11, dtype=np.float64)


@njit(cache=True)
def fan_potential(counts):
    """A cheap signal of how close a hand is to the big chow fans: over the patterns of
    _fan_patterns, points x 2^-(tiles missing). Used only to break ties."""
    total = 0.0
    for p in range(PATTERN_NEED.shape[0]):
        missing = 0
        for i in range(9):
            t = PATTERN_NEED[p, i, 0]
            short = PATTERN_NEED[p, i, 1] - counts[t]
            if short > 0:
                missing += short
        total += PATTERN_POINTS[p] * HALF_POWERS[missing]
    return total


@njit(cache=True)
def potentials_after_discards(hand, out):
    """out[t] = fan_potential of the 3n+2 `hand` less one t, for every kind t held (others
    untouched), at the cost of about one fan_potential: a discard changes only the patterns
    that use its tile, and only those still short of it after the discard lose a factor 2.
    Equal to fan_potential exactly, not merely close: every term is a small integer times a
    power of two, so float64 adds and subtracts them without rounding, in any order (ties on
    this key must stay ties)."""
    n = PATTERN_NEED.shape[0]
    missing = np.empty(n, np.int64)
    total = 0.0
    for p in range(n):
        m = 0
        for i in range(9):
            short = PATTERN_NEED[p, i, 1] - hand[PATTERN_NEED[p, i, 0]]
            if short > 0:
                m += short
        missing[p] = m
        total += PATTERN_POINTS[p] * HALF_POWERS[m]
    for t in range(34):
        if hand[t] == 0:
            continue
        after = total
        for j in range(TILE_N_PATTERNS[t]):
            if TILE_PATTERN_NEED[t, j] >= hand[t]:  # still short of t once a copy is gone
                p = TILE_PATTERNS[t, j]
                after -= PATTERN_POINTS[p] * HALF_POWERS[missing[p] + 1]
        out[t] = after


class LookAhead(NamedTuple):
    """The working arrays of the one-step pass's draw sweeps (efficiency.discards.draw_sweep):
    the forms' distances and masks, the distance and useful draws after each discard, and room
    for the prepared hand's groups' ranks (forms.prepare_draws). Allocated by the caller: the
    pass runs without reference counts."""

    dist: np.ndarray
    masks: np.ndarray
    level2_dist: np.ndarray
    level2_mask: np.ndarray
    group_ranks: np.ndarray


@njit(nrt=False)  # runs for every ready hand a look-ahead reaches: no reference counts of its arrays
def _ready_valid(position, hand13, waits, unseen, scoring):
    """(valid acceptance, fan value) of a ready 3n+1 hand: the unseen copies of the waits that
    reach the minimum on a discard win, and the sum over them of copies x fans."""
    valid = 0
    value = 0
    ranks = hand_ranks(position.table, hand13)
    for w in range(34):
        if (waits >> w) & 1 and unseen[w] > 0:
            hand13[w] += 1
            fans, shape = scored_points(position, hand13, ranks_with(position.table, hand13, ranks, w), w, 0, scoring)
            if fans >= position.minimum:
                valid += unseen[w]
                value += unseen[w] * (fans - shape)
            hand13[w] -= 1
    return valid, value


@njit(nrt=False, inline="always")  # runs for every discard one step from ready: no reference counts of its arrays
def _one_step(position, hand13, i, draws, discards, unseen, pairs, partners, scoring, sweep):
    """For the 3n+1 hand left by discarding kinds[i] of the pair memo `pairs` (see
    discard.new_pair_memo; `partners` is the tile mask of its kinds, every discard looked
    ahead from) and the candidate draws (a tile mask): the draws after which some discard
    leaves a ready hand with a valid wait (a mask), and over all candidate draws weighted by
    their unseen copies, the valid acceptance and fan value of the best such discard (0 where
    there is none). `discards`: a tile mask holding every discard that may leave a ready hand
    after a draw (the others are not looked at). `sweep`: the draw sweeps' LookAhead."""
    table, meld_counts, n_melds, work = position.table, position.meld_counts, position.n_melds, scoring.work
    kinds, at, n, known, cleared = pairs
    valid_draws = np.int64(0)
    weight = 0
    expected = 0.0
    expected_value = 0.0
    check_bits = meld_check_bits(meld_counts)
    floor = prepare_look_ahead(table, hand13, meld_counts, n_melds, check_bits, 1, discards, i > 0, 0,
                               sweep.group_ranks, work)
    while draws:
        u = lowest_bit(draws)
        draws &= draws - 1
        copies = unseen[u]
        if copies <= 0:
            continue
        # A ready hand's figures packed to compare at once: valid acceptance, then fan value
        # (both small and never negative).
        skip, best = recalled(known, cleared, u, i, kinds, n)
        hand13[u] += 1
        unseen[u] -= 1
        ready = draw_sweep(table, hand13, meld_counts, n_melds, check_bits, (u, 1, floor, skip), sweep.level2_dist,
                           sweep.level2_mask, work, sweep.dist, sweep.masks, sweep.group_ranks)
        remember_missed(known, u, i, at, partners & ~skip & ~ready)
        while ready:
            k = lowest_bit(ready)
            ready &= ready - 1
            hand13[k] -= 1
            valid, value = _ready_valid(position, hand13, sweep.level2_mask[k], unseen, scoring)
            hand13[k] += 1
            packed = (valid << 32) | value
            best = max(best, packed)
            if (partners >> k) & 1:
                known[u, at[k], i] = packed
        unseen[u] += 1
        hand13[u] -= 1
        weight += copies
        expected += copies * (best >> 32)
        expected_value += copies * (best & 0xFFFFFFFF)
        if best >> 32:
            valid_draws |= np.int64(1) << u
    if weight == 0:
        return valid_draws, 0.0, 0.0
    return valid_draws, expected / weight, expected_value / weight


class FanFigures(NamedTuple):
    """fan_aware_options' figures of every discard t (34 rows each): the plain ones (as
    efficiency.discards.discard_options gives them: the distance, the useful draws' mask, the
    acceptance, the next acceptance) and the fan-aware ones (see fan_aware_options)."""

    dist: np.ndarray
    mask: np.ndarray
    acceptance: np.ndarray
    next_acceptance: np.ndarray
    effective: np.ndarray
    valid: np.ndarray
    next_valid: np.ndarray
    valid_draws: np.ndarray
    value: np.ndarray
    wait_points: np.ndarray  # 34 x 34 x 2


@njit(inline="always")
def fan_aware_options(position, unseen, figures, work):
    """Every discard's figures of the 3n+2 hand of the Position `position` into the FanFigures
    `figures`: the plain ones (as discard.discard_options) plus, per discard t:

    effective[t]: the shanten that counts in MCR: a ready hand none of whose waits reaches the
    minimum is one step away (it must change its waits), and a hand one step away whose draws
    all lead to such hands is two steps away;
    valid[t]: ready and valid, the valid waits' unseen copies; otherwise the unseen copies of
    the draws after which a discard leaves a valid ready hand (any draw for a ready hand
    changing its waits, a useful draw for a hand one step away), listed in valid_draws[t];
    next_valid[t]: over those candidate draws, the valid acceptance after the best discard,
    averaged by unseen copies; value[t]: the same for copies x fans (fans aside from the
    wait's shape), a tie-break;
    wait_points[t, w]: for a ready result, (fans on a discard win, fans on a self-draw);
    next_acceptance[t]: 0.0 (fan_discards_of works it out where it decides the ranking).

    Work is spent only where it can change the ranking: when some discard leaves a ready
    hand with a valid wait, discards that leave the hand further away keep their plain
    figures (valid UNKNOWN, effective their plain shanten, a lower bound).
    """
    table = position.table
    dist, mask, effective, valid_of = figures.dist, figures.mask, figures.effective, figures.valid
    discard_options(table, position.counts, position.meld_counts, position.n_melds, unseen, False, dist, mask,
                    figures.acceptance, figures.next_acceptance, work)
    scoring = new_score_work(work)
    hand = position.counts.astype(np.int64)
    # The ready pass: every wait's fans both ways, through the scoring memo (a ready player's
    # next turns often hold the same hand again). The discard win also gives the valid
    # acceptance and the fan value.
    ready_and_valid = False
    for t in range(34):  # ready results first
        effective[t] = dist[t] - 1
        valid_of[t] = UNKNOWN
        figures.next_valid[t] = 0.0
        figures.valid_draws[t] = 0
        figures.value[t] = 0.0
        if dist[t] != 1:
            continue
        hand[t] -= 1
        valid, value = _ready_valid(position, hand, mask[t], unseen, scoring)
        waits = mask[t]
        ranks = hand_ranks(table, hand)
        while waits:
            w = lowest_bit(waits)
            waits &= waits - 1
            hand[w] += 1
            won = ranks_with(table, hand, ranks, w)
            for way, conditions in enumerate((0, WIN_SELF_DRAWN)):
                figures.wait_points[t, w, way] = scored_points(position, hand, won, w, conditions, scoring)[0]
            hand[w] -= 1
        hand[t] += 1
        if valid > 0:
            valid_of[t] = valid
            figures.value[t] = value
            ready_and_valid = True
        else:
            effective[t] = 1  # no wait can win: it must change its waits
    if ready_and_valid:
        return
    # One step away (and ready hands that cannot win): which draws help. Scores go through
    # the memo here, where different draws and discards reach the same completed hands.
    sweep = LookAhead(np.empty(N_FORMS, np.int64), np.empty(N_FORMS, np.int64), np.empty(34, np.int64),
                      np.empty(34, np.int64), np.empty(4, np.int64))
    # After a draw, discarding k leaves a ready hand only where discarding k now leaves at
    # most one step to go: the hand less k differs from that ready hand in one tile.
    discards = kinds_within(dist, 2)
    partners = np.int64(0)
    for t in range(34):
        if dist[t] == 2 or (dist[t] == 1 and valid_of[t] == UNKNOWN):
            partners |= np.int64(1) << t
    pairs = new_pair_memo(partners)
    kinds, n = pairs[0], pairs[2]
    for i in range(n):
        t = kinds[i]
        hand[t] -= 1
        draws = _EVERY_TILE if dist[t] == 1 else mask[t]
        valid_draws, figures.next_valid[t], figures.value[t] = _one_step(position, hand, i, draws, discards, unseen,
                                                                         pairs, partners, scoring, sweep)
        hand[t] += 1
        figures.valid_draws[t] = valid_draws
        valid_of[t] = masked_sum(valid_draws, unseen)
        if valid_draws == 0:
            effective[t] += 1


@njit(cache=True)
def fan_discards_of(position, every_next, out, wait_points, work):
    """Every discard of the 3n+2 hand of the Position `position` (advice.position), best first
    by the fan-aware ranking (ranking.py), as rows of out (34 x rows.FAN_WIDTH); wait_points[t,
    w] = fans (discard win, self-draw) of each wait of a ready result (fan_aware_options).
    Returns (status, number of rows).

    every_next: work out the next acceptance of every discard still tied for first place
    where the ranking reaches it (as best_discards shows it); without it (a caller that reads
    only the order), not where those discards are interchangeable honours, whose figures are
    equal (then 0.0).
    """
    counts, meld_counts, n_melds = position.counts, position.meld_counts, position.n_melds
    unseen = np.empty(34, np.int64)
    status = check_seen(counts, meld_counts, n_melds, 14, position.visible, unseen)
    if status != OK:
        return status, 0
    figures = FanFigures(np.empty(34, np.int64), np.empty(34, np.int64), np.empty(34, np.int64),
                         np.empty(34, np.float64), np.empty(34, np.int64), np.empty(34, np.int64),
                         np.empty(34, np.float64), np.empty(34, np.int64), np.empty(34, np.float64), wait_points)
    fan_aware_options(position, unseen, figures, work)
    dist, masks, acc, nxt = figures.dist, figures.mask, figures.acceptance, figures.next_acceptance
    keys = np.empty((34, FAN_KEYS), np.float64)
    hand = counts.astype(np.int64)
    potential = np.zeros(34, np.float64)
    potentials_after_discards(hand, potential)
    for t in range(34):
        set_fan_aware_keys(keys, t, figures.effective[t], figures.valid[t], acc[t], figures.next_valid[t],
                           figures.value[t], potential[t])
    # The next acceptance costs a look-ahead per discard: it is worked out only for the
    # discards still tied for first place on every key before it.
    held = dist < INF
    which = tied_for_first(keys, held, NEXT_KEY)
    if which & (which - 1) and dist[lowest_bit(which)] > 1:  # two or more, not ready
        if every_next or not all_interchangeable_honours(which, hand, meld_counts, unseen):
            next_acceptances(position.table, hand, meld_counts, n_melds, unseen, which, dist, masks, nxt, work)
            for t in range(34):
                if (which >> t) & 1:
                    keys[t, NEXT_KEY] = -nxt[t]
    order = ranked(FAN_KEYS, keys, held)
    for i in range(order.shape[0]):
        t = order[i]
        out[i, TILE] = t
        out[i, SHANTEN] = dist[t] - 1
        out[i, ACCEPTANCE] = acc[t]
        out[i, NEXT_ACCEPTANCE] = nxt[t]
        out[i, USEFUL_MASK] = masks[t]
        out[i, VALID_ACCEPTANCE] = figures.valid[t]
        out[i, NEXT_VALID_ACCEPTANCE] = figures.next_valid[t]
        out[i, VALID_DRAWS_MASK] = figures.valid_draws[t]
        out[i, EFFECTIVE_SHANTEN] = figures.effective[t]
    return OK, order.shape[0]
