"""The special forms: seven pairs, thirteen orphans, honours and knitted (全不靠, 七星不靠) and
the knitted straight (组合龙 + a set + a pair), with the presence bits they are read from.

The first three are bit operations on the presence bits of the hand (presence_bits); the
knitted straight looks up the remainder beside each knitted part (lookup_table's knitted
entries, or the regular form's rows where melds lock tiles). Deficiency and useful masks as
in regular."""

import numpy as np

from ..runtime.decorators import njit
from ..runtime.intrinsics import popcount
from ..tileprops import HONOR_BITS, HONORS_KNITTED_BITS, KNITTED_BITS, KNITTED_PART, KNITTED_PARTS_OF, ORPHAN_BITS
from .group_dp import INF, N_ENTRIES
from .lookup_table import BUDGET, SUIT_OFFSETS_AT, distance_row, knitted_rest, knitted_rest_masks, masked_row
from .regular import load_group, meld_check_bits, store_row
from .scratch import DIST, LOCKED, MASK, REMAINDER_SLOTS, REST


@njit(cache=True, nrt=False)  # cached (a test calls it) without reference counts: moves call it per hand
def presence_bits(counts):
    """Bit masks of the kinds held at least once, at least twice, an odd number of times,
    and four times. Written without branches: on random hands they mispredict, and a
    branching loop cost ten times as much."""
    ge1 = np.int64(0)
    ge2 = np.int64(0)
    odd = np.int64(0)
    eq4 = np.int64(0)
    for t in range(34):
        c = np.int64(counts[t])  # 0..4, so the shifts below are the comparisons
        ge1 |= ((c + 3) >> 2) << t
        ge2 |= ((c + 2) >> 2) << t
        odd |= (c & 1) << t
        eq4 |= (c >> 2) << t
    return ge1, ge2, odd, eq4


@njit
def presence_bits_after(ge1, ge2, odd, eq4, t, count):
    """presence_bits after tile t's count changed to `count` (the others unchanged)."""
    bit = np.int64(1) << t
    ge1 = (ge1 | bit) if count >= 1 else (ge1 & ~bit)
    ge2 = (ge2 | bit) if count >= 2 else (ge2 & ~bit)
    odd = (odd | bit) if count & 1 else (odd & ~bit)
    eq4 = (eq4 | bit) if count == 4 else (eq4 & ~bit)
    return ge1, ge2, odd, eq4


@njit
def seven_pairs(ge2, odd, eq4):
    """Seven pairs; four of a kind counts as two pairs (MCR)."""
    pairs = popcount(ge2) + popcount(eq4)
    if pairs >= 7:
        return 0, np.int64(0)
    return 7 - pairs, odd


@njit
def thirteen_orphans(ge1, ge2):
    held = ge1 & ORPHAN_BITS
    has_pair = (ge2 & ORPHAN_BITS) != 0
    dist = 14 - popcount(held) - (1 if has_pair else 0)
    if dist == 0:
        return 0, np.int64(0)
    missing = ORPHAN_BITS & ~ge1
    return dist, missing if has_pair else (missing | held)


@njit
def most_knitted(ge1):
    """The most tiles held of one of the six knitted straights (9 tiles each): the knitted
    straight lacks at least 9 less this, and honours-and-knitted counts it beside the honours."""
    most = 0
    for k in range(6):
        most = max(most, popcount(ge1 & KNITTED_BITS[k]))
    return most


@njit
def honors_knitted_distance(ge1, knitted_held):
    """Honours-and-knitted's deficiency, given most_knitted(ge1)."""
    return 14 - min(popcount(ge1 & HONOR_BITS) + knitted_held, 14)


@njit
def honors_knitted(ge1, with_masks):
    """全不靠 / 七星不靠: 14 distinct tiles among the 7 honours and one knitted straight.
    The distance comes first, without branches (on random hands they mispredict)."""
    best = honors_knitted_distance(ge1, most_knitted(ge1))
    most = 14 - best  # tiles held of the best straight with the honours
    if best == 0 or not with_masks:
        return best, np.int64(0)
    mask = np.int64(0)
    for k in range(6):
        if popcount(ge1 & HONORS_KNITTED_BITS[k]) == most:
            mask |= HONORS_KNITTED_BITS[k] & ~ge1
    return best, mask


