"""How often the other players discard a tile: the value model's chances to claim
(docs/advice.md, "Claims in the continuation"). Measured by tables/fit_claims.py on the real
matches of tests/data.

A discard by another player is tile t with probability RATES[class of t][stage] x (unseen
copies of t) / (unseen tiles): the tiles the player has not seen, weighted by how much more
or less often their class is thrown than its share of them (honours early far more, the
middle tiles less). The stage is the own draws the player can still make."""

from __future__ import annotations

import numpy as np

# The stage of the game by the own draws left (TableState.own_draws_left): at least 15, at
# least 8, fewer (a Botzone wall gives a player 21 draws after the deal).
STAGE_DRAWS = (15, 8, 0)
# By class (honours, terminals, 2 and 8, 3 to 7) and stage: tables/fit_claims.py on the 19 real
# matches of tests/data (12,852 discards seen by three players each).
RATES = ((1.90, 1.15, 1.52), (1.29, 1.23, 1.50), (1.03, 1.04, 1.42), (0.53, 0.86, 0.66))


# What holding the tiles of a claim does to the chance the others discard it, over the rates
# of its class (tables/fit_claims.py, the same games): a tile the player holds a pair of is
# thrown 0.77 times as often (1,467 chances: 4.29% of them met one of the next three
# discards, 5.59% predicted), a tile the player can chow 1.07 times (5,311 chances: the left
# player's next discard, 2.86% against 2.67%).
PUNG_HELD = 0.77
CHOW_HELD = 1.07


def claim_weights(model) -> np.ndarray:
    """advice.value.query.Model.claim_weight of a ValueModel: no rows without claims; else, at the
    stage the model's draws stand for (twice them: advice.model.draws_left halves the own
    draws left), the discard weights times PUNG_HELD (row 0) and CHOW_HELD (row 1), times
    the share of them the model counts (ValueModel.claims)."""
    if model.claims <= 0:
        return np.zeros((0, 34))
    weights = discard_weights(2 * model.draws) * float(model.claims)
    return np.stack((weights * PUNG_HELD, weights * CHOW_HELD))


def tile_class(t: int) -> int:
    """0 honours, 1 terminals, 2 the 2s and 8s, 3 the 3s to 7s."""
    if t >= 27:
        return 0
    rank = t % 9
    return 1 if rank in (0, 8) else (2 if rank in (1, 7) else 3)


def stage_of(own_draws_left: int) -> int:
    for stage, at_least in enumerate(STAGE_DRAWS):
        if own_draws_left >= at_least:
            return stage
    return len(STAGE_DRAWS) - 1


def discard_share(klass: int, stage: int) -> float:
    return RATES[klass][stage]


def discard_weights(own_draws_left: int) -> np.ndarray:
    """34 weights, one per tile: a discard by another player is tile t with probability
    weight[t] x unseen[t] / (unseen tiles), at the stage of `own_draws_left`."""
    stage = stage_of(own_draws_left)
    return np.array([RATES[tile_class(t)][stage] for t in range(34)], np.float64)
