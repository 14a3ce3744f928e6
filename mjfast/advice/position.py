"""A hand's Position: the record every ranking's kernels read a hand by (the fan-aware
ranking's fan_aware.fan_discards_of, the value engine's query), built once in Python by
new_position and carried unchanged down to the kernels."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Position(NamedTuple):
    """The hand and what its player sees, and how a win there is scored."""

    table: np.ndarray  # the regular-form lookup table
    counts: np.ndarray  # standing tiles, 34 counts
    meld_counts: np.ndarray  # the melds' tiles, 34 counts
    n_melds: int
    melds: int  # the melds packed (fan.encode.pack_melds), 0 without
    total: int  # 14: every discard of the hand is ranked; 13: the hand as it stands
    visible: np.ndarray  # the tiles seen elsewhere, 34 counts
    seat: int  # seat and prevalent winds, 0-3 (E, S, W, N)
    prevalent: int
    rules: int  # the Ruleset's code
    minimum: int  # the fans a win needs
    flowers: int


def new_position(table, counts, meld_counts, n_melds, melds, total, visible, seat, prevalent, rules, minimum,
                 flowers) -> Position:
    """A Position of arrays as the kernels take them (the caller's efficiency.api conversions),
    every scalar of the one type the kernels are compiled for: they are called through their
    compiled entry points (runtime.dispatch.DirectKernel), which read each field as that type."""
    return Position(table, counts, meld_counts, int(n_melds), int(melds), int(total), visible, int(seat),
                    int(prevalent), int(rules), int(minimum), int(flowers))
