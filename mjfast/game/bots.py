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

The clock (MjfastBot, `limits`): Botzone gives a bot 6 s for its first answer of a game and
1 s for each later one (the JSON input's time_limit says so where present), a late answer
being a TLE and a -30 foul. respond() counts each answer's time from when the request came
(`started`: mjfast botzone passes the time its input arrived) and gives the value engine what
is left of the limit less a margin, at most `think_ms` an answer (Clock); a decision with no
time left, or whose value graphs did not fit (mjfast.budget), takes the fan-aware ranking
instead (microseconds). The first answer (the game's start) loads the kernels the game will
use, so that no later answer waits for them.
"""

from __future__ import annotations

import random
import time
from typing import NamedTuple

import numpy as np

from .. import budget
from ..api import best_discards, draws_left
from ..api import shanten as shanten_of
from ..claims import claim_options
from ..danger import table_danger
from ..hand import KONG, PUNG, Hand, Meld, parse_meld, standing_less
from ..tiles import tile_id
from .outcome import score_win
from .protocol import PASS, Deal, Drawn, Response, Start, parse_request, parse_response
from .safety import safest_discard
from .state import CLAIM, DUPLICATE, DUPLICATE_FLOWERS, IllegalAction, TableState


class Clock(NamedTuple):
    """The time limits a bot keeps (seconds) and what it gives the value engine: an answer's
    engine time is the limit less `margin` (at most half the limit), at most `think_ms`.
    The default think time keeps 99% of answers under a quarter of Botzone's 1 s: on the 970
    discards of tests/data's real matches, a 200 ms budget ranked as often as the strong
    players did as no budget (bench/bench_clock.py)."""

    first: float = 6.0
    """The first answer of a game (Botzone: 6 s)."""
    later: float = 1.0
    """Every later answer (Botzone: 1 s)."""
    margin: float = 0.3
    """Kept for the protocol, the process and the unexpected."""
    think_ms: float = 200.0
    """The most the value engine gets in one answer."""

    def engine_deadline(self, limit: float, started: float) -> budget.Deadline:
        """The deadline of an answer's value queries, the answer started at `started`
        (time.perf_counter) under `limit` seconds."""
        return budget.Deadline(min(self.think_ms, 1000.0 * (limit - min(self.margin, limit / 2))), start=started)


BOTZONE_CLOCK = Clock()


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
        draws = self.draws()
        danger = self._danger(draws) if ranking != "fan-aware" else None
        return claim_options(hand, tile, (self.seat - giver) % 4, visible, seat_wind=self.seat,
                             prevalent_wind=self.prevalent_wind, flowers=self.table.seats[self.seat].flowers,
                             draws=draws, ranking=ranking, budget_ms=budget_ms, danger=danger)

    def _danger(self, draws: int):
        """The danger the value rankings count (MjfastBot's): none here."""
        return None

    def draws(self) -> int:
        """The draws the game is likely to last for this player (api.draws_left)."""
        return draws_left(self.table.own_draws_left(self.seat))

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


# The least engine time worth a value query (ms): below it an answer takes the fan-aware
# ranking at once.
MIN_BUDGET_MS = 2.0
# MjfastBot weighs claims by value up to this shanten (further, FanAwareBot's rule: none).
MAX_CLAIM_SHANTEN = 4


class MjfastBot(FanAwareBot):
    """Plays by mjfast's value-aware advice (see the module doc): discards by best_discards'
    default ranking (the expected score), claims by claim_options, both with the draws the
    game is likely to last (api.draws_left of the tiles left), on the clock when it has one;
    with `danger`, counting the cost of dealing in (mjfast.danger.table_danger)."""

    def __init__(self, wall: str = DUPLICATE, clock: "Clock | None" = None, danger: bool = False):
        super().__init__(wall, clock)
        self.danger = danger

    def _danger(self, draws: int):
        return table_danger(self.table, self.seat, draws) if self.danger else None

    def on_start(self) -> None:
        if self.clock is not None:
            _load_kernels()

    def advice(self, hand: Hand, visible: np.ndarray, shanten: int, drawn: "int | None" = None):
        left = self.budget_ms()
        if left is not None and left < MIN_BUDGET_MS:
            return super().advice(hand, visible, shanten, drawn)
        draws = self.draws()
        return best_discards(hand, visible=visible, seat_wind=self.seat, prevalent_wind=self.prevalent_wind,
                             flowers=self.table.seats[self.seat].flowers, draws=draws, drawn=drawn,
                             budget_ms=left, danger=self._danger(draws))

    def claim(self, hand: Hand, shanten: int, giver: int, tile: int) -> Response:
        left = self.budget_ms()
        if shanten > MAX_CLAIM_SHANTEN or not (hand.counts[tile] >= 2 or self.table.chow_middles(self.seat)) or \
                (left is not None and left < MIN_BUDGET_MS):
            return super().claim(hand, shanten, giver, tile)  # far from ready, nothing to claim, or no time
        return self._claimed(self._claim_options(hand, giver, tile, "expected-score", left))


_kernels_loaded = False


def _load_kernels() -> None:
    """Every kernel a game's decisions call, loaded (or compiled) once a process: a discard,
    claims of a concealed and of a melded hand (their value graphs too), a win scored."""
    global _kernels_loaded
    if _kernels_loaded:
        return
    from ..fan import score

    best_discards("123m456p78s1157sEC", draws=2)
    best_discards("[789s3]123m456p1157sE", draws=2)
    claim_options("123m456p78s1157sE", "9s", offered_by=1, draws=2)
    claim_options("[789s3]123m456p11sEE", "E", offered_by=2, draws=2)
    score("[789s3]123m456p11sEEE", self_drawn=True)
    _kernels_loaded = True


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
        options = best_discards(self.hand(), fan_aware=False, next_step=False)
        lowest = min(o.shanten for o in options)
        return Response("PLAY", (min(tile_id(o.tile) for o in options if o.shanten == lowest),))


BOTS = {"mjfast": MjfastBot, "fan-aware": FanAwareBot, "random": RandomBot, "shanten": ShantenBot}
