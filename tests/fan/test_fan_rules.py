"""One hand per fan, with the full fan list worked out by hand from the rules (seed documents
and the judge's rulings), and a test per exclusion rule and per scoring principle.

Each case: (fan it illustrates, hand, conditions "PSzjhk|flowers" as in GB-Mahjong: prevalent,
seat, self-drawn, 和绝张, last tile of the wall, kong; expected fans). The expected lists were
reasoned out, not copied from the scorer; the comment says why where it is not obvious.
Waits: a winning tile that was the only tile the hand waited on scores 边张, 坎张 or 单钓将
(edge before closed before single); any other wait, even on a dead tile, cancels them.
"""

from __future__ import annotations

import pytest

from mjfast.fan import FANS, fan_by_name, score
from mjfast.fan.exclusions import EXCLUDES

from .test_fan_support import gb_case, parse_fan_list

CASES = [
    ("大四喜", "[EEE,2][SSS,1][WWW,3]NNN5m5m", "", "大四喜 88, 混一色 6, 单钓将 1"),
    # 全带幺 is not implied by 大三元 (the fourth set may be 456m), so it is added.
    ("大三元", "[CCC,1][FFF,2]PPP1239m9m", "", "大三元 88, 混一色 6, 全带幺 4, 单钓将 1"),
    ("绿一色", "[234s,1][666s,2]FFF8834s2s", "", "绿一色 88, 箭刻 2, 一般高 1"),
    # Winning on a 5 gives the hand a pung of 1 and of 9 beside 九莲宝灯: 双暗刻 and one 幺九刻.
    ("九莲宝灯", "1112345678999m5m", "", "九莲宝灯 88, 双暗刻 2, 幺九刻 1"),
    ("四杠", "[1111m,1][2222p,2][3333s,3][EEEE,1]5m5m", "SS0000", "四杠 88, 三色三节高 8, 全求人 6, 幺九刻 1*2"),
    ("连七对", "1122334455667p7p", "", "连七对 88"),
    ("十三幺", "19m19p19sESWNCFPP", "", "十三幺 88"),
    ("清幺九", "[111m,1][111p,2]111s99s99m9m", "", "清幺九 64, 三同刻 16"),
    ("小四喜", "[EEE,1][SSS,2]WWWNN23m1m", "", "小四喜 64, 混一色 6, 全带幺 4, 圈风刻 2, 门风刻 2"),
    ("小三元", "[CCC,1][FFF,2]PP45689m7m", "", "小三元 64, 混一色 6, 连六 1, 边张 1"),
    ("字一色", "[EEE,1][CCC,2][SSS,3]NNPPP", "", "字一色 64, 双箭刻 6, 圈风刻 2, 门风刻 2"),
    # Self-drawn 四暗刻 scores 自摸, not 不求人 (ruling 5). 3334445s also waits on 3s and 6s.
    ("四暗刻", "111m222p333s4445s5s", "EE1000", "四暗刻 64, 三色三节高 8, 幺九刻 1, 无字 1, 自摸 1"),
    # Also seven pairs; the regular reading scores more.
    ("一色双龙会", "1122337788995m5m", "", "一色双龙会 64, 门前清 2, 单钓将 1"),
    # Every tile is reversible (2 3 4 dots, 5 bamboo): 推不倒, which excludes 缺一门.
    ("一色四同顺", "[234p,1][234p,2][234p,3]234p5s5s", "", "一色四同顺 48, 推不倒 8, 平和 2, 断幺 2, 单钓将 1"),
    ("一色四节高", "[222s,1][333s,2][444s,3]555s9m9m", "", "一色四节高 48, 缺一门 1, 无字 1, 单钓将 1"),
    ("一色四步高", "[123p,1][234p,2]34545pEE6p", "", "一色四步高 32, 混一色 6"),
    ("三杠", "[1111m,1][5555p,2][9999s]123s7p7p", "", "三杠 32, 幺九刻 1*2, 无字 1, 单钓将 1"),
    ("混幺九", "[111m,1][999p,2]EEE99sNNN", "SS0000", "混幺九 32"),
    ("七对", "2255m3377p4466sEE", "", "七对 24"),
    ("七星不靠", "147m25p36sESWNCFP", "", "七星不靠 24"),
    ("全双刻", "[222m,1][444p,2]666s888s4m4m", "", "全双刻 24, 双暗刻 2, 单钓将 1"),
    # 2445566789s waits on 2s alone (no 3s: 2 would be left over).
    ("清一色", "[123s,1]2445566789s2s", "", "清一色 24, 清龙 16, 平和 2, 一般高 1, 单钓将 1"),
    ("一色三同顺", "[345m,1][345m,2]345m789p5s5s", "", "一色三同顺 24, 平和 2, 单钓将 1"),
    ("一色三节高", "[555p,1][666p,2]777p123s9m9m", "", "一色三节高 24, 无字 1, 单钓将 1"),
    # 8889s also waits on 7s (88 + 789s); 777p and 789p hold all four 7p: 四归一.
    ("全大", "[789m,1][777p,2]888s789p9s9s", "", "全大 24, 四归一 2, 喜相逢 1"),
    # 456m and 555m hold all four 5m: 四归一.
    ("全中", "[456m,1][456p,2]456s555m6p6p", "", "全中 24, 三色三同顺 8, 四归一 2, 单钓将 1"),
    ("全小", "[123m,1][123p,2]111m123s2p2p", "", "全小 24, 三色三同顺 8, 四归一 2, 幺九刻 1, 单钓将 1"),
    ("清龙", "[123p,1]456789p234sEE", "", "清龙 16, 缺一门 1, 单钓将 1"),
    ("三色双龙会", "[123m,1][789m,2]123s789s5p5p", "", "三色双龙会 16, 单钓将 1"),
    ("一色三步高", "[234m,1][345m,2]456m789p9s9s", "", "一色三步高 16, 平和 2, 单钓将 1"),
    ("全带五", "[345m,1][456p,2]555s567s5m5m", "", "全带五 16, 三色三步高 6, 四归一 2, 单钓将 1"),
    ("三同刻", "[777m,1][777p,2]777s123m9p9p", "", "三同刻 16, 无字 1, 单钓将 1"),
    ("三暗刻", "[123m,1]222p444s666s8m8m", "", "三暗刻 16, 无字 1, 单钓将 1"),
    ("全不靠", "147m258p36sESWNCF", "", "全不靠 12"),
    ("组合龙", "147m258p369s234s9m9m", "", "组合龙 12, 门前清 2, 平和 2, 单钓将 1"),
    ("大于五", "[666m,1][789p,2]777s999s8p8p", "", "大于五 12, 双暗刻 2, 幺九刻 1, 单钓将 1"),
    # 3334s also waits on 2s and 5s: no 单钓将.
    ("小于五", "[234m,1][111p,2]333s123p4s4s", "", "小于五 12, 四归一 2, 幺九刻 1"),
    ("三风刻", "[EEE,1][SSS,2]WWW123m9p9p", "NN0000", "三风刻 12, 全带幺 4, 缺一门 1, 单钓将 1"),
    ("花龙", "[123m,1]456p789s234m9m9m", "", "花龙 8, 平和 2, 单钓将 1"),
    ("推不倒", "[123p,1][888s,2]456s999p5p5p", "", "推不倒 8, 幺九刻 1, 无字 1, 单钓将 1"),
    ("三色三同顺", "[567m,1][567p,2]567s111s2m2m", "", "三色三同顺 8, 幺九刻 1, 无字 1, 单钓将 1"),
    ("三色三节高", "[333m,1][444p,2]555s789s1p1p", "", "三色三节高 8, 无字 1, 单钓将 1"),
    ("无番和", "[123m,1][345m,2]678p56sWW7s", "", "无番和 8"),
    # 456m 789p 123s is a 花龙; the spare 123m combines once, as 喜相逢 (preferred to 连六).
    ("妙手回春", "123m456m789p123s5p5p", "EE1010", "花龙 8, 妙手回春 8, 不求人 4, 平和 2, 喜相逢 1, 单钓将 1"),
    ("海底捞月", "123m456m789p123s5p5p", "EE0010", "花龙 8, 海底捞月 8, 门前清 2, 平和 2, 喜相逢 1, 单钓将 1"),
    # 2345p waits on 2p and 5p: no 单钓将.
    ("杠上开花", "[1111m]234p234s678s5p5p", "EE1001", "杠上开花 8, 不求人 4, 暗杠 2, 喜相逢 1, 幺九刻 1, 无字 1"),
    ("抢杠和", "[111p,1]234m234s67s55m8s", "EE0001", "抢杠和 8, 喜相逢 1, 幺九刻 1, 无字 1"),
    # The discard completes EEE: not a concealed pung.
    ("碰碰和", "[222m,1][555p,2]888s99sEEE", "SS0000", "碰碰和 6, 幺九刻 1"),
    # 5s is the only wait, as the pair or the middle of 456s: 坎张 is preferred to 单钓将.
    ("混一色", "[123s,1]456s789sEEE5s5s", "SS0000", "清龙 16, 混一色 6, 幺九刻 1, 坎张 1"),
    ("三色三步高", "[234m,1]345p456s789m5m5m", "", "三色三步高 6, 平和 2, 单钓将 1"),
    ("五门齐", "[123m,1][456p,2]789sEECCE", "SS0000", "花龙 8, 五门齐 6, 幺九刻 1"),
    ("全求人", "[123m,1][456m,1][789p,1][EEE,1]5s5s", "", "全求人 6, 圈风刻 2, 门风刻 2, 连六 1"),
    ("双暗杠", "[1111p][2222s]345m678m8p8p", "", "双暗杠 6, 门前清 2, 连六 1, 幺九刻 1, 无字 1, 单钓将 1"),
    ("双箭刻", "[CCC,1][FFF,2]123m789s5p5p", "", "双箭刻 6, 单钓将 1"),
    ("全带幺", "[123m,1][789p,2]111s789sEE", "SS0000", "全带幺 4, 喜相逢 1, 幺九刻 1, 单钓将 1"),
    ("不求人", "123m456p789s234s5m5m", "EE1000", "花龙 8, 不求人 4, 平和 2, 单钓将 1"),
    ("双明杠", "[1111p,1][2222s,2]345m678m8p8p", "", "双明杠 4, 连六 1, 幺九刻 1, 无字 1, 单钓将 1"),
    ("和绝张", "[123m,1]456p789s55m23s4s", "EE0100", "花龙 8, 和绝张 4, 平和 2"),
    # 5p is the only wait, in the middle of 456p: 坎张.
    ("箭刻", "[CCC,1]123m456p789s5p5p", "", "花龙 8, 箭刻 2, 坎张 1"),
    ("圈风刻", "[SSS,1]123m456p789s5m5m", "SE0000", "花龙 8, 圈风刻 2, 单钓将 1"),
    ("门风刻", "[SSS,1]123m456p789s5m5m", "ES0000", "花龙 8, 门风刻 2, 单钓将 1"),
    ("门前清", "123m456p789s234s5m5m", "", "花龙 8, 门前清 2, 平和 2, 单钓将 1"),
    # 678s9s waits on 6s and 9s: no 单钓将.
    ("平和", "[234m,1]567m345p678s9s9s", "", "平和 2, 连六 1"),
    ("四归一", "[234m,1]444m567p234s9s9s", "", "四归一 2, 喜相逢 1, 无字 1, 单钓将 1"),
    ("双同刻", "[222m,1][222p,2]345s678s9m9m", "", "双同刻 2, 连六 1, 无字 1, 单钓将 1"),
    ("双暗刻", "[123m,1]555p777s456s9m9m", "", "双暗刻 2, 无字 1, 单钓将 1"),
    ("暗杠", "[1111p]234m567m678s9s9s", "", "暗杠 2, 门前清 2, 连六 1, 幺九刻 1, 无字 1"),
    ("断幺", "[234m,1]345p567s666m8p8p", "", "断幺 2, 单钓将 1"),
    ("一般高", "[123m,1]123m456p789s5p5p", "", "花龙 8, 平和 2, 一般高 1, 坎张 1"),
    ("喜相逢", "[234m,1]234p678s55m78m9m", "", "平和 2, 喜相逢 1"),
    ("连六", "[123p,1]456p789s234m5m5m", "", "平和 2, 连六 1"),
    ("老少副", "[123s,1]789s456m234p5m5m", "", "平和 2, 老少副 1, 坎张 1"),
    ("幺九刻", "[999m,1]234p567s345m5s5s", "", "幺九刻 1, 无字 1"),
    ("明杠", "[5555m,1]234p678s123m9p9p", "", "明杠 1, 无字 1, 单钓将 1"),
    ("缺一门", "[999m,1]234p567p345m5m5m", "", "连六 1, 幺九刻 1, 缺一门 1, 无字 1"),
    ("无字", "[999m,1]234p567s345m5m5m", "", "幺九刻 1, 无字 1"),
    ("边张", "[123m,1]456p789s12s55m3s", "", "花龙 8, 平和 2, 喜相逢 1, 边张 1"),
    ("坎张", "[123m,1]456p789s13s55m2s", "", "花龙 8, 平和 2, 喜相逢 1, 坎张 1"),
    ("单钓将", "[123m,1]456p789s123s5m5m", "", "花龙 8, 平和 2, 喜相逢 1, 单钓将 1"),
    ("自摸", "[123m,1]456p789s123s5m5m", "EE1000", "花龙 8, 平和 2, 喜相逢 1, 单钓将 1, 自摸 1"),
    ("花牌", "[123m,1]456p789s123s5m5m", "EE0000|3", "花龙 8, 平和 2, 喜相逢 1, 单钓将 1, 花牌 1*3"),
    ("明暗杠", "[1111p,1][2222s]345m678m8p8p", "", "明暗杠 5, 连六 1, 幺九刻 1, 无字 1, 单钓将 1"),
]


