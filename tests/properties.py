"""What the property tests share: how many examples a test runs under the loaded profile
(conftest.py), hypothesis strategies over the tests' own hand generators, the mutations of
real inputs (text and JSON), and a guard that turns a hang into a failure.

The hand strategies drive the generators of test_hand and test_fan_support with hypothesis'
Random, whose draws hypothesis records and shrinks: one generator of hands, two ways to run it.
"""

from __future__ import annotations

import json
import signal
from contextlib import contextmanager

from hypothesis import settings
from hypothesis import strategies as st

from .fan.test_fan_support import random_win
from .test_hand import random_hand

# Examples of a test at the "ci" profile's 100; the other profiles scale them.
BASE_EXAMPLES = 100
# Seconds one example may take before it counts as a hang: every reader answers in
# milliseconds, so this only ever catches a loop that does not end.
HANG = 60


def examples(n: int) -> int:
    """n examples under the "ci" profile, scaled for another (the campaign: 100 n)."""
    return max(1, n * settings.default.max_examples // BASE_EXAMPLES)


def randoms():
    return st.randoms(use_true_random=False)


def hands(**kwargs):
    """Valid hands of test_hand.random_hand (its keyword arguments: n_melds, drawn, with_last)."""
    return randoms().map(lambda rng: random_hand(rng, **kwargs))


def wins():
    """(winning Hand, win conditions) of test_fan_support.random_win: every form and fan."""
    return randoms().map(random_win)


class Hang(Exception):
    """An example that ran past HANG seconds."""


@contextmanager
def no_hang(seconds: float = HANG):
    """Fail with Hang instead of waiting for ever (SIGALRM: the main thread only)."""
    def alarm(signum, frame):
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- mutations of real inputs

# Characters a mutation inserts: the formats' own, white space, and what no format expects.
ODD_CHARACTERS = "0123456789 \t\n\r[]{}\",:-+*.WBTFJHz\x00\u00e9\u4e2d\ufeff\ud800\u2028\u0663"


@st.composite
def mutated_lines(draw, text: str, words: list[str]) -> str:
    """`text` after 1-4 edits of its lines, words or characters: a line deleted, repeated,
    moved or cut short, a word replaced by one of `words` (or a number), deleted or repeated,
    a character inserted, deleted or replaced, the text cut anywhere."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("delete line", "repeat line", "move line", "cut line", "word", "char",
                                   "truncate")))
        i = draw(st.integers(0, len(lines) - 1)) if lines else 0
        if not lines:
            lines = [draw(st.text(ODD_CHARACTERS, max_size=20))]
        elif op == "delete line":
            del lines[i]
        elif op == "repeat line":
            lines.insert(i, lines[i])
        elif op == "move line":
            lines.insert(draw(st.integers(0, len(lines))), lines.pop(i))
        elif op == "cut line":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
        elif op == "word":
            lines[i] = _edit_word(draw, lines[i], words)
        elif op == "char":
            lines[i] = _edit_char(draw, lines[i])
        else:
            joined = "\n".join(lines)
            lines = joined[:draw(st.integers(0, len(joined)))].split("\n")
    return "\n".join(lines)


def _edit_word(draw, line: str, words: list[str]) -> str:
    parts = line.split(" ")
    k = draw(st.integers(0, len(parts) - 1))
    how = draw(st.sampled_from(("replace", "delete", "repeat")))
    if how == "replace":
        parts[k] = draw(st.one_of(st.sampled_from(words), st.integers(-5, 2**70).map(str)))
    elif how == "delete":
        del parts[k]
    else:
        parts.insert(k, parts[k])
    return " ".join(parts)


def _edit_char(draw, line: str) -> str:
    k = draw(st.integers(0, len(line)))
    char = draw(st.sampled_from(ODD_CHARACTERS))
    how = draw(st.sampled_from(("insert", "delete", "replace")))
    if how == "insert" or not line:
        return line[:k] + char + line[k:]
    k = min(k, len(line) - 1)
    return line[:k] + ("" if how == "delete" else char) + line[k + 1:]


def _paths(value, path=()):
    """The path (keys and indexes) of every node of a JSON value, the root first."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


def _at(value, path):
    for key in path:
        value = value[key]
    return value


# Values a JSON mutation puts in place of a node: every JSON type, edge numbers, strings of
# the formats (tiles, actions) and a long one.
ODD_VALUES = [None, True, False, 0, -1, 1, 3, 4, 13, 2**31, 2**70, -2**63, 1.5, -0.0, 1e308, "", "W1", "J3", "H1",
              "PLAY", "GANG", "HU", "DEAL", "INIT", "3 0 PLAY W1", "x" * 5000, [], {}, [None], {"": None},
              [0, 0, 0, 0], ["W1"] * 14]


@st.composite
def mutated_json(draw, value):
    """A copy of the JSON `value` after 1-3 edits: a node replaced (by another node of the
    value or an odd value), a key or an item deleted or repeated, two items swapped."""
    value = json.loads(json.dumps(value))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(value))
        path = draw(st.sampled_from(paths))
        other = _at(value, draw(st.sampled_from(paths)))
        new = json.loads(json.dumps(draw(st.one_of(st.sampled_from(ODD_VALUES), st.just(other)))))  # a copy
        if not path:
            value = new
            continue
        parent, key = _at(value, path[:-1]), path[-1]
        how = draw(st.sampled_from(("replace", "delete", "repeat", "swap")))
        if how == "replace":
            parent[key] = new
        elif how == "delete":
            del parent[key]
        elif isinstance(parent, list) and how == "repeat":
            parent.insert(key, parent[key])
        elif isinstance(parent, list):
            j = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[j] = parent[j], parent[key]
        else:
            parent[draw(st.sampled_from(("x", "", "logs", "output", "display", "0")))] = new
    return value
