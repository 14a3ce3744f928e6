"""Bots that play through Botzone's protocol: mjfast's own, its baseline, and two simple ones.

Every bot follows the game from the requests alone, in a TableState seen from its seat
(the others' standing tiles unknown), so that it knows its hand, what is visible, how many
tiles each wall has left and the conditions a win would score under. `respond(request)`
answers a request; `observe(request, response)` replays one from the history without
deciding anything (Botzone's traditional mode sends the whole game each turn).

- MjfastBot: wins whenever the hand scores the 8-fan minimum (flowers aside); discards by
  mjfast.best_discards' value ranking (the expected score of each discard, with the draws the
  game is likely to last); within two steps of ready, claims a chow, pung or kong when
  claim_options puts it above passing; declares a concealed or added kong when the shape
  keeps (as FanAwareBot).
- FanAwareBot, the baseline MjfastBot is measured against: discards by the lexicographic
  fan-aware ranking within two steps of ready (waits that cannot score 8 do not count), by
  efficiency further away; claims a chow or pung only when it brings the hand a step closer
  to a win that can score (valid acceptance after the claim); an exposed kong in an open
  hand when the shape keeps.
- Both: the game's last discard (the next player has nothing to draw) can only deal in: it is
  the tile least likely to (safety.safest_discard), and no claim is made whose discard would
  be the last.
- RandomBot: discards a random tile; ShantenBot: discards the first tile that keeps the
  lowest shanten. Neither claims; both win whenever the hand scores 8.
"""

from __future__ import annotations

import random

import numpy as np

from ..api import best_discards, draws_left
from ..api import shanten as shanten_of
from ..claims import claim_options
from ..hand import CHOW, KONG, PUNG, Hand, Meld, parse_meld, standing_less
from ..tiles import tile_id
from .outcome import score_win
from .protocol import PASS, Deal, Drawn, Response, Start, parse_request, parse_response
from .safety import safest_discard
from .state import CLAIM, DUPLICATE, DUPLICATE_FLOWERS, IllegalAction, TableState


class ProtocolBot:
    """Follows the game through the requests; subclasses decide (on_draw, on_discard).

    `wall`: the wall kind the judge deals (state.DUPLICATE, DUPLICATE_FLOWERS or SHARED);
    the protocol does not say. With DUPLICATE, a flower seen (at the deal or drawn) shows
    the judge with flowers, whose private walls hold 36: the view switches to
    DUPLICATE_FLOWERS, and the counts of tiles taken stay right."""

    def __init__(self, wall: str = DUPLICATE):
        self.wall = wall
        self.seat = 0
        self.prevalent_wind = 0
        self.table: "TableState | None" = None
        self.last_response = PASS

    # --- the protocol -------------------------------------------------------------------------

    def respond(self, request: str) -> str:
        """The response to `request` (and the bot's view updated with it)."""
        decide = self._follow(parse_request(request))
        self.last_response = decide() if decide is not None else PASS
        return str(self.last_response)

    def observe(self, request: str, response: str) -> None:
        """Follow a request answered earlier with `response` (history replay)."""
        self._follow(parse_request(request))
        self.last_response = parse_response(response)

    def _follow(self, request):
        """Apply a request to the view; returns the decision to make, or None for PASS."""
        if isinstance(request, Start):
            self.seat, self.prevalent_wind, self.table = request.seat, request.prevalent_wind, None
            return None
        if isinstance(request, Deal):
            self._deal(request)
            return None
        table = self.table
        if table is None:
            raise IllegalAction("a request of the play before the deal")
        if isinstance(request, Drawn):
            table.draw(self.seat, request.tile)
            return self.on_draw
        player, action, tiles = request
        if action == "DRAW":
            table.draw(player, None)
        elif action == "BUHUA":
            if table.wall == DUPLICATE:
                table.wall = DUPLICATE_FLOWERS  # only the judge with flowers deals them
            table.bu_hua(player, tiles[0])
        elif action == "PLAY":
            table.play(player, tiles[0])
        elif action == "PENG":
            table.peng(player, table.pending[1])
            table.play(player, tiles[0])
        elif action == "CHI":
            table.chi(player, tiles[0])
            table.play(player, tiles[1])
        elif action == "GANG":
            self._kong(player)
            return None
        elif action == "BUGANG":
            table.bu_gang(player, tiles[0])
            return self.on_kong_added if player != self.seat else None
        return self.on_discard if action in ("PLAY", "PENG", "CHI") and player != self.seat else None

    def _deal(self, request: Deal) -> None:
        wall = DUPLICATE_FLOWERS if request.flowers and self.wall == DUPLICATE else self.wall
        self.table = table = TableState(self.prevalent_wind, wall, viewer=self.seat)
        flowers = list(request.flowers)
        for p, n in enumerate(request.flower_counts):
            shown, flowers = flowers[:n], flowers[n:]
            tiles = list(request.tiles) if p == self.seat else [None] * 13
            table.deal(p, tiles + shown)

    def _kong(self, player: int) -> None:
        table = self.table
        if table.phase == CLAIM:
            table.gang(player, table.pending[1])
        elif player == self.seat:
            table.an_gang(player, self.last_response.tiles[0])
        else:
            table.an_gang(player, None)

    def attach(self, table: TableState, seat: int) -> None:
        """Decide from a table kept by someone else (a replay's, seen whole) as the player at
        `seat`: on_draw, on_discard and on_kong_added then answer its position as they would
        in play. They only read it."""
        self.table, self.seat, self.prevalent_wind = table, seat, table.prevalent_wind

    # --- what the bot knows -------------------------------------------------------------------

    def hand(self) -> Hand:
        return self.table.hand(self.seat)

    def visible(self) -> np.ndarray:
        return self.table.visible_to(self.seat)

    def unseen(self) -> np.ndarray:
        """34 counts of the copies this player cannot see (in no own tile, meld or on the table)."""
        hand = self.hand()
        return 4 - hand.counts.astype(np.int64) - hand.meld_counts - self.visible()

    def winning_response(self, tile: int) -> "Response | None":
        """HU when winning on `tile` now (drawn, discarded or robbed) scores the minimum."""
        try:
            score_win(self.table.win(self.seat, tile))
        except IllegalAction:
            return None
        return Response("HU")

    # --- decisions: subclasses override -------------------------------------------------------

    def on_draw(self) -> Response:
        raise NotImplementedError

    def on_discard(self) -> Response:
        """Another player's discard: by default, a win when it scores, else PASS."""
        return self.winning_response(self.table.pending[1]) or PASS

    def on_kong_added(self) -> Response:
        return self.winning_response(self.table.pending[1]) or PASS


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
            return best_discards(hand, visible=visible, fan_aware=False)
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
        """The answer to a discard that does not win and may be claimed."""
        table, seat = self.table, self.seat
        offer = (seat - giver) % 4
        if hand.counts[tile] == 3 and not hand.concealed and table.tiles_left(seat) > 0:
            # an exposed kong in an already open hand: a fan and a draw, if the shape keeps
            kong = Hand(standing_less(hand, {tile: 3}), hand.melds + (Meld(KONG, tile, offer),))
            if shanten_of(kong) <= shanten:
                return Response("GANG")
        if shanten > 2:
            return PASS  # too far: a claim would open the hand before its fans are in sight
        claims = []
        if hand.counts[tile] >= 2:
            claims.append(("PENG", (), {tile: 2}, Meld(PUNG, tile, offer)))
        for middle in table.chow_middles(seat):
            uses = {t: 1 for t in (middle - 1, middle, middle + 1) if t != tile}
            claims.append(("CHI", (middle,), uses, Meld(CHOW, middle - 1, tile - middle + 2)))
        visible = self.visible()
        visible[tile] -= 1  # the claimed discard moves into the meld
        best_key, best = None, PASS
        for action, named, uses, meld in claims:
            after = Hand(standing_less(hand, uses), hand.melds + (meld,))
            if shanten_of(after) >= shanten:
                continue  # no step closer: not worth the fan-aware look
            option = self.advice(after, visible, shanten - 1)[0]
            # a claim must bring the hand a step closer to a win that can score: a claimed
            # meld costs the concealed-hand fans, and an open hand under 8 fans never wins
            if option.shanten < shanten and option.valid_acceptance:
                key = (-option.shanten, option.valid_acceptance, option.next_valid_acceptance)
                if best_key is None or key > best_key:
                    best_key, best = key, Response(action, named + (tile_id(option.tile),))
        return best


