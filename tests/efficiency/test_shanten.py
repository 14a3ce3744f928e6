"""Shanten, useful tiles, waits and acceptance, from the rules (hand-checked examples)."""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import HandError
from mjfast.hand import Hand
from mjfast.tiles import TILE_INDEX

from .. import reference
from ..hands import near_complete_hand, random_melds


def names(text: str) -> list[str]:
    return [mjfast.TILE_NAMES[t] for t in sorted(mjfast.parse_tiles(text))]


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("123m456p789sEEE55m", -1),  # four sets and a pair
        ("123m456p789sEEE5m", 0),  # single wait on 5m
        ("123m456p789s1357sE", 1),
        ("19m19p19sESWNCFPP", -1),  # thirteen orphans
        ("1122m3344p5566sEE", -1),  # seven pairs
        ("147m258p369sESWNC", -1),  # honours and knitted: 14 distinct
        ("147m258p369s123sEE", -1),  # knitted straight + set + pair
        ("[123m1][456m2][789m3][EEE1]55p", -1),
    ],
)
def test_shanten_of_known_hands(hand, expected):
    assert mjfast.shanten(hand) == expected


@pytest.mark.parametrize(
    "hand, waits",
    [
        ("1112345678999s", "123456789s"),  # nine gates
        ("19m19p19sESWNCFP", "19m19p19sESWNCFP"),  # thirteen-sided
        ("1122m3344p5566sE", "E"),  # seven pairs single
        ("1111m2233p4455sE", "E"),  # a quad counts as two pairs
        ("147m258p369sESWN", "CFP"),  # honours and knitted
        ("147m258p369s123sE", "E"),  # knitted straight, pair wait
        ("[123p1]147m258p369sE", "E"),  # knitted straight with its one meld
        ("[123m1][456m2][789m3][EEE1]5p", "5p"),
    ],
)
def test_waits_of_known_hands(hand, waits):
    assert mjfast.waits(hand) == names(waits)


def test_forms_that_need_a_concealed_hand_are_impossible_with_melds():
    by_form = mjfast.shanten_by_form("[123m1]456p789sEEE5m")
    assert by_form["seven_pairs"] is None
    assert by_form["thirteen_orphans"] is None
    assert by_form["honors_knitted"] is None
    assert by_form["knitted_straight"] is not None  # one meld is allowed
    two = mjfast.shanten_by_form("[123m1][456p1]789sEEE5m")
    assert two["knitted_straight"] is None and two["regular"] == 0


def test_shanten_by_form_values():
    by_form = mjfast.shanten_by_form("19m19s199pESWNCF")
    assert by_form == {
        "regular": 7,
        "seven_pairs": 5,
        "thirteen_orphans": 0,
        "honors_knitted": 5,
        "knitted_straight": 8,
    }


class TestFourCopyRule:
    """A hand cannot wait on, or plan around, a fifth copy of a tile (counting its melds)."""

    def test_wait_on_own_fourth_copy_is_not_a_wait(self):
        # 2344445m: 234m 444m + 5m 4m ... the only wait besides 1m would be a fifth 4m.
        assert mjfast.waits("23344445m888pWW") == ["1m", "W"]

    def test_empty_wait_is_one_step_away(self):
        hand = "234m345s333pEEEE"
        assert mjfast.shanten(hand) == 1
        assert mjfast.waits(hand) == []
        useful = mjfast.useful_tiles(hand)
        assert "E" not in useful and len(useful) > 0

    def test_kong_locks_the_tile_for_a_closed_wait(self):
        # 46m waits on 5m, but the kong holds all four 5m.
        assert mjfast.waits("[5555m]46m123p456p99s") == []
        assert mjfast.shanten("[5555m]46m123p456p99s") == 1
        # With a pung of 5m the last 5m is still live.
        assert mjfast.waits("[555m1]46m123p456p99s") == ["5m"]
        assert mjfast.acceptance("[555m1]46m123p456p99s") == 1

    def test_pair_wait_on_a_tile_in_a_pung(self):
        assert mjfast.shanten("[555m1][123p1][456p1][789p1]5m") == 1
        assert mjfast.waits("[555m1][123p1][456p1][789p1]6m") == ["6m"]

    def test_chow_meld_limits_a_fourth_use(self):
        # 111m 23m waits on 1m/4m and 11m 99s on 1m/9s, but the chow meld holds the fourth 1m.
        hand = mjfast.parse_hand("[123m1]111m23m456p99s")
        assert mjfast.waits(hand) == ["4m", "9s"]
        ref, ref_useful = reference.melded_deficiency_and_useful(hand.counts, hand.meld_counts, 1)
        assert ref == 1 and ref_useful == {TILE_INDEX["4m"], TILE_INDEX["9s"]}


