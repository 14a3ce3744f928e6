"""The disputed points of MCR scoring as named switches, and the rulebooks as presets of them.

Every switch defaults to the choice of the reference judge (ChineseOfficialMahjongHelper as
used on Botzone, see shared/data/vectors/rulings_summerinsects_app.md); docs/fan.md gives the
other reading and the rule text it follows. The kernels receive the switches as one integer
(`Ruleset.code`), one bit per switch, set when the switch departs from the judge, so that the
judge's rules are code 0. A rulebook is a preset: the judge (JUDGE), Tziakcha's server and
GB-Mahjong (TZIAKCHA), the World Mahjong Organization's rules (WMO_2014); RULESETS names them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property

from ..errors import ArgumentError

# Bit of each switch in Ruleset.code (set = the non-judge reading).
SEPARATE_MIXED_KONGS = 1  # mixed_kongs_five=False: 明杠 1 + 暗杠 2 instead of 明暗杠 5
NO_KNITTED_BODY_WAITS = 2  # knitted_body_waits=False: a wait on the 组合龙 body is no 边/嵌/钓
CONCEALED_FORMS_FULLY_CONCEALED = 4  # 七对, 十三幺... self-drawn score 不求人 instead of 自摸
LIVE_WAITS_ONLY = 8  # formal_waits=False: a tile the hand holds all four of is no wait
SEVEN_PAIRS_PLAIN = 16  # seven_pairs_tile_fans=False: 七对 takes no 绿一色/字一色/幺九/全大...
BIG_FANS_VOID_SUIT = 32  # voided_suit_with_big_fans=False: 大三元, 一色四同顺... exclude 缺一门
ALL_TERMINALS_NO_TRIPLE_PUNG = 64  # all_terminals_triple_pung=False: 清幺九 excludes 三同刻
MIXED_KONGS_SIX = 128  # mixed_kongs_six=True: 双明杠 4 + 暗杠 2 for one concealed and one exposed kong
WAIT_IN_LAST_SET = 256  # wait_in_last_set=True: the winning tile is read in one set only, GB-Mahjong's


@dataclass(frozen=True)
class Ruleset:
    """Named scoring switches; the defaults are the reference judge's rulings.

    mixed_kongs_five: one concealed and one exposed kong score the judge's special fan 明暗杠
        (5 points, ruling 13). Off: they score 暗杠 2 + 明杠 1, the plain reading of the
        81-fan list, which has no fan for that pair.
    knitted_body_waits: in a 组合龙 + set + pair hand, a winning tile that could be read both
        as completing the knitted straight and as an edge, closed or single wait still scores
        边张/坎张/单钓将 (ruling 4). Off: GB-Mahjong's reading, no wait fan when the winning
        tile is part of the knitted straight.
    concealed_forms_fully_concealed: hands that are concealed by their form (七对, 全不靠,
        七星不靠, 十三幺, 四暗刻, 连七对, 九莲宝灯) score only 自摸 when self-drawn (ruling 5).
        On: they score 不求人 instead, as some seed rule pages write ("自摸加计不求人").
    formal_waits: a hand that formally waits on several tiles, counting tiles it already
        holds all four of, scores no 边张/坎张/单钓将 (ruling 3). Off: a tile whose four
        copies are all in the hand is not a wait, so the remaining wait may be unique.
    seven_pairs_tile_fans: 七对 combines with 绿一色, 字一色, 清幺九, 混幺九, 全大, 全中, 全小,
        大于五 and 小于五 (ruling 6). Off: the strict 1998 reading, 七对 takes none of them.
    voided_suit_with_big_fans: 缺一门 is added to 大三元, 小三元, 三风刻, 一色四同顺,
        一色四节高 and 一色四步高 when a suit is missing (ruling 8). Off: strict 1998, those
        fans exclude 缺一门.
    all_terminals_triple_pung: 清幺九 may add 三同刻 (ruling 10; it never adds 双同刻).
        Off: strict 1998 reading of "不计同刻", 清幺九 excludes 三同刻 too.
    mixed_kongs_six: one concealed and one exposed kong score 双明杠 4 + 暗杠 2, as the World
        Mahjong Organization's rules write under 双明杠; needs mixed_kongs_five off.
    wait_in_last_set: the judge reads a winning tile that completes several of a split's
        sets (all unique waits) as the one that scores, 边张 before 坎张 before 单钓将 (ruling
        3). On: GB-Mahjong's and Tziakcha's reading, the tile completes the last of the sets
        that hold its kind, formed from the lowest tile up (a pair before a set starting on the
        same tile), and scores that set's wait fan or none (one point either way).
    minimum: the fans (flowers not counted) a hand needs to be a legal win.
    """

    mixed_kongs_five: bool = True
    knitted_body_waits: bool = True
    concealed_forms_fully_concealed: bool = False
    formal_waits: bool = True
    seven_pairs_tile_fans: bool = True
    voided_suit_with_big_fans: bool = True
    all_terminals_triple_pung: bool = True
    mixed_kongs_six: bool = False
    wait_in_last_set: bool = False
    minimum: int = 8

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "minimum":
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise ArgumentError(f"Ruleset.minimum must be a non-negative int, got {value!r}")
            elif not isinstance(value, bool):
                raise ArgumentError(f"Ruleset.{f.name} must be True or False, got {value!r}")
        if self.mixed_kongs_five and self.mixed_kongs_six:
            raise ArgumentError("Ruleset: mixed_kongs_five and mixed_kongs_six are two scores of the same kongs; "
                            "turn one off")

    @cached_property
    def code(self) -> int:
        """The switches as the kernels' bit set (0 = the judge's rules)."""
        return (
            (0 if self.mixed_kongs_five else SEPARATE_MIXED_KONGS)
            | (0 if self.knitted_body_waits else NO_KNITTED_BODY_WAITS)
            | (CONCEALED_FORMS_FULLY_CONCEALED if self.concealed_forms_fully_concealed else 0)
            | (0 if self.formal_waits else LIVE_WAITS_ONLY)
            | (0 if self.seven_pairs_tile_fans else SEVEN_PAIRS_PLAIN)
            | (0 if self.voided_suit_with_big_fans else BIG_FANS_VOID_SUIT)
            | (0 if self.all_terminals_triple_pung else ALL_TERMINALS_NO_TRIPLE_PUNG)
            | (MIXED_KONGS_SIX if self.mixed_kongs_six else 0)
            | (WAIT_IN_LAST_SET if self.wait_in_last_set else 0)
        )

    @property
    def name(self) -> "str | None":
        """The preset this ruleset is (a key of RULESETS), or None for another set of switches."""
        return next((name for name, preset in RULESETS.items() if preset == self), None)

    @classmethod
    def strict_1998(cls) -> "Ruleset":
        """The strict reading of the 1998 rules where the judge relaxed them (rulings 6, 8, 10)."""
        return cls(seven_pairs_tile_fans=False, voided_suit_with_big_fans=False, all_terminals_triple_pung=False)


JUDGE = Ruleset()
# Tziakcha's server scores as GB-Mahjong (zheng-fan/GB-Mahjong) does: no wait fan for a tile of
# the 组合龙, and the winning tile read in the last set of its kind. docs/fan.md ("Rulebooks")
# cites each.
TZIAKCHA = Ruleset(knitted_body_waits=False, wait_in_last_set=True)
# The World Mahjong Organization's Mahjong Competition Rules (the Green Book): 双明杠 + 暗杠 for
# one concealed and one exposed kong, 不求人 for the concealed forms self-drawn.
WMO_2014 = Ruleset(mixed_kongs_five=False, mixed_kongs_six=True, concealed_forms_fully_concealed=True)
RULESETS = {"judge": JUDGE, "tziakcha": TZIAKCHA, "wmo2014": WMO_2014, "strict_1998": Ruleset.strict_1998()}


def ruleset_of(ruleset) -> Ruleset:
    """`ruleset` itself, the preset it names (a key of RULESETS), or the judge's rules for None."""
    if ruleset is None:
        return JUDGE
    if isinstance(ruleset, str):
        return ruleset_named(ruleset)
    if not isinstance(ruleset, Ruleset):
        raise ArgumentError(f"ruleset must be a mjfast Ruleset, a preset's name or None, got {type(ruleset).__name__}")
    return ruleset


def ruleset_named(name: str) -> Ruleset:
    """The preset called `name` (judge, tziakcha, wmo2014, strict_1998); HandError otherwise."""
    found = RULESETS.get(name)
    if found is None:
        raise ArgumentError(f"unknown ruleset {name!r}; the presets are {', '.join(RULESETS)}")
    return found
