"""mjfast's readers of outside input as targets to fuzz, and the real inputs that seed them.

Each target's check(text) feeds one input to a reader and returns quietly when the input is
read (and what was read holds together) or rejected with the reader's one error: HandError for
a hand, LogError for a log, ProtocolError for a line of the protocol, a documented error code
for the service, an answer of the protocol from the bot. Anything else escapes: another
exception, or an AssertionError saying what does not hold. The bounds target makes the input
big (nested past the depth bound, repeated past a size bound) where a fuzzer's inputs are
small, and checks the refusal and the memory the reading held. The property tests
(test_properties_readers.py) feed them hypothesis' edits of the seeds, bench/fuzz_readers.py
feeds them a coverage-guided fuzzer's bytes (decode), and every input that once failed is kept
in data/fuzz/<target>/ and checked by test_fuzz_regressions.py.
"""

from __future__ import annotations

import gzip
import io
import json
import tempfile
import tracemalloc
from pathlib import Path
from typing import Callable, NamedTuple

from mjfast import HandError
from mjfast.bounds import MAX_DEPTH, json_max_size
from mjfast.game import BrokenGame, GameCheck, GameLog, Replay, read_games
from mjfast.game.botzone_log import read_botzone
from mjfast.game.gamelog import LogError, LogRefused
from mjfast.game.logformat import game_blocks, parse_block
from mjfast.game.protocol import ProtocolError, parse_request, parse_response
from mjfast.game.reading import json_blocks, parsed
from mjfast.game.tokens import TOKENS
from mjfast.service.server import handle_text

from .data import DATA, LOGS, VECTORS

FUZZ_FINDINGS = DATA / "fuzz"


def decode(data: bytes) -> str:
    """The text a target is given for a fuzzer's bytes, or a kept input's: UTF-8."""
    return data.decode("utf-8", "replace")

# ---------------------------------------------------------------- the real inputs

TEXT_LOG = LOGS / "botzone_mahjong_gb_16matches.txt"
GAMES = ["\n".join(text for _, text in block) for block in game_blocks(TEXT_LOG)]
JSON_LOGS = sorted((LOGS / "botzone_json").rglob("*.json"))
MATCHES = [json.loads(path.read_text(encoding="utf-8")) for path in JSON_LOGS]


def entries(match) -> list:
    """The entries of a Botzone JSON log of either shape."""
    return match["logs"] if isinstance(match, dict) else match


def _protocol_lines() -> tuple[list, list]:
    """Every request the judge sent and every response a bot gave in the JSON logs."""
    requests, responses = set(), set()
    for match in MATCHES:
        for entry in entries(match):
            content = entry["output"].get("content") if "output" in entry else None
            if isinstance(content, dict):
                requests.update(c for c in content.values() if isinstance(c, str))
            elif "output" not in entry:
                responses.update(a["response"] for a in entry.values()
                                 if isinstance(a, dict) and isinstance(a.get("response"), str))
    return sorted(requests), sorted(responses)


REQUESTS, RESPONSES = _protocol_lines()


def _hands() -> list[str]:
    """The hands of the vector files: the shanten oracle's and the fan cases' (with melds)."""
    found = []
    for name, column in (("summerinsects_shanten_useful_oracle.tsv", "hand"), ("gbmahjong_fan_cases.tsv", "gb_input")):
        lines = [line for line in (VECTORS / name).read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.startswith("#")]
        at = lines[0].split("\t").index(column)
        found += [line.split("\t")[at].split("|")[0] for line in lines[1:]]
    return found


HANDS = _hands()

