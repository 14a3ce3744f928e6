"""A hand's moves read from the table's rows (efficiency/moves.py) against their definitions:
for a 3n+1 hand, the deficiency over every form and the draws that lower it (all_forms, the
forms' own kernels); for a 3n+2 hand, the least deficiency a discard leaves and the discards
that leave it, found by trying every discard (discard_sweep). Random hands from shuffled
walls, with melds (whose locked tiles put the DP's rows in place of the table's) and hands
crowded into few kinds (where the special forms win)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from mjfast.efficiency import api
from mjfast.efficiency.discards import discard_sweep
from mjfast.efficiency.group_dp import INF
from mjfast.efficiency.moves import kept_after_draw, load_groups, moves_after, moves_of, new_groups
from mjfast.efficiency.one_hand import forms_of
from mjfast.efficiency.regular import meld_check_bits
from mjfast.efficiency.scratch import N_FORMS, new_scratch
from mjfast.hand import Hand, parse_hand
from mjfast.runtime.intrinsics import lowest_bit
from mjfast.tiles import parse_tiles

from ..hands import sweep_hands


def _by_definition(counts, meld_counts, n_melds, total):
    table, work = api.kernel_context()
    if total % 3 == 1:  # the best form's deficiency, and the union of the masks of the forms reaching it
        dist, masks = np.empty(5, np.int64), np.empty(5, np.int64)
        forms_of(table, counts, meld_counts, n_melds, 0, False, True, dist, masks, work)
        best = int(dist.min())
        return best, int(np.bitwise_or.reduce(masks[dist == best]))
    dist, mask = np.empty(34, np.int64), np.empty(34, np.int64)
    discard_sweep(table, counts.astype(np.int64), meld_counts, n_melds, dist, mask, work, np.empty(5, np.int64),
                  np.empty(5, np.int64))
    best = int(dist.min())
    return best, sum(1 << t for t in range(34) if dist[t] == best)


def _random_hand(rng, n_melds, total, crowded):
    """Standing tiles (34 counts) and melds' tiles (34 counts) dealt from a shuffled wall."""
    meld_counts = np.zeros(34, np.uint8)
    while int(meld_counts.sum()) < 3 * n_melds:
        if rng.random() < 0.5:
            meld_counts[rng.integers(34)] += 3
        else:
            start = 9 * rng.integers(3) + rng.integers(7)
            meld_counts[start:start + 3] += 1
        if meld_counts.max() > 4:
            meld_counts[:] = 0
    counts = np.zeros(34, np.uint8)
    kinds = rng.choice(34, 9, replace=False) if crowded else np.arange(34)
    while int(counts.sum()) < total:
        t = rng.choice(kinds)
        if counts[t] + meld_counts[t] < 4:
            counts[t] += 1
    return counts, meld_counts


@pytest.mark.parametrize("seed", range(4))
def test_moves_are_what_trying_every_move_finds(seed):
    rng = np.random.default_rng(seed)
    table, work = api.kernel_context()
    found = {"special": 0, "locked": 0}
    for trial in range(1500):
        n_melds = int(rng.choice([0, 0, 0, 1, 2, 3, 4]))
        total = 13 - 3 * n_melds + trial % 2
        counts, meld_counts = _random_hand(rng, n_melds, total, crowded=n_melds == 0 and trial % 5 == 0)
        got = tuple(int(x) for x in moves_of(table, counts, meld_counts, n_melds, total, work))
        assert got == _by_definition(counts, meld_counts, n_melds, total), (counts.tolist(), meld_counts.tolist())
        found["special"] += n_melds == 0 and trial % 5 == 0
        found["locked"] += bool(meld_counts.any() and (meld_counts + counts).max() == 4)
    assert min(found.values()) > 100  # both kinds of hard case were met


