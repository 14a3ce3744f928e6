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
- The bounds: any of these inputs, edited, nested past the depth bound (as a log, a request,
  the bot's input) and repeated past a size bound (a file, gzipped and plain): read or refused
  with the reader's own error, the file refused past the bound, the memory held bounded.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast.game.botzone_log import parse_botzone
from mjfast.game.logformat import parse_block
from mjfast.game.protocol import parse_request, parse_response

from .properties import examples, mutated_json, mutated_lines, no_hang
from .readers import (
    BOUNDS_SEEDS,
    GAMES,
    JSON_LOGS,
    JSON_WORDS,
    LOG_WORDS,
    MATCHES,
    PROTOCOL_WORDS,
    REQUESTS,
    RESPONSES,
    SERVICE_REQUESTS,
    SERVICE_WORDS,
    bot_input,
    check_bot,
    check_bounds,
    check_json_log,
    check_protocol,
    check_service,
    check_text_log,
    replayed,
)


def test_the_real_inputs_read_and_replay():
    assert len(GAMES) == 16 and len(MATCHES) == 10 and len(REQUESTS) > 200 and len(RESPONSES) > 30
    assert all(replayed(lambda text=text: parse_block(list(enumerate(text.split("\n"), 1)))) for text in GAMES)
    replays = [replayed(lambda m=m: parse_botzone(m, "m")) is not None for m in MATCHES]
    assert replays == [not path.name.startswith("wa-") for path in JSON_LOGS]  # the judge's WA games break a rule
    assert all(parse_request(r) for r in REQUESTS) and all(parse_response(r) for r in RESPONSES)
    assert all("result" in check_service(json.dumps(r)) for r in SERVICE_REQUESTS)


# What these tests once found (then fixed) is kept in data/fuzz/ (test_fuzz_regressions.py).
@settings(max_examples=examples(300))
@given(st.sampled_from(GAMES).flatmap(lambda game: mutated_lines(game, LOG_WORDS)))
def test_an_edited_text_log_reads_or_raises_log_error(text):
    with no_hang():
        check_text_log(text)


@settings(max_examples=examples(60))
@given(st.sampled_from(range(len(MATCHES))).flatmap(lambda k: mutated_json(MATCHES[k])))
def test_an_edited_json_log_reads_or_raises_log_error(match):
    with no_hang():
        check_json_log(json.dumps(match))


@settings(max_examples=examples(60))
@given(st.sampled_from(JSON_LOGS).flatmap(lambda path: mutated_lines(path.read_text(encoding="utf-8")[:3000],
                                                                     JSON_WORDS)))
def test_an_edited_json_text_reads_or_raises_log_error(text):
    with no_hang():
        check_json_log(text)


@settings(max_examples=examples(500))
@given(st.sampled_from(REQUESTS + RESPONSES).flatmap(lambda line: mutated_lines(line, PROTOCOL_WORDS)))
def test_an_edited_protocol_line_reads_or_raises_protocol_error(line):
    check_protocol(line)


@st.composite
def bot_inputs(draw):
    """The JSON input of a bot at some judge's request of a real match, then edited."""
    match, seat = draw(st.sampled_from(MATCHES)), draw(st.integers(0, 3))
    whole = json.loads(bot_input(match, seat, 10**6))
    return json.dumps(draw(mutated_json(json.loads(bot_input(match, seat, draw(st.integers(
        1, len(whole["requests"]))))))))


@settings(max_examples=examples(40))
@given(bot_inputs())
def test_the_bot_answers_an_edited_game_with_a_response_of_the_protocol(text):
    with no_hang():
        check_bot(text)


@settings(max_examples=examples(300))
@given(st.sampled_from(SERVICE_REQUESTS).flatmap(mutated_json))
def test_an_edited_request_gets_a_result_or_a_documented_error(request):
    with no_hang():
        check_service(json.dumps(request))


@settings(max_examples=examples(200))
@given(st.sampled_from(SERVICE_REQUESTS).flatmap(
    lambda r: mutated_lines(json.dumps(r), SERVICE_WORDS)))
def test_an_edited_request_text_gets_a_result_or_a_documented_error(text):
    with no_hang():
        check_service(text)


@settings(max_examples=examples(30))
@given(st.sampled_from(BOUNDS_SEEDS).flatmap(lambda text: mutated_lines(text, LOG_WORDS + JSON_WORDS)))
def test_an_edited_input_made_big_is_read_or_refused_within_its_bounds(text):
    with no_hang():
        check_bounds(text)