SERVICE_REQUESTS = [
    {"id": 1, "op": "parse", "hand": "[123m1]456p789s1357sE"},
    {"id": 2, "op": "tiles", "tiles": "1s 1s [345m1]"},
    {"id": 3, "op": "shanten", "hand": "W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T3 T5 T7"},
    {"id": 4, "op": "waits", "hand": "[123m1]456p789s13sEE", "fans": True, "seat_wind": "S", "visible": "2s"},
    {"id": 5, "op": "acceptance", "visible": [0] * 33 + [2],
     "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "3s", "5s", "7s"]},
    {"id": 6, "op": "advise", "hand": "123m456p789s1357sE", "visible": "1s 1s", "draws": 8, "drawn": "E",
     "seat_wind": 1, "prevalent_wind": "E", "flowers": 1, "budget_ms": 50},
    {"id": 7, "op": "advise", "hand": "123m456p78s1157sEE", "ranking": "fan-aware",
     "opponents": [{"seat": 1, "discards": "1m 9p", "melds": "[EEE2]", "draws": 5, "passed": "3s"}]},
    {"id": 8, "op": "claim", "hand": "123m456p78s1157sE", "tile": "9s", "from": "left", "visible": "1s",
     "last_discard": False, "ranking": "fan-aware"},
    {"id": 9, "op": "score", "hand": "123m456p789s123sEE", "self_drawn": True, "last_copy": False,
     "ruleset": {"minimum": 6, "seven_pairs_tile_fans": False}, "flowers": 2},
    {"id": 10, "op": "settle", "hand": "123m456p789s123sEE", "winner": 2, "discarder": 0, "ruleset": "strict_1998"},
    {"id": 11, "op": "review", "log": GAMES[0], "game": 0, "player": 1, "value": False},
    {"id": 12, "op": "version", "v": 1},
]
# Every code docs/protocol.md names for a request's error (too_large and forbidden_origin are
# the HTTP transport's, before a request is read; internal is a bug).
CODES = {"bad_json", "bad_request", "unsupported_version", "unknown_op", "bad_param", "bad_hand", "bad_log"}


# ---------------------------------------------------------------- the checks

def check_hand(text: str) -> None:
    """parse_hand and the tile readers; a hand read has 13 or 14 tiles, at most 4 copies of a
    tile, prints as text that reads back the same, and has a shanten in -1..8."""
    import mjfast

    try:
        hand = mjfast.parse_hand(text)
    except HandError as exc:
        assert str(exc), "a HandError without a message"
        hand = None
    if hand is not None:
        assert hand.n_standing + 3 * hand.n_melds in (13, 14)
        assert int((hand.counts + hand.meld_counts).max()) <= 4
        assert mjfast.parse_hand(str(hand)) == hand, str(hand)
        assert -1 <= mjfast.shanten(hand) <= 8
    for read in (mjfast.parse_tiles, mjfast.parse_meld, mjfast.visible_counts):
        try:
            read(text)
        except HandError as exc:
            assert str(exc), "a HandError without a message"


def replayed(read: Callable[[], GameLog]) -> "GameCheck | None":
    """read() replayed and checked: the check, or None when reading or replaying raised LogError."""
    try:
        game = read()
        assert isinstance(game, GameLog)
        check = Replay(game).check()
    except LogError as exc:
        assert exc.reason and isinstance(exc.line, int), "a LogError without its line and reason"
        return None
    assert isinstance(check, GameCheck) and check.score_line_matches in (True, False)
    return check


def analysed(read: Callable[[], GameLog]) -> None:
    """read() replayed and checked, and analysed as `mjfast logs` and `mjfast review` analyse a
    game (every decision ranked, plainly and fan-aware); LogError for a game that breaks a rule."""
    if replayed(read) is None:
        return
    from mjfast.logs.analysis import GameAnalyser

    analyser = GameAnalyser(fan_aware=True)
    try:
        analyser.analyse(read(), 0)
    except LogError as exc:
        raise AssertionError(f"the replay took the game, the analysis rejects it: {exc}") from None
    decisions, games, _, _ = analyser.take()
    assert len(games) == 1


def check_text_log(text: str) -> None:
    """The text format: the block as one game (parse_block, replayed and analysed), and the
    streaming reader over the whole text (a game or a broken game per block)."""
    analysed(lambda: parse_block([(n, t.strip()) for n, t in enumerate(text.split("\n"), 1) if t.strip()]))
    for game in read_games(io.StringIO(text)):
        assert isinstance(game, GameLog) or game.reason


def check_json_log(text: str) -> None:
    """Botzone's JSON match log, either shape, read, replayed and analysed."""
    analysed(lambda: read_botzone(io.StringIO(text), "fuzzed"))


def check_protocol(line: str) -> None:
    """A line of the protocol, as a request and as a response."""
    for parse in (parse_request, parse_response):
        try:
            parse(line)
        except ProtocolError as exc:
            assert str(exc), "a ProtocolError without a message"


def bot_input(match, seat: int, requests: int) -> str:
    """The JSON input seat `seat`'s bot gets at the judge's `requests`-th request to it in a
    match (the requests so far and its responses to all but the last)."""
    asked, answered = [], []
    for entry in entries(match):
        content = entry["output"].get("content") if "output" in entry else None
        if isinstance(content, dict) and str(seat) in content:
            asked.append(content[str(seat)])
        elif str(seat) in entry and len(answered) < len(asked):
            answered.append(entry[str(seat)].get("response", ""))
    return json.dumps({"requests": asked[:requests], "responses": answered[:requests - 1]})


def check_bot(text: str) -> None:
    """`mjfast botzone`'s reading of its input (either interaction), a fresh fan-aware bot: it
    answers with a response of the protocol, or says the input is unreadable (status 2); an
    input of blank lines only is no turn: it ends without a word (status 0)."""
    from mjfast.bots import BOTS
    from mjfast.bots.botzone import run

    out = io.StringIO()
    status = run(BOTS["fan-aware"](), io.StringIO(text + "\n"), out)
    if not text.strip():
        assert status == 0 and out.getvalue() == ""
    elif status == 0:  # JSON for a JSON input; a line that is not JSON is a request of the simple interaction
        answer = out.getvalue().strip()
        assert parse_response(json.loads(answer)["response"] if answer.startswith("{") else answer)
    else:
        assert status == 2 and out.getvalue() == ""


def check_service(text: str) -> dict:
    """A request's text: the response has a result or an error of a documented code (never
    `internal`, a bug), and is JSON (no NaN, no Infinity)."""
    response = handle_text(text)
    json.dumps(response, allow_nan=False)
    assert set(response) in ({"id", "result"}, {"id", "error"}), response
    if "error" in response:
        assert response["error"]["code"] in CODES and response["error"]["message"], response
    return response


# The size bound the bounds target reads its files with: small, so that an input repeated past
# it is read in milliseconds. Reading one holds a few times the bound at most (the bytes and the
# text of a piece, a game's lines; a JSON log's text and bytes, 1/32 of it), and a fixed part.
BOUND = 64 * 1024
HELD = 8 * BOUND + 2**20
# Nesting checked around an input: at the bound, past it, and past what json.loads could recurse.
DEPTHS = (MAX_DEPTH - 1, MAX_DEPTH + 1, 5000)


def check_bounds(text: str) -> None:
    """The readers at their bounds, the input made big: nested DEPTHS deep in an array (as a
    JSON log, a Tziakcha session, a request and its id, the bot's input), each read or refused
    with the reader's own error; and repeated past BOUND in a gzip file and a plain one, read
    with that bound: the file is refused (LogRefused naming it) after what read before it, and
    the reading held no more than HELD."""
    for depth in DEPTHS:
        nested = "[" * depth + text + "]" * depth
        check_json_log(nested)
        assert isinstance(parsed(json_blocks('{"records": ' + nested + "}", "f")[0]), (GameLog, BrokenGame))
        check_service(nested)
        check_service('{"op": "version", "id": ' + nested + "}")
        check_bot('{"requests": ' + nested + "}")
    data = text.encode("utf-8", "replace")
    if not data:
        return
    data = data * (4 * BOUND // len(data) + 1)
    with tempfile.TemporaryDirectory() as folder:
        for name, content in (("log.gz", gzip.compress(data, 1)), ("log.txt", data)):
            path = Path(folder) / name
            path.write_bytes(content)
            refused, held = _read_to_the_bound(path)
            assert refused is not None and refused.file == str(path), f"{name} read past {BOUND} bytes"
            assert held <= HELD, f"reading {name} held {held} bytes"
    assert json_max_size(BOUND) == BOUND // 32


def _read_to_the_bound(path: Path) -> "tuple[LogRefused | None, int]":
    """read_games(path) with BOUND: the LogRefused it ended with (None when it read to the end),
    and the most memory it held (tracemalloc)."""
    tracemalloc.start()
    try:
        for game in read_games(path, BOUND):
            assert isinstance(game, GameLog) or game.reason
    except LogRefused as exc:
        return exc, tracemalloc.get_traced_memory()[1]
    finally:
        held = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return None, held


# ---------------------------------------------------------------- the words of each format

# Words of the text format, to put in place of others (valid, and just not).
LOG_WORDS = ["Match", "Wind", "Player", "Deal", "Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu",
             "BuHua", "Invalid", "Ignore", "Fan", "Huang", "Score", "Wall", "4x36", "144", "0", "1", "3", "4", "-1",
             "W0", "W10", "B1", "T9", "F4", "J3", "H1", "H9", "", "*", "+", "清龙*1", "x*", *TOKENS]
PROTOCOL_WORDS = ["0", "1", "2", "3", "4", "PLAY", "CHI", "PENG", "GANG", "BUGANG", "BUHUA", "DRAW", "HU", "PASS",
                  "W0", "H9", "01", "+1", "\u0663", *TOKENS]
JSON_WORDS = ['"logs"', '"initdata"', '"players"', '"output"', '"display"', '"content"', '"action"', '"player"',
              '"tile"', '"tileCHI"', '"hand"', '"quan"', '"walltiles"', '"tileCnt"', '"canHu"', '"fan"', '"fanCnt"',
              '"score"', '"response"', '"verdict"', '"time"', '"INIT"', '"DEAL"', '"DRAW"', '"PLAY"', '"CHI"',
              '"PENG"', '"GANG"', '"BUGANG"', '"BUHUA"', '"HU"', '"HUANG"', '"WA"', '"H1"', "null", "[]", "{}", "-4"]
SERVICE_WORDS = ['"op"', '"id"', '"v"', '"hand"', '"visible"', '"tiles"', '"tile"', '"from"', '"draws"', '"drawn"',
                 '"budget_ms"', '"ranking"', '"opponents"', '"passed"', '"ruleset"', '"minimum"', '"winner"',
                 '"discarder"', '"log"', '"game"', '"value"', '"fans"', '"seat_wind"', '"prevalent_wind"', '"flowers"',
                 '"self_drawn"', '"review"', '"advise"', '"claim"', '"score"', '"settle"', '"waits"', "null", "1e999",
                 "-0", '"\\ud800"', "[]", "{}", "2147483648"]


# The bounds target's seeds: a game, the head of a JSON log, requests, and what is not text.
BOUNDS_SEEDS = [GAMES[0], "\n", " ", "x" * 200, "[", '{"records": [', '"\\"[', "\ufeff["] + \
    [json.dumps(r) for r in SERVICE_REQUESTS[:3]]


class Target(NamedTuple):
    check: Callable[[str], object]
    seeds: list  # the real inputs, as text
    words: list  # words of the format, for a fuzzer to splice in


TARGETS = {
    "hand": Target(check_hand, HANDS, ["[", "]", ",", "z", "m", "p", "s", "0", "5", "7", "E", "P", *TOKENS]),
    "text_log": Target(check_text_log, GAMES, LOG_WORDS),
    "json_log": Target(check_json_log, [path.read_text(encoding="utf-8") for path in JSON_LOGS], JSON_WORDS),
    "protocol": Target(check_protocol, REQUESTS + RESPONSES, PROTOCOL_WORDS),
    "service": Target(check_service, [json.dumps(r, ensure_ascii=False) for r in SERVICE_REQUESTS], SERVICE_WORDS),
    "bot": Target(check_bot, [bot_input(m, seat, n) for m in MATCHES[:3] for seat in range(4) for n in (1, 3, 30, 60)],
                  ['"requests"', '"responses"', '"time_limit"', *PROTOCOL_WORDS]),
    "bounds": Target(check_bounds, BOUNDS_SEEDS, ["[", "]", "{", "}", '"', "\\", "\n", " ", "\ufeff", *LOG_WORDS[:8],
                                                  *JSON_WORDS[:6], *SERVICE_WORDS[:4]]),
}
