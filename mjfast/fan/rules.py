"""Fan rules that look at the whole hand rather than at one split of it into sets.

* the tiles: suits (无字, 缺一门, 混一色, 清一色, 五门齐), their kinds (断幺, 推不倒, 绿一色,
  字一色, 清幺九, 混幺九) and their ranks (大于五, 小于五, 全大, 全中, 全小);
* the win conditions (自摸, 和绝张, 妙手回春, 海底捞月, 杠上开花, 抢杠和);
* kongs and concealed pungs (明杠 ... 四杠, 双暗刻 ... 四暗刻), from their numbers;
* the wind and terminal pungs (圈风刻, 门风刻, 幺九刻).

All write counts into a fan table: an int64 array indexed by fan id.
"""

from ..runtime.decorators import njit
from ..tileprops import IS_DRAGON, IS_GREEN, IS_HONOR, IS_REVERSIBLE, IS_TERMINAL, IS_WIND, RANK, SUIT
from .layout import WIN_KONG, WIN_LAST_COPY, WIN_LAST_TILE, WIN_SELF_DRAWN
from .names import (
    ALL_GREEN,
    ALL_HONORS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    CONCEALED_KONG,
    CONCEALED_KONG_AND_MELDED_KONG,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FULL_FLUSH,
    HALF_FLUSH,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    LOWER_FOUR,
    LOWER_TILES,
    MELDED_KONG,
    MIDDLE_TILES,
    NO_HONORS,
    ONE_VOIDED_SUIT,
    OUT_WITH_REPLACEMENT_TILE,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    REVERSIBLE_TILES,
    ROBBING_THE_KONG,
    SEAT_WIND,
    SELF_DRAWN,
    THREE_CONCEALED_PUNGS,
    THREE_KONGS,
    TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS,
    TWO_MELDED_KONGS,
    UPPER_FOUR,
    UPPER_TILES,
)
from .ruleset import MIXED_KONGS_SIX, SEPARATE_MIXED_KONGS


@njit
def tile_fans(held, table, with_kind_and_rank_fans):
    """Fans of the set of tiles the hand holds (`held`: 34 counts, melds included).

    `with_kind_and_rank_fans` False leaves out 绿一色, 字一色, 清幺九, 混幺九 and the rank-range
    fans (the strict reading for 七对, Ruleset.seven_pairs_tile_fans=False).
    """
    suits_present = 0  # bits 0-2: the suits held
    any_wind = False
    any_dragon = False
    all_green = True
    all_reversible = True
    all_honors = True
    all_terminals = True
    all_terminals_or_honors = True
    no_terminals_or_honors = True
    rank_bits = 0  # bit r: a suited tile of rank r is held
    for t in range(34):
        if held[t] == 0:
            continue
        if IS_HONOR[t]:
            any_wind = any_wind or IS_WIND[t]
            any_dragon = any_dragon or IS_DRAGON[t]
            all_terminals = False
            no_terminals_or_honors = False
        else:
            suits_present |= 1 << SUIT[t]
            rank_bits |= 1 << RANK[t]
            all_honors = False
            if IS_TERMINAL[t]:
                no_terminals_or_honors = False
            else:
                all_terminals = False
                all_terminals_or_honors = False
        all_green = all_green and IS_GREEN[t]
        all_reversible = all_reversible and IS_REVERSIBLE[t]
    honors = any_wind or any_dragon
    n_suits = (suits_present & 1) + ((suits_present >> 1) & 1) + ((suits_present >> 2) & 1)
    if not honors:
        table[NO_HONORS] = 1
    if n_suits == 2:
        table[ONE_VOIDED_SUIT] = 1
    elif n_suits == 1:
        if honors:
            table[HALF_FLUSH] = 1
        else:
            table[FULL_FLUSH] = 1
            table[NO_HONORS] = 0
    elif n_suits == 3 and any_wind and any_dragon:
        table[ALL_TYPES] = 1
    if no_terminals_or_honors:
        table[ALL_SIMPLES] = 1
    if all_reversible:
        table[REVERSIBLE_TILES] = 1
    if not with_kind_and_rank_fans:
        return
    if all_green:
        table[ALL_GREEN] = 1
    if not no_terminals_or_honors:
        if all_honors:
            table[ALL_HONORS] = 1
        elif all_terminals:
            table[ALL_TERMINALS] = 1
        elif all_terminals_or_honors:
            table[ALL_TERMINALS_AND_HONORS] = 1
    if honors:
        return
    if rank_bits & ~0b11110 == 0:  # ranks 1-4 only
        table[LOWER_FOUR if rank_bits & (1 << 4) else LOWER_TILES] = 1
    elif rank_bits & ~0b1111000000 == 0:  # ranks 6-9 only
        table[UPPER_FOUR if rank_bits & (1 << 6) else UPPER_TILES] = 1
    elif rank_bits & ~0b1110000 == 0:  # ranks 4-6 only
        table[MIDDLE_TILES] = 1


