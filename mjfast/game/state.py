"""The state of one game at the table and the rules that say which action is legal now.

A TableState holds each seat's standing tiles, melds, flowers and discards, the tiles every
player can see, whose move it is and what kind of move is expected. Its methods apply one
action each (the action names of the Botzone log: Deal, BuHua, Draw, Play, Chi, Peng, Gang,
AnGang, BuGang, Hu) and raise IllegalAction, naming the rule, for an action the rules do not
allow at that point. The game engine (table.py), the bots (bots.py) and the log replayer
(replay.py) share it, so the rules live in one place.

Walls (docs/game.md says which judge deals which):

- DUPLICATE: Botzone's duplicate format without flowers: each player draws from a private
  wall of 34 tiles (13 dealt + 21 draws).
- DUPLICATE_FLOWERS: the Botzone judge with flowers: the 144 tiles are cut into four private
  walls of 36; a player's flowers, dealt or drawn, are replaced from their own wall.
- SHARED: one 144-tile wall with the flowers, from which all players draw.

The state counts what was taken, so the replayer needs no wall to know when a wall is empty:
the game is drawn when the player due to draw has no tile left to draw.

The last tiles, as the Botzone judge rules them: a discard after which the next player has
no tile to draw is the game's last discard, and it can only be won on (no chow, pung or
kong); a concealed or added kong needs a tile left in the player's own wall and in the next
player's.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import NamedTuple, cast

import numpy as np

from ..errors import ArgumentError, GameError
from ..hand import Hand
from ..melds import CHOW, KONG, PUNG, Meld
from ..tiles import N_KINDS
from .seats import Seat, UnknownTiles, WinContext, chow_tiles
from .tokens import N_FLOWERS, TOKENS, is_flower

DUPLICATE, DUPLICATE_FLOWERS, SHARED = "duplicate", "duplicate-flowers", "shared"
WALLS = (DUPLICATE, DUPLICATE_FLOWERS, SHARED)
HAND_SIZE = 13
PRIVATE_WALL = {DUPLICATE: 34, DUPLICATE_FLOWERS: 36}  # the tiles of each player's own wall
SHARED_WALL = 144
SHARED_DRAWS = SHARED_WALL - 4 * HAND_SIZE  # 92 tiles (flowers included) after the deal

# What the state expects next.
DEALING = "dealing"  # deals and the flowers shown at the deal
DRAW = "draw"  # `turn` draws (or the game is drawn when their wall is empty)
DISCARD = "discard"  # `turn` has drawn: Play, AnGang, BuGang or Hu
DISCARD_AFTER_CLAIM = "discard after claim"  # `turn` has claimed a chow or pung: Play only
CLAIM = "claim"  # the others may claim `pending`, else the next player draws
ROB = "rob"  # the others may rob the kong `pending`, else its player draws a replacement
OVER = "over"

# Copies of each tile in the set: four of a kind, one of each flower.
_SET_COPIES = (4,) * N_KINDS + (1,) * N_FLOWERS
# Claim priority: a win, then a pung or kong, then a chow.
CLAIM_RANK = {"Hu": 3, "Peng": 2, "Gang": 2, "Chi": 1}


class IllegalAction(GameError):
    """An action the rules do not allow at this point of the game; the message says why."""


class WinMoment(NamedTuple):
    """When a win is declared, as the conditions it scores under need it, whoever declares it:
    the winning tile, who gave it (None: self-drawn; the kong's player when robbing), on a
    kong (杠上开花, or robbing one: 抢杠和), on the wall's last tile (the next drawer has none
    left), the copies of the tile already shown, the prevalent wind. TableState makes it; the
    log analysis keeps one per discard and scores the wins it finds later."""

    tile: int
    discarder: "int | None"
    kong: bool
    last_tile: bool
    already_shown: int
    prevalent_wind: int

    def win(self, winner: int, counts: list, melds, flowers: int) -> WinContext:
        """The WinContext of `winner` holding `counts` (the winning tile among them) and `melds`."""
        if max(counts) > 4 or sum(counts) + 3 * len(melds) != 14:
            raise IllegalAction(f"player {winner}'s hand is not a 14-tile hand")
        hand = Hand(np.array(counts, np.uint8), tuple(melds), self.tile)
        conditions = dict(self_drawn=self.discarder is None, last_copy=self.already_shown == 3, kong=self.kong,
                          last_tile=self.last_tile, seat_wind=winner, prevalent_wind=self.prevalent_wind,
                          flowers=flowers)
        return WinContext(winner, self.tile, hand, self.discarder, conditions)


class TableState:
    """Everything the rules need to know about a game in progress (see the module doc).

    `viewer`: None for the whole table (the engine, the replayer); a player id for what that
    player knows (a bot): the others' standing tiles are then UnknownTiles, their draws and
    concealed kongs come without a tile.
    """

    def __init__(self, prevalent_wind: int = 0, wall: str = DUPLICATE, viewer: "int | None" = None):
        if wall not in WALLS:
            raise ArgumentError(f"wall must be one of {', '.join(map(repr, WALLS))}, got {wall!r}")
        self.prevalent_wind = prevalent_wind
        self.wall = wall
        # an opponent's tiles: a stand-in that is read and written as the list would be
        self.seats = [Seat() if viewer in (None, p) else Seat(concealed=cast(list, UnknownTiles())) for p in range(4)]
        # discards on the table and tiles of exposed melds; a bytearray, which visible_to copies
        # many times faster than a list
        self.shown = bytearray(N_KINDS)
        self.draws = [0, 0, 0, 0]  # tiles each player took from the wall after the deal (flowers included)
        self.taken = 0  # tiles taken from the shared wall after the deal (flowers included)
        self.taken_at_deal = [0, 0, 0, 0]  # each player's replacements for the flowers shown at the deal
        self.phase = DEALING
        self.turn = 0
        self.pending: "tuple[int, int] | None" = None  # (player, tile) open to claims
        self.replacement = False  # the turn's draw replaces a kong (杠上开花)
        self.dealt = 0
        self.copies = [0] * (N_KINDS + N_FLOWERS)  # copies of each tile dealt or drawn so far

    # --- what a player may know ------------------------------------------------------------

    def tiles_left(self, player: int) -> int:
        """Tiles left in the wall `player` draws from (flowers included): what the Botzone
        judge's tileCnt says."""
        if self.wall == SHARED:
            return SHARED_DRAWS - sum(self.taken_at_deal) - self.taken
        return PRIVATE_WALL[self.wall] - HAND_SIZE - self.taken_at_deal[player] - self.draws[player]

    def own_draws_left(self, player: int) -> int:
        """The draws `player` could still make: their wall's tiles left, or with the shared wall
        a quarter of it (the four players draw in turn)."""
        left = self.tiles_left(player)
        return (left + 3) // 4 if self.wall == SHARED else left

    def last_discard(self, player: int) -> bool:
        """Whether a discard by `player` now is the game's last: the next player has no tile
        to draw, so the discard can only be won on, never claimed, and the game then ends."""
        return self.tiles_left((player + 1) % 4) <= 0

    def drawn(self, player: int) -> "int | None":
        """The tile `player` has just drawn and must now discard after, or None (not their
        turn to discard, or their discard follows a claim)."""
        return self.seats[player].last_drawn if self.phase == DISCARD and self.turn == player else None

    def visible_to(self, player: int) -> np.ndarray:
        """34 counts of the tiles `player` sees outside their own hand and melds: discards on
        the table and the other players' exposed melds (the `visible` of mjfast's calls)."""
        # a bytearray's buffer: a writeable uint8 array without numpy's slower list conversion
        seen = self.shown.copy()
        for m in self.seats[player].melds:
            if not m.concealed:
                for t in m.tiles:
                    seen[t] -= 1
        return np.frombuffer(seen, np.uint8)

    def hand(self, player: int) -> Hand:
        return self.seats[player].hand()

    def copy(self) -> "TableState":
        """A copy that actions can change without changing this one: copy.deepcopy's result,
        many times cheaper (melds are immutable, the rest is lists or bytearrays of ints and
        scalars)."""
        new = copy.copy(self)
        new.seats = [replace(s, concealed=s.concealed if isinstance(s.concealed, UnknownTiles) else list(s.concealed),
                             melds=list(s.melds), river=list(s.river), discards=list(s.discards),
                             passed=list(s.passed))
                     for s in self.seats]
        new.shown, new.draws, new.copies = self.shown.copy(), list(self.draws), list(self.copies)
        new.taken_at_deal = list(self.taken_at_deal)
        return new

    # --- the actions ------------------------------------------------------------------------

    def _expect(self, player: int, *phases: str) -> Seat:
        if self.phase not in phases:
            raise IllegalAction(f"player {player} cannot act now: the game expects {self._expected()}")
        return self.seats[player]

    def _expected(self) -> str:
        if self.phase == OVER:
            return "nothing more (it is over)"
        if self.phase in (CLAIM, ROB):
            return (f"claims on player {self.pending[0]}'s {TOKENS[self.pending[1]]}, "
                    f"or player {self._next_drawer()} to draw")
        return f"{self.phase} by player {self.turn}" if self.phase != DEALING else "the deal"

    def deal(self, player: int, tiles) -> None:
        """`player`'s 13 tiles, then the flowers they showed at the deal (replaced by the
        tiles dealt in their place). A viewer gives None for each tile it does not see."""
        seat = self._expect(player, DEALING)
        if player != self.dealt:
            raise IllegalAction(f"player {player} is dealt out of order (expected player {self.dealt})")
        standing = [t for t in tiles if t is None or not is_flower(t)]
        # the flowers come last exactly when the standing tiles are the first 13
        if len(standing) != HAND_SIZE or standing != list(tiles[:HAND_SIZE]):
            raise IllegalAction(f"a deal is {HAND_SIZE} tiles and then the flowers shown, got "
                                f"{' '.join(TOKENS[t] if t is not None else '?' for t in tiles)}")
        if len(standing) < len(tiles) and self.wall == DUPLICATE:
            raise IllegalAction("the Botzone duplicate walls of 34 hold no flowers")
        for t in tiles:
            if t is not None:
                self._enter(t)
        for t in standing:
            if t is not None:
                seat.concealed[t] += 1
        seat.flowers = len(tiles) - HAND_SIZE
        self.taken_at_deal[player] = seat.flowers
        self.dealt += 1
        if self.dealt == 4:
            self.phase, self.turn = DRAW, 0

    def _enter(self, tile: int) -> None:
        """Count a tile coming into play: a tile kind has four copies, each flower one."""
        self.copies[tile] += 1
        if self.copies[tile] > _SET_COPIES[tile]:
            raise IllegalAction(f"one {TOKENS[tile]} too many: the set has only {_SET_COPIES[tile]}")

    def bu_hua(self, player: int, flower: int) -> None:
        """A flower drawn and shown by the player about to draw, who then draws again."""
        if not is_flower(flower):
            raise IllegalAction(f"BuHua {TOKENS[flower]}: only a flower can be shown")
        if self.wall == DUPLICATE:
            raise IllegalAction("the Botzone duplicate walls of 34 hold no flowers")
        self._pass_claims()
        self._expect(player, DRAW)
        if player != self.turn:
            raise IllegalAction(f"player {player} shows a flower but player {self.turn} is to draw")
        if self.tiles_left(player) <= 0:
            raise IllegalAction("the wall is empty")
        self.draws[player] += 1
        self.taken += 1
        self._enter(flower)
        self.seats[player].flowers += 1

    def draw(self, player: int, tile: "int | None") -> None:
        # the replay's most frequent step: checks written out, no helper calls on the way
        if self.phase != DRAW:
            self._pass_claims()
            if self.phase != DRAW:
                self._expect(player, DRAW)  # raises, saying what is expected
        if player != self.turn:
            raise IllegalAction(f"player {player} draws but player {self.turn} is to draw")
        if self.tiles_left(player) <= 0:
            raise IllegalAction(f"player {player} draws from an empty wall")
        seat = self.seats[player]
        if tile is not None:  # None: a tile the viewer does not see
            if tile >= N_KINDS:
                raise IllegalAction(f"{TOKENS[tile]} is a flower: it is shown (BuHua), not drawn into the hand")
            copies = self.copies
            if copies[tile] == 4:
                self._enter(tile)  # raises, naming the tile
            copies[tile] += 1
            seat.concealed[tile] += 1
        self.draws[player] += 1
        self.taken += 1
        seat.last_drawn = tile
        self.phase = DISCARD

    def play(self, player: int, tile: int) -> None:
        if self.phase != DISCARD and self.phase != DISCARD_AFTER_CLAIM:
            self._expect(player, DISCARD, DISCARD_AFTER_CLAIM)  # raises, saying what is expected
        seat = self.seats[player]
        if player != self.turn:
            raise IllegalAction(f"player {player} discards but it is player {self.turn}'s turn")
        if tile >= N_KINDS:
            raise IllegalAction(f"{TOKENS[tile]} is a flower: it is shown (BuHua), never discarded")
        if seat.concealed[tile] == 0:
            raise IllegalAction(f"player {player} discards {TOKENS[tile]}, which the hand does not hold")
        seat.concealed[tile] -= 1
        seat.river.append(tile)
        seat.discards.append(tile)
        seat.passed.clear()  # the hand this discard leaves is new
        for other in self.seats:
            if other is not seat:  # if the game goes on past this tile, no one won on it
                other.passed.append(tile)
        self.shown[tile] += 1
        self.pending = (player, tile)
        self.phase = CLAIM
        self.replacement = False

    def check_claim(self, player: int, action: str, tile: int) -> None:
        """Raise IllegalAction unless `player` may claim the pending discard with `action`
        (Chi: `tile` is the chow's middle tile; Peng, Gang, Hu: the discarded tile)."""
        if action not in CLAIM_RANK:
            raise IllegalAction(f"{action} is not a claim")
        if self.phase != CLAIM:
            if self.phase == ROB and action == "Hu":
                return self._check_rob(player, tile)
            raise IllegalAction(f"player {player} claims {action} but there is no discard to claim")
        giver, discard = self.pending
        if player == giver:
            raise IllegalAction(f"player {player} claims their own discard")
        if action != "Hu" and self.last_discard(giver):
            raise IllegalAction(f"player {player} claims {action} of the last discard: player {(giver + 1) % 4} has "
                                "no tile left to draw, so it can only be won on")
        seat = self.seats[player]
        if action == "Chi":
            if (player - giver) % 4 != 1:
                raise IllegalAction(f"player {player} can only chow the discards of player {(player - 1) % 4}")
            run = chow_tiles(tile)
            if run is None or discard not in run:
                raise IllegalAction(f"no chow with middle tile {TOKENS[tile]} takes {TOKENS[discard]}")
            if any(seat.concealed[t] == 0 for t in run if t != discard):
                raise IllegalAction(f"player {player} lacks the tiles for the chow around {TOKENS[tile]}")
            return
        if tile != discard:
            raise IllegalAction(f"player {player} claims {TOKENS[tile]} but the discard is {TOKENS[discard]}")
        if action == "Peng" and seat.concealed[discard] < 2:
            raise IllegalAction(f"player {player} needs two {TOKENS[discard]} to pung it")
        if action == "Gang":
            if seat.concealed[discard] < 3:
                raise IllegalAction(f"player {player} needs three {TOKENS[discard]} to kong it")
            if self.tiles_left(player) <= 0:
                raise IllegalAction(f"player {player} has no tile left to draw after a kong")

    def _check_rob(self, player: int, tile: int) -> None:
        kong_player, added = self.pending
        if player == kong_player:
            raise IllegalAction(f"player {player} cannot rob their own kong")
        if tile != added:
            raise IllegalAction(f"player {player} robs {TOKENS[tile]} but the added kong is {TOKENS[added]}")

    def _take_discard(self, player: int) -> tuple[int, int]:
        giver, tile = self.pending
        self.seats[giver].river.pop()
        self.pending = None
        self.turn = player
        return giver, tile

    def chi(self, player: int, middle: int) -> None:
        self.check_claim(player, "Chi", middle)
        _, tile = self._take_discard(player)
        seat = self.seats[player]
        for t in chow_tiles(middle):
            if t != tile:
                seat.concealed[t] -= 1
                self.shown[t] += 1
        seat.melds.append(Meld(CHOW, middle - 1, tile - middle + 2))
        self.phase = DISCARD_AFTER_CLAIM

    def peng(self, player: int, tile: int) -> None:
        self.check_claim(player, "Peng", tile)
        giver, _ = self._take_discard(player)
        self._claim_set(player, giver, tile, PUNG, 2)
        self.phase = DISCARD_AFTER_CLAIM

    def gang(self, player: int, tile: int) -> None:
        """An exposed kong of the pending discard."""
        self.check_claim(player, "Gang", tile)
        giver, _ = self._take_discard(player)
        self._claim_set(player, giver, tile, KONG, 3)
        self._replacement_draw(player)

    def _claim_set(self, player: int, giver: int, tile: int, kind: str, from_hand: int) -> None:
        seat = self.seats[player]
        seat.concealed[tile] -= from_hand
        self.shown[tile] += from_hand
        seat.melds.append(Meld(kind, tile, (player - giver) % 4))

    def _replacement_draw(self, player: int) -> None:
        self.turn, self.phase, self.replacement = player, DRAW, True

    def _check_own_kong(self, player: int) -> Seat:
        seat = self._expect(player, DISCARD)
        if player != self.turn:
            raise IllegalAction(f"player {player} declares a kong on player {self.turn}'s turn")
        if self.tiles_left(player) <= 0:
            raise IllegalAction(f"player {player} has no tile left to draw after a kong")
        if self.last_discard(player):
            raise IllegalAction(f"player {player} declares a kong but player {(player + 1) % 4} has no tile left "
                                "to draw")
        return seat

    def an_gang(self, player: int, tile: "int | None") -> None:
        """A concealed kong; `tile` is None when the viewer does not see it (then no meld is
        recorded: its tiles stay unknown)."""
        seat = self._check_own_kong(player)
        if tile is not None:
            if tile >= N_KINDS or seat.concealed[tile] != 4:
                raise IllegalAction(f"player {player} needs four {TOKENS[tile]} for a concealed kong")
            seat.concealed[tile] = 0
            seat.melds.append(Meld(KONG, tile, 0))
        self._replacement_draw(player)

    def bu_gang(self, player: int, tile: int) -> None:
        seat = self._check_own_kong(player)
        i = seat.pung_index(tile)
        if i is None or seat.concealed[tile] == 0:
            raise IllegalAction(f"player {player} needs a pung of {TOKENS[tile]} and the fourth tile to add a kong")
        seat.concealed[tile] -= 1
        self.shown[tile] += 1
        seat.melds[i] = Meld(KONG, tile, seat.melds[i].offer, added=True)
        self.pending = (player, tile)
        self.phase = ROB

    def _next_drawer(self) -> int:
        giver, _ = self.pending
        return giver if self.phase == ROB else (giver + 1) % 4

    def to_draw(self) -> int:
        """The player due to draw next (once any open claims pass)."""
        return self._next_drawer() if self.phase in (CLAIM, ROB) else self.turn

    def _pass_claims(self) -> None:
        """Nobody claimed: the next player draws (after a BuGang, its player draws)."""
        if self.phase == CLAIM:
            self.turn, self.pending, self.phase = self._next_drawer(), None, DRAW
        elif self.phase == ROB:
            self._replacement_draw(self._next_drawer())
            self.pending = None

    def exhausted(self) -> bool:
        """The player due to draw (after any open claims pass) has nothing left to draw."""
        if self.phase in (CLAIM, ROB):
            return self.tiles_left(self._next_drawer()) <= 0
        return self.phase == DRAW and self.tiles_left(self.turn) <= 0

    def end_drawn(self) -> None:
        """The exhaustive draw (荒庄)."""
        if not self.exhausted():
            raise IllegalAction(f"the game cannot end drawn: {self._expected()}")
        self.phase = OVER

    def win(self, player: int, tile: int) -> WinContext:
        """A declared win on `tile`: self-drawn after a draw, on the pending discard, or robbing
        an added kong. Checks the timing only; scoring says whether the hand wins."""
        if self.phase == DISCARD and player == self.turn:
            seat = self.seats[player]
            if tile != seat.last_drawn:
                raise IllegalAction(f"player {player} declares a self-drawn win on {TOKENS[tile]} but drew "
                                    f"{TOKENS[seat.last_drawn] if seat.last_drawn is not None else 'nothing'}")
            moment = WinMoment(tile, None, self.replacement, self.tiles_left((player + 1) % 4) <= 0, self.shown[tile],
                               self.prevalent_wind)
            return moment.win(player, list(seat.concealed), seat.melds, seat.flowers)
        if self.phase not in (CLAIM, ROB):
            raise IllegalAction(f"player {player} declares a win but {self._expected()}")
        self.check_claim(player, "Hu", tile)
        return self.win_on_pending(player)

    def pending_win(self) -> WinMoment:
        """The moment of a win on the pending discard or added kong, whoever may claim it."""
        discarder, tile = self.pending
        # the claimed discard itself does not count as shown; an added kong's tile does
        # (the judge's reading: robbing a kong is never 和绝张)
        return WinMoment(tile, discarder, self.phase == ROB, self.tiles_left((discarder + 1) % 4) <= 0,
                         self.shown[tile] - (self.phase == CLAIM), self.prevalent_wind)

    def win_on_pending(self, player: int) -> WinContext:
        """The win of `player` on the pending discard or added kong, whoever may claim it: the
        hand with the tile and the conditions it would score under (win() checks the claim
        first; the Botzone judge with flowers scores its discarder's hand this way too)."""
        seat = self.seats[player]
        counts = list(seat.concealed)
        counts[self.pending[1]] += 1
        return self.pending_win().win(player, counts, seat.melds, seat.flowers)

    def finish(self) -> None:
        self.phase = OVER

    # --- the options of a player, for bots and for checking responses -----------------------

    def own_kongs(self, player: int) -> tuple[list[int], list[int]]:
        """(concealed kong tiles, added kong tiles) `player` may declare now."""
        if self.phase != DISCARD or player != self.turn or self.tiles_left(player) <= 0 or self.last_discard(player):
            return [], []
        seat = self.seats[player]
        concealed = [t for t in range(N_KINDS) if seat.concealed[t] == 4]
        added = [m.tile for m in seat.melds if m.kind == PUNG and seat.concealed[m.tile]]
        return concealed, added

    def chow_middles(self, player: int) -> list[int]:
        """Middle tiles of the chows `player` may make with the pending discard. (The log
        analysis asks this at every discard: the three runs are written out.)"""
        if self.phase != CLAIM or (player - self.pending[0]) % 4 != 1 or self.last_discard(self.pending[0]):
            return []
        tile = self.pending[1]
        if tile >= 27:  # an honour makes no chow
            return []
        rank = tile % 9
        concealed = self.seats[player].concealed
        found = []
        if rank >= 2 and concealed[tile - 2] and concealed[tile - 1]:  # the tile ends the run
            found.append(tile - 1)
        if 1 <= rank <= 7 and concealed[tile - 1] and concealed[tile + 1]:  # the tile is the middle
            found.append(tile)
        if rank <= 6 and concealed[tile + 1] and concealed[tile + 2]:  # the tile starts the run
            found.append(tile + 1)
        return found
