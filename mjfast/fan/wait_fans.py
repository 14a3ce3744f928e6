"""The wait fans, 边张, 坎张 and 单钓将: where the winning tile sits in a reading of the hand
(in a concealed chow's middle or end, or as the pair), the fan that place scores, and whether
the hand waited on that tile alone (a wait fan needs a unique wait). forms.py's readings ask.
"""

from ..runtime.decorators import njit
from ..tileprops import RANK
from .layout import CHOW_SET
from .names import CLOSED_WAIT, EDGE_WAIT, SINGLE_WAIT
from .ruleset import LIVE_WAITS_ONLY
from .state import NOT_UNIQUE, UNIQUE, UNKNOWN, W_UNIQUE
from .waits import has_other_wait

# Where the winning tile sits, as bits: the end of a chow (an edge wait when the chow is 12 or
# 89 waiting on 3 or 7), its middle, the pair.
AT_EDGE, AT_MIDDLE, AS_PAIR = 1, 2, 4


@njit
def position_in_chow(low, win):
    """AT_MIDDLE or AT_EDGE if the winning tile is in the chow starting at `low`, else 0."""
    if win == low + 1:
        return AT_MIDDLE
    if win == low or win == low + 2:
        return AT_EDGE
    return 0


@njit
def wait_position(kinds, tiles, opens, n, pair, win):
    """Where the winning tile sits among the concealed chows and the pair (bit set)."""
    where = AS_PAIR if pair == win else 0
    for i in range(n):
        if opens[i] == 0 and kinds[i] == CHOW_SET:
            where |= position_in_chow(tiles[i], win)
    return where


@njit
def wait_fan(where, table):
    """One of 边张, 坎张, 单钓将 at most, in that order of preference (ruling 3)."""
    if where & AT_EDGE:
        table[EDGE_WAIT] = 1
    elif where & AT_MIDDLE:
        table[CLOSED_WAIT] = 1
    elif where & AS_PAIR:
        table[SINGLE_WAIT] = 1


@njit
def later_set(kind, low, win, start, place):
    """Ruleset.wait_in_last_set: (start, place) of the last set holding the winning tile's kind
    after a standing set (kind, lowest tile), given those of the sets before: the set is later
    if it starts at or above `start`; its place is the wait it makes (an edge wait only for
    the 3 of 12 and the 7 of 89; none for a pung or the other end of a chow)."""
    if low >= start:
        if kind == CHOW_SET and low <= win <= low + 2:
            if win == low + 1:
                return low, AT_MIDDLE
            rank = RANK[low]
            return low, AT_EDGE if (rank == 1 and win == low + 2) or (rank == 7 and win == low) else 0
        if kind != CHOW_SET and low == win:
            return low, 0
    return start, place


@njit
def last_set_place(kinds, tiles, first, pair, win):
    """Ruleset.wait_in_last_set: the place of the winning tile in a split (standing sets from
    `first`), GB-Mahjong's reading: in the last of the sets and the pair that hold its kind,
    formed from the lowest tile up, the pair before a set that starts on the same tile."""
    start, place = (pair, AS_PAIR) if pair == win else (-1, 0)
    for i in range(first, 4):
        start, place = later_set(kinds[i], tiles[i], win, start, place)
    return place


@njit
def hand_unique_wait(hand):
    """Whether the hand waited on its winning tile alone (computed once per hand)."""
    if hand.work[W_UNIQUE] == UNKNOWN:
        other = has_other_wait(hand.counts, hand.win, hand.held, hand.n_melds, hand.rules & LIVE_WAITS_ONLY != 0)
        hand.work[W_UNIQUE] = NOT_UNIQUE if other else UNIQUE
    return hand.work[W_UNIQUE] == UNIQUE
