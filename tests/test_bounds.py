"""What mjfast's readers of outside input take at most (mjfast.bounds), each reader at the bound:
JSON nested past MAX_DEPTH is refused with the reader's own error by every reader of JSON (logs,
the service, the bot, the table's bot processes), never with a RecursionError. The bombs at full
size, each in a process of its own, are test_bombs.py's."""

from __future__ import annotations

import gzip
import io
import json
import sys
import time
import tracemalloc

import pytest

from mjfast.bounds import JSON_SHARE, MAX_DEPTH, MAX_GAME_LINES, MAX_LINE, MAX_LOG_SIZE, json_max_size, too_deep
from mjfast.game import BrokenGame, GameLog, LogError, read_botzone, read_games
from mjfast.game.agents import AgentError, ProcessAgent
from mjfast.game.gamelog import LogRefused
from mjfast.game.logformat import parse_block
from mjfast.game.reading import json_blocks, parsed
from mjfast.logs.sources import chunks, count_games
from mjfast.service.server import handle, handle_text, serve_lines

from .data import DATA, LOGS

DEEP = 200_000  # ten times what the interpreter's recursion limit lets json.loads reach
MiB = 2**20
REAL = (LOGS / "botzone_mahjong_gb_16matches.txt").read_text(encoding="utf-8").strip() + "\n\n"
ENDLESS = "Match 1\nWind 0\n" + "Player 0 Draw W1\n" * 100  # a game whose lines never end


def nested(depth: int, inner: str = "0") -> str:
    return "[" * depth + inner + "]" * depth


def gzip_bomb(path, piece: str, size: int, head: str = "") -> None:
    """A gzip file holding `head` then `piece` repeated to `size` bytes: one member compressed,
    written again and again (a gzip reader reads every member), so that a bomb of gigabytes is
    built in milliseconds and weighs about a thousandth of that."""
    data = piece.encode() * max(1, MiB // len(piece.encode()))
    member = gzip.compress(data, 9)
    with open(path, "wb") as f:
        f.write(gzip.compress(head.encode()))
        for _ in range(size // len(data)):
            f.write(member)


def peak_while(read) -> "tuple[object, int, float]":
    """read()'s value (or the LogError it raised), the most memory Python held meanwhile
    (tracemalloc), and its seconds."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        value = read()
    except LogError as exc:
        value = exc
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return value, peak, seconds


def games_until_refused(path, **kwargs) -> "tuple[list, LogRefused | None]":
    games: list = []
    try:
        for game in read_games(path, **kwargs):
            games.append(game)
    except LogRefused as exc:
        return games, exc
    return games, None


# ---------------------------------------------------------------- a log file's size

def test_a_gzip_stream_is_read_to_the_bound_and_no_further(tmp_path):
    path = tmp_path / "many.txt.gz"
    gzip_bomb(path, REAL, 64 * MiB)  # 64 MiB of real games in a file of some 200 KB
    (games, refused), peak, seconds = peak_while(lambda: games_until_refused(path, max_size=MiB))
    assert refused.file == str(path) and refused.line == 0
    assert str(refused) == f"{path}: holds more than 1 MiB once decompressed: refused (--max-log-size raises the bound)"
    assert 450 < len(games) < 16 * 33 and all(isinstance(g, GameLog) for g in games)  # the games before it stand
    assert peak < 4 * MiB and seconds < 30  # a few games held at a time; read to 1 MiB, not 64


def test_a_plain_file_past_the_bound_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text(REAL * 4, encoding="utf-8")
    games, refused = games_until_refused(path, max_size=len(REAL) * 4 - 1)
    assert games == [] and "holds more than" in refused.reason
    assert len(games_until_refused(path, max_size=len(REAL.encode()) * 4)[0]) == 64
    assert count_games([path], max_size=100) == 0  # `mjfast logs`' progress bar counts none of it
    [chunk] = chunks([path], max_size=100)  # and its run names it
    assert chunk.blocks == [] and "holds more than 100 bytes" in chunk.unreadable


def test_a_json_log_may_hold_a_share_of_the_bound(tmp_path):
    path = tmp_path / "match.json.gz"
    gzip_bomb(path, "0,", 64 * MiB, head="[")  # a JSON array of 32 million zeros, from a file of some 70 KB
    (games, refused), peak, seconds = peak_while(lambda: games_until_refused(path))
    assert json_max_size() == MAX_LOG_SIZE // JSON_SHARE == 8 * MiB
    assert games == [] and refused.reason == ("holds more than 8 MiB once decompressed, the most a JSON log may "
                                              "hold (it is read whole: 1/32 of --max-log-size 256 MiB): refused "
                                              "(--max-log-size raises the bound)")
    assert peak < 3 * 8 * MiB and seconds < 30  # its bytes and text, never its objects
    small = tmp_path / "small.json"
    small.write_text((LOGS / "botzone_json" / "ijcai2026-13-18-56.json").read_text(encoding="utf-8"), "utf-8")
    assert isinstance(games_until_refused(small, max_size=32 * 120 * 2**10)[0][0], GameLog)  # 109 KB < 120 KiB
    assert "the most a JSON log may hold" in games_until_refused(small, max_size=32 * 100 * 2**10)[1].reason


# ---------------------------------------------------------------- a line, a game

def test_a_line_past_the_bound_refuses_the_file_after_the_games_before_it(tmp_path):
    path = tmp_path / "long-line.txt.gz"
    gzip_bomb(path, " ", 2**30, head=REAL)  # the real games, then a line of a GiB of spaces
    (games, refused), peak, seconds = peak_while(lambda: games_until_refused(path))
    assert len(games) == 16 and refused.line == REAL.count("\n") + 1
    assert refused.reason == f"line {refused.line} runs past {MAX_LINE} characters: not a text log"
    assert peak < 2 * MiB and seconds < 10
    with pytest.raises(LogRefused, match="the log: line 2 runs past"):
        list(read_games(io.StringIO("Match 1\n" + "x" * (MAX_LINE + 1))))  # an open file too
    assert len(list(read_games(io.StringIO(REAL + "x" * (MAX_LINE - 1) + "\n")))) == 17  # one short: a line


def test_a_game_past_the_bound_is_broken_and_only_its_head_is_held(tmp_path):
    path = tmp_path / "endless.txt.gz"
    gzip_bomb(path, "Player 0 Draw W1\n", 4 * MiB, head=REAL + "Match endless\nWind 0\n")
    with gzip.open(path, "at", encoding="utf-8") as f:
        f.write("\n" + REAL)  # a game after it
    (games, refused), peak, _ = peak_while(lambda: games_until_refused(path))
    assert refused is None and len(games) == 33 and isinstance(games[16], BrokenGame)
    first = REAL.count("\n") + 1
    assert (games[16].match_id, games[16].line) == ("endless", first + MAX_GAME_LINES)
    assert games[16].reason.startswith(f"the game runs past {MAX_GAME_LINES} lines")
    assert all(isinstance(g, GameLog) for g in games[:16] + games[17:])
    assert peak < 2 * MiB  # 250,000 lines read, a thousand held
    lines = [(n, t) for n, t in enumerate(ENDLESS.split("\n"), 1) if t]
    assert len(lines) < MAX_GAME_LINES
    with pytest.raises(LogError, match="Draw before all four deals"):
        parse_block(lines)
    with pytest.raises(LogError, match=f"the game runs past {MAX_GAME_LINES} lines"):
        parse_block(lines * 10)


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
