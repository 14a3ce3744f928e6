"""The shared test vectors: GB-Mahjong's 130 asserted fan lists and one hand per fan from the
Green Book (EllanServer), with a near-miss hand per fan that must not score it."""

from __future__ import annotations

import pytest

from mjfast.fan import FANS, TZIAKCHA, Ruleset, fan_by_name, score

from ..data import VECTORS
from .test_fan_support import gb_case, parse_fan_list, read_tsv

GB_ROWS = read_tsv("gbmahjong_fan_cases.tsv")
# The rows on which GB-Mahjong and the judge differ: the 组合龙 body-wait ruling (ruling 4).
DISPUTED = [row for row in GB_ROWS if row["agreement"] == "DIFF"]


def _ids(fans) -> list[tuple[int, int, int]]:
    return sorted((fan_by_name(name).id, points, count) for name, points, count in fans)


def _got(result) -> list[tuple[int, int, int]]:
    return sorted((f.id, f.points, f.count) for f in result.fans)


def test_gb_file_has_130_rows_and_two_disputed():
    assert len(GB_ROWS) == 130 and len(DISPUTED) == 2


@pytest.mark.parametrize("row", GB_ROWS, ids=[r["gb_input"] for r in GB_ROWS])
def test_gbmahjong_case(row):
    """The asserted list (or its equal-total alternative); the judge's list on disputed rows."""
    text, conditions = gb_case(row["gb_input"])
    result = score(text, **conditions)
    if row["agreement"] == "DIFF":
        assert _got(result) == _ids(parse_fan_list(row["summerinsects_fans"]))
        assert result.total == int(row["summerinsects_total"])
        return
    accepted = [_ids(parse_fan_list(row["expected_fans"]))]
    if row["alt_expected_fans"]:
        accepted.append(_ids(parse_fan_list(row["alt_expected_fans"])))
    assert _got(result) in accepted, result.fan_line()
    assert result.total == int(row["expected_total"])


@pytest.mark.parametrize("row", DISPUTED, ids=[r["gb_input"] for r in DISPUTED])
def test_disputed_rows_give_gbmahjong_answer_without_knitted_body_waits(row):
    text, conditions = gb_case(row["gb_input"])
    result = score(text, ruleset=Ruleset(knitted_body_waits=False), **conditions)
    assert _got(result) == _ids(parse_fan_list(row["expected_fans"]))
    assert result.total == int(row["expected_total"])


@pytest.mark.parametrize("row", GB_ROWS, ids=[r["gb_input"] for r in GB_ROWS])
def test_gbmahjong_case_under_the_tziakcha_rules(row):
    """Tziakcha's server scores as GB-Mahjong does: every asserted list, the disputed rows too,
    under the Tziakcha preset (the list or its equal-total alternative, the total exactly)."""
    text, conditions = gb_case(row["gb_input"])
    result = score(text, ruleset=TZIAKCHA, **conditions)
    accepted = [_ids(parse_fan_list(row["expected_fans"]))]
    if row["alt_expected_fans"]:
        accepted.append(_ids(parse_fan_list(row["alt_expected_fans"])))
    assert _got(result) in accepted, result.fan_line()
    assert result.total == int(row["expected_total"])


# GB-Mahjong enum names of the Green Book file.
PINYIN = dict(zip(
    "DASIXI DASANYUAN LVYISE JIULIANBAODENG SIGANG LIANQIDUI SHISANYAO QINGYAOJIU XIAOSIXI XIAOSANYUAN ZIYISE "
    "SIANKE YISESHUANGLONGHUI YISESITONGSHUN YISESIJIEGAO YISESIBUGAO SANGANG HUNYAOJIU QIDUI QIXINGBUKAO "
    "QUANSHUANGKE QINGYISE YISESANTONGSHUN YISESANJIEGAO QUANDA QUANZHONG QUANXIAO QINGLONG SANSESHUANGLONGHUI "
    "YISESANBUGAO QUANDAIWU SANTONGKE SANANKE QUANBUKAO ZUHELONG DAYUWU XIAOYUWU SANFENGKE HUALONG TUIBUDAO "
    "SANSESANTONGSHUN SANSESANJIEGAO WUFANHU MIAOSHOUHUICHUN HAIDILAOYUE GANGSHANGKAIHUA QIANGGANGHU PENGPENGHU "
    "HUNYISE SANSESANBUGAO WUMENQI QUANQIUREN SHUANGANGANG SHUANGJIANKE QUANDAIYAO BUQIUREN SHUANGMINGGANG "
    "HUJUEZHANG JIANKE QUANFENGKE MENFENGKE MENQIANQING PINGHU SIGUIYI SHUANGTONGKE SHUANGANKE ANGANG DUANYAO "
    "YIBANGAO XIXIANGFENG LIANLIU LAOSHAOFU YAOJIUKE MINGGANG QUEYIMEN WUZI BIANZHANG KANZHANG DANDIAOJIANG ZIMO "
    "HUAPAI".split(),
    range(81),
))


