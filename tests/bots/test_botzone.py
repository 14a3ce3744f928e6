"""`mjfast botzone`, run as Botzone runs a bot: a separate process given its input in the JSON
or the simple interaction, once per turn with the whole game, or kept running."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import mjfast
from mjfast.bots.botzone import run
from mjfast.game import InProcessAgent, MjfastBot, ShantenBot, play_game
from mjfast.game.agents import KEEP_RUNNING
from mjfast.game.walls import deal_walls

# without a clock: the answers are the recorded game's (in-process bots keep no clock), whatever
# the machine's speed (test_bot_clock.py tests the clock)
BOT = [sys.executable, "-m", "mjfast.cli", "botzone", "--no-clock"]


class Recording(InProcessAgent):
    def __init__(self, bot):
        super().__init__(bot)
        self.requests, self.responses = [], []

    def send(self, request, limit=None):
        self.requests.append(request)
        super().send(request, limit)

    def receive(self, limit=None):
        self.responses.append(super().receive(limit))
        return self.responses[-1]


def _recorded_game():
    """Seat 1's requests and responses in a game of mjfast bots."""
    agents = [Recording(MjfastBot()) for _ in range(4)]
    result = play_game(agents, deal_walls(21), 2, "recorded")
    assert result.outcome.kind != "foul"
    return agents[1].requests, agents[1].responses


REQUESTS, RESPONSES = _recorded_game()
# the last draw seat 1 answered: a real decision, late in the game
TURN = max(i for i, r in enumerate(REQUESTS) if r.startswith("2 "))


def _bot(text: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run(BOT + list(args), input=text, capture_output=True, text=True, timeout=120)


def test_json_interaction_with_the_whole_game():
    turn = {"requests": REQUESTS[:TURN + 1], "responses": RESPONSES[:TURN], "data": "", "globaldata": ""}
    done = _bot(json.dumps(turn) + "\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"response": RESPONSES[TURN]}


def test_simple_interaction_with_the_whole_game():
    lines = [str(TURN + 1)]
    for i in range(TURN + 1):
        lines.append(REQUESTS[i])
        if i < TURN:
            lines.append(RESPONSES[i])
    done = _bot("\n".join(lines) + "\n\n\n")  # empty data and globaldata lines follow
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == RESPONSES[TURN]


def test_keep_running_answers_each_request_then_waits():
    text = "1\n" + "\n".join(REQUESTS) + "\n"
    done = _bot(text, "--keep-running")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    answers = lines[0::2][:len(REQUESTS)]
    markers = lines[1::2][:len(REQUESTS)]
    assert answers == RESPONSES
    assert set(markers) == {KEEP_RUNNING}


def test_keep_running_json_takes_each_later_request_as_a_json_string():
    first = json.dumps({"requests": REQUESTS[:1], "responses": []})
    text = first + "\n" + "\n".join(json.dumps(r) for r in REQUESTS[1:]) + "\n"
    done = _bot(text, "--keep-running")
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line)["response"] for line in done.stdout.split("\n")[0::2] if line]
    assert answers == RESPONSES


def test_a_request_it_cannot_follow_gets_a_safe_legal_answer():
    out = io.StringIO()
    # a discard before any deal: the bot cannot follow the game from here
    broken = {"requests": ["0 1 0", "3 0 PLAY W1", "2 T5"], "responses": ["PASS", "PASS"]}
    assert run(ShantenBot(), io.StringIO(json.dumps(broken) + "\n"), out) == 0
    answer = json.loads(out.getvalue())
    assert answer["response"] == "PLAY T5"  # the drawn tile: always legal to discard
    assert "before the deal" in answer["debug"]


def test_unreadable_input_ends_with_one_line_and_status_2():
    done = _bot("{not json\n")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "unreadable input" in done.stderr and "Traceback" not in done.stderr


def test_the_claims_option_reaches_the_value_model():
    bot = MjfastBot(claims=0.5)
    assert bot.model.claims == 0.5 and bot._model() is bot.model
    agents = [InProcessAgent(MjfastBot(claims=1.0)) for _ in range(4)]
    assert play_game(agents, deal_walls(22), 1, "claims").outcome.kind != "foul"
    turn = {"requests": REQUESTS[:TURN + 1], "responses": RESPONSES[:TURN], "data": "", "globaldata": ""}
    done = _bot(json.dumps(turn) + "\n", "--claims", "1")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["response"].split()[0] in ("PLAY", "HU", "GANG", "BUGANG")
    for args, message in ((["--claims", "1.5"], "0 to 1"), (["--bot", "shanten", "--claims", "0.5"], "mjfast's bot")):
        done = _bot(json.dumps(turn) + "\n", *args)
        assert done.returncode == 2 and message in done.stderr, done.stderr


def test_a_claims_share_out_of_range_is_refused():
    with pytest.raises(mjfast.ArgumentError, match="value model out of range"):
        MjfastBot(claims=-0.1)


def test_the_race_option_reaches_the_value_model():
    agents = [InProcessAgent(MjfastBot(race=True, claims=0.5)) for _ in range(4)]
    assert play_game(agents, deal_walls(23), 1, "race").outcome.kind != "foul"
    bot = agents[0].bot
    assert bot._model().claims == 0.5 and len(bot._model().hazard) == bot.draws()  # the race keeps the claims
    turn = {"requests": REQUESTS[:TURN + 1], "responses": RESPONSES[:TURN], "data": "", "globaldata": ""}
    done = _bot(json.dumps(turn) + "\n", "--race", "--danger")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["response"].split()[0] in ("PLAY", "HU", "GANG", "BUGANG")
    done = _bot(json.dumps(turn) + "\n", "--bot", "shanten", "--race")
    assert done.returncode == 2 and "mjfast's bot" in done.stderr, done.stderr
