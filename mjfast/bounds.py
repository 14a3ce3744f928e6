"""How deep JSON may nest, told before it is parsed.

Python's json module parses an array or an object by recursing into it, so a text nested a
thousand deep (1 KB of `[`) raises RecursionError: every reader of outside JSON (log files, the
service's requests, a bot's input and answers) asks too_deep() first and refuses the text with
its own error (LogError for a log, ProtocolError, the service's bad_json). No real input comes
near the bound: a Botzone match log nests 6 or 7 deep, a Tziakcha session 8, a request of the
service at most 3.
"""

from __future__ import annotations

import json
from itertools import accumulate

MAX_DEPTH = 100

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
