"""Two simple bots to measure against: RandomBot discards a random tile, ShantenBot the first
tile (in tile order) that keeps the lowest shanten. Neither claims; both win whenever the
hand scores the 8-fan minimum."""

from __future__ import annotations

import random

from ..advice.options import best_discards
from ..game.protocol import Response
from ..game.state import DUPLICATE
from ..tiles import tile_id
from .clock import Clock
from .protocol_bot import ProtocolBot


class RandomBot(ProtocolBot):
    """Discards a random tile; never claims; wins whenever the hand scores the minimum."""

    def __init__(self, wall: str = DUPLICATE, seed: "int | None" = None, clock: "Clock | None" = None):
        super().__init__(wall, clock)
        self.rng = random.Random(seed)

    def on_draw(self) -> Response:
        seat = self.table.seats[self.seat]
        win = self.winning_response(seat.last_drawn)
        if win is not None:
            return win
        held = [t for t, n in enumerate(seat.concealed) for _ in range(n)]
        return Response("PLAY", (self.rng.choice(held),))


class ShantenBot(ProtocolBot):
    """Discards the first tile (in tile order) that keeps the lowest shanten; never claims;
    wins whenever the hand scores the minimum."""

    def on_draw(self) -> Response:
        seat = self.table.seats[self.seat]
        win = self.winning_response(seat.last_drawn)
        if win is not None:
            return win
        options = best_discards(self.hand(), ranking="efficiency", next_step=False)
        lowest = min(o.shanten for o in options)
        return Response("PLAY", (min(tile_id(o.tile) for o in options if o.shanten == lowest),))
