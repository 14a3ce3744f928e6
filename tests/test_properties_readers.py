"""Every reader of outside input, fed random edits of real inputs (hypothesis): each input is
read, or rejected with the reader's one error (LogError for a log, ProtocolError for the
protocol, an error code for the service), never with another exception, never a hang. The
readers and their checks are readers.py's.

- Botzone / PKU text logs: a real game with lines, words and characters edited; it reads and
  replays (its check compares the Fan and Score lines) or raises LogError.
- Botzone JSON match logs: a real match with nodes replaced, deleted, repeated or swapped, or
  its text edited; the same.
- The protocol: real requests and responses (from the JSON logs) edited; read or ProtocolError.
  The bot fed an edited game always answers a response of the protocol.
- The service: real requests of every operation, edited as JSON or as text; each gets a result
  or an error with a documented code, never `internal`, and the response is valid JSON.
"""

from __future__ import annotations

import io
import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mjfast.bots import BOTS
from mjfast.bots.botzone import run as run_bot
from mjfast.game.botzone_log import parse_botzone
from mjfast.game.logformat import parse_block
from mjfast.game.protocol import parse_request, parse_response
from mjfast.game.tokens import TOKENS

from .properties import examples, mutated_json, mutated_lines, no_hang
from .readers import (
    GAMES,
    JSON_LOGS,
    MATCHES,
    REQUESTS,
    RESPONSES,
    SERVICE_REQUESTS,
    check_json_log,
    check_protocol,
    check_service,
    check_text_log,
    entries,
    replayed,
)

# The words of the text format, to put in place of others.
LOG_WORDS = ["Match", "Wind", "Player", "Deal", "Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu",
             "BuHua", "Invalid", "Ignore", "Fan", "Huang", "Score", "Wall", "4x36", "144", "0", "1", "3", "4", "-1",
             "W0", "W10", "B1", "T9", "F4", "J3", "H1", "H9", "", "*", "+", "清龙*1", "x*"] + list(TOKENS)
PROTOCOL_WORDS = ["0", "1", "2", "3", "4", "PLAY", "CHI", "PENG", "GANG", "BUGANG", "BUHUA", "DRAW", "HU", "PASS",
                  "W0", "H9", "01", "+1", "\u0663", *TOKENS]


def test_the_real_inputs_read_and_replay():
    assert len(GAMES) == 16 and len(MATCHES) == 10 and len(REQUESTS) > 200 and len(RESPONSES) > 30
    assert all(replayed(lambda text=text: parse_block(list(enumerate(text.split("\n"), 1)))) for text in GAMES)
    replays = [replayed(lambda m=m: parse_botzone(m, "m")) is not None for m in MATCHES]
    assert replays == [not path.name.startswith("wa-") for path in JSON_LOGS]  # the judge's WA games break a rule
    assert all(parse_request(r) for r in REQUESTS) and all(parse_response(r) for r in RESPONSES)
    assert all("result" in check_service(json.dumps(r)) for r in SERVICE_REQUESTS)


def _with_flower(match: dict, action: str) -> dict:
    """A copy of a JSON match whose first `action` of the judge names the flower H1."""
    match = json.loads(json.dumps(match))
    display = next(e["output"]["display"] for e in entries(match) if e.get("output", {}).get("display", {}).get(
        "action") == action)
    display["tile"] = "H1"
    return match


# The examples are what the property tests once found (then fixed): each stays a test.
@settings(max_examples=examples(300))
@given(st.sampled_from(GAMES).flatmap(lambda game: mutated_lines(game, LOG_WORDS)))
@example("")  # no block at all: parse_block indexed its first line
@example(GAMES[0].replace("Player 0 Play T6", "Player 0 Play H1"))  # a flower discarded: an index past the 34 kinds
@example(GAMES[0].replace("Player 0 Play T6", "Player 0 AnGang H1"))  # and a kong of flowers
def test_an_edited_text_log_reads_or_raises_log_error(text):
    with no_hang():
        check_text_log(text)


@settings(max_examples=examples(60))
@given(st.sampled_from(range(len(MATCHES))).flatmap(lambda k: mutated_json(MATCHES[k])))
@example(_with_flower(MATCHES[0], "PLAY"))
def test_an_edited_json_log_reads_or_raises_log_error(match):
    with no_hang():
        check_json_log(json.dumps(match))


@settings(max_examples=examples(60))
@given(st.sampled_from(JSON_LOGS).flatmap(lambda path: mutated_lines(path.read_text(encoding="utf-8")[:3000],
                                                                     ['"', "{", "]", "null", "PLAY"])))
def test_an_edited_json_text_reads_or_raises_log_error(text):
    with no_hang():
        check_json_log(text)


@settings(max_examples=examples(500))
@given(st.sampled_from(REQUESTS + RESPONSES).flatmap(lambda line: mutated_lines(line, PROTOCOL_WORDS)))
def test_an_edited_protocol_line_reads_or_raises_protocol_error(line):
    check_protocol(line)


@st.composite
def bot_inputs(draw):
    """The JSON input of seat 0's bot at some judge's request of a real match, then edited."""
    match = MATCHES[draw(st.sampled_from(range(len(MATCHES))))]
    requests, responses = [], []
    for entry in entries(match):
        content = entry["output"].get("content") if "output" in entry else None
        if isinstance(content, dict) and "0" in content:
            requests.append(content["0"])
        elif "0" in entry and len(responses) < len(requests):
            responses.append(entry["0"].get("response", ""))
    end = draw(st.integers(1, len(requests)))
    return json.dumps(draw(mutated_json({"requests": requests[:end], "responses": responses[:end - 1]})))


@settings(max_examples=examples(40))
@given(bot_inputs())
@example("0")  # the simple interaction's turn 0: no request to answer, an index error
def test_the_bot_answers_an_edited_game_with_a_response_of_the_protocol(text):
    out = io.StringIO()
    with no_hang():
        status = run_bot(BOTS["fan-aware"](), io.StringIO(text + "\n"), out)
    if status == 0:  # JSON for a JSON input; a line that is not JSON is a request of the simple interaction
        answer = out.getvalue().strip()
        assert parse_response(json.loads(answer)["response"] if answer.startswith("{") else answer)
    else:
        assert status == 2 and out.getvalue() == ""


@settings(max_examples=examples(300))
@given(st.sampled_from(SERVICE_REQUESTS).flatmap(mutated_json))
@example({"op": "review", "log": None})  # a required parameter given as null: internal (AttributeError)
@example({"op": "settle", "hand": "123m456p789s123sEE", "winner": None})
def test_an_edited_request_gets_a_result_or_a_documented_error(request):
    with no_hang():
        check_service(json.dumps(request))


@settings(max_examples=examples(200))
@given(st.sampled_from(SERVICE_REQUESTS).flatmap(
    lambda r: mutated_lines(json.dumps(r), ['"op"', '"hand"', "null", "1e999", "-0", '"\\ud800"', "[]", "{}"])))
def test_an_edited_request_text_gets_a_result_or_a_documented_error(text):
    with no_hang():
        check_service(text)