class MjfastBot(FanAwareBot):
    """Plays by mjfast's value-aware advice (see the module doc): discards by best_discards'
    default ranking (the expected score), claims by claim_options, both with the draws the
    game is likely to last (api.draws_left of the tiles left)."""

    def draws(self) -> int:
        return draws_left(self.table.own_draws_left(self.seat))

    def advice(self, hand: Hand, visible: np.ndarray, shanten: int, drawn: "int | None" = None):
        return best_discards(hand, visible=visible, seat_wind=self.seat, prevalent_wind=self.prevalent_wind,
                             flowers=self.table.seats[self.seat].flowers, draws=self.draws(), drawn=drawn)

    def claim(self, hand: Hand, shanten: int, giver: int, tile: int) -> Response:
        table, seat = self.table, self.seat
        if shanten > 2 or not (hand.counts[tile] >= 2 or table.chow_middles(seat)):
            return super().claim(hand, shanten, giver, tile)  # far from ready, or nothing to claim
        visible = self.visible()
        visible[tile] -= 1  # claim_options counts the offered tile apart
        best = claim_options(hand, tile, (seat - giver) % 4, visible, seat_wind=seat,
                             prevalent_wind=self.prevalent_wind, flowers=table.seats[seat].flowers,
                             draws=self.draws())[0]
        if best.action == "pung":
            return Response("PENG", (tile_id(best.discard),))
        if best.action == "chow":
            return Response("CHI", (parse_meld(best.meld).tile + 1, tile_id(best.discard)))
        if best.action == "kong" and table.tiles_left(seat) > 0:
            return Response("GANG")
        return PASS


class RandomBot(ProtocolBot):
    """Discards a random tile; never claims; wins whenever the hand scores the minimum."""

    def __init__(self, wall: str = DUPLICATE, seed: "int | None" = None):
        super().__init__(wall)
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
        options = best_discards(self.hand(), fan_aware=False, next_step=False)
        lowest = min(o.shanten for o in options)
        return Response("PLAY", (min(tile_id(o.tile) for o in options if o.shanten == lowest),))


BOTS = {"mjfast": MjfastBot, "fan-aware": FanAwareBot, "random": RandomBot, "shanten": ShantenBot}