@njit
def _rank_without(table, counts, s, part):
    """Rank of suit s's pattern less one copy of each held tile of `part` (a bit mask)."""
    rank = 0
    prefix = 0
    for i in range(9):
        t = 9 * s + i
        c = counts[t]
        if c > 0 and (part >> t) & 1:
            c -= 1
        rank += table[SUIT_OFFSETS_AT + (i * BUDGET + prefix) * 5 + c]
        prefix += c
    return rank


@njit(nrt=False)
def _load_knitted_remainder(table, counts, meld_counts, check_bits, s, j, with_masks, work):
    """Slot 4 + 3s + j: suit s without one copy of each held tile of knitted part j.
    Returns False when a meld holds all four copies of one of the part's tiles."""
    part = KNITTED_PART[s, j]
    slot = 4 + 3 * s + j
    if (check_bits >> (9 * s)) & 0x1FF == 0:  # no meld in this suit: a plain lookup
        store_row(table, s, _rank_without(table, counts, s, part), slot, 0, 1, with_masks, work)
        return True
    rest = work[REST:REST + 34]
    locked = work[LOCKED:LOCKED + 34]
    for t in range(9 * s, 9 * s + 9):
        in_part = (part >> t) & 1
        locked[t] = meld_counts[t] + in_part
        if locked[t] > 4:
            return False
        rest[t] = counts[t] - (1 if in_part and counts[t] > 0 else 0)
    load_group(table, rest, locked, check_bits, s, slot, 1, with_masks, work)  # one set and a pair beside it
    return True


@njit(nrt=False)
def _remainder(work, k, n_melds, with_masks):
    """(distance, mask) of the set and pair (just the pair with a meld) beside knitted
    straight k, from the four remainder slots of that straight."""
    best = INF
    mask = np.int64(0)
    for a in range(4):
        da = DIST + REMAINDER_SLOTS[k, a] * N_ENTRIES
        ma = MASK + REMAINDER_SLOTS[k, a] * N_ENTRIES
        # Candidates: the pair alone (index 5), or set and pair in this group (index 6).
        own = 5 if n_melds == 1 else 6
        v = work[da + own]
        if v < best:
            best = v
            mask = work[ma + own] if with_masks else 0
        elif with_masks and v == best:
            mask |= work[ma + own]
        if n_melds == 1:
            continue
        for b in range(4):  # the set in group a (index 1), the pair in group b (index 5)
            if b == a:
                continue
            db = DIST + REMAINDER_SLOTS[k, b] * N_ENTRIES
            mb = MASK + REMAINDER_SLOTS[k, b] * N_ENTRIES
            v = work[da + 1] + work[db + 5]
            if v < best:
                best = v
                mask = (work[ma + 1] | work[mb + 5]) if with_masks else 0
            elif with_masks and v == best:
                mask |= work[ma + 1] | work[mb + 5]
    return best, mask


@njit(nrt=False)
def knitted_straight(table, counts, meld_counts, n_melds, ge1, bound, with_masks, work):
    """组合龙 + one set + a pair (at most one fixed meld, which is then the set).

    The remainder beside the knitted tiles needs one set and a pair (only a pair with a
    meld); each suit's remainder depends only on which knitted part it gives, so the nine
    (suit, part) remainders are looked up once and shared by the six knitted straights.
    The knitted tiles' own lock cannot bind for one set and a pair (no tile is used more
    than 3 times by them), so only the melds' locks are checked against the table.
    Knitted straights whose missing tiles alone exceed `bound` are skipped; the result is
    INF when none is left.
    """
    check_bits = meld_check_bits(meld_counts)
    loaded = 0  # bit 3s+j: remainder (s, j) looked up; bit 9+3s+j: it is impossible
    honors_loaded = False
    best = INF
    mask = np.int64(0)
    for k in range(6):
        missing_bits = KNITTED_BITS[k] & ~ge1
        missing = popcount(missing_bits)
        if missing > bound or missing > best:
            continue
        if not honors_loaded:
            load_group(table, counts, meld_counts, check_bits, 3, 13, 1, with_masks, work)
            honors_loaded = True
        feasible = True
        for s in range(3):
            j = KNITTED_PARTS_OF[k, s]
            bit = 1 << (3 * s + j)
            if not loaded & bit:
                loaded |= bit
                if not _load_knitted_remainder(table, counts, meld_counts, check_bits, s, j, with_masks, work):
                    loaded |= bit << 9
            if loaded & (bit << 9):
                feasible = False
        if not feasible:
            continue
        rest, rest_mask = _remainder(work, k, n_melds, with_masks)
        d = missing + rest
        if d < best:
            best = d
            mask = missing_bits | rest_mask
        elif d == best:
            mask |= missing_bits | rest_mask
    if best == 0 or best >= INF or not with_masks:
        return best, np.int64(0)
    return best, mask


