"""The value model's parameters (docs/advice.md states the model and how they were chosen),
and the rankings best_discards knows."""

from __future__ import annotations

from typing import NamedTuple, cast

import numpy as np

from ..errors import ArgumentError


class ValueModel(NamedTuple):
    """The value model's parameters (docs/advice.md states the model and how they were chosen).

    draws: the player's own draws the model plays out. A table knows its tiles left, and
    draws_left(tiles_left) turns them into the draws a game is likely to last (strong games
    end, by someone's win, after about half the wall); a hand alone gets DRAWS, a game's
    middle. ron_discards: the discards by others before each of the player's draws, each a
    chance of a win on it. hazard: the chance that a round ends the game otherwise, one for
    all or one for each draw to come (advice.race: another player's win). extra: how
    many steps behind the best route a hand may fall and still be played (exchanges: a ready
    hand short of 8 fans must change its waits). claims: how much of the other players'
    discards' measured chances to chow and pung the continuation counts (advice.claim_rates;
    docs/advice.md): 0 none, 1 all. ending: the points the player pays, on average, when the
    hazard ends the hand (another player's win the player did not deal in; advice.race): with
    it expected_score counts every ending of the hand, not only the player's wins."""

    draws: int = 10
    ron_discards: float = 2.0
    hazard: "float | tuple[float, ...]" = 0.0
    extra: int = 1
    claims: float = 0.0
    ending: float = 0.0


VALUE_MODEL = ValueModel()
# How best_discards orders discards by default, and the other rankings it knows.
RANKINGS = ("expected-score", "win-probability", "fan-aware", "efficiency")
DEFAULT_RANKING = "expected-score"


def draws_left(own_draws: int) -> int:
    """The own draws a game is likely to go on for when the player could still make `own_draws`
    (TableState.own_draws_left): half of them (in the 19 strong games of tests/data/logs, the
    draws a player still made were 0.3 to 0.55 of the tiles left in their wall, 0.45 on
    average), at least one, at most 40."""
    return min(40, max(1, (int(own_draws) + 1) // 2))


def one_hazard(model: ValueModel) -> bool:
    """Whether the model's hazard is one chance for every draw (a number), not one a draw."""
    return np.ndim(model.hazard) == 0


def a_round_on(model: ValueModel) -> ValueModel:
    """The model's race a round later (a claim takes the round's draw): its hazards from the next draw."""
    if one_hazard(model) or model.draws == 1:
        return model
    return model._replace(hazard=cast(tuple, model.hazard)[1:])  # one a draw: a sequence


def value_model(draws=None, model: "ValueModel | None" = None) -> ValueModel:
    """The model of a query: `model` (VALUE_MODEL if None) with `draws` if given, checked."""
    model = VALUE_MODEL if model is None else model
    if draws is not None:
        model = model._replace(draws=draws)
    whole = isinstance(model.draws, (int, np.integer)) and not isinstance(model.draws, bool)
    if not (whole and 1 <= model.draws <= 40):
        raise ArgumentError(f"draws must be an integer 1..40 (the draws the player has left), got {model.draws!r}")
    if one_hazard(model):
        hazard_ok = isinstance(model.hazard, (int, float, np.number)) and 0 <= model.hazard < 1
    else:  # one a draw
        hazard = np.asarray(model.hazard, np.float64)
        if hazard.ndim != 1 or len(hazard) < model.draws:
            raise ArgumentError(f"hazard needs a chance for each of the {model.draws} draws, got {model.hazard!r}")
        hazard_ok = bool(np.all((0 <= hazard) & (hazard < 1)))
    if not 0 <= model.ron_discards <= 10 or not hazard_ok or model.extra not in (0, 1, 2) \
            or not 0 <= model.claims <= 1 or not 0 <= model.ending <= 1000:
        raise ArgumentError(f"value model out of range: {model}")
    return model
