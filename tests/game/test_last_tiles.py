"""The rules of the last tiles, as the Botzone judge enforces them, for every wall kind:

- the last discard (the player after the discarder has no tile to draw) can only be won on:
  no chow, pung or exposed kong of it;
- a concealed or added kong needs a tile left in the player's own wall and in the next one's;
- the judge with flowers deals four private walls of 36, and a player's flowers are
  replaced from their own wall.

Each rule at its boundary (one tile left, none left), then at the table: a scripted bot
that claims the last discard commits a foul, the replayer rejects a log that does it, and
MjfastBot neither claims it nor keeps a tile for shape when its discard is the last.
"""

from __future__ import annotations

import numpy as np
import pytest

from mjfast import best_discards
from mjfast.advice.danger import ways_to_wait
from mjfast.bots.safety import safest_discard
from mjfast.game import InProcessAgent, MjfastBot, ProtocolBot, check_games, format_game, parse_game, play_game
from mjfast.game.gamelog import BrokenGame
from mjfast.game.protocol import PASS, Response
from mjfast.game.state import DUPLICATE, DUPLICATE_FLOWERS, SHARED, WALLS, IllegalAction, TableState
from mjfast.game.tokens import TOKEN_ID
from mjfast.game.walls import DuplicateWalls, deal_walls
from mjfast.tiles import botzone_token, tile_id

from .test_game_state import DEALS, ids

# Draws that leave a player's wall with `left` tiles, by wall kind (no flowers dealt).
_DRAWS_LEFT = {DUPLICATE: lambda left: 21 - left, DUPLICATE_FLOWERS: lambda left: 23 - left}


def dealt(wall: str) -> TableState:
    table = TableState(prevalent_wind=0, wall=wall)
    for p, deal in enumerate(DEALS):
        table.deal(p, ids(deal))
    return table


def leave(table: TableState, player: int, left: int) -> None:
    """Make `player`'s wall (the shared wall: everyone's) hold `left` tiles."""
    if table.wall == SHARED:
        table.taken = 92 - left
    else:
        table.draws[player] = _DRAWS_LEFT[table.wall](left)
    assert table.tiles_left(player) == left


def test_tiles_left_by_wall_kind():
    assert [dealt(w).tiles_left(0) for w in WALLS] == [21, 23, 92]
    flowers = TableState(0, DUPLICATE_FLOWERS)
    for p, deal in enumerate(DEALS):
        flowers.deal(p, ids(deal) + (ids("H1 H2") if p == 1 else []))
    assert [flowers.tiles_left(p) for p in range(4)] == [23, 21, 23, 23]  # the judge's tileCnt at the deal
    flowers.bu_hua(0, TOKEN_ID["H3"])  # a flower drawn is replaced from the player's own wall
    flowers.draw(0, TOKEN_ID["B1"])
    assert [flowers.tiles_left(p) for p in range(4)] == [21, 21, 23, 23]
    with pytest.raises(IllegalAction, match="34 hold no flowers"):
        dealt(DUPLICATE).bu_hua(0, TOKEN_ID["H1"])


@pytest.mark.parametrize("wall", WALLS)
@pytest.mark.parametrize("left", [1, 0])
def test_the_last_discard_can_only_be_won_on(wall, left):
    """Player 0 discards F3 then W1 (player 1 holds F3 F3, player 2 W1 W1 via the deal below);
    player 1 is next after player 0: with no tile left there, nobody may claim."""
    table = dealt(wall)
    table.draw(0, TOKEN_ID["B1"])
    table.play(0, TOKEN_ID["B1"])  # player 1 may chow it with B2 B3, player 2 pung it with B1 B1
    leave(table, 1, left)
    assert table.last_discard(0) == (left == 0)
    claims = [(1, "Chi", TOKEN_ID["B2"]), (2, "Peng", TOKEN_ID["B1"])]
    if left:
        assert table.chow_middles(1) == [TOKEN_ID["B2"]]
        for player, action, tile in claims:
            table.check_claim(player, action, tile)
    else:
        assert table.chow_middles(1) == []
        for player, action, tile in claims:
            with pytest.raises(IllegalAction, match=f"claims {action} of the last discard: player 1 has no tile"):
                table.check_claim(player, action, tile)
    table.check_claim(2, "Hu", TOKEN_ID["B1"])  # a win stays open (scoring decides if it is one)


@pytest.mark.parametrize("wall", WALLS)
@pytest.mark.parametrize("left", [1, 0])
def test_no_exposed_kong_of_the_last_discard(wall, left):
    table = dealt(wall)
    table.draw(0, TOKEN_ID["J3"])
    table.play(0, TOKEN_ID["J3"])  # player 3 holds J3 J3 J3
    leave(table, 1, left)
    if left:
        table.check_claim(3, "Gang", TOKEN_ID["J3"])
    else:
        with pytest.raises(IllegalAction, match="claims Gang of the last discard"):
            table.check_claim(3, "Gang", TOKEN_ID["J3"])