@njit
def condition_fans(conditions, table):
    """Fans of how the hand won (conditions already corrected, see kernel.correct_conditions).
    自摸 is set even where 妙手回春, 杠上开花 or 不求人 exclude it; the exclusions remove it."""
    if conditions & WIN_LAST_COPY:
        table[LAST_TILE] = 1
    if conditions & WIN_SELF_DRAWN:
        table[SELF_DRAWN] = 1
        if conditions & WIN_LAST_TILE:
            table[LAST_TILE_DRAW] = 1
        if conditions & WIN_KONG:
            table[OUT_WITH_REPLACEMENT_TILE] = 1
    else:
        if conditions & WIN_LAST_TILE:
            table[LAST_TILE_CLAIM] = 1
        if conditions & WIN_KONG:
            table[ROBBING_THE_KONG] = 1


@njit(cache=True)
def kong_fans(melded_kongs, concealed_kongs, concealed_pungs, table, rules):
    """One kong fan and one concealed-pung fan at most (ruling 14); one concealed and one
    exposed kong score 明暗杠, or 双明杠 + 暗杠, or 明杠 + 暗杠, as the ruleset says.

    Concealed kongs count as concealed pungs. The one exception: two concealed kongs and no
    other concealed pung score 双暗杠 alone, without 双暗刻.
    """
    kongs = melded_kongs + concealed_kongs
    if kongs == 4:
        table[FOUR_KONGS] = 1
    elif kongs == 3:
        table[THREE_KONGS] = 1
    elif kongs == 2:
        if concealed_kongs == 2:
            table[TWO_CONCEALED_KONGS] = 1
        elif concealed_kongs == 0:
            table[TWO_MELDED_KONGS] = 1
        elif rules & MIXED_KONGS_SIX:  # the WMO's reading: two kongs, one of them concealed
            table[TWO_MELDED_KONGS] = 1
            table[CONCEALED_KONG] = 1
        elif rules & SEPARATE_MIXED_KONGS:
            table[MELDED_KONG] = 1
            table[CONCEALED_KONG] = 1
        else:
            table[CONCEALED_KONG_AND_MELDED_KONG] = 1
    elif kongs == 1:
        table[CONCEALED_KONG if concealed_kongs == 1 else MELDED_KONG] = 1
    concealed = concealed_kongs + concealed_pungs
    if concealed == 4:
        table[FOUR_CONCEALED_PUNGS] = 1
    elif concealed == 3:
        table[THREE_CONCEALED_PUNGS] = 1
    elif concealed == 2 and not (kongs == 2 and concealed_kongs == 2):
        table[TWO_CONCEALED_PUNGS] = 1


@njit
def wind_or_terminal_pung_fans(t, seat, prevalent, in_big_three_winds, table):
    """圈风刻, 门风刻 or 幺九刻 for one pung or kong of tile `t` (箭刻 is counted with the
    dragon combinations). A wind pung that scores 圈风刻 or 门风刻, or is one of a 三风刻, is
    not also a 幺九刻."""
    if IS_WIND[t]:
        wind = t - 27
        own = False
        if wind == prevalent:
            table[PREVALENT_WIND] = 1
            own = True
        if wind == seat:
            table[SEAT_WIND] = 1
            own = True
        if not own and not in_big_three_winds:
            table[PUNG_OF_TERMINALS_OR_HONORS] += 1
    elif IS_TERMINAL[t]:
        table[PUNG_OF_TERMINALS_OR_HONORS] += 1
