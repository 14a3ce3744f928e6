"""What mjfast's readers of outside input take at most (mjfast.bounds), each reader at the bound:
JSON nested past MAX_DEPTH is refused with the reader's own error by every reader of JSON (logs,
the service, the bot, the table's bot processes), never with a RecursionError."""

from __future__ import annotations

import io
import json
import sys

import pytest

from mjfast.bounds import MAX_DEPTH, too_deep
from mjfast.game import BrokenGame, LogError, read_botzone, read_games
from mjfast.game.agents import AgentError, ProcessAgent
from mjfast.game.reading import json_blocks, parsed
from mjfast.service.server import handle, handle_text, serve_lines

from .data import DATA, LOGS

DEEP = 200_000  # ten times what the interpreter's recursion limit lets json.loads reach


def nested(depth: int, inner: str = "0") -> str:
    return "[" * depth + inner + "]" * depth


# ---------------------------------------------------------------- the depth, told before parsing

@pytest.mark.parametrize("text, depth", [
    ("[]", 1), ("{}", 1), ('{"a": [1, {"b": []}]}', 4), (nested(MAX_DEPTH), MAX_DEPTH),
    ('["' + "[" * 300 + '"]', 1),  # brackets in a string are text
    ('["\\"' + "[" * 300 + '"]', 1),  # an escaped quote does not end the string
    ('["\\\\"' + ", [" * 150 + "]" * 151, 151),  # an escaped backslash does: what follows is nesting
    ('"' + "[" * 300, 0),  # an unterminated string runs to the end
    ("]" * 300 + "[" * 300, 0),  # json.loads stops at the first closing bracket too many
])
def test_the_depth_counts_brackets_outside_strings(text, depth):
    limit = 1 if depth > 1 else 0  # at a limit of 0 or 1, the text is measured, not skipped as short
    said = too_deep(text, limit)
    assert said == (f"JSON nested {depth} deep; mjfast reads at most {limit} levels" if depth > limit else "")
    assert too_deep(text) == (f"JSON nested {depth} deep; mjfast reads at most {MAX_DEPTH} levels"
                              if depth > MAX_DEPTH else "")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_bytes_are_measured_in_the_encoding_json_loads_reads_them_in(encoding):
    text = '{"op": "version", "x": ' + nested(MAX_DEPTH + 1) + "}"
    assert too_deep(text.encode(encoding)).startswith(f"JSON nested {MAX_DEPTH + 2} deep;")
    assert too_deep(nested(MAX_DEPTH - 1).encode(encoding)) == ""


def test_the_real_inputs_are_far_from_the_bound():
    texts = [path.read_text(encoding="utf-8") for path in sorted((LOGS / "botzone_json").rglob("*.json"))]
    texts.append((DATA / "tziakcha" / "session-ghqy2ztj.json").read_text(encoding="utf-8"))
    assert all(too_deep(text, 8) == "" for text in texts)
    assert too_deep(texts[-1], 7).startswith("JSON nested 8 deep")  # the deepest: a Tziakcha session


# ---------------------------------------------------------------- each reader refuses with its own error

@pytest.mark.parametrize("text", [nested(DEEP), "[" * DEEP, '{"records": ' + nested(DEEP) + "}",
                                  '{"logs": [' + "{" * DEEP])
def test_a_deep_json_log_is_a_log_error_naming_the_file_and_the_depth(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    [broken] = read_games(path)
    assert isinstance(broken, BrokenGame) and broken.match_id == "deep" and broken.line == 0
    assert broken.reason.startswith("JSON nested ") and f"at most {MAX_DEPTH} levels" in broken.reason
    with pytest.raises(LogError, match="match deep, line 0: JSON nested [0-9]+ deep"):
        read_botzone(path)
    [block] = json_blocks(text, "web")  # the service's review reads a log's text this way
    assert isinstance(parsed(block), BrokenGame)


def test_a_deep_request_is_bad_json_and_the_service_goes_on():
    for text in (nested(DEEP), nested(DEEP).encode(), '{"op": "version", "x": ' + nested(30_000) + "}"):
        error = handle_text(text)["error"]
        assert error["code"] == "bad_json" and "JSON nested" in error["message"] and "deep" in error["message"]
    at_the_bound = nested(MAX_DEPTH - 1)  # in the request's object: MAX_DEPTH levels
    assert handle_text('{"op": "version", "id": ' + at_the_bound + "}")["id"] == json.loads(at_the_bound)
    out = io.StringIO()
    serve_lines(io.StringIO(nested(DEEP) + '\n{"id": 2, "op": "version"}\n'), out)
    first, second = map(json.loads, out.getvalue().splitlines())
    assert first["error"]["code"] == "bad_json" and second["id"] == 2 and "result" in second


def test_a_review_of_a_deep_log_is_bad_log():
    error = handle({"op": "review", "log": nested(DEEP)})["error"]
    assert error["code"] == "bad_log" and "JSON nested" in error["message"]


def test_the_bot_refuses_a_deep_input_in_one_line_with_status_2(capsys):
    from mjfast.bots import BOTS
    from mjfast.bots.botzone import run

    out = io.StringIO()
    status = run(BOTS["fan-aware"](), io.StringIO('{"requests": ' + nested(DEEP, '"0 0 0"') + "}\n"), out)
    err = capsys.readouterr().err
    assert status == 2 and out.getvalue() == "" and err.count("\n") == 1
    assert "unreadable input" in err and f"JSON nested {DEEP + 1} deep" in err


def test_a_bot_process_answering_deep_json_is_an_agent_error():
    answer = f"import sys; sys.stdout.write('{{\"response\": ' + '[' * {DEEP} + ']' * {DEEP} + '}}\\n')"
    agent = ProcessAgent([sys.executable, "-c", answer], mode="json", timeout=60)
    try:
        agent.send("0 0 0")
        with pytest.raises(AgentError, match=f"JSON nested {DEEP + 1} deep"):
            agent.receive()
    finally:
        agent.close()