@pytest.mark.parametrize("wall", WALLS)
@pytest.mark.parametrize("whose", ["own", "next"])
@pytest.mark.parametrize("left", [1, 0])
def test_own_kongs_need_a_tile_in_the_own_wall_and_the_next(wall, whose, left):
    """Player 0 holds F1 F1 F1 and draws the fourth (a concealed kong); with the shared wall
    both walls are the same one."""
    table = dealt(wall)
    leave(table, 0 if whose == "own" else 1, left + 1)  # the draw below takes one from the own wall
    if whose == "own" or wall == SHARED:
        table.draw(0, TOKEN_ID["F1"])
    else:
        table.draw(0, TOKEN_ID["F1"])
        leave(table, 1, left)
    assert table.tiles_left(0 if whose == "own" else 1) == left
    if left:
        assert table.own_kongs(0) == ([TOKEN_ID["F1"]], [])
        table.copy().an_gang(0, TOKEN_ID["F1"])
    else:
        assert table.own_kongs(0) == ([], [])
        with pytest.raises(IllegalAction, match="no tile left"):
            table.an_gang(0, TOKEN_ID["F1"])


@pytest.mark.parametrize("wall", [DUPLICATE, DUPLICATE_FLOWERS])
def test_an_added_kong_needs_a_tile_in_the_next_wall(wall):
    table = dealt(wall)
    table.draw(0, TOKEN_ID["T1"])
    table.play(0, TOKEN_ID["T1"])
    table.peng(1, TOKEN_ID["T1"])  # player 1 holds T1 T1
    table.play(1, TOKEN_ID["W9"])
    for p in (2, 3, 0):
        table.draw(p, TOKEN_ID[{2: "J2", 3: "J1", 0: "B9"}[p]])
        table.play(p, TOKEN_ID[{2: "J2", 3: "J1", 0: "B9"}[p]])
    table.draw(1, TOKEN_ID["T1"])
    assert table.own_kongs(1) == ([], [TOKEN_ID["T1"]])
    leave(table, 2, 0)
    assert table.own_kongs(1) == ([], [])
    with pytest.raises(IllegalAction, match="player 2 has no tile left to draw"):
        table.bu_gang(1, TOKEN_ID["T1"])


def test_the_flower_walls_deal_as_the_judge_deals():
    walls = deal_walls(11, DUPLICATE_FLOWERS)
    assert [len(w) for w in walls.walls] == [36] * 4
    assert sorted(t for w in walls.walls for t in w) == sorted(list(range(34)) * 4 + list(range(34, 42)))
    table = TableState(0, DUPLICATE_FLOWERS)
    for p in range(4):
        deal = walls.deal(p)
        assert sum(t < 34 for t in deal) == 13 and all(t >= 34 for t in deal[13:])
        table.deal(p, deal)
        assert table.tiles_left(p) == 36 - len(deal) == 36 - walls.next[p]
    assert deal_walls(11, DUPLICATE).walls == deal_walls(11).walls  # the duplicate walls did not change


class Tsumogiri(ProtocolBot):
    """Discards what it draws; claims nothing, never wins."""

    def on_draw(self) -> Response:
        return Response("PLAY", (self.table.seats[self.seat].last_drawn,))

    def on_discard(self) -> Response:
        return PASS


class Claimer(Tsumogiri):
    """Tsumogiri, but claims `tile` with a pung whenever it is discarded, whatever the rules
    say (and discards the first tile it holds after the claim)."""

    def __init__(self, tile: str):
        super().__init__()
        self.tile = TOKEN_ID[tile]

    def on_discard(self) -> Response:
        if self.table.pending[1] != self.tile:
            return PASS
        held = list(self.table.seats[self.seat].concealed)
        held[self.tile] -= 2
        return Response("PENG", (next(t for t, n in enumerate(held) if n),))


def _last_discard_walls(last: str, one_turn_early: bool = False) -> DuplicateWalls:
    """Walls on which, when everyone discards what they draw, player 3's last draw, the
    game's last discard, is `last` (one_turn_early: player 3's draw before it); player 1 is
    dealt two of it and player 0 the fourth copy."""
    deals = [f"W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 {last}",
             f"{last} {last} B1 B2 B3 B4 B5 B6 B7 B8 B9 F4 F4",
             "T5 T6 T7 T8 J1 J1 J1 J2 J2 J2 J3 J3 J3",
             "F1 F1 F1 F2 F2 F2 F3 F3 F3 W1 W2 W3 B1"]
    walls = [ids(d) for d in deals]
    rest = [t for t in range(34) for _ in range(4)]
    for wall in walls:
        for t in wall:
            rest.remove(t)
    rest.remove(TOKEN_ID[last])
    for p, wall in enumerate(walls):
        while len(wall) < 34 - (p == 3):
            wall.append(rest.pop())
    walls[3].insert(33 - one_turn_early, TOKEN_ID[last])
    return DuplicateWalls(walls)