@njit
def keep_least(value, mask, best, best_mask):
    """The running minimum and the union of the masks of everything reaching it."""
    if value < best:
        return value, mask
    if value == best:
        return best, best_mask | mask
    return best, best_mask


@njit(nrt=False)
def knitted_straight_fast(table, rank0, rank1, rank2, honor_rank, ge1, bound, with_masks):
    """(deficiency, useful mask) of the knitted straight for a hand without melds, from the
    four groups' ranks: the table stores each suit's remainder beside each knitted part
    (lookup.KNITTED_AT), so this is a few lookups instead of knitted_straight's nine.
    Knitted straights whose missing tiles exceed `bound` are skipped (INF if all are)."""
    if 9 - most_knitted(ge1) > bound:  # first, without branches: most hands are out of reach
        return INF, np.int64(0)
    # Without masks the honours' distance row serves (its entries are the masked row's low
    # bytes) and stays in cache, unlike the masked rows.
    honor_row = masked_row(table, 3, honor_rank) if with_masks else distance_row(table, 3, honor_rank)
    best = INF
    mask = np.int64(0)
    h_set = table[honor_row + 1]
    h_pair = table[honor_row + 5]
    h_both = table[honor_row + 6]
    for k in range(6):
        missing_bits = KNITTED_BITS[k] & ~ge1
        missing = popcount(missing_bits)
        if missing > bound or missing > best or (missing == best and not with_masks):
            continue
        j0 = KNITTED_PARTS_OF[k, 0]
        j1 = KNITTED_PARTS_OF[k, 1]
        j2 = KNITTED_PARTS_OF[k, 2]
        s0, p0, b0 = knitted_rest(table, rank0, j0)
        s1, p1, b1 = knitted_rest(table, rank1, j1)
        s2, p2, b2 = knitted_rest(table, rank2, j2)
        sets = (s0, s1, s2, h_set & 0xFF)
        pairs = (p0, p1, p2, h_pair & 0xFF)
        boths = (b0, b1, b2, h_both & 0xFF)
        if with_masks:
            ms0, mp0, mb0 = knitted_rest_masks(table, rank0, j0)
            ms1, mp1, mb1 = knitted_rest_masks(table, rank1, j1)
            ms2, mp2, mb2 = knitted_rest_masks(table, rank2, j2)
            set_masks = (ms0, ms1 << 9, ms2 << 18, ((h_set >> 8) & 0x7F) << 27)
            pair_masks = (mp0, mp1 << 9, mp2 << 18, ((h_pair >> 8) & 0x7F) << 27)
            both_masks = (mb0, mb1 << 9, mb2 << 18, ((h_both >> 8) & 0x7F) << 27)
        else:
            set_masks = pair_masks = both_masks = (0, 0, 0, 0)
        rest = INF
        rest_mask = np.int64(0)
        for a in range(4):  # the set and the pair in one group, or the set in a, pair in b
            if not with_masks:  # min() alone compiles without branches
                rest = min(rest, boths[a])
                for b in range(4):
                    rest = min(rest, sets[a] + pairs[b] if b != a else INF)
                continue
            rest, rest_mask = keep_least(boths[a], both_masks[a], rest, rest_mask)
            for b in range(4):
                if b != a:
                    rest, rest_mask = keep_least(sets[a] + pairs[b], set_masks[a] | pair_masks[b], rest, rest_mask)
        best, mask = keep_least(missing + rest, missing_bits | rest_mask, best, mask)
    if best == 0 or best >= INF or not with_masks:
        return best, np.int64(0)
    return best, mask