def _score(hand: str, flags: str):
    _, conditions = gb_case(f"{hand}|{flags or 'EE0000'}")
    return score(hand, **conditions)


def _as_ids(fans) -> list[tuple[int, int, int]]:
    return sorted((fan_by_name(name).id, points, count) for name, points, count in fans)


@pytest.mark.parametrize("fan, hand, flags, expected", CASES, ids=[c[0] for c in CASES])
def test_fan_case_scores_the_reasoned_list(fan, hand, flags, expected):
    result = _score(hand, flags)
    got = sorted((f.id, f.points, f.count) for f in result.fans)
    assert got == _as_ids(parse_fan_list(expected)), result.fan_line()
    assert result.total == sum(p * c for _, p, c in parse_fan_list(expected))
    assert result.count(fan) > 0


def test_every_fan_has_a_case():
    assert {fan_by_name(c[0]).id for c in CASES} == {f.id for f in FANS}


def _case_with(fan_id: int):
    for case in CASES:
        if any(fan_by_name(name).id == fan_id for name, _, _ in parse_fan_list(case[3])):
            return case
    return None


@pytest.mark.parametrize("fan_id", sorted(EXCLUDES), ids=[FANS[f].name_en for f in sorted(EXCLUDES)])
def test_exclusion_rule(fan_id):
    """Each 不计 rule: a hand scoring the fan scores none of the fans it excludes."""
    case = _case_with(fan_id)
    assert case is not None, f"no case scores {FANS[fan_id].name_cn}"
    result = _score(case[1], case[2])
    assert result.count(FANS[fan_id].name_cn) > 0
    for excluded in EXCLUDES[fan_id]:
        assert result.count(FANS[excluded].name_cn) == 0, (FANS[excluded].name_cn, result.fan_line())


