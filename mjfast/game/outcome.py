"""How a game ends and what each player scores: a win, an exhaustive draw, or a foul.

A declared win is scored with mjfast.fan under the judge's rules; it is legal only with the
8-fan minimum (flowers not counted). Settlement is mjfast.fan.settle: self-drawn, each other
player pays 8 + total; on a discard (or a robbed kong), the discarder pays 8 + total and the
two others 8 each. An exhaustive draw scores nothing.

A foul (an illegal or missing response, a declared win that is no win or scores under 8)
ends the game: the offender pays FOUL_PENALTY to each other player. This is the table's own
convention, written in the log as `Player <i> Invalid`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import HandError
from .state import IllegalAction, WinContext

if TYPE_CHECKING:  # the fan kernels load on first use
    from ..fan.result import FanResult

FOUL_PENALTY = 10


def score_win(win: WinContext, ruleset=None):
    """The FanResult of a declared win (under `ruleset`, the judge's by default); IllegalAction
    when the hand is no win or scores under the minimum."""
    from ..fan import score

    try:
        result = score(win.hand, ruleset=ruleset, **win.conditions)
    except HandError as exc:
        raise IllegalAction(f"player {win.winner} declares a win that is none: {exc}") from None
    if not result.meets_minimum:
        raise IllegalAction(f"player {win.winner} declares a win of {result.points} fans (flowers aside): "
                            f"the minimum is {result.ruleset.minimum}")
    return result


def win_scores(win: WinContext, result) -> tuple[int, ...]:
    from ..fan import settle

    return tuple(settle(result, win.winner, win.discarder))


def foul_scores(offender: int) -> tuple[int, ...]:
    return tuple(-3 * FOUL_PENALTY if p == offender else FOUL_PENALTY for p in range(4))


DRAWN_SCORES = (0, 0, 0, 0)


@dataclass(frozen=True)
class Outcome:
    """The end of a game. kind: "win", "draw" or "foul"; scores: the four players' deltas.
    For a win: `win` (the WinContext) and `fans` (mjfast.fan.FanResult); for a foul:
    `offender` and `reason`."""

    kind: str
    scores: tuple
    win: "WinContext | None" = None
    fans: "FanResult | None" = None
    offender: "int | None" = None
    reason: str = ""
