"""What a seat holds (Seat; UnknownTiles for an opponent's hidden tiles), the runs a chow may
make (chow_tiles) and a declared win before scoring (WinContext): the pieces of the table
that TableState (state.py) moves through a game."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..hand import Hand
from ..melds import PUNG
from ..tiles import N_KINDS


@dataclass
class Seat:
    """One player's tiles: standing counts (34), melds in the order made, flowers, discards
    left on the table (`river`: claimed discards move into the claimer's meld), every
    discard made (`discards`, in order, claimed ones too) and the others' discards since
    this player's last (`passed`: discards they did not win on with the hand they still hold)."""

    concealed: list = field(default_factory=lambda: [0] * N_KINDS)
    melds: list = field(default_factory=list)
    flowers: int = 0
    river: list = field(default_factory=list)
    last_drawn: "int | None" = None
    discards: list = field(default_factory=list)
    passed: list = field(default_factory=list)

    def hand(self) -> Hand:
        """The mjfast Hand of this seat (standing tiles and melds)."""
        return Hand(np.array(self.concealed, np.uint8), tuple(self.melds))

    def pung_index(self, tile: int) -> "int | None":
        for i, m in enumerate(self.melds):
            if m.kind == PUNG and m.tile == tile:
                return i
        return None


class UnknownTiles:
    """The standing tiles of a player the viewer cannot see (a bot's view of its opponents):
    any tile may be there, so every check on them passes and nothing is counted."""

    __slots__ = ()

    def __getitem__(self, tile: int) -> int:
        return 4

    def __setitem__(self, tile: int, count: int) -> None:
        pass


@dataclass(frozen=True)
class WinContext:
    """A declared win before scoring: the hand with the winning tile written last and the
    conditions mjfast.fan.score() takes (derived as the Botzone judge derives them)."""

    winner: int
    tile: int
    hand: Hand
    discarder: "int | None"  # None for a self-drawn win; the kong's player when robbing
    conditions: dict


def chow_tiles(middle: int) -> "tuple[int, int, int] | None":
    """The run around `middle`, or None when `middle` cannot be a chow's middle tile."""
    if middle >= 27 or middle % 9 in (0, 8):
        return None
    return middle - 1, middle, middle + 1