# Pairs (A, B) where A excludes B although B excludes something A does not: harmless only
# because the scoring never produces A and B together, so B never gets to exclude anything.
NEVER_TOGETHER = {
    ("四杠", "双暗杠"): "one kong fan at most (ruling 14)",
    ("三杠", "双暗杠"): "one kong fan at most (ruling 14)",
    ("十三幺", "混幺九"): "十三幺 is a form of its own that scores no tile fans",
    ("一色双龙会", "七对"): "different forms",
    ("一色四节高", "一色三同顺"): "four pungs leave no chow",
    ("一色三节高", "一色三同顺"): "three pungs leave one chow at most",
}


def test_exclusions_are_closed_under_chains():
    """If A excludes B and B excludes C, A excludes C too, unless A and B never meet: then
    applying the table in any order gives the same fans."""
    open_chains = set()
    for a, excluded in EXCLUDES.items():
        for b in excluded:
            for c in EXCLUDES.get(b, ()):
                if c != a and c not in excluded:
                    open_chains.add((FANS[a].name_cn, FANS[b].name_cn))
    assert open_chains == set(NEVER_TOGETHER)


# --- the scoring principles of the rulings file -------------------------------------------

def test_non_separation_four_shifted_chows_do_not_make_a_short_straight():
    # 123s 234s 345s 456s: 一色四步高; its own 123s and 456s make no 连六.
    result = _score("123234345456s9m9m", "")
    assert result.count("一色四步高") == 1 and result.count("连六") == 0 and result.count("老少副") == 0


