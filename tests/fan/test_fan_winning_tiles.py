"""winning_tiles(): every winning tile of a ready hand and what it scores."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mjfast.errors import ArgumentError, HandError
from mjfast.fan import score, winning_tiles
from mjfast.hand import Hand
from mjfast.tiles import TILE_NAMES

from .test_fan_support import random_win, read_tsv

WAIT_ROWS = read_tsv("gbmahjong_wait_cases.tsv")


def _in_tile_order(text: str) -> list[str]:
    return sorted(text.split(), key=TILE_NAMES.index)


@pytest.mark.parametrize("row", WAIT_ROWS, ids=[r["gb_input"].strip() for r in WAIT_ROWS])
def test_gbmahjong_wait_cases(row):
    """GB-Mahjong's asserted waits; like mjfast, it leaves out tiles the hand holds all four of."""
    assert list(winning_tiles(row["gb_input"].strip())) == _in_tile_order(row["expected_waits"])


def _without(hand: Hand, tile: int) -> Hand:
    counts = hand.counts.copy()
    counts[tile] -= 1
    return Hand(counts, hand.melds)


def test_agrees_with_score_on_every_tile():
    """For ready hands of every form: the winning tiles are exactly the tiles score() accepts,
    and each result is score()'s."""
    rng = random.Random(3)
    for _ in range(300):
        won, conditions = random_win(rng)
        conditions.pop("last_copy")
        ready = _without(won, int(rng.choice(np.flatnonzero(won.counts))))
        got = winning_tiles(ready, **conditions)
        held = ready.counts.astype(int) + ready.meld_counts
        expected = {}
        for t in range(34):
            if held[t] >= 4:
                continue
            counts = ready.counts.copy()
            counts[t] += 1
            try:
                expected[TILE_NAMES[t]] = score(Hand(counts, ready.melds, t), **conditions)
            except HandError:
                pass
        assert list(got) == list(expected), ready
        for name, result in got.items():
            assert result.fan_line() == expected[name].fan_line() and result.total == expected[name].total
            assert result.win_tile == name and result.hand == expected[name].hand


def test_conditions_apply_to_every_tile():
    results = winning_tiles("123m456p789s123s5m", self_drawn=True, flowers=2, seat_wind="S")
    assert list(results) == ["5m"]
    r = results["5m"]
    assert r.self_drawn and r.flowers == 2 and r.seat_wind == "S" and r.count("不求人") == 1


def test_last_copy_dropped_where_the_hand_holds_the_tile():
    results = winning_tiles("[123m,1]456p789s55m23s", last_copy=True)
    assert set(results) == {"1s", "4s"}
    assert all(r.count("和绝张") == 1 for r in results.values())
    results = winning_tiles("[123m,1]456p789s123s5m", last_copy=True)
    assert results["5m"].count("和绝张") == 0


def test_not_ready_and_no_waits():
    assert winning_tiles("28m47s369pESWCCP") == {}


def test_refuses_a_complete_hand_and_unknown_conditions():
    with pytest.raises(HandError, match="waiting for its winning tile"):
        winning_tiles("123m456p789s123s5m5m")
    with pytest.raises(ArgumentError, match="unknown condition"):
        winning_tiles("123m456p789s123s5m", self_drawm=True)
    with pytest.raises(ArgumentError):
        winning_tiles("123m456p789s123s5m", seat_wind="X")
