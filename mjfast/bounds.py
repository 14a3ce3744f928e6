"""The most mjfast's readers of outside input take: a log file's size, a line's length, a
game's lines, JSON's nesting. Each reader refuses what passes a bound with its own error
(LogRefused or LogError for a log, ProtocolError, the service's bad_json), having held no more
than the bound; docs/logs.md, docs/game.md and docs/protocol.md state them. Importing this
module is cheap: the command's parser names the bounds in its help.
"""

from __future__ import annotations

import json
from itertools import accumulate

# The most a log file may hold once decompressed, by default (the commands' --max-log-size): the
# whole public Botzone dataset is one text file of some 200 MB. A file is read up to it, never
# further, so a small gzip that holds gigabytes costs no more.
MAX_LOG_SIZE = 256 * 2**20
SIZE_FLAG = "--max-log-size"
# A JSON log is read whole, and its objects take up to some 25 times its text (measured: 3-5 times
# for real logs, 24 for a text of empty objects): it may hold this share of a file's bound, so
# that reading it takes about the bound at most (8 MiB of the default 256 MiB; a Botzone match is
# 100-150 KB, a Tziakcha session of 16 hands 85 KB).
JSON_SHARE = 32
# The longest line of the text format read: its lines are some dozens of characters (a Fan line
# of many fans a few hundred); a longer one is no text log.
MAX_LINE = 64 * 1024
# The most lines a game's block of the text format holds: a game has some 100 to 300 (its deals,
# draws, discards and claims; 144 tiles with flowers at most). A longer block is a broken game,
# and only this much of it is held.
MAX_GAME_LINES = 1000
# How deep JSON may nest. Python's json module parses an array or an object by recursing into it,
# so a text nested a thousand deep (1 KB of `[`) raises RecursionError: every reader of outside
# JSON (log files, the service's requests, a bot's input and answers) asks too_deep() first. No
# real input comes near: a Botzone match log nests 6 or 7 deep, a Tziakcha session 8, a request
# of the service at most 3.
MAX_DEPTH = 100


def json_max_size(max_size: "int | None" = None) -> int:
    """The most a JSON log may hold once decompressed when a file may hold `max_size` (default
    MAX_LOG_SIZE)."""
    return (MAX_LOG_SIZE if max_size is None else max_size) // JSON_SHARE


def size_text(size: int) -> str:
    """A number of bytes as the largest binary unit that writes it whole: 256 MiB, 64 KiB."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"

_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def too_deep(text: "str | bytes", limit: int = MAX_DEPTH) -> str:
    """Why `text` is refused ("JSON nested 30000 deep; mjfast reads at most 100 levels"), or ""
    when its arrays and objects nest at most `limit` deep (brackets inside strings do not
    count). Bytes are read as json.loads reads them (UTF-8, -16 or -32); bytes that are none
    of these are left to json.loads to refuse."""
    if isinstance(text, (bytes, bytearray)):
        if text.count(b"[") + text.count(b"{") <= limit:  # the common case: a scan at C speed
            return ""
        try:
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        except UnicodeDecodeError:
            return ""
    elif text.count("[") + text.count("{") <= limit:
        return ""
    depth = _depth(text)
    return f"JSON nested {depth} deep; mjfast reads at most {limit} levels" if depth > limit else ""


def _depth(text: str) -> int:
    """The deepest nesting of `text`'s brackets outside strings (json.loads stops at a closing
    bracket too many, so a dip below 0 hides nothing it would reach)."""
    # an escaped backslash first, so that what is left of a backslash and a quote is an escaped quote
    text = text.replace("\\\\", "").replace('\\"', "")
    # outside the strings: every other piece between quotes (an unterminated string runs to the end)
    outside = "".join(text.split('"')[0::2]).encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, outside)), default=0)
