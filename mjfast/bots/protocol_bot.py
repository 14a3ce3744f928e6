"""ProtocolBot: a bot that follows a game from Botzone's requests alone, in a TableState seen
from its seat (the others' standing tiles unknown), so that it knows its hand, what is
visible, how many tiles each wall has left and the conditions a win would score under.
`respond(request)` answers a request; `observe(request, response)` replays one from the
history without deciding anything (Botzone's traditional mode sends the whole game each
turn); `attach(table, seat)` decides from a table kept elsewhere (a replay). Subclasses decide
(on_draw, on_discard, on_kong_added); the first answer of a game (on_start) may prepare."""

from __future__ import annotations

import time

import numpy as np

from ..advice.value import budget
from ..game.outcome import score_win
from ..game.protocol import PASS, Deal, Drawn, Response, Start, parse_request, parse_response
from ..game.state import CLAIM, DUPLICATE, DUPLICATE_FLOWERS, IllegalAction, TableState
from ..hand import Hand
from .clock import Clock


class ProtocolBot:
    """Follows the game through the requests; subclasses decide (on_draw, on_discard).

    `wall`: the wall kind the judge deals (state.DUPLICATE, DUPLICATE_FLOWERS or SHARED);
    the protocol does not say. With DUPLICATE, a flower seen (at the deal or drawn) shows
    the judge with flowers, whose private walls hold 36: the view switches to
    DUPLICATE_FLOWERS, and the counts of tiles taken stay right. `clock`: the time limits the
    bot keeps (None: no limit; see the module doc)."""

    def __init__(self, wall: str = DUPLICATE, clock: "Clock | None" = None):
        self.wall = wall
        self.clock = clock
        self.seat = 0
        self.prevalent_wind = 0
        self.table: "TableState | None" = None
        self.last_response = PASS
        self.deadline: "budget.Deadline | None" = None  # of the answer being worked out

    # --- the protocol -------------------------------------------------------------------------

    def respond(self, request: str, started: "float | None" = None, limit: "float | None" = None) -> str:
        """The response to `request` (and the bot's view updated with it). started: when the
        request came (time.perf_counter; default now); limit: its time limit in seconds
        (default: the clock's, first or later)."""
        started = time.perf_counter() if started is None else started
        parsed = parse_request(request)
        if self.clock is not None:
            if limit is None:
                limit = self.clock.first if isinstance(parsed, Start) else self.clock.later
            self.on_the_clock(limit, started)
        decide = self._follow(parsed)
        if isinstance(parsed, Start):
            self.on_start()
        self.last_response = decide() if decide is not None else PASS
        self.deadline = None
        return str(self.last_response)

    def on_the_clock(self, limit: float, started: "float | None" = None) -> None:
        """Start an answer's clock: `limit` seconds from `started` (default now). respond()
        does it for every request; a caller that decides through on_draw or on_discard
        directly (a replay) does it first to decide as the bot would in play."""
        if self.clock is not None:
            self.deadline = self.clock.engine_deadline(limit, time.perf_counter() if started is None else started)

    def budget_ms(self) -> "float | None":
        """The milliseconds the value engine may still take in this answer (None: no clock)."""
        return None if self.deadline is None else self.deadline.left_ms()

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

    def on_start(self) -> None:
        """A new game: the first answer, with time to spare (Botzone gives it 6 s)."""

    def on_draw(self) -> Response:
        raise NotImplementedError

    def on_discard(self) -> Response:
        """Another player's discard: by default, a win when it scores, else PASS."""
        return self.winning_response(self.table.pending[1]) or PASS

    def on_kong_added(self) -> Response:
        return self.winning_response(self.table.pending[1]) or PASS