def test_non_identical_spare_chow_combines_once():
    # 123m 456m 789m make 清龙; the spare 123m makes one of 一般高/连六/老少副, not all three.
    result = _score("123m123m456m789m5p5p", "")
    assert result.count("清龙") == 1
    assert result.count("一般高") + result.count("连六") + result.count("老少副") == 1


def test_account_once_four_chows_make_three_one_point_fans():
    # 123m 789m 123s 789s: two 老少副 and one 喜相逢, or two 喜相逢 and one 老少副, never four.
    result = _score("123789m123789s2p2p", "")  # a pair of fives would make 三色双龙会
    assert result.count("老少副") + result.count("喜相逢") == 3
    assert result.count("老少副") >= 1 and result.count("喜相逢") >= 1


def test_account_once_mixed_straight_spare_chow():
    # 123s 456m 789p 花龙 with a spare 123m: 连六 with 456m or 喜相逢 with 123s, once.
    result = _score("123m456m789p123s5p5p", "")
    assert result.count("花龙") == 1
    assert result.count("连六") + result.count("喜相逢") == 1


def test_highest_reading_is_chosen():
    # The rulings' example: 555666777p5556s + 7s self-drawn reads as three 567p chows (48),
    # not as three pungs (47).
    result = _score("555666777p5556s7s", "EE1000")
    assert result.total == 48
    assert result.count("一色三同顺") == 1 and result.count("三暗刻") == 0


