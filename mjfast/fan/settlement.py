"""Settlement: the score changes of the four players after a win (the seed rules' formula).

Self-drawn win: each of the three others pays 8 + total. Win on a discard (or on a robbed
kong, where the player who added the kong counts as the discarder): the discarder pays
8 + total and the two others 8 each. The total includes flowers; the deltas sum to zero.
"""

from __future__ import annotations

from ..errors import ArgumentError, HandError
from ..runtime.decorators import jitable
from .result import FanResult

BASE_POINTS = 8  # what every loser pays on top of the fans (the discarder) or alone (others)


@jitable
def winner_gain(total, self_drawn):
    """What the winner of a hand of `total` fans (flowers included) gains: 3 x (8 + total)
    self-drawn, 8 + total + 2 x 8 on a discard. The value kernel and claim_options count wins
    with it, as settle does."""
    return 3 * (BASE_POINTS + total) if self_drawn else 3 * BASE_POINTS + total


@jitable
def discarder_pays(total):
    """What the discarder of a winning tile pays for a hand of `total` fans: 8 + total (the
    two others pay 8 either way)."""
    return BASE_POINTS + total


def _seat(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ArgumentError(f"{what} must be a player 0-3, got {value!r}")
    return value


def settle(result: FanResult, winner: int, discarder: "int | None" = None) -> list[int]:
    """Score deltas of players 0-3 for `result`, won by `winner`, on `discarder`'s tile
    (None for a self-drawn win).

    Raises HandError if the result is below the minimum (not a legal win), ArgumentError if
    `discarder` contradicts how the hand was scored (a discarder for a self-drawn win, or none
    for a win on a discard) or a player is not one.
    """
    if not isinstance(result, FanResult):
        raise ArgumentError(f"settle needs a FanResult from score(), got {type(result).__name__}")
    winner = _seat(winner, "winner")
    if not result.meets_minimum:
        raise HandError(
            f"{result.points} fans (flowers not counted) is below the minimum of {result.ruleset.minimum}: "
            "not a legal win, nothing to settle"
        )
    total = result.total
    if discarder is None:
        if not result.self_drawn:
            raise ArgumentError("the hand was scored as a win on a discard: settle needs the discarder")
        deltas = [-discarder_pays(total)] * 4  # each of the three others pays as a discarder would
        deltas[winner] = winner_gain(total, True)
        return deltas
    discarder = _seat(discarder, "discarder")
    if discarder == winner:
        raise ArgumentError(f"player {winner} cannot win on their own discard: pass discarder=None for a self-drawn "
                            "win")
    if result.self_drawn:
        raise ArgumentError("the hand was scored as self-drawn: a self-drawn win has no discarder")
    deltas = [-BASE_POINTS] * 4
    deltas[discarder] = -discarder_pays(total)
    deltas[winner] = winner_gain(total, False)
    return deltas
