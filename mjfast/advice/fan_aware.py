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
from ..efficiency.lookup_table import group_rank
from ..efficiency.one_hand import check_seen
from ..efficiency.regular import meld_check_bits
from ..efficiency.scratch import N_FORMS, SCORE_MEMO, SCORE_MEMO_ROW, SCORE_MEMO_SLOTS
from ..efficiency.status import OK
from ..fan.kernel import NOT_A_WIN, OUT_LEN, VEC_LEN, fill_vector, score_into
from ..fan.layout import WIN_SELF_DRAWN
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

_EVERY_TILE = (1 << 34) - 1
# Odd 64-bit multipliers of points' hash (from the golden ratio and two hash finalisers).
_MIX0 = np.int64(-7046029254386353131)
_MIX1 = np.int64(-4417276706812531889)
_MIX2 = np.int64(-7723592293110705685)


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


@njit
def _shape_fans(points, out):
    """The fans of a scored hand's wait shape (边张/坎张/单钓将), 0 for no win."""
    return out[EDGE_WAIT] + out[CLOSED_WAIT] + out[SINGLE_WAIT] if points >= 0 else 0


# A condition bit of points' callers, not the fan kernel's: score the hand as if it had
# claimed a meld (the value model's claims, advice.value.graph.Scope.open_pricing): its standing tiles
# are scored as they are, without 门前清 or 不求人 (自摸 then counts), and the forms that
# must be concealed are no win. What it cannot know: which of its sets was claimed (a
# claimed pung still counts as a concealed pung).
PLAYED_OPEN = 1 << 4
_CONCEALED_ONLY = (SEVEN_PAIRS, SEVEN_SHIFTED_PAIRS, THIRTEEN_ORPHANS, GREATER_HONORS_AND_KNITTED,
                   LESSER_HONORS_AND_KNITTED, NINE_GATES)


@njit(cache=True, nrt=False)  # into buffers its callers allocated: the whole fan scorer runs without reference counts
def _scored(counts, melds, win, conditions, seat, prevalent, rules, out, fan_work, score_vec):
    """(fans << 8) | fans of the wait's shape, of a hand scored afresh (see points)."""
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
def new_score_work():
    """(out, fan_work, score_vec): the fan kernel's output row, working space and hand vector,
    for points."""
    return np.empty(OUT_LEN, np.int64), new_work(), np.empty(VEC_LEN, np.int16)


@njit
def _clear_score_memo(work):
    for i in range(SCORE_MEMO_SLOTS):
        work[SCORE_MEMO + 1 + i * SCORE_MEMO_ROW] = -1
    work[SCORE_MEMO] = 1


@njit
def hand_ranks(table, hand):
    """The groups' ranks of a hand as points' key holds them: (the three suits' packed in
    19 bits each, the honours')."""
    suits = group_rank(table, hand, 0) | (group_rank(table, hand, 1) << 19) | (group_rank(table, hand, 2) << 38)
    return np.int64(suits), np.int64(group_rank(table, hand, 3))


