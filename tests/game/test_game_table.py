"""The table: seeded games among bots end with no illegal action, scores that sum to zero and
a log that reads back to the same game; claims follow priority; fouls end the game.

The counts here keep the suite's share small; bench/bench_table.py plays thousands.
"""

from __future__ import annotations

import random
import sys
import textwrap

import pytest

from mjfast.bots.match import bot_command, run_match
from mjfast.game import (
    InProcessAgent,
    MjfastBot,
    ProcessAgent,
    ProtocolBot,
    RandomBot,
    Replay,
    ShantenBot,
    format_game,
    parse_game,
    play_game,
    play_games,
)
from mjfast.game.outcome import FOUL_PENALTY
from mjfast.game.protocol import PASS, Response
from mjfast.game.state import CLAIM_RANK, IllegalAction
from mjfast.game.tokens import TOKEN_ID
from mjfast.game.walls import DuplicateWalls, deal_walls


def assert_sound(result) -> None:
    """No foul, zero-sum scores, and a log that re-reads and replays to the same game."""
    outcome = result.outcome
    assert outcome.kind != "foul", outcome.reason
    assert sum(outcome.scores) == 0
    log = result.log
    again = parse_game(format_game(log))
    assert again == log
    check = Replay(again).check()
    assert check.score_line_matches and check.scores == outcome.scores
    if outcome.kind == "win":
        assert check.fan_line_matches and check.fans.meets_minimum
        assert check.win == outcome.win
    for engine_seat, replayed_seat in zip(result.table.seats, check.table.seats):
        assert engine_seat.concealed == replayed_seat.concealed and engine_seat.melds == replayed_seat.melds


def _agents(*bots):
    return [InProcessAgent(bot) for bot in bots]


# Seeds whose games between four MjfastBots cover every line of mjfast.game, mjfast.bots and
# mjfast.advice that the 80 games of seeds 0-59 (duplicate wall) and 100-119 (shared) cover,
# as coverage.py measured them (2,253 lines either way), in an eighth of the time: wins, a
# drawn game (55), contested claims with an Ignore clause (11, 105), kongs, flowers. The seeds
# were chosen for the bot without the race and the danger (PLAIN), which these games play.
DUPLICATE_SEEDS = (0, 1, 2, 3, 4, 5, 11, 55)
SHARED_SEEDS = (100, 105)
PLAIN = dict(race=False, danger=False)


def test_mjfast_bots_play_sound_games_on_both_walls():
    agents = _agents(*(MjfastBot(**PLAIN) for _ in range(4)))
    kinds, ignored = set(), 0
    for result in play_games(agents, DUPLICATE_SEEDS):
        assert_sound(result)
        kinds.add(result.outcome.kind)
        ignored += sum(bool(action.ignored) for action in result.log.actions)
    shared = _agents(*(MjfastBot(wall="shared", **PLAIN) for _ in range(4)))
    flowers = 0
    for result in play_games(shared, SHARED_SEEDS, wall="shared"):
        assert_sound(result)
        flowers += sum(seat.flowers for seat in result.table.seats)
        ignored += sum(bool(action.ignored) for action in result.log.actions)
    assert {"win", "draw"} <= kinds and flowers > 0 and ignored >= 2


@pytest.mark.parametrize("wall", ["duplicate", "shared"])
def test_baseline_bots_play_sound_games(wall):
    agents = _agents(RandomBot(wall, seed=1), ShantenBot(wall), RandomBot(wall, seed=2), ShantenBot(wall))
    outcomes = [r.outcome.kind for r in map(_checked, play_games(agents, range(1000, 1075), wall=wall))]
    assert outcomes.count("win") > 0 and outcomes.count("draw") > 0


def _checked(result):
    assert_sound(result)
    return result


class EagerBot(ProtocolBot):
    """Claims whatever it legally can (a win first, then a pung or kong, then a chow) and
    discards at random: many contested discards, to test claim priority."""

    def __init__(self, seed: int):
        super().__init__()
        self.rng = random.Random(seed)

    def _discard(self, held: list) -> int:
        return self.rng.choice([t for t, n in enumerate(held) if n > 0])

    def on_draw(self) -> Response:
        seat = self.table.seats[self.seat]
        win = self.winning_response(seat.last_drawn)
        return win or Response("PLAY", (self._discard(seat.concealed),))

    def on_discard(self) -> Response:
        table, seat = self.table, self.table.seats[self.seat]
        giver, tile = table.pending
        win = self.winning_response(tile)
        if win is not None:
            return win
        if table.last_discard(giver):
            return PASS  # the last discard can only be won on
        held = list(seat.concealed)
        if held[tile] >= 3 and table.tiles_left(self.seat) > 0 and self.rng.random() < 0.5:
            return Response("GANG")
        if held[tile] >= 2:
            held[tile] -= 2
            return Response("PENG", (self._discard(held),))
        middles = table.chow_middles(self.seat)
        if middles:
            middle = self.rng.choice(middles)
            for t in (middle - 1, middle, middle + 1):
                held[t] -= t != tile
            return Response("CHI", (middle, self._discard(held)))
        return PASS


