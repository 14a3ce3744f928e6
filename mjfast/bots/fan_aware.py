"""FanAwareBot, the baseline MjfastBot is measured against and its fallback on the clock:
discards by the lexicographic fan-aware ranking within two steps of ready (waits that cannot
score 8 do not count), by efficiency further away; claims by claim_options' fan-aware
ranking (a chow or pung only when it brings the hand a step closer to a wait worth 8 fans; an
exposed kong in an already open hand when the shape keeps); declares a concealed or added kong
when the shape keeps its shanten. The game's last discard (the next player has nothing to
draw) can only deal in: it is the tile least likely to (safety.safest_discard), and no claim
is made whose discard would be the last."""

from __future__ import annotations

import numpy as np

from ..advice.claims import claim_options
from ..advice.model import draws_left
from ..advice.options import best_discards
from ..efficiency.api import shanten as shanten_of
from ..game.protocol import PASS, Response
from ..hand import Hand, standing_less
from ..melds import KONG, PUNG, Meld, parse_meld
from ..tiles import tile_id
from .protocol_bot import ProtocolBot
from .safety import safest_discard


class FanAwareBot(ProtocolBot):
    """Plays by mjfast's lexicographic fan-aware ranking (see the module doc): MjfastBot's
    play before the value-aware advice, kept as the baseline it is measured against."""

    def on_draw(self) -> Response:
        table, seat = self.table, self.seat
        hand = self.hand()
        shanten = shanten_of(hand)
        if shanten == -1:
            win = self.winning_response(table.seats[seat].last_drawn)
            if win is not None:
                return win
        if table.last_discard(seat):  # nobody draws again: the discard can only deal in
            return Response("PLAY", (safest_discard(hand.counts, self.unseen()),))
        concealed, added = table.own_kongs(seat)
        for tile in concealed:
            kong = Hand(standing_less(hand, {tile: 4}), hand.melds + (Meld(KONG, tile, 0),))
            if shanten_of(kong) <= shanten:
                return Response("GANG", (tile,))
        for tile in added:
            melds = tuple(Meld(KONG, tile, m.offer, added=True) if m.tile == tile and m.kind == PUNG else m
                          for m in hand.melds)
            if shanten_of(Hand(standing_less(hand, {tile: 1}), melds)) <= shanten:
                return Response("BUGANG", (tile,))
        best = self.advice(hand, self.visible(), shanten, table.drawn(seat))[0]
        return Response("PLAY", (tile_id(best.tile),))

    def advice(self, hand: Hand, visible: np.ndarray, shanten: int, drawn: "int | None" = None):
        """best_discards of a 3n+2 hand of `shanten`: fan-aware when the hand is within two
        steps of ready (further away no wait is known yet, and both rankings agree). `drawn`,
        the tile just drawn (None after a claim), matters only to the value ranking
        (MjfastBot's): the lexicographic rankings have no near-ties to break."""
        if shanten >= 2:
            return best_discards(hand, visible=visible, ranking="efficiency")
        return best_discards(hand, visible=visible, seat_wind=self.seat, prevalent_wind=self.prevalent_wind,
                             flowers=self.table.seats[self.seat].flowers, ranking="fan-aware")

    def on_discard(self) -> Response:
        giver, tile = self.table.pending
        hand = self.hand()
        shanten = shanten_of(hand)
        if shanten == 0:
            win = self.winning_response(tile)
            if win is not None:
                return win
        if self.table.last_discard(giver) or self.table.last_discard(self.seat):
            return PASS  # the last discard cannot be claimed; a claim whose discard is the last cannot win
        return self.claim(hand, shanten, giver, tile)

    def claim(self, hand: Hand, shanten: int, giver: int, tile: int) -> Response:
        """The answer to a discard that does not win and may be claimed: claim_options'
        fan-aware ranking (a claim must bring the hand a step closer to a wait that can score
        8 fans: a claimed meld costs the concealed-hand fans, and an open hand under 8 fans
        never wins; an exposed kong in an open hand when the shape keeps)."""
        if shanten > 2 and not (hand.counts[tile] == 3 and not hand.concealed):
            return PASS  # too far: a claim would open the hand before its fans are in sight
        return self._claimed(self._claim_options(hand, giver, tile, "fan-aware", None))

    def _claim_options(self, hand: Hand, giver: int, tile: int, ranking: str, budget_ms: "float | None") -> list:
        visible = self.visible()
        visible[tile] -= 1  # claim_options counts the offered tile apart
        model, draws = self._claim_setting()
        danger = self._danger(draws) if ranking != "fan-aware" else None
        return claim_options(hand, tile, (self.seat - giver) % 4, visible, seat_wind=self.seat,
                             prevalent_wind=self.prevalent_wind, flowers=self.table.seats[self.seat].flowers,
                             draws=draws, model=model, ranking=ranking, budget_ms=budget_ms, danger=danger)

    def _danger(self, draws: int):
        """The danger the value rankings count (MjfastBot's): none here."""
        return None

    def _model(self):
        """The value model of the value rankings (MjfastBot's): the default here."""
        return None

    def draws(self) -> int:
        """The draws the game is likely to last for this player (advice.model.draws_left)."""
        return draws_left(self.table.own_draws_left(self.seat))

    def _setting(self):
        """The value model of the value rankings and the draws it plays, worked out once a decision."""
        return self._model(), self.draws()

    def _claim_setting(self):
        """_setting for a claim."""
        return self._setting()

    def _claimed(self, options: list) -> Response:
        """The response of the first of claim_options' options the table allows."""
        for best in options:
            if best.action == "pung":
                return Response("PENG", (tile_id(best.discard),))
            if best.action == "chow":
                return Response("CHI", (parse_meld(best.meld).tile + 1, tile_id(best.discard)))
            if best.action == "kong" and self.table.tiles_left(self.seat) > 0:
                return Response("GANG")
            if best.action == "pass":
                return PASS
        return PASS
