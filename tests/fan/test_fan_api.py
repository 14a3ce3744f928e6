"""score(), its result, its errors, the win conditions and their corrections, and settle()."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from mjfast.errors import ArgumentError, HandError
from mjfast.fan import FANS, N_FANS, Fan, FanResult, Ruleset, fan_by_name, score, score_best_tile, settle
from mjfast.hand import Hand, parse_hand
from mjfast.tiles import tile_name

from ..data import ROOT

PLAIN = "[123m,1]456p789s123s5m5m"  # 花龙 8, 平和 2, 喜相逢 1, 单钓将 1 = 12


def test_result_fields():
    r = score(PLAIN)
    assert r.total == 12 and r.points == 12 and r.flowers == 0 and r.meets_minimum
    assert [(f.name_cn, f.name_en, f.points, f.count) for f in r.fans] == [
        ("花龙", "Mixed Straight", 8, 1), ("平和", "All Chows", 2, 1), ("喜相逢", "Mixed Double Chow", 1, 1),
        ("单钓将", "Single Wait", 1, 1),
    ]
    assert all(isinstance(f, Fan) for f in r.fans)
    assert r.win_tile == "5m" and r.hand == parse_hand(PLAIN) and r.hand.last_tile == 4
    assert str(r) == "12: 花龙 8, 平和 2, 喜相逢 1, 单钓将 1"
    assert r.fan_line("en") == "Mixed Straight 8, All Chows 2, Mixed Double Chow 1, Single Wait 1"
    assert "花龙" in r and "Mixed Straight" in r and "清龙" not in r
    assert r.counts.shape == (N_FANS,) and int(r.counts[fan_by_name("花龙").id]) == 1


def test_fans_listed_highest_first():
    r = score("[1111p,1][2222s]345m678m8p8p")  # 明暗杠 5 sits between the 6- and 4-point fans
    points = [f.points for f in r.fans]
    assert points == sorted(points, reverse=True)


def test_accepts_hand_objects_and_every_notation():
    as_string = score("123m456p789s123s55m")
    assert score(parse_hand("123m456p789s123s55m")).total == as_string.total
    assert score("W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T2 T3 W5 W5").total == as_string.total


def test_flowers_count_in_the_total_but_not_the_minimum():
    # 5 points of fans and 3 flowers: 8 in all, still below the 8-fan minimum.
    r = score("[234m,1]444m567p234s9s9s", flowers=3)
    assert r.points == 5 and r.total == 8 and not r.meets_minimum
    assert r.count("花牌") == 3
    assert score("[234m,1]444m567p234s9s9s", flowers=3, ruleset=Ruleset(minimum=5)).meets_minimum


def test_minimum_is_eight_fans_by_default():
    assert score("[123m,1][345m,2]678p56sWW7s").meets_minimum  # 无番和 8
    assert not score("[234m,1]567m345p678s9s9s").meets_minimum  # 平和 2 + 连六 1


@pytest.mark.parametrize("seat, prevalent", [("S", "E"), ("s", 0), ("南", "东"), (1, "F1"), (np.int64(1), "E")])
def test_wind_notations(seat, prevalent):
    r = score("[SSS,1]123m456p789s5m5m", seat_wind=seat, prevalent_wind=prevalent)
    assert r.count("门风刻") == 1 and r.count("圈风刻") == 0
    assert r.seat_wind == "S" and r.prevalent_wind == "E"


@pytest.mark.parametrize("kwargs", [
    dict(seat_wind="X"), dict(prevalent_wind=4), dict(seat_wind=True), dict(flowers=9), dict(flowers=-1),
    dict(flowers=1.0), dict(flowers=True), dict(self_drawn="yes"), dict(kong=2), dict(last_tile=None),
    dict(ruleset="botzone"), dict(ruleset=0),
])
def test_bad_conditions_raise_argument_error(kwargs):
    with pytest.raises(ArgumentError):
        score(PLAIN, **kwargs)


def test_best_tile_is_the_winning_tile_worth_most():
    # 14 tiles, no winning tile named: 2m in the middle of 123m is 坎张 (the 2m reading keeps
    # 123m 456m 789m, 清龙); every other tile scores less or no more
    hand = parse_hand("123456789m12333p")
    best = score_best_tile(Hand(hand.counts, hand.melds))
    assert best.win_tile == "2m" and best.count("坎张") == 1
    each = {t: score(Hand(hand.counts, hand.melds, t)).total for t in range(34) if hand.counts[t]}
    assert best.total == max(each.values()) and min(t for t, v in each.items() if v == best.total) == 1


def test_best_tile_takes_every_condition_and_says_what_was_scored():
    best = score_best_tile("[EEE,1]WWW555p678s9s9s", self_drawn=True, seat_wind="W", prevalent_wind="E",
                           ruleset="tziakcha")
    assert best.self_drawn and best.count("门风刻") == 1 and best.ruleset.name == "tziakcha"
    assert tile_name(best.hand.last_tile) == best.win_tile


@pytest.mark.parametrize("hand, message", [
    ("123m456p789s123s5m6m", "whichever of its tiles wins"), ("123m456p789s123s5m", "waiting for its winning tile"),
])
def test_best_tile_refuses_what_is_no_win(hand, message):
    with pytest.raises(HandError, match=message):
        score_best_tile(hand)
    with pytest.raises(ArgumentError, match="unknown condition"):
        score_best_tile("123m456p789s123s5m5m", winner=0)
    with pytest.raises(ArgumentError, match="seat_wind"):
        score_best_tile("123m456p789s123s5m6m", seat_wind="X")  # the condition's fault, not "no win"


def test_not_a_win_raises_with_a_clear_message():
    with pytest.raises(HandError, match="not a winning hand"):
        score("123m456p789s123s5m6m")


def test_thirteen_tiles_are_not_a_win():
    with pytest.raises(HandError, match="waiting for its winning tile"):
        score("123m456p789s123s5m")


def test_count_array_without_a_winning_tile_is_refused():
    counts = parse_hand("123m456p789s123s55m").counts
    with pytest.raises(HandError, match="winning tile"):
        score(counts)


def test_bad_notation_raises_hand_error():
    with pytest.raises(HandError):
        score("123m456p789s123s5x5m")


# --- win conditions and the judge's corrections -------------------------------------------

def test_last_copy_dropped_while_the_hand_holds_another_copy():
    r = score("[123m,1]456p789s123s5m5m", last_copy=True)  # two 5m in hand
    assert r.count("和绝张") == 0 and not r.last_copy


def test_last_copy_kept_for_a_single_copy():
    r = score("[123m,1]456p789s55m23s4s", last_copy=True)
    assert r.count("和绝张") == 1 and r.last_copy


def test_last_copy_implied_by_three_copies_in_own_melds():
    r = score("[234m,1][234m,2][345m,3]56mEE4m")  # 4m: three in the melds, the fourth wins
    assert r.count("和绝张") == 1 and r.last_copy


def test_kong_self_drawn_needs_a_kong_meld():
    assert score("123m234p234s678s55p", self_drawn=True, kong=True).count("杠上开花") == 0
    r = score("[1111m]234p234s678s55p", self_drawn=True, kong=True)
    assert r.count("杠上开花") == 1 and r.count("自摸") == 0 and r.kong


def test_robbing_needs_a_tile_held_nowhere_else():
    assert score("[111p,1]234m234s678s5m5m", kong=True).count("抢杠和") == 0
    r = score("[111p,1]234m234s67s55m8s", kong=True)
    assert r.count("抢杠和") == 1


def test_robbing_the_kong_excludes_last_copy():
    r = score("[111p,1]234m234s67s55m8s", kong=True, last_copy=True)
    assert r.count("抢杠和") == 1 and r.count("和绝张") == 0


def test_robbing_needs_a_tile_not_in_own_melds():
    # With 6m in the hand's own chow, the robbed kong would need a fifth copy.
    assert score("[345m,1]123p456s78m99s6m", kong=True).count("抢杠和") == 1
    assert score("[456m,1]123p456s78m99s6m", kong=True).count("抢杠和") == 0


def test_last_tile_and_kong_together_as_the_judge_scores_them():
    # The replacement tile after a kong may be the wall's last: both fans (GB-Mahjong agrees).
    r = score("[1111m]234p234s678s55p", self_drawn=True, kong=True, last_tile=True)
    assert r.count("杠上开花") == 1 and r.count("妙手回春") == 1 and r.count("自摸") == 0


def test_last_tile_on_a_discard_is_last_tile_claim():
    assert score(PLAIN, last_tile=True).count("海底捞月") == 1
    assert score(PLAIN, last_tile=True, self_drawn=True).count("妙手回春") == 1


# --- settle -----------------------------------------------------------------------------

def test_settle_self_drawn():
    r = score(PLAIN, self_drawn=True)  # 13
    assert settle(r, 2) == [-21, -21, 63, -21]


def test_settle_discard():
    r = score(PLAIN)  # 12
    deltas = settle(r, winner=0, discarder=3)
    assert deltas == [36, -8, -8, -20] and sum(deltas) == 0


def test_settle_counts_flowers():
    r = score(PLAIN, flowers=2)  # 14
    assert settle(r, 1, 0) == [-22, 38, -8, -8]


@pytest.mark.parametrize("args", [(5,), (-1,), (True,), (0, 0), (0, 4), ("0",)])
def test_settle_rejects_bad_players(args):
    with pytest.raises(ArgumentError):
        settle(score(PLAIN), *args)


def test_settle_rejects_contradictions():
    with pytest.raises(ArgumentError, match="needs the discarder"):
        settle(score(PLAIN), 0)
    with pytest.raises(ArgumentError, match="no discarder"):
        settle(score(PLAIN, self_drawn=True), 0, 1)


def test_settle_rejects_a_hand_below_the_minimum():
    with pytest.raises(HandError, match="below the minimum"):
        settle(score("[234m,1]567m345p678s9s9s"), 0, 1)


def test_settle_needs_a_result():
    with pytest.raises(ArgumentError):
        settle({"total": 8}, 0, 1)


# --- names -------------------------------------------------------------------------------

def test_fan_table_has_the_81_fans_and_the_judges_extra():
    assert N_FANS == 82 and len({f.name_cn for f in FANS}) == 82 and len({f.name_en for f in FANS}) == 82
    assert FANS[81].name_cn == "明暗杠" and FANS[81].points == 5
    points = [f.points for f in FANS[:81]]
    assert points == sorted(points, reverse=True)  # Green Book order runs from 88 down to 1
    counts = [points.count(p) for p in (88, 64, 48, 32, 24, 16, 12, 8, 6, 4, 2, 1)]
    assert counts == [7, 6, 2, 3, 9, 6, 5, 9, 7, 4, 10, 13]


def test_fan_names_and_aliases_resolve():
    assert fan_by_name("嵌张") is fan_by_name("坎张") is fan_by_name("独听・嵌张") is fan_by_name("closed wait")
    with pytest.raises(ArgumentError):
        fan_by_name("天和")


def test_fan_result_is_the_public_result_type():
    assert isinstance(score(PLAIN), FanResult)


def test_docs_fan_table_matches_the_fan_table():
    """docs/fan.md lists every fan with its names and points as mjfast scores them."""

    text = (ROOT / "docs" / "fan.md").read_text(encoding="utf8")
    rows = [line.split("|")[1:-1] for line in text.splitlines() if line.startswith("| ") and " | " in line]
    listed = {}
    for cells in rows:
        if len(cells) != 5:
            continue  # another table
        number, name_cn, name_en, points = (c.strip() for c in cells[:4])
        if number.isdigit() or number == "—":
            listed[name_cn] = (number, name_en, points)
    assert len(listed) == N_FANS
    for fan in FANS:
        number, name_en, points = listed[fan.name_cn]
        assert number == (str(fan.id + 1) if fan.id < 81 else "—") and name_en == fan.name_en
        assert points.split()[0] == str(fan.points)


def test_any_input_gives_a_result_or_a_hand_error():
    """Random strings and objects: score() and winning_tiles() answer or raise HandError, never
    anything else."""
    import random

    from mjfast.fan import winning_tiles

    rng = random.Random(17)
    alphabet = "123456789mpszESWNCFP[],0 "
    inputs = [None, 12, 3.5, [1, 2], (), {}, b"123m", np.zeros(33), np.zeros((2, 34)), np.full(34, 5), "", "[", "]"]
    inputs += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 24))) for _ in range(400)]
    tiles = "123456789"
    for _ in range(400):  # near-valid hands: random tiles of one notation, random count
        inputs.append("".join(rng.choice(tiles) + rng.choice("mps") for _ in range(rng.randrange(10, 16))))
    for value in inputs:
        for call in (score, winning_tiles):
            try:
                result = call(value)
            except HandError:
                continue
            assert result is not None


def test_package_loads_its_python_layer_on_first_use():
    # the fan-aware advice needs the scoring kernel, not fan.api and its parallel kernels
    probe = ("import sys, mjfast.advice.fan_aware, mjfast.fan as fan; "
             "before = sorted(m for m in ('mjfast.fan.api', 'mjfast.fan.batch') if m in sys.modules); "
             "from mjfast.fan import score, JUDGE; "
             "print(before, score.__module__, JUDGE.minimum, sorted(n for n in fan.__all__ if not hasattr(fan, n)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["[]", "mjfast.fan.api", "8", "[]"]
    with pytest.raises(AttributeError, match="no attribute 'scores'"):
        import mjfast.fan

        _ = mjfast.fan.scores


def test_each_fan_constant_is_its_id():
    """names.py declares the fans' constants one by one (so that tools see them): in the table's
    order, each the id of the fan of its row."""
    from mjfast.fan import names

    assert [getattr(names, row[0]) for row in names._FANS] == list(range(N_FANS))