def test_contested_claims_go_by_priority_then_turn_order():
    agents = _agents(*(EagerBot(seed) for seed in range(4)))
    contested = {}
    for result in play_games(agents, range(40)):
        assert_sound(result)  # the replay checks every Ignore clause against priority
        actions = result.log.actions
        for i, action in enumerate(actions):
            if not action.ignored:
                continue
            giver = actions[i - 1].player  # the Play (or BuGang) that was claimed
            claims = [(action.player, action.kind)] + [(p, kind) for p, kind, _ in action.ignored]
            expected = max(claims, key=lambda c: (CLAIM_RANK[c[1]], -((c[0] - giver) % 4)))
            assert expected == (action.player, action.kind)
            kinds = tuple(sorted({action.kind} | {kind for _, kind, _ in action.ignored}))
            contested[kinds] = contested.get(kinds, 0) + 1
    assert ("Chi", "Peng") in contested  # the bots did contest discards


class Tsumogiri(ProtocolBot):
    """Discards what it draws; never claims or wins."""

    def on_draw(self) -> Response:
        return Response("PLAY", (self.table.seats[self.seat].last_drawn,))


def _walls(deals: list, first_draw: str) -> DuplicateWalls:
    """Duplicate walls with these deals and player 0's first draw; the other tiles follow."""
    walls = [[TOKEN_ID[t] for t in deal.split()] for deal in deals]
    walls[0].append(TOKEN_ID[first_draw])
    rest = [t for t in range(34) for _ in range(4)]
    for wall in walls:
        for t in wall:
            rest.remove(t)  # ValueError would mean a fifth copy in the deals
    for wall in walls:
        while len(wall) < 34:
            wall.append(rest.pop())
    return DuplicateWalls(walls)


def test_two_wins_on_one_discard_go_to_the_first_player_in_turn():
    walls = _walls(["W1 W1 W2 T1 T9 B1 B9 F1 F2 F3 J1 J2 J3",
                    "W1 W2 W3 W4 W5 W6 W7 W8 W9 F1 F1 F1 B5",  # pure straight, waiting on 5p
                    "T1 T2 T3 T4 T5 T6 T7 T8 T9 F2 F2 F2 B5",  # the same in bamboo
                    "B1 B2 B3 B7 B8 B9 J1 J1 J2 J2 J3 J3 F4"], "B5")
    result = play_game(_agents(Tsumogiri(), EagerBot(1), EagerBot(2), EagerBot(3)), walls, 0, "two-wins")
    assert_sound(result)
    assert result.log.actions[2] == (1, "Hu", TOKEN_ID["B5"], ((2, "Hu", TOKEN_ID["B5"]),))
    assert result.outcome.win.winner == 1 and result.outcome.win.discarder == 0


def test_a_win_beats_an_earlier_players_pung():
    walls = _walls(["W9 W9 T9 T9 B1 B9 F1 F1 J1 J2 J3 B7 B8",
                    "B5 B5 W1 W2 W4 W7 T3 T6 J1 J2 F4 F4 B9",  # could pung 5p
                    "W3 W5 W6 W8 W9 B1 B2 B3 J3 J3 F3 F3 F1",
                    "T1 T2 T3 T4 T5 T6 T7 T8 T9 F2 F2 F2 B5"], "B5")  # wins on 5p
    result = play_game(_agents(Tsumogiri(), EagerBot(1), EagerBot(2), EagerBot(3)), walls, 0, "win-over-pung")
    assert_sound(result)
    assert result.log.actions[2] == (3, "Hu", TOKEN_ID["B5"], ((1, "Peng", TOKEN_ID["B5"]),))


class Misbehaving(ProtocolBot):
    """A bot that breaks one rule on its first draw (how: one of the modes below)."""

    def __init__(self, how: str):
        super().__init__()
        self.how = how

    def on_draw(self) -> Response:
        seat = self.table.seats[self.seat]
        missing = next(t for t in range(34) if seat.concealed[t] == 0)
        if self.how == "unheld discard":
            return Response("PLAY", (missing,))
        if self.how == "false win":
            return Response("HU")
        if self.how == "kong without four":
            return Response("GANG", (seat.last_drawn,))
        if self.how == "crash":
            raise RuntimeError("the bot fell over")
        return Response("PLAY", (seat.last_drawn,))

    def respond(self, request: str) -> str:
        if self.how == "garbage" and request.startswith("2 "):
            return "DISCARD EVERYTHING"
        if self.how == "claims others' draws" and " DRAW" in request:
            return "PLAY W1"
        return super().respond(request)


@pytest.mark.parametrize("how", ["unheld discard", "false win", "kong without four", "crash", "garbage",
                                 "claims others' draws"])
