"""The race: the chance that another player ends the hand before the player's next draw.

In MCR someone wins almost every hand, and a hand a player does not win is one they cannot
win any more. The value model (ValueModel.hazard) takes, for each of the player's draws to
come, the chance that the round before it ends the hand: another player's win, self-drawn or
on anyone's discard. That chance is a logistic model of the round's stage (the draws the
player has made before it) and the melds the other players have exposed, fitted by
tables/fit_race.py on games under the real Botzone judge and checked on the real matches of
tests/data (docs/advice.md, "The race"). With the race the model plays to the end of the
player's wall (a drawn game is worth 0) instead of a fixed share of it, and a hand the race
ends costs the player RACE_ENDING points (ValueModel.ending): 8 when a third player deals in,
8 + fans when the winner draws it, on average over the fitted games. A deal-in (the danger)
costs the discarder 8 + fans instead, about 8 points more.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError
from .model import ValueModel, value_model

RACE_FEATURES = ("constant", "rounds past the first", "sqrt(rounds past the first)", "a round past the first",
                 "the others' exposed melds (at most 8)")
# Fitted by tables/fit_race.py (see the module doc).
RACE_WEIGHTS = np.array([-11.688, -0.371, 3.295, 2.474, 0.180])
RACE_ENDING = 12.9


def race_features(stage, melds) -> np.ndarray:
    """The race model's features (RACE_FEATURES) of rounds at `stage` (the draws the player has
    made before the round's draw) with `melds` exposed by the other players (broadcast)."""
    past = np.maximum(0.0, np.asarray(stage, np.float64) - 1.0)
    melds = np.minimum(np.asarray(melds, np.float64), 8.0)
    past, melds = np.broadcast_arrays(past, melds)
    return np.stack([np.ones_like(past), past, np.sqrt(past), (past > 0) * 1.0, melds], axis=-1)


def race_hazards(draws_made: int, draws: int, others_melds: int = 0) -> np.ndarray:
    """For each of the player's next `draws` draws, the chance that the round before it ends
    the hand by another player's win, for a player who has made `draws_made` draws, the others
    having exposed `others_melds` melds (kept as they are: the model does not grow them)."""
    if draws_made < 0 or draws < 1 or others_melds < 0:
        raise ArgumentError(f"race of {draws_made} draws made, {draws} to come, {others_melds} melds")
    stages = draws_made + np.arange(draws)
    return 1.0 / (1.0 + np.exp(-(race_features(stages, others_melds) @ RACE_WEIGHTS)))


def race_model(draws_made: int, draws: int, others_melds: int = 0, model: "ValueModel | None" = None) -> ValueModel:
    """`model` (the default ValueModel if None) playing the `draws` the player could still
    make (their wall, at most 40), each after a round the race may end (race_hazards) at a
    cost of RACE_ENDING."""
    draws = min(40, max(1, int(draws)))
    hazard = tuple(float(h) for h in race_hazards(int(draws_made), draws, int(others_melds)))
    return value_model(draws, (model or ValueModel())._replace(draws=draws, hazard=hazard, ending=RACE_ENDING))


def table_race_model(table, seat: int, model: "ValueModel | None" = None) -> ValueModel:
    """race_model of a game's table as `seat` sees it (mjfast.game.TableState)."""
    melds = sum(len(table.seats[o].melds) for o in range(4) if o != seat)
    return race_model(table.draws[seat], table.own_draws_left(seat), melds, model)