def _tsumogiri_game(walls: DuplicateWalls, match_id: str):
    bots = (Tsumogiri(), Claimer("T9"), Tsumogiri(), Tsumogiri())
    return play_game([InProcessAgent(b) for b in bots], walls, 0, match_id)


def test_claiming_the_last_discard_is_a_foul_at_the_table_and_rejected_in_a_replay():
    result = _tsumogiri_game(_last_discard_walls("T9"), "last-discard")
    outcome = result.outcome
    assert outcome.kind == "foul" and outcome.offender == 1, outcome
    assert "claims Peng of the last discard" in outcome.reason
    assert outcome.scores == (10, -30, 10, 10)  # the judge's WA: the offender pays 30
    log = result.log
    assert log.actions[-2] == (3, "Play", TOKEN_ID["T9"], ()) and log.actions[-1].kind == "Invalid"
    # The same game written with the claim made: the replayer names the rule and the line.
    text = format_game(log).replace("Player 1 Invalid", "Player 1 Peng T9\nPlayer 1 Play B1")
    claimed_at = text.split("\n").index("Player 1 Peng T9") + 1
    (broken,) = check_games(text.split("\n"))
    assert isinstance(broken, BrokenGame) and broken.line == claimed_at
    assert "claims Peng of the last discard: player 0 has no tile left to draw" in broken.reason


def test_with_a_tile_left_the_same_claim_is_legal():
    result = _tsumogiri_game(_last_discard_walls("T9", one_turn_early=True), "one-left")
    assert result.outcome.kind == "draw", result.outcome
    assert (1, "Peng", TOKEN_ID["T9"], ()) in result.log.actions
    assert parse_game(format_game(result.log)) == result.log


def _dealt_bot(seat: int, deal: str) -> MjfastBot:
    """A MjfastBot at `seat` just dealt `deal` (no flowers), the game about to start."""
    bot = MjfastBot()
    bot.respond(f"0 {seat} 0")
    bot.respond("1 0 0 0 0 " + deal)
    return bot


@pytest.mark.parametrize("left, after_me, expected", [(1, 1, "PENG"), (0, 1, "PASS"), (1, 0, "PASS")])
def test_mjfast_bot_never_claims_the_last_discard(left, after_me, expected):
    """Player 1 is one step from a pure straight in dots with two W5: a pung of W5 makes it
    ready for 16 fans. It claims while it and player 2 can still draw; it passes when the
    discard is the last (its own wall is empty) and when its discard after the claim would
    be (player 2's wall is empty: nobody could win after it but by dealing in)."""
    bot = _dealt_bot(1, "B1 B2 B3 B4 B5 B6 B7 B8 B9 W5 W5 F1 J2")
    bot.respond("3 0 DRAW")
    bot.table.draws[1] = 21 - left
    bot.table.draws[2] = 21 - after_me
    assert bot.respond("3 0 PLAY W5").split()[0] == expected


def test_mjfast_bot_makes_the_last_discard_the_safest_tile():
    """Player 0 draws T5, one step from ready. Every other W1 and W2 is on the table, so no
    regular hand can wait on W1: on the game's last discard it goes, though it breaks the
    run W1 W2 W3 that the shape keeps; with a draw left for player 1, the shape decides."""
    plays = {}
    for left in (1, 0):
        bot = _dealt_bot(0, "W1 W2 W3 W5 W6 B2 B3 B4 T6 T7 T8 J1 F4")
        for tile in ("W1", "W2"):
            bot.table.shown[TOKEN_ID[tile]] = 3
        bot.table.draws[1] = 21 - left
        plays[left] = bot.respond("2 T5")
        assert bot.table.last_discard(0) == (left == 0)
    assert plays[0] == "PLAY W1"
    by_shape = best_discards("12356m234p5678sCN", visible="111m222m")
    assert plays[1] == "PLAY " + botzone_token(tile_id(by_shape[0].tile))
    assert [o.tile for o in by_shape].index("1m") > 0  # the shape would keep W1


def test_safety_counts_the_ways_to_wait():
    unseen = np.full(34, 4, np.int64)
    ways = ways_to_wait(unseen)
    assert ways[TOKEN_ID["F1"]] == 4 + 6  # single and pair waits only
    assert ways[TOKEN_ID["W1"]] == 4 + 6 + 16  # and the run 23m
    assert ways[TOKEN_ID["W5"]] == 4 + 6 + 3 * 16  # 34m, 46m, 67m
    unseen[TOKEN_ID["J1"]] = 0
    held = np.zeros(34, np.int64)
    held[[TOKEN_ID["J1"], TOKEN_ID["W5"], TOKEN_ID["F1"]]] = 1
    assert safest_discard(held, unseen) == TOKEN_ID["J1"]
    unseen[TOKEN_ID["J1"]] = 1
    assert safest_discard(held, unseen) == TOKEN_ID["J1"]  # 1 way, against F1's 10