@pytest.mark.parametrize("text, total, expected", [
    ("123m456p789s1357s", 13, (2, "1s2s3s4s5s6s7s")),  # one step: a pair or a set from 1357s
    ("[123m1][456p1][789s1]EEE5m", 13, (1, "5m")),  # ready on 5m alone
    ("19m19p19s1234567z9s", 14, (1, "19m19p19s1234567z")),  # thirteen orphans complete: any discard leaves it ready
    ("1122m3344p5566s77z", 14, (1, "1122m3344p5566s77z")),  # seven pairs complete: the same
    ("123m456p789s1357sE", 14, (2, "1357sE")),  # the tour's hand: discarding E or one of 1357s keeps one step
])
def test_moves_of_known_hands(text, total, expected):
    hand = parse_hand(text)
    counts, meld_counts, n_melds = hand.kernel_arrays()
    table, work = api.kernel_context()
    dist, mask = moves_of(table, counts, meld_counts, n_melds, total, work)
    assert (int(dist), int(mask)) == (expected[0], sum(1 << t for t in set(parse_tiles(expected[1]))))
    assert dist < INF


def test_the_look_ahead_reads_what_the_discard_sweep_finds():
    """The value graph's moves after a draw (the discards that keep the least deficiency, read
    from the rows' keeps, and each one's deficiency and useful mask, from the rows moved by
    the draw and the discard) against the plain discard sweep of the 3n+2 hand, on every draw
    of random, melded and special-form hands."""
    rng = np.random.default_rng(77)
    hands = sweep_hands(rng)
    table, work = api.kernel_context()
    sweep_work = new_scratch()
    dist, masks = np.empty(N_FORMS, np.int64), np.empty(N_FORMS, np.int64)
    plain_dist, plain_mask = np.empty(34, np.int64), np.empty(34, np.int64)
    drawn_dist, drawn_mask = np.empty(34, np.int64), np.empty(34, np.int64)
    compared = 0
    for counts, melds in hands:
        hand = Hand(counts, melds)
        x = hand.counts.astype(np.int64)
        locked = hand.meld_counts.astype(np.int64)
        n_melds = len(hand.melds)
        for u in range(34):
            if x[u] + locked[u] >= 4:
                continue
            x[u] += 1
            discard_sweep(table, x, locked, n_melds, plain_dist, plain_mask, sweep_work, dist, masks)
            x[u] -= 1
            found = _look_ahead(table, x, locked, n_melds, u, drawn_dist, drawn_mask, work)
            within = plain_dist == plain_dist.min()
            assert found == sum(1 << k for k in np.flatnonzero(within)), (str(hand), u)
            assert np.array_equal(drawn_dist, np.where(within, plain_dist, INF)), (str(hand), u)
            assert np.array_equal(drawn_mask, np.where(within, plain_mask, 0)), (str(hand), u)
            compared += int(within.sum())
    assert compared > 20_000


@njit(cache=True)
def _look_ahead(table, hand13, meld_counts, n_melds, u, out_dist, out_mask, work):
    """The look-ahead of the 3n+1 `hand13` after drawing u, as the value graph and the
    next-acceptance pass run it: the discards that keep the least deficiency (a tile mask)
    and each one's deficiency and useful mask into out_dist / out_mask (INF / 0 elsewhere)."""
    groups = new_groups()
    check_bits = meld_check_bits(meld_counts)
    load_groups(table, hand13, meld_counts, check_bits, 4 - n_melds, groups.rows, groups.classes, work)
    out_dist[:] = 99
    out_mask[:] = 0
    hand13[u] += 1
    found = kept_after_draw(table, hand13, meld_counts, n_melds, check_bits, groups, u, work)
    kept = found
    while kept:
        k = lowest_bit(kept)
        kept &= kept - 1
        hand13[k] -= 1
        out_dist[k], out_mask[k] = moves_after(table, hand13, meld_counts, n_melds, check_bits, groups, u, k, work)
        hand13[k] += 1
    hand13[u] -= 1
    return found
