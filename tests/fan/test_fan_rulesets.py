"""Each disputed point as a Ruleset switch: the judge's answer by default, the other reading
when switched (docs/fan.md gives the sources)."""

from __future__ import annotations

import pytest

from mjfast.errors import ArgumentError
from mjfast.fan import JUDGE, RULESETS, TZIAKCHA, WMO_2014, Ruleset, ruleset_named, score


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


def test_mixed_kongs_six():
    # The WMO's rules: one concealed and one exposed kong are 双明杠 4 + 暗杠 2.
    hand = "[1111p,1][2222s]345m678m8p8p"
    six = _fans(hand, Ruleset(mixed_kongs_five=False, mixed_kongs_six=True))
    assert six.get("双明杠") == 1 and six.get("暗杠") == 1 and not {"明暗杠", "明杠"} & set(six)
    assert score(hand, ruleset=WMO_2014).total - score(hand).total == 1  # 6 instead of 5
    # two exposed or two concealed kongs are not changed by it
    assert _fans("[1111p,1][2222s,2]345m678m8p8p", WMO_2014) == _fans("[1111p,1][2222s,2]345m678m8p8p")
    assert _fans("[1111p][2222s]345m678m8p8p", WMO_2014) == _fans("[1111p][2222s]345m678m8p8p")


def test_the_two_readings_of_mixed_kongs_exclude_each_other():
    with pytest.raises(ArgumentError, match="mixed_kongs_five and mixed_kongs_six"):
        Ruleset(mixed_kongs_six=True)


@pytest.mark.parametrize("hand, judge, in_last_set", [
    ("[PPPP][CCC,2][FFF,2]5667p6p", "坎张", "单钓将"),  # 6p: the middle of 567p, or the pair 66p formed after it
    ("[1111s][123m,1][345s,2]1233m3m", "边张", "单钓将"),  # 3m: the end of 12m, or the pair 33m after 123m
    ("[123s,2][345s,1]11p12234s3s", "边张", "坎张"),  # 3s: the end of 12s, or the middle of 234s after 123s
    ("112233789m7789p7p", "边张", "边张"),  # 7p: the pair 77p, or 89p's edge in 789p, formed after the pair
])
def test_wait_in_last_set(hand, judge, in_last_set):
    waits = {"边张", "坎张", "单钓将"}
    assert {f for f in _fans(hand) if f in waits} == {judge}
    on = _fans(hand, Ruleset(wait_in_last_set=True))
    assert {f for f in on if f in waits} == {in_last_set}
    assert score(hand).total == score(hand, ruleset=Ruleset(wait_in_last_set=True)).total  # one point either way


def test_presets_are_named_sets_of_switches():
    assert RULESETS["judge"] is JUDGE and JUDGE.name == "judge" and JUDGE.code == 0
    assert TZIAKCHA == Ruleset(knitted_body_waits=False, wait_in_last_set=True) and TZIAKCHA.name == "tziakcha"
    assert WMO_2014 == Ruleset(mixed_kongs_five=False, mixed_kongs_six=True, concealed_forms_fully_concealed=True)
    assert Ruleset.strict_1998().name == "strict_1998" and Ruleset(formal_waits=False).name is None
    assert ruleset_named("wmo2014") is WMO_2014
    assert score("[1111p,1][2222s]345m678m8p8p", ruleset="wmo2014").ruleset is WMO_2014
    with pytest.raises(ArgumentError, match="unknown ruleset 'botzone'; the presets are judge, tziakcha"):
        ruleset_named("botzone")


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
    with pytest.raises(ArgumentError):
        Ruleset(**kwargs)


def test_the_advice_counts_the_waits_under_the_ruleset():
    # 4m and 7m win with 明暗杠 5 + 1 + 1 = 7 fans for the judge: no valid win; the WMO's 双明杠
    # 4 + 暗杠 2 make it 8. The fan-aware and the value rankings both see it.
    import mjfast

    hand = "[1111p1][2222s]345m56m77p9s"
    judge = {o.tile: o for o in mjfast.best_discards(hand, ranking="fan-aware")}
    wmo = {o.tile: o for o in mjfast.best_discards(hand, ranking="fan-aware", ruleset="wmo2014")}
    assert judge["9s"].shanten == wmo["9s"].shanten == 0
    assert judge["9s"].effective_shanten == 1  # ready, but on waits that cannot win: a step away
    assert wmo["9s"].effective_shanten == 0 and wmo["9s"].valid_acceptance == 7  # 4m (3 unseen) and 7m (4)
    assert [w.discard for w in judge["9s"].wait_fans] == [7, 7] and [w.discard for w in wmo["9s"].wait_fans] == [8, 8]
    by_value = {o.tile: o for o in mjfast.best_discards(hand, ruleset="wmo2014")}
    assert by_value["9s"].expected_score > {o.tile: o for o in mjfast.best_discards(hand)}["9s"].expected_score
