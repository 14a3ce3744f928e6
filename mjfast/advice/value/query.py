"""A value query as one record family, built once in Python and carried unchanged down to the
kernels: the hand's Position (advice.position, the record every ranking reads), the Model as
the kernels read it, the danger (Risk), and the Figures written back. Every field is of the one
type the kernels are compiled for (advice.value.budget calls the entry kernel through its
compiled entry point)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..claim_rates import claim_weights
from ..model import one_hazard
from ..position import Position


class Model(NamedTuple):
    """A ValueModel (advice.model, checked) as the kernels read it."""

    draws: int  # the draws the player has left
    ron_discards: float  # the discards a draw's turn offers to win on
    hazard: np.ndarray  # hazard[s]: the chance the round before the draw s + 1 draws from now ends the hand
    ending: float  # the points the player pays when another player's win ends the hand (0: not counted)
    extra: int  # the exchanges: steps behind the best discard the graph follows
    claim_weight: np.ndarray  # 2 x 34: the claims' weights (claim_rates.claim_weights); 0 rows: no claims


class Risk(NamedTuple):
    """The danger, the one shape the engine knows (advice.danger.risk_of makes it from a
    Danger, checked): the chance each discard deals in now, the points that costs, and the
    danger s draws from now over the danger now (growth[s], draws + 1 at least)."""

    deal_in: np.ndarray
    loss: np.ndarray
    growth: np.ndarray


class Query(NamedTuple):
    """One value graph: the position, the model, the danger, and the shanten it is played from
    (after the best discard for 14 tiles; MAX_EXCHANGE_SHANTEN applies to it)."""

    position: Position
    model: Model
    risk: Risk
    shanten: int


class Figures(NamedTuple):
    """A query's figures: ready and win curves (34 x draws) and expected scores (34), by the
    tile discarded (for 13 tiles: row 0, the hand as it stands)."""

    ready: np.ndarray
    win: np.ndarray
    score: np.ndarray


NO_CLAIMS = np.zeros((0, 34))
NO_RISK = Risk(np.zeros(34), np.zeros(34), np.ones(42))  # 40 draws at most


def model_of(value_model) -> Model:
    """The Model of a checked advice.model.ValueModel, its claims' weights worked out."""
    return Model(int(value_model.draws), float(value_model.ron_discards), hazards(value_model),
                 float(value_model.ending), int(value_model.extra), claim_weights(value_model))


def hazards(value_model) -> np.ndarray:
    """The model's hazard a draw: a constant, or the race's chance by the draws from now."""
    draws = int(value_model.draws)
    if one_hazard(value_model):
        return np.full(draws, float(value_model.hazard))
    return np.ascontiguousarray(value_model.hazard[:draws], np.float64)


def new_query(position: Position, value_model, risk: Risk, shanten: int) -> Query:
    """A Query of a Position (advice.position.new_position's), a checked ValueModel and a Risk."""
    return Query(position, model_of(value_model), risk, int(shanten))


def figures_for(query: Query) -> Figures:
    """Empty Figures for a query's answer."""
    draws = query.model.draws
    return Figures(np.empty((34, draws)), np.empty((34, draws)), np.empty(34))