@njit
def ranks_with(table, counts, suits, honours, w):
    """hand_ranks of a hand plus tile w (`counts` holds it) from the hand's own: only w's
    group changes, so the waits of one hand cost a group's rank each, not four."""
    if w >= 27:
        return suits, np.int64(group_rank(table, counts, 3))
    shift = 19 * (w // 9)
    return (suits & ~(np.int64(0x7FFFF) << shift)) | (np.int64(group_rank(table, counts, w // 9)) << shift), honours


@njit
def scored_points(table, counts, suits, honours, melds, win, conditions, seat, prevalent, rules, out, fan_work,
                  score_vec, work):
    """(fans, fans the wait's shape gave: 边张/坎张/单钓将) of the complete hand `counts` won on
    `win` (flowers aside; its ranks `suits` and `honours`, see hand_ranks), memoised in the
    scratch `work` (forms.SCORE_MEMO) from one call to the next: a player's hands change by
    a tile a turn, so the one-step passes of successive turns reach many of the same
    completed hands. Direct-mapped, keyed by everything the score depends on (so an entry
    never goes stale): the groups' ranks, the winning tile and conditions, the packed melds,
    the winds and the rules."""
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
        work[at + 3] = _scored(counts, melds, win, conditions, seat, prevalent, rules, out, fan_work, score_vec)
    packed = work[at + 3]
    return packed >> 8, packed & 0xFF


@njit(nrt=False)  # runs for every ready hand a look-ahead reaches: no reference counts of its arrays
def _ready_valid(table, hand13, waits, unseen, melds, seat, prevalent, rules, minimum, out, fan_work, score_vec, work):
    """(valid acceptance, fan value) of a ready 3n+1 hand: the unseen copies of the waits that
    reach the minimum on a discard win, and the sum over them of copies x fans."""
    valid = 0
    value = 0
    suits, honours = hand_ranks(table, hand13)
    for w in range(34):
        if (waits >> w) & 1 and unseen[w] > 0:
            hand13[w] += 1
            won_suits, won_honours = ranks_with(table, hand13, suits, honours, w)
            fans, shape = scored_points(table, hand13, won_suits, won_honours, melds, w, 0, seat, prevalent, rules,
                                        out, fan_work, score_vec, work)
            if fans >= minimum:
                valid += unseen[w]
                value += unseen[w] * (fans - shape)
            hand13[w] -= 1
    return valid, value


@njit(nrt=False, inline="always")  # runs for every discard one step from ready: no reference counts of its arrays
def _one_step(table, hand13, i, draws, discards, unseen, meld_counts, n_melds, melds, seat, prevalent, rules, minimum,
              pairs, partners, out, fan_work, score_vec, work, dist, masks, level2_dist, level2_mask, ranks):
    """For the 3n+1 hand left by discarding kinds[i] of the pair memo `pairs` (see
    discard.new_pair_memo; `partners` is the tile mask of its kinds, every discard looked
    ahead from) and the candidate draws (a tile mask): the draws after which some discard
    leaves a ready hand with a valid wait (a mask), and over all candidate draws weighted by
    their unseen copies, the valid acceptance and fan value of the best such discard (0 where
    there is none). `discards`: a tile mask holding every discard that may leave a ready hand
    after a draw (the others are not looked at). `ranks`: room for the prepared hand's groups'
    ranks (forms.prepare_draws), allocated by the caller: this runs without reference counts."""
    kinds, position, n, known, cleared = pairs
    valid_draws = np.int64(0)
    weight = 0
    expected = 0.0
    expected_value = 0.0
    check_bits = meld_check_bits(meld_counts)
    floor = prepare_look_ahead(table, hand13, meld_counts, n_melds, check_bits, 1, discards, i > 0, 0, ranks, work)
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
        ready = draw_sweep(table, hand13, meld_counts, n_melds, check_bits, (u, 1, floor, skip), level2_dist,
                           level2_mask, work, dist, masks, ranks)
        remember_missed(known, u, i, position, partners & ~skip & ~ready)
        while ready:
            k = lowest_bit(ready)
            ready &= ready - 1
            hand13[k] -= 1
            valid, value = _ready_valid(table, hand13, level2_mask[k], unseen, melds, seat, prevalent, rules, minimum,
                                        out, fan_work, score_vec, work)
            hand13[k] += 1
            packed = (valid << 32) | value
            best = max(best, packed)
            if (partners >> k) & 1:
                known[u, position[k], i] = packed
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


@njit(inline="always")
def fan_aware_options(table, counts, meld_counts, n_melds, melds, unseen, seat, prevalent, rules, minimum,
                      out_dist, out_mask, out_acceptance, out_next, out_effective, out_valid, out_next_valid,
                      out_valid_draws, out_value, out_wait_points, work):
    """Plain discard figures (as discard.discard_options) plus, per discard t:

    out_effective[t]: the shanten that counts in MCR: a ready hand none of whose waits
    reaches the minimum is one step away (it must change its waits), and a hand one step
    away whose draws all lead to such hands is two steps away;
    out_valid[t]: ready and valid, the valid waits' unseen copies; otherwise the unseen
    copies of the draws after which a discard leaves a valid ready hand (any draw for a
    ready hand changing its waits, a useful draw for a hand one step away), listed in
    out_valid_draws[t]; out_next_valid[t]: over those candidate draws, the valid acceptance
    after the best discard, averaged by unseen copies; out_value[t]: the same for copies x
    fans (fans aside from the wait's shape), a tie-break;
    out_wait_points[t, w]: for a ready result, (fans on a discard win, fans on a self-draw);
    out_next[t]: 0.0 (fan_discards_of works it out where it decides the ranking).

    Work is spent only where it can change the ranking: when some discard leaves a ready
    hand with a valid wait, discards that leave the hand further away keep their plain
    figures (out_valid UNKNOWN, out_effective their plain shanten, a lower bound).
    """
    discard_options(table, counts, meld_counts, n_melds, unseen, False, out_dist, out_mask, out_acceptance, out_next,
                    work)
    out, fan_work, score_vec = new_score_work()
    hand = counts.astype(np.int64)
    # The ready pass: every wait's fans both ways, through points' memo (a ready player's
    # next turns often hold the same hand again). The discard win also gives the valid
    # acceptance and the fan value.
    ready_and_valid = False
    for t in range(34):  # ready results first
        out_effective[t] = out_dist[t] - 1
        out_valid[t] = UNKNOWN
        out_next_valid[t] = 0.0
        out_valid_draws[t] = 0
        out_value[t] = 0.0
        if out_dist[t] != 1:
            continue
        hand[t] -= 1
        valid, value = _ready_valid(table, hand, out_mask[t], unseen, melds, seat, prevalent, rules, minimum, out,
                                    fan_work, score_vec, work)
        waits = out_mask[t]
        suits, honours = hand_ranks(table, hand)
        while waits:
            w = lowest_bit(waits)
            waits &= waits - 1
            hand[w] += 1
            won_suits, won_honours = ranks_with(table, hand, suits, honours, w)
            for way, conditions in enumerate((0, WIN_SELF_DRAWN)):
                out_wait_points[t, w, way] = scored_points(table, hand, won_suits, won_honours, melds, w, conditions,
                                                           seat, prevalent, rules, out, fan_work, score_vec, work)[0]
            hand[w] -= 1
        hand[t] += 1
        if valid > 0:
            out_valid[t] = valid
            out_value[t] = value
            ready_and_valid = True
        else:
            out_effective[t] = 1  # no wait can win: it must change its waits
    if ready_and_valid:
        return
    # One step away (and ready hands that cannot win): which draws help. Scores go through
    # points' memo here, where different draws and discards reach the same completed hands.
    dist = np.empty(N_FORMS, np.int64)
    masks = np.empty(N_FORMS, np.int64)
    level2_dist = np.empty(34, np.int64)
    level2_mask = np.empty(34, np.int64)
    ranks = np.empty(4, np.int64)  # the groups' ranks of the hand each look-ahead prepares
    # After a draw, discarding k leaves a ready hand only where discarding k now leaves at
    # most one step to go: the hand less k differs from that ready hand in one tile.
    discards = kinds_within(out_dist, 2)
    partners = np.int64(0)
    for t in range(34):
        if out_dist[t] == 2 or (out_dist[t] == 1 and out_valid[t] == UNKNOWN):
            partners |= np.int64(1) << t
    pairs = new_pair_memo(partners)
    kinds, n = pairs[0], pairs[2]
    for i in range(n):
        t = kinds[i]
        hand[t] -= 1
        draws = _EVERY_TILE if out_dist[t] == 1 else out_mask[t]
        valid_draws, out_next_valid[t], out_value[t] = _one_step(
            table, hand, i, draws, discards, unseen, meld_counts, n_melds, melds, seat, prevalent, rules, minimum,
            pairs, partners, out, fan_work, score_vec, work, dist, masks, level2_dist, level2_mask, ranks)
        hand[t] += 1
        out_valid_draws[t] = valid_draws
        out_valid[t] = masked_sum(valid_draws, unseen)
        if valid_draws == 0:
            out_effective[t] += 1


@njit(cache=True)
def fan_discards_of(table, counts, meld_counts, n_melds, melds, visible, seat, prevalent, rules, minimum, every_next,
                    out, wait_points, work):
    """Every discard of a 3n+2 hand, best first by the fan-aware ranking (ranking.py), as rows
    of out (34 x rows.FAN_WIDTH); wait_points[t, w] = fans (discard win, self-draw) of each
    wait of a ready result (fan_aware.fan_aware_options). Returns (status, number of rows).

    every_next: work out the next acceptance of every discard still tied for first place
    where the ranking reaches it (as best_discards shows it); without it (a caller that reads
    only the order), not where those discards are interchangeable honours, whose figures are
    equal (then 0.0).
    """
    unseen = np.empty(34, np.int64)
    status = check_seen(counts, meld_counts, n_melds, 14, visible, unseen)
    if status != OK:
        return status, 0
    dist = np.empty(34, np.int64)
    masks = np.empty(34, np.int64)
    acc = np.empty(34, np.int64)
    nxt = np.empty(34, np.float64)
    valid = np.empty(34, np.int64)
    next_valid = np.empty(34, np.float64)
    valid_draws = np.empty(34, np.int64)
    value = np.empty(34, np.float64)
    effective = np.empty(34, np.int64)
    fan_aware_options(table, counts, meld_counts, n_melds, melds, unseen, seat, prevalent, rules, minimum,
                      dist, masks, acc, nxt, effective, valid, next_valid, valid_draws, value, wait_points, work)
    keys = np.empty((34, FAN_KEYS), np.float64)
    hand = counts.astype(np.int64)
    potential = np.zeros(34, np.float64)
    potentials_after_discards(hand, potential)
    for t in range(34):
        set_fan_aware_keys(keys, t, effective[t], valid[t], acc[t], next_valid[t], value[t], potential[t])
    # The next acceptance costs a look-ahead per discard: it is worked out only for the
    # discards still tied for first place on every key before it.
    held = dist < INF
    which = tied_for_first(keys, held, NEXT_KEY)
    if which & (which - 1) and dist[lowest_bit(which)] > 1:  # two or more, not ready
        if every_next or not all_interchangeable_honours(which, hand, meld_counts, unseen):
            next_acceptances(table, hand, meld_counts, n_melds, unseen, which, dist, masks, nxt, work)
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
        out[i, VALID_ACCEPTANCE] = valid[t]
        out[i, NEXT_VALID_ACCEPTANCE] = next_valid[t]
        out[i, VALID_DRAWS_MASK] = valid_draws[t]
        out[i, EFFECTIVE_SHANTEN] = effective[t]
    return OK, order.shape[0]