def test_an_illegal_action_is_a_foul_that_ends_the_game(how):
    offender = 0 if how != "claims others' draws" else 2
    bots = [ShantenBot() for _ in range(4)]
    bots[offender] = Misbehaving(how)
    result = play_game(_agents(*bots), deal_walls(3), 0, "foul")
    outcome = result.outcome
    assert outcome.kind == "foul" and outcome.offender == offender
    assert outcome.scores == tuple(-3 * FOUL_PENALTY if p == offender else FOUL_PENALTY for p in range(4))
    assert result.log.actions[-1] == (offender, "Invalid", None, ())
    check = Replay(parse_game(format_game(result.log))).check()
    assert check.score_line_matches


def test_bots_as_processes_play_the_same_games_as_in_process():
    seeds = range(2)
    names = ["mjfast", "shanten", "mjfast", "random"]
    local = [InProcessAgent(MjfastBot()), InProcessAgent(ShantenBot()), InProcessAgent(MjfastBot()),
             InProcessAgent(RandomBot(seed=5))]
    # the random bot's choices depend on its seed: seed the process one the same way
    expected = [r.log for r in play_games(local, seeds)]
    agents = [ProcessAgent(bot_command(name, "duplicate"), mode=mode, timeout=120)
              for name, mode in zip(names, ["simple", "json", "simple", "simple"])]
    try:
        agents[3] = InProcessAgent(RandomBot(seed=5))
        played = [r.log for r in play_games(agents, seeds)]
    finally:
        for agent in agents:
            agent.close()
    assert played == expected


TSUMOGIRI = textwrap.dedent("""
    import json, sys
    first = sys.stdin.readline()
    if first.startswith("{"):
        request = json.loads(first)["requests"][-1]
    else:
        lines = [sys.stdin.readline().strip() for _ in range(2 * int(first) - 1)]
        request = lines[-1]
    words = request.split()
    answer = "PLAY " + words[1] if words[0] == "2" else "PASS"
    print(json.dumps({"response": answer}) if first.startswith("{") else answer)
""")


@pytest.mark.parametrize("mode", ["simple", "json"])
def test_a_program_that_exits_every_turn_is_given_the_whole_game(tmp_path, mode):
    script = tmp_path / "tsumogiri.py"
    script.write_text(TSUMOGIRI)
    agent = ProcessAgent([sys.executable, str(script)], mode=mode, timeout=30)
    try:
        agents = [agent] + _agents(ShantenBot(), ShantenBot(), ShantenBot())
        result = play_game(agents, deal_walls(11), 0, "traditional")
    finally:
        agent.close()
    assert_sound(result)
    plays = [a for a in result.log.actions if a.player == 0 and a.kind == "Play"]
    draws = [a for a in result.log.actions if a.player == 0 and a.kind == "Draw"]
    assert plays and all(p.tile == d.tile for p, d in zip(plays, draws))  # it discards what it drew
    assert not agent.keeps_running and len(agent.requests) > 20


def test_a_silent_program_times_out_as_a_foul(tmp_path):
    script = tmp_path / "silent.py"
    script.write_text("import time\ntime.sleep(30)\n")
    agent = ProcessAgent([sys.executable, str(script)], timeout=0.5)
    try:
        result = play_game([agent] + _agents(ShantenBot(), ShantenBot(), ShantenBot()), deal_walls(1), 0, "slow")
    finally:
        agent.close()
    assert result.outcome.kind == "foul" and result.outcome.offender == 0
    assert "no response within" in result.outcome.reason


def test_a_match_sums_scores_per_bot_and_writes_every_game(tmp_path):
    path = tmp_path / "match.txt"
    with open(path, "w", encoding="utf-8") as log:
        summary = run_match(["shanten", "random", "shanten", "random"], range(12), rotate=True, log=log)
    assert summary.games == 12 and summary.fouls == 0 and summary.unbalanced == 0
    records = summary.bots
    assert records["shanten"].games == records["random"].games == 24
    assert records["shanten"].score + records["random"].score == 0
    from mjfast.game import check_games

    checks = list(check_games(path))
    assert len(checks) == 12 and all(c.score_line_matches for c in checks)
    assert "seat-games" in summary.report()


def test_the_report_gives_a_bot_process_memory_after_the_first_every_100th_and_the_last_game():
    from mjfast.bots.match import BotRecord, MatchSummary

    summary = MatchSummary()
    summary.bots["mjfast"] = BotRecord("mjfast", memory=[(1024 * (100 + k), 1024 * (150 + k)) for k in range(250)])
    line = next(line for line in summary.report().splitlines() if "resident" in line)
    assert line.endswith("after game 1: 100 MB, 100: 199 MB, 200: 299 MB, 250: 349 MB; peak 399 MB")


def test_the_engine_rejects_what_the_rules_reject():
    # the table's claim check agrees with TableState: a chow of a non-left discard is refused
    from mjfast.game.state import TableState

    table = TableState()
    for p in range(4):
        table.deal(p, deal_walls(5).deal(p))
    table.draw(0, deal_walls(5).walls[0][13])
    table.play(0, deal_walls(5).walls[0][13])
    with pytest.raises(IllegalAction):
        table.check_claim(2, "Chi", 1)
