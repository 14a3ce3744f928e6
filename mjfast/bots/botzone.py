"""`mjfast botzone`: a bot program speaking Botzone's protocol on stdin/stdout.

The input form picks the interaction, as Botzone sends it:

- JSON: one line {"requests": [...], "responses": [...]} (data and other keys are ignored);
  the answer is one line {"response": "..."}.
- simple: a line with the turn number n, then 2n-1 lines alternating requests and the bot's
  earlier responses, ending with the new request; the answer is the response line.

The earlier requests and responses are replayed without deciding anything, then the last
request is answered. With keep_running the program then prints
>>>BOTZONE_REQUEST_KEEP_RUNNING<<< and waits: each later input is the next request alone (a
JSON string, or a plain line), or a full input as above (a new game). Without it the program
answers once and ends (Botzone's traditional mode starts it again every turn).

A bot that fails on a request (it should not) answers a safe legal move instead: it plays
the tile it drew, or passes; the error goes to the debug field (JSON) or stderr.

The clock: each answer's time counts from when its input arrived (for the first input of a
process, from when the process started: the interpreter and numba's import are on Botzone's
clock too). A JSON input's `time_limit` (seconds; a figure over 100 is read as milliseconds)
is that answer's limit; without one the bot's Clock gives 6 s for the first answer of a game
and 1 s after (bots.py says how the bot spends it).
"""

from __future__ import annotations

import json
import os
import sys
import time

from ..bounds import too_deep
from ..game.agents import KEEP_RUNNING
from ..game.protocol import ProtocolError
from ..game.tokens import TOKEN_ID


def _fallback(request: str) -> str:
    words = request.split()
    drew = len(words) == 2 and words[0] == "2" and words[1] in TOKEN_ID
    return f"PLAY {words[1]}" if drew else "PASS"


def _answer(bot, request: str, started: float, limit: "float | None") -> "tuple[str, str]":
    try:
        return bot.respond(request, started, limit), ""
    except Exception as exc:  # the platform must always get a legal answer
        return _fallback(request), f"{type(exc).__name__}: {exc}"


def _replay(bot, requests: list, responses: list, started: float, limit: "float | None") -> "tuple[str, str]":
    """Follow the history, then answer the last request: (response, error)."""
    try:
        for request, response in zip(requests[:-1], responses):
            bot.observe(request, response)
    except Exception as exc:
        return _fallback(requests[-1]), f"{type(exc).__name__}: {exc}"
    return _answer(bot, requests[-1], started, limit)


def _read_turn(first: str, lines) -> "tuple[list, list, bool, float | None]":
    """(requests, responses, json, time limit in seconds or None) of one input whose first
    line is `first`."""
    text = first.strip()
    if text.startswith("{"):
        deep = too_deep(text)
        if deep:
            raise ProtocolError(deep)
        data = json.loads(text)
        requests = [str(r) for r in data["requests"]]
        if not requests:
            raise ValueError("no request to answer")
        return requests, [str(r) for r in data.get("responses", [])], True, _time_limit(data.get("time_limit"))
    if text.startswith('"'):
        return [str(json.loads(text))], [], True, None
    if text.isdigit():
        if int(text) < 1:
            raise ValueError("the simple interaction starts with the turn number, 1 or more")
        items = [next(lines).rstrip("\r\n") for _ in range(2 * int(text) - 1)]
        return items[0::2], items[1::2], False, None
    return [text], [], False, None


def _time_limit(value) -> "float | None":
    """A JSON input's time_limit in seconds (None when absent or unreadable)."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    if not seconds > 0 or seconds != seconds:
        return None
    return seconds / 1000.0 if seconds > 100 else seconds


def process_started() -> float:
    """When this process started, on time.perf_counter's clock (Linux: from /proc; elsewhere
    now, which leaves out the interpreter's start)."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
            age = float(uptime.read().split()[0]) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - max(0.0, age)


def run(bot, stdin=None, stdout=None, keep_running: bool = False) -> int:
    """Serve `bot` (bots.ProtocolBot) on the streams; returns the exit status."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    lines = iter(stdin)
    started = process_started()  # the first input's clock runs from the process's start
    for line in lines:
        if not line.strip():
            continue  # Botzone's empty data lines, or a blank line between inputs
        if started is None:
            started = time.perf_counter()
        try:
            requests, responses, as_json, limit = _read_turn(line, lines)
        except (ValueError, KeyError, TypeError, StopIteration) as exc:
            print(f"mjfast botzone: unreadable input {line.strip()[:60]!r}: {exc}", file=sys.stderr)
            return 2
        if len(requests) == 1:
            response, error = _answer(bot, requests[0], started, limit)
        else:
            response, error = _replay(bot, requests, responses, started, limit)
        if as_json:
            out = {"response": response}
            if error:
                out["debug"] = error
            stdout.write(json.dumps(out) + "\n")
        else:
            stdout.write(response + "\n")
            if error:
                print(f"mjfast botzone: {error}", file=sys.stderr)
        if not keep_running:
            stdout.flush()
            return 0
        stdout.write(KEEP_RUNNING + "\n")
        stdout.flush()
        started = None  # a later input's clock runs from its arrival
    return 0
