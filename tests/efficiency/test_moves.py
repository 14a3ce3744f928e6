"""A hand's moves read from the table's rows (efficiency/moves.py) against their definitions:
for a 3n+1 hand, the deficiency over every form and the draws that lower it (all_forms, the
forms' own kernels); for a 3n+2 hand, the least deficiency a discard leaves and the discards
that leave it, found by trying every discard (discard_sweep). Random hands from shuffled
walls, with melds (whose locked tiles put the DP's rows in place of the table's) and hands
crowded into few kinds (where the special forms win)."""

from __future__ import annotations

import numpy as np
import pytest

from mjfast.efficiency import api
from mjfast.efficiency.discards import discard_sweep
from mjfast.efficiency.group_dp import INF
from mjfast.efficiency.moves import moves_of
from mjfast.efficiency.one_hand import forms_of
from mjfast.hand import parse_hand
from mjfast.tiles import parse_tiles


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
