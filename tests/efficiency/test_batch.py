"""The batch forms agree with the per-hand calls and reject bad rows by index."""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import HandError
from mjfast.efficiency import batch
from mjfast.hand import Hand

from ..hands import mixed_hands


def _arrays(hands):
    counts = np.array([c for c, _ in hands], np.uint8)
    n_melds = np.array([len(m) for _, m in hands])
    meld_counts = np.array([Hand(c, m).meld_counts for c, m in hands], np.uint8)
    return counts, n_melds, meld_counts


def test_batch_shanten_and_useful_match_per_hand_calls():
    hands = mixed_hands(np.random.default_rng(31), 1500)
    counts, n_melds, meld_counts = _arrays(hands)
    s = batch.shanten(counts, n_melds, meld_counts)
    by_form = batch.shanten_by_form(counts, n_melds, meld_counts)
    s2, useful, acc = batch.useful(counts, n_melds, meld_counts)
    for i, (c, m) in enumerate(hands):
        hand = Hand(c, m)
        assert s[i] == s2[i] == mjfast.shanten(hand)
        forms = mjfast.shanten_by_form(hand)
        assert [batch.IMPOSSIBLE if v is None else v for v in forms.values()] == list(by_form[i])
        assert [mjfast.TILE_NAMES[t] for t in np.flatnonzero(useful[i])] == mjfast.useful_tiles(hand)
        assert acc[i] == mjfast.acceptance(hand)


def test_batch_discards_match_best_discards():
    hands = mixed_hands(np.random.default_rng(32), 80, drawn=True)
    counts, n_melds, meld_counts = _arrays(hands)
    visible = np.zeros_like(counts)
    visible[:, 27] = np.minimum(1, 4 - counts[:, 27] - meld_counts[:, 27])
    s, acc, nxt = batch.discards(counts, n_melds, meld_counts, visible, next_step=True)
    for i, (c, m) in enumerate(hands):
        options = mjfast.best_discards(Hand(c, m), visible=visible[i], fan_aware=False)
        assert sorted(mjfast.parse_tiles(o.tile)[0] for o in options) == list(np.flatnonzero(s[i] != batch.IMPOSSIBLE))
        for o in options:
            t = mjfast.parse_tiles(o.tile)[0]
            assert (s[i, t], acc[i, t]) == (o.shanten, o.acceptance)
            assert nxt[i, t] == pytest.approx(o.next_acceptance, rel=1e-5)


def test_melds_as_a_count_alone_lock_nothing():
    # Without meld_counts the melds' tiles are unknown: [5555m]46m... then looks ready.
    hand = mjfast.parse_hand("[5555m]46m123p456p99s")
    counts = hand.counts[None, :]
    assert batch.shanten(counts, 1)[0] == 0
    assert batch.shanten(counts, 1, hand.meld_counts[None, :])[0] == 1


def test_bad_rows_are_named():
    counts = np.zeros((3, 34), np.uint8)
    counts[:, :13] = 1
    counts[1, 0] = 5
    with pytest.raises(HandError, match="row 1"):
        batch.shanten(counts)
    counts[1, 0] = 0
    with pytest.raises(HandError, match="row 1: 12 standing tiles"):
        batch.shanten(counts)
    with pytest.raises(HandError, match="shape"):
        batch.shanten(np.zeros((2, 33), np.uint8))
    with pytest.raises(HandError, match="melds"):
        batch.shanten(np.ones((2, 34), np.uint8), melds=[0])
    ok = np.zeros((1, 34), np.uint8)
    ok[0, :13] = 1
    with pytest.raises(HandError, match="needs 14"):
        batch.discards(ok)
    with pytest.raises(HandError, match="seen more than 4"):
        batch.useful(ok, visible=np.full((1, 34), 4, np.uint8))