def _green_book() -> list[tuple[str, str]]:
    with open(VECTORS / "ellan_mcr81_green_book_positive.tsv", encoding="utf8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#") and line.strip()]
    return [(fan, hand) for fan, hand in rows]


GREEN_BOOK = _green_book()


def test_green_book_file_has_one_hand_per_fan_in_order():
    assert [PINYIN[fan] for fan, _ in GREEN_BOOK] == list(range(81))


@pytest.mark.parametrize("fan, text", GREEN_BOOK, ids=[f for f, _ in GREEN_BOOK])
def test_green_book_hand_scores_its_fan(fan, text):
    hand, conditions = gb_case(text)
    assert score(hand, **conditions).count(FANS[PINYIN[fan]].name_cn) > 0


# A winning hand close to each fan that must not score it (GB notation with flags).
NEAR_MISSES = {
    "大四喜": "[EEE,2][SSSS,1]WWWNN555m|SN1000",  # 小四喜: the fourth wind is the pair
    "大三元": "[PPP,2][FFF,3]345m666pCC",  # 小三元
    "绿一色": "[234s,1][666s,2]PPP8834s2s",  # 白 is not green
    "九莲宝灯": "[123s,1]11456789999s",  # the same tiles with a claimed chow
    "四杠": "[1111p][2222m][4444s]333s88p",  # three kongs
    "连七对": "22334466778899p",  # seven pairs with a gap
    "十三幺": "1199m1199p11sEESS",  # terminals and honours as seven pairs
    "清幺九": "[111s,2]111999m999pEE",  # an honour pair: 混幺九
    "小四喜": "[EEE,2][SSS,1]WWW78s55m9s|NN1000",  # a suited pair: 三风刻
    "小三元": "[PPP,1][FFF,1]123m789s55p",  # a suited pair: 双箭刻
    "字一色": "[EEE,2][SSS,1][FFF,3]WW111m",  # one suited pung
    "四暗刻": "11122233344s55m4s",  # the discard completes 444s
    "一色双龙会": "[123m,1]123778899m5p5p",  # the fives in another suit
    "一色四同顺": "[456p,1][456p,1][456p,3]56p55s7p",  # the fourth chow shifted
    "一色四节高": "[111p,3][222p,3][555p,2]333p22m",  # a gap in the pungs
    "一色四步高": "[123s,1][345s,1]567678sCC",  # 678 instead of 789
    "三杠": "[1111p][2222s]333444m88p",  # two kongs
    "混幺九": "[NNN,3][999p,1][CCC,2]789s11m|ES1000",  # a chow
    "七对": "[EEE,2]SSSWWWPPPNN",  # a meld: no seven pairs
    "七星不靠": "147s28m69pESWNPF3p",  # six honours: 全不靠
    "全双刻": "[444s,2][666s,3]444m44554p",  # a pair of fives
    "清一色": "[123p,1][333p,2]45678pEE9p",  # an honour pair: 混一色
    "一色三同顺": "[234m,1][234m,1]345m678p66s",  # the third chow shifted
    "一色三节高": "[666m,2]77999m678pWW7m",  # a gap in the pungs
    "全大": "[789s,1][999p,2]6789m789p9m",  # a 6
    "全中": "[444s,2][666s,3]345m44664p",  # a 3
    "全小": "11223344m33p1122s",  # a 4: 小于五
    "清龙": "123456s456m11789p",  # the straight over three suits: 花龙
    "三色双龙会": "[123s,1][789s,1][123m,1]89m66p7m",  # a pair of sixes
    "一色三步高": "[123s,1][345s,1]678s34pCC5p",  # 678 breaks the steps
    "全带五": "[345s,1]567s45556m234p",  # 234p has no five
    "三同刻": "[222s,2]111999m11991p",  # 222s instead of 111s
    "三暗刻": "[111s,2]111999m11991p|EE0000",  # the discard completes 111p
    "全不靠": "[FFF,2]147s258m39pWW6p",  # a pung and a pair: 组合龙
    "组合龙": "147s28m69pESWNPF3p",  # eight knitted tiles only
    "大于五": "[666s,2][777s,2][999s,2]56788s",  # a 5
    "小于五": "[123m,3]33345m222444p",  # a 5
    "三风刻": "[EEE,2][SSS,1]555m78sNN9s",  # two wind pungs
    "花龙": "123456s456s11789p",  # 456 in the wrong suit
    "推不倒": "[123p,3]23334p333444s",  # 3 bamboo is not reversible
    "三色三同顺": "[789s,1][999p,2]6789m789p9m",  # 678m
    "三色三节高": "[444p,2]333s66mWWCCC6m",  # 666m breaks the steps
    "无番和": "[123s,1][345s,1]678m56pWW7p|EE1000",  # self-drawn: 自摸
    "妙手回春": "123m456m789p123s55p|EE0010",  # on a discard: 海底捞月
    "海底捞月": "123m456m789p123s55p|EE1010",  # self-drawn: 妙手回春
    "杠上开花": "123m234p234s678s55p|EE1001",  # no kong: the condition is dropped
    "抢杠和": "[111p,1]234m234s678s5m5m|EE0001",  # the hand holds the winning tile
    "碰碰和": "[EEE,2][SSSS,1]WWW456mNN|SN1000",  # a chow
    "混一色": "[EEE,2][SSSS,1]WWW456p55m",  # two suits
    "三色三步高": "[345s,1]22456m222678p",  # 678p breaks the steps
    "五门齐": "[NNN,3][999p,1][CCC,2]999s11p|ES1000",  # no characters
    "全求人": "[123m,1][456m,1][789p,1][EEE,1]55s|EE1000",  # self-drawn
    "双暗杠": "[1111p][2222s,1]333444m88p",  # one kong exposed: 明暗杠
    "双箭刻": "[PPP,1][EEE,1]123m789s55p",  # one dragon pung
    "全带幺": "[234m,1][CCC,1]999s79998m",  # 234m
    "不求人": "12345789m55678s6m",  # on a discard: 门前清
    "双明杠": "[1111p,1][2222s]333444m88p",  # one kong concealed: 明暗杠
    "和绝张": "[666s,2][777s,2][999s,2]78868s|EE0100",  # the hand holds another 8s
    "箭刻": "[NNN,3][999p,1][111s,2]999sCC|ES1000",  # dragons as the pair only
    "圈风刻": "[EEE,2][SSSS,1]WWWNN555m|NN1000",  # the prevalent wind is the pair
    "门风刻": "[NNN,1]123m456p789s55m|ES0000",  # the seat wind is south
    "门前清": "[123s,1]456s456m11789p",  # a claimed chow
    "平和": "12345789m678sEE6m",  # an honour pair
    "四归一": "[123p,1][111s,2]45678996p",  # no tile four times
    "双同刻": "[NNN,3][888p,1][CCC,2]999s11m|ES1000",  # 888p and 999s
    "双暗刻": "[EEE,2][SSSS,1]WWWNN55mN|EE0000",  # the discard completes NNN
    "暗杠": "[1111p,1]222s333444m88p",  # the kong is exposed
    "断幺": "[345s,1]99456m222567p",  # a pair of nines
    "一般高": "[123m,1]456m789p123s55p",  # no two equal chows
    "喜相逢": "[123m,1]456m789m234s55p",  # no equal chows in two suits
    "连六": "[123m,1]345m789p234s55p",  # no six in a row
    "老少副": "[123m,1][CCC,1]999s67888m",  # 678 instead of 789
    "幺九刻": "[PPP,2][FFF,3]CC66888mC",  # 888m
    "明杠": "[EEE,2][SSSS]WWWNN55mN",  # the kong is concealed
    "缺一门": "[EEE,2][SSS,1]123m789s55p",  # all three suits
    "无字": "[1111p][2222m][3333s][4444s]EE",  # an honour pair
    "边张": "[123s,1][789s,1][123m,1]78m55p9m",  # 78m waits on 6m and 9m
    "坎张": "[123m,1]456p789s23m55p1m",  # 23m waits on 1m and 4m
    "单钓将": "[PPP,2][FFF,3]345m6667p7p",  # 6667p waits on 5p, 7p, 8p
    "自摸": "[EEE,2][SSSS,1]WWWNN55mN|EE0000",  # on a discard
    "花牌": "123m456m789p123s55p|EE0000|0",  # no flowers
}


def test_every_fan_has_a_near_miss():
    assert {fan_by_name(f).id for f in NEAR_MISSES} == set(range(81))


@pytest.mark.parametrize("fan, text", NEAR_MISSES.items(), ids=list(NEAR_MISSES))
def test_near_miss_does_not_score_the_fan(fan, text):
    hand, conditions = gb_case(text)
    result = score(hand, **conditions)  # a win: score() raises for anything else
    assert result.count(fan) == 0, result.fan_line()
