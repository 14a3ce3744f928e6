"""The MCR fans: ids, Chinese and English names, points.

Ids 0-80 follow the Green Book order (the official numbering 1-81 minus one), which is also
the order of the seed rule documents and of the reference judge's fan table, so a fan list
printed in id order reads like the judge's. Id 81 is 明暗杠, the judge's extra 5-point fan
for one concealed and one exposed kong (ruling 13); `Ruleset.mixed_kongs_five` turns it off.

`aliases` lists other Chinese names the same fan goes by in the references this package is
checked against: the Botzone judge (2021) writes 嵌张 for 坎张, ChineseOfficialMahjongHelper
and PyMahjongGB (2023+) write 独听・边张 / 独听・嵌张 / 独听・单钓.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class FanInfo:
    """One fan kind: `id` (0-81), names, points per occurrence, other Chinese names."""

    id: int
    name_cn: str
    name_en: str
    points: int
    aliases: tuple[str, ...] = ()


# (constant name, Chinese, English, points, aliases)
_FANS: "tuple[tuple, ...]" = (
    ("BIG_FOUR_WINDS", "大四喜", "Big Four Winds", 88),
    ("BIG_THREE_DRAGONS", "大三元", "Big Three Dragons", 88),
    ("ALL_GREEN", "绿一色", "All Green", 88),
    ("NINE_GATES", "九莲宝灯", "Nine Gates", 88),
    ("FOUR_KONGS", "四杠", "Four Kongs", 88),
    ("SEVEN_SHIFTED_PAIRS", "连七对", "Seven Shifted Pairs", 88),
    ("THIRTEEN_ORPHANS", "十三幺", "Thirteen Orphans", 88),
    ("ALL_TERMINALS", "清幺九", "All Terminals", 64),
    ("LITTLE_FOUR_WINDS", "小四喜", "Little Four Winds", 64),
    ("LITTLE_THREE_DRAGONS", "小三元", "Little Three Dragons", 64),
    ("ALL_HONORS", "字一色", "All Honors", 64),
    ("FOUR_CONCEALED_PUNGS", "四暗刻", "Four Concealed Pungs", 64),
    ("PURE_TERMINAL_CHOWS", "一色双龙会", "Pure Terminal Chows", 64),
    ("QUADRUPLE_CHOW", "一色四同顺", "Quadruple Chow", 48),
    ("FOUR_PURE_SHIFTED_PUNGS", "一色四节高", "Four Pure Shifted Pungs", 48),
    ("FOUR_PURE_SHIFTED_CHOWS", "一色四步高", "Four Pure Shifted Chows", 32),
    ("THREE_KONGS", "三杠", "Three Kongs", 32),
    ("ALL_TERMINALS_AND_HONORS", "混幺九", "All Terminals and Honors", 32),
    ("SEVEN_PAIRS", "七对", "Seven Pairs", 24),
    ("GREATER_HONORS_AND_KNITTED", "七星不靠", "Greater Honors and Knitted Tiles", 24),
    ("ALL_EVEN_PUNGS", "全双刻", "All Even Pungs", 24),
    ("FULL_FLUSH", "清一色", "Full Flush", 24),
    ("PURE_TRIPLE_CHOW", "一色三同顺", "Pure Triple Chow", 24),
    ("PURE_SHIFTED_PUNGS", "一色三节高", "Pure Shifted Pungs", 24),
    ("UPPER_TILES", "全大", "Upper Tiles", 24),
    ("MIDDLE_TILES", "全中", "Middle Tiles", 24),
    ("LOWER_TILES", "全小", "Lower Tiles", 24),
    ("PURE_STRAIGHT", "清龙", "Pure Straight", 16),
    ("THREE_SUITED_TERMINAL_CHOWS", "三色双龙会", "Three-Suited Terminal Chows", 16),
    ("PURE_SHIFTED_CHOWS", "一色三步高", "Pure Shifted Chows", 16),
    ("ALL_FIVE", "全带五", "All Fives", 16),
    ("TRIPLE_PUNG", "三同刻", "Triple Pung", 16),
    ("THREE_CONCEALED_PUNGS", "三暗刻", "Three Concealed Pungs", 16),
    ("LESSER_HONORS_AND_KNITTED", "全不靠", "Lesser Honors and Knitted Tiles", 12),
    ("KNITTED_STRAIGHT", "组合龙", "Knitted Straight", 12),
    ("UPPER_FOUR", "大于五", "Upper Four", 12),
    ("LOWER_FOUR", "小于五", "Lower Four", 12),
    ("BIG_THREE_WINDS", "三风刻", "Big Three Winds", 12),
    ("MIXED_STRAIGHT", "花龙", "Mixed Straight", 8),
    ("REVERSIBLE_TILES", "推不倒", "Reversible Tiles", 8),
    ("MIXED_TRIPLE_CHOW", "三色三同顺", "Mixed Triple Chow", 8),
    ("MIXED_SHIFTED_PUNGS", "三色三节高", "Mixed Shifted Pungs", 8),
    ("CHICKEN_HAND", "无番和", "Chicken Hand", 8),
    ("LAST_TILE_DRAW", "妙手回春", "Last Tile Draw", 8),
    ("LAST_TILE_CLAIM", "海底捞月", "Last Tile Claim", 8),
    ("OUT_WITH_REPLACEMENT_TILE", "杠上开花", "Out with Replacement Tile", 8),
    ("ROBBING_THE_KONG", "抢杠和", "Robbing the Kong", 8),
    ("ALL_PUNGS", "碰碰和", "All Pungs", 6),
    ("HALF_FLUSH", "混一色", "Half Flush", 6),
    ("MIXED_SHIFTED_CHOWS", "三色三步高", "Mixed Shifted Chows", 6),
    ("ALL_TYPES", "五门齐", "All Types", 6),
    ("MELDED_HAND", "全求人", "Melded Hand", 6),
    ("TWO_CONCEALED_KONGS", "双暗杠", "Two Concealed Kongs", 6),
    ("TWO_DRAGON_PUNGS", "双箭刻", "Two Dragon Pungs", 6),
    ("OUTSIDE_HAND", "全带幺", "Outside Hand", 4),
    ("FULLY_CONCEALED_HAND", "不求人", "Fully Concealed Hand", 4),
    ("TWO_MELDED_KONGS", "双明杠", "Two Melded Kongs", 4),
    ("LAST_TILE", "和绝张", "Last Tile", 4),
    ("DRAGON_PUNG", "箭刻", "Dragon Pung", 2),
    ("PREVALENT_WIND", "圈风刻", "Prevalent Wind", 2),
    ("SEAT_WIND", "门风刻", "Seat Wind", 2),
    ("CONCEALED_HAND", "门前清", "Concealed Hand", 2),
    ("ALL_CHOWS", "平和", "All Chows", 2),
    ("TILE_HOG", "四归一", "Tile Hog", 2),
    ("DOUBLE_PUNG", "双同刻", "Double Pung", 2),
    ("TWO_CONCEALED_PUNGS", "双暗刻", "Two Concealed Pungs", 2),
    ("CONCEALED_KONG", "暗杠", "Concealed Kong", 2),
    ("ALL_SIMPLES", "断幺", "All Simples", 2),
    ("PURE_DOUBLE_CHOW", "一般高", "Pure Double Chow", 1),
    ("MIXED_DOUBLE_CHOW", "喜相逢", "Mixed Double Chow", 1),
    ("SHORT_STRAIGHT", "连六", "Short Straight", 1),
    ("TWO_TERMINAL_CHOWS", "老少副", "Two Terminal Chows", 1),
    ("PUNG_OF_TERMINALS_OR_HONORS", "幺九刻", "Pung of Terminals or Honors", 1),
    ("MELDED_KONG", "明杠", "Melded Kong", 1),
    ("ONE_VOIDED_SUIT", "缺一门", "One Voided Suit", 1),
    ("NO_HONORS", "无字", "No Honors", 1),
    ("EDGE_WAIT", "边张", "Edge Wait", 1, ("独听・边张",)),
    ("CLOSED_WAIT", "坎张", "Closed Wait", 1, ("嵌张", "独听・嵌张")),
    ("SINGLE_WAIT", "单钓将", "Single Wait", 1, ("单钓", "独听・单钓")),
    ("SELF_DRAWN", "自摸", "Self-Drawn", 1),
    ("FLOWER_TILES", "花牌", "Flower Tiles", 1),
    ("CONCEALED_KONG_AND_MELDED_KONG", "明暗杠", "Concealed Kong and Melded Kong", 5),
)

FANS: tuple[FanInfo, ...] = tuple(
    FanInfo(i, row[1], row[2], row[3], row[4] if len(row) > 4 else ()) for i, row in enumerate(_FANS)
)
N_FANS = len(FANS)  # 82: the 81 MCR fans and 明暗杠

# One constant a fan, its id (BIG_FOUR_WINDS = 0 ...), in the order of _FANS (tests check the two
# agree): the kernels read them as compile-time constants.
(
    BIG_FOUR_WINDS, BIG_THREE_DRAGONS, ALL_GREEN, NINE_GATES, FOUR_KONGS, SEVEN_SHIFTED_PAIRS, THIRTEEN_ORPHANS,
    ALL_TERMINALS, LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS, ALL_HONORS, FOUR_CONCEALED_PUNGS, PURE_TERMINAL_CHOWS,
    QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_PUNGS, FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS, ALL_TERMINALS_AND_HONORS,
    SEVEN_PAIRS, GREATER_HONORS_AND_KNITTED, ALL_EVEN_PUNGS, FULL_FLUSH, PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS,
    UPPER_TILES, MIDDLE_TILES, LOWER_TILES, PURE_STRAIGHT, THREE_SUITED_TERMINAL_CHOWS, PURE_SHIFTED_CHOWS,
    ALL_FIVE, TRIPLE_PUNG, THREE_CONCEALED_PUNGS, LESSER_HONORS_AND_KNITTED, KNITTED_STRAIGHT, UPPER_FOUR,
    LOWER_FOUR, BIG_THREE_WINDS, MIXED_STRAIGHT, REVERSIBLE_TILES, MIXED_TRIPLE_CHOW, MIXED_SHIFTED_PUNGS,
    CHICKEN_HAND, LAST_TILE_DRAW, LAST_TILE_CLAIM, OUT_WITH_REPLACEMENT_TILE, ROBBING_THE_KONG, ALL_PUNGS,
    HALF_FLUSH, MIXED_SHIFTED_CHOWS, ALL_TYPES, MELDED_HAND, TWO_CONCEALED_KONGS, TWO_DRAGON_PUNGS, OUTSIDE_HAND,
    FULLY_CONCEALED_HAND, TWO_MELDED_KONGS, LAST_TILE, DRAGON_PUNG, PREVALENT_WIND, SEAT_WIND, CONCEALED_HAND,
    ALL_CHOWS, TILE_HOG, DOUBLE_PUNG, TWO_CONCEALED_PUNGS, CONCEALED_KONG, ALL_SIMPLES, PURE_DOUBLE_CHOW,
    MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS, PUNG_OF_TERMINALS_OR_HONORS, MELDED_KONG,
    ONE_VOIDED_SUIT, NO_HONORS, EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT, SELF_DRAWN, FLOWER_TILES,
    CONCEALED_KONG_AND_MELDED_KONG,
) = range(N_FANS)

# Points per fan id, for the kernels.
FAN_POINTS = np.array([f.points for f in FANS], dtype=np.int64)

# The order results list their fans in: by points, highest first, Green Book order within
# equal points (明暗杠, 5 points, sits between the 6- and 4-point fans).
DISPLAY_ORDER = np.array(sorted(range(N_FANS), key=lambda i: (-FANS[i].points, i)), np.int64)

_BY_NAME = {}
for _f in FANS:
    for _name in (_f.name_cn, _f.name_en, *_f.aliases):
        _BY_NAME[_name] = _f
    _BY_NAME[_f.name_en.lower()] = _f


def fan_by_name(name: str) -> FanInfo:
    """The fan called `name`: Chinese name, English name (any case) or a known alias."""
    from ..errors import ArgumentError

    found = _BY_NAME.get(name) or _BY_NAME.get(name.lower() if isinstance(name, str) else name)
    if found is None:
        raise ArgumentError(f"unknown fan name {name!r}")
    return found
