"""A value query as one record family, built once in Python and carried unchanged down to the
kernels: the hand's Position, the Model as the kernels read it, the danger (Risk), and the
Figures written back. new_query converts every field to the one type the kernels are compiled
for (advice.value.budget calls the entry kernel through its compiled entry point)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..claim_rates import claim_weights


class Position(NamedTuple):
    """The hand and what its player sees, and how a win there is scored."""

    table: np.ndarray  # the regular-form lookup table
    counts: np.ndarray  # standing tiles, 34 counts
    meld_counts: np.ndarray  # the melds' tiles, 34 counts
    n_melds: int
    melds: int  # the melds packed (fan.encode.pack_melds), 0 without
    total: int  # 14: every discard of the hand is valued; 13: the hand as it stands
    visible: np.ndarray  # the tiles seen elsewhere, 34 counts
    seat: int  # seat and prevalent winds, 0-3 (E, S, W, N)
    prevalent: int
    rules: int  # the Ruleset's code
    minimum: int  # the fans a win needs
    flowers: int


class Model(NamedTuple):
    """A ValueModel (advice.model, checked) as the kernels read it."""

    draws: int  # the draws the player has left
    ron_discards: float  # the discards a draw's turn offers to win on
    hazard: float  # the chance a draw's turn ends the hand
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
    return Model(int(value_model.draws), float(value_model.ron_discards), float(value_model.hazard),
                 int(value_model.extra), claim_weights(value_model))


def new_query(position: Position, value_model, risk: Risk, shanten: int) -> Query:
    """A Query of a Position (its arrays as the kernels take them: the caller's efficiency.api
    conversions), a checked ValueModel and a Risk, every scalar of the one type the kernels
    are compiled for."""
    (table, counts, meld_counts, n_melds, melds, total, visible, seat, prevalent, rules, minimum, flowers) = position
    position = Position(table, counts, meld_counts, int(n_melds), int(melds), int(total), visible, int(seat),
                        int(prevalent), int(rules), int(minimum), int(flowers))
    return Query(position, model_of(value_model), risk, int(shanten))


def figures_for(query: Query) -> Figures:
    """Empty Figures for a query's answer."""
    draws = query.model.draws
    return Figures(np.empty((34, draws)), np.empty((34, draws)), np.empty(34))
