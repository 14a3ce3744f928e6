"""Each disputed point as a Ruleset switch: the judge's answer by default, the other reading
when switched (docs/fan.md gives the sources)."""

from __future__ import annotations

import pytest

from mjfast.errors import HandError
from mjfast.fan import JUDGE, Ruleset, score


def _fans(hand, ruleset=None, **conditions):
    return {f.name_cn: f.count for f in score(hand, ruleset=ruleset, **conditions).fans}


def test_default_is_the_judge():
    assert Ruleset() == JUDGE and JUDGE.code == 0
    assert score("[1111p,1][2222s]345m678m8p8p", ruleset=None).total == score(
        "[1111p,1][2222s]345m678m8p8p", ruleset=JUDGE).total


def test_mixed_kongs_five():
    hand = "[1111p,1][2222s]345m678m8p8p"
    on = _fans(hand)
    off = _fans(hand, Ruleset(mixed_kongs_five=False))
    assert on.get("明暗杠") == 1 and "明杠" not in on and "暗杠" not in on
    assert off.get("明杠") == 1 and off.get("暗杠") == 1 and "明暗杠" not in off


def test_knitted_body_waits():
    # 3p completes 369p of the knitted straight and sits in the middle of 234p.
    hand = "258m23469p14788s3p"
    assert _fans(hand).get("坎张") == 1
    assert "坎张" not in _fans(hand, Ruleset(knitted_body_waits=False))


def test_knitted_body_waits_beside_a_meld():
    # With a meld, winning on a knitted tile that is also the pair is a single wait for the
    # judge, and no wait fan for GB-Mahjong.
    outside = "[234p,1]258m369p1478s8s"  # 8s is not in the straight (147s)
    on = _fans("[234p,1]258m369p1477s7s")  # 7s is in 147s and makes the pair 77s
    off = _fans("[234p,1]258m369p1477s7s", Ruleset(knitted_body_waits=False))
    assert on.get("单钓将") == 1 and "单钓将" not in off
    assert _fans(outside).get("单钓将") == 1  # a tile outside the straight: a single wait either way
    assert _fans(outside, Ruleset(knitted_body_waits=False)).get("单钓将") == 1


@pytest.mark.parametrize("hand", ["1122334455667p7p", "2255m3377p4466sEE", "19m19p19sESWNCFPP", "147m258p36sESWNCF",
                                  "111m222p333s4445s5s", "1112345678999m5m"])
def test_concealed_forms_fully_concealed(hand):
    assert _fans(hand, self_drawn=True).get("自摸") == 1
    switched = _fans(hand, Ruleset(concealed_forms_fully_concealed=True), self_drawn=True)
    assert switched.get("不求人") == 1 and "自摸" not in switched


def test_formal_waits():
    # 23m waits on 1m, whose four copies are the hand's own kong, and on 4m.
    hand = "[1111m]567p789s55s23m4m"
    assert "边张" not in _fans(hand)
    assert _fans(hand, Ruleset(formal_waits=False)).get("边张") == 1


def test_seven_pairs_tile_fans():
    hand = "EESSWWNNPPFFCC"
    assert _fans(hand) == {"字一色": 1, "七对": 1}
    assert _fans(hand, Ruleset(seven_pairs_tile_fans=False)) == {"七对": 1}
    assert _fans("11223333m33p1122s", Ruleset(seven_pairs_tile_fans=False)).get("全小") is None


def test_voided_suit_with_big_fans():
    hand = "[CCC,1][FFF,2]PPP123m9p9p"  # 大三元 with no bamboo
    assert _fans(hand).get("缺一门") == 1
    assert "缺一门" not in _fans(hand, Ruleset(voided_suit_with_big_fans=False))


def test_all_terminals_triple_pung():
    hand = "[111m,1][111p,2]111s99s99m9m"
    assert _fans(hand).get("三同刻") == 1
    assert "三同刻" not in _fans(hand, Ruleset(all_terminals_triple_pung=False))


def test_strict_1998_switches_three_rulings():
    strict = Ruleset.strict_1998()
    assert not strict.seven_pairs_tile_fans and not strict.voided_suit_with_big_fans
    assert not strict.all_terminals_triple_pung and strict.mixed_kongs_five


@pytest.mark.parametrize("kwargs", [dict(formal_waits=1), dict(minimum=-1), dict(minimum=8.0), dict(minimum=True)])
def test_switches_are_checked(kwargs):
    with pytest.raises(HandError):
        Ruleset(**kwargs)