def test_acceptance_counts_unseen_copies():
    hand = "123m456p789sEEE5m"
    assert mjfast.acceptance(hand) == 3
    assert mjfast.acceptance(hand, visible="5m") == 2
    assert mjfast.acceptance(hand, visible="[345m1]5m") == 1
    assert mjfast.acceptance(hand, visible=np.eye(34, dtype=np.uint8)[TILE_INDEX["5m"]] * 3) == 0
    with pytest.raises(HandError, match="5m"):
        mjfast.acceptance(hand, visible="5555m")


def test_waiting_calls_reject_a_drawn_hand_and_vice_versa():
    with pytest.raises(HandError, match="best_discards"):
        mjfast.useful_tiles("123m456p789sEEE55m")
    with pytest.raises(HandError, match="useful_tiles"):
        mjfast.best_discards("123m456p789sEEE5m")


def test_count_array_fast_path_matches_parsed_hand():
    counts = mjfast.parse_hand("123m456p789s1357s").counts.copy()
    assert mjfast.shanten(counts) == mjfast.shanten("123m456p789s1357s") == 1
    bad = counts.copy()
    bad[0] = 5
    with pytest.raises(HandError, match="1m"):
        mjfast.shanten(bad)
    short = counts.copy()
    short[0] = 0
    with pytest.raises(HandError, match="standing tiles"):
        mjfast.shanten(short)


def _near_meld_hand(rng, n_melds):
    """A near-complete hand whose standing tiles crowd the tiles its melds lock."""
    for _ in range(50):
        counts, melds = near_complete_hand(rng, n_melds, int(rng.integers(0, 3)))
        locked = Hand(counts, melds).meld_counts
        near = np.convolve(locked > 0, np.ones(5), "same") > 0
        if (counts[near[: len(counts)]] > 0).sum() >= 2:
            return counts, melds
    return counts, melds


@pytest.mark.parametrize("n_melds", [1, 2, 3, 4])
def test_melded_hands_match_exhaustive_reference(n_melds):
    rng = np.random.default_rng(1000 + n_melds)
    hands = 25 if n_melds == 1 else 80
    for _ in range(hands):
        counts, melds = _near_meld_hand(rng, n_melds)
        hand = Hand(counts, melds)
        ref, ref_useful = reference.melded_deficiency_and_useful(counts, hand.meld_counts, n_melds)
        assert mjfast.shanten(hand) == ref - 1, str(hand)
        assert {TILE_INDEX[t] for t in mjfast.useful_tiles(hand)} == ref_useful, str(hand)


def test_drawn_melded_hands_match_reference():
    rng = np.random.default_rng(77)
    for _ in range(60):
        n_melds = int(rng.integers(2, 5))
        room = np.full(34, 4)
        melds = random_melds(rng, n_melds, room)
        wall = np.repeat(np.arange(34), room)
        counts = np.bincount(rng.choice(wall, 14 - 3 * n_melds, replace=False), minlength=34).astype(np.uint8)
        hand = Hand(counts, melds)
        ref = reference.regular_deficiency(counts, hand.meld_counts, 4 - n_melds)
        assert mjfast.shanten(hand) == ref - 1, str(hand)