def test_non_repeat_applies_to_single_fans_only():
    # 绿一色 + 清一色 together imply 断幺, which is still scored (ruling 12).
    result = _score("[234s,1][666s,2]8882223s4s", "")
    assert {"绿一色", "清一色", "断幺"} <= {f.name_cn for f in result.fans}


def test_nine_gates_on_other_tiles_has_no_terminal_pung():
    # Ruling 11: winning on 1, 3, 4, 6, 7 or 9 gives no 幺九刻.
    for win in "134679":
        result = _score(f"1112345678999m{win}m", "")
        assert result.count("九莲宝灯") == 1 and result.count("幺九刻") == 0, win


def test_all_terminals_takes_no_double_pung_but_triple_pung():
    # Ruling 10.
    result = _score("[111m,1][999p,2]111s99s99m9m", "")
    assert result.count("清幺九") == 1 and result.count("双同刻") == 0


def test_kong_fans_at_most_one_and_two_concealed_kongs_no_two_concealed_pungs():
    # Ruling 14.
    result = _score("[1111p][2222s]345m678m8p8p", "")
    kongs = ("四杠", "三杠", "双暗杠", "明暗杠", "双明杠", "暗杠", "明杠")
    kong_fans = [f.name_cn for f in result.fans if f.name_cn in kongs]
    assert kong_fans == ["双暗杠"] and result.count("双暗刻") == 0


def test_honor_fans_with_big_four_winds_and_flushes():
    # Ruling 9: 大四喜 adds 混一色 or 字一色.
    assert _score("[EEE,2][SSS,1][WWW,3]NNNCC", "").count("字一色") == 1
    assert _score("[EEE,2][SSS,1][WWW,3]NNN5m5m", "").count("混一色") == 1


def test_all_green_is_no_half_flush():
    # Ruling 9: 绿一色 with 发 is not also 混一色.
    result = _score("[234s,1][666s,2]FFF8834s2s", "")
    assert result.count("混一色") == 0 and result.count("缺一门") == 0


def test_seven_pairs_take_tile_fans_but_not_all_even_pungs():
    # Ruling 6: 七对 + 断幺 for an even-only 七对, never 全双刻.
    result = _score("2244m6688p2244s6s6s", "")
    assert result.count("七对") == 1 and result.count("断幺") == 1 and result.count("全双刻") == 0


def test_terminal_hands_score_no_all_pungs():
    # Ruling 7: 字一色, 混幺九, 清幺九 do not add 碰碰和.
    for hand in ("[EEE,1][CCC,2][SSS,3]NNPPP", "[111m,1][999p,2]EEE99sNNN", "[111m,1][111p,2]111s99s99m9m"):
        assert _score(hand, "SS0000").count("碰碰和") == 0, hand
