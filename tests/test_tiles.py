"""Tile ids, names and the plain tile-sequence notations (mjfast.tiles).

The expected ids below are written from DESIGN.md's index order, not from the code:
0-8 = 1m..9m, 9-17 = 1p..9p, 18-26 = 1s..9s, 27-30 = E S W N, 31-33 = C F P (中 发 白).
"""

import random

import numpy as np
import pytest

import mjfast
from mjfast import HandError, counts_of, parse_tiles
from mjfast.tiles import (
    MAX_TILES,
    NOT_COMPACT,
    TILE_NAMES,
    _parse_compact_checked,
    botzone_token,
    format_botzone,
    format_tiles,
    is_botzone,
    read_compact,
    tile_id,
    tile_name,
)

M, P, S = 0, 9, 18          # first id of each suit
E, SOUTH, W, N, C, F, WHITE = range(27, 34)

# The Botzone token of every kind, in id order, from the Botzone / PyMahjongGB tile table:
# W = characters (m), B = dots (p), T = bamboo (s), F1-F4 = E S W N, J1-J3 = 中 发 白.
BOTZONE = (
    [f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)


def test_handerror_is_a_valueerror_and_exported():
    assert issubclass(HandError, ValueError)
    assert mjfast.HandError is HandError


def test_tile_names_follow_the_design_order():
    assert len(TILE_NAMES) == 34
    assert TILE_NAMES[:9] == tuple(f"{r}m" for r in range(1, 10))
    assert TILE_NAMES[9:18] == tuple(f"{r}p" for r in range(1, 10))
    assert TILE_NAMES[18:27] == tuple(f"{r}s" for r in range(1, 10))
    assert TILE_NAMES[27:] == ("E", "S", "W", "N", "C", "F", "P")


def test_compact_suits():
    assert parse_tiles("123m456p789s") == [M, M + 1, M + 2, P + 3, P + 4, P + 5, S + 6, S + 7, S + 8]


def test_compact_keeps_written_order_and_ignores_spaces():
    assert parse_tiles("5m1m 9s E") == [M + 4, M, S + 8, E]


def test_honour_letters():
    assert parse_tiles("ESWNCFP") == [E, SOUTH, W, N, C, F, WHITE]


def test_z_honours_use_the_mcr_dragon_order():
    # 1z-4z are the winds; 5z = C (中, red), 6z = F (发, green), 7z = P (白, white).
    # tenhou writes the dragons the other way round (5z = 白); mjfast follows MCR.
    assert parse_tiles("1234567z") == [E, SOUTH, W, N, C, F, WHITE]
    assert parse_tiles("5z") == parse_tiles("C") == [31]
    assert parse_tiles("6z") == parse_tiles("F") == [32]
    assert parse_tiles("7z") == parse_tiles("P") == [33]
    assert parse_tiles("11z5z") == [E, E, C]


def test_botzone_tokens_every_kind():
    assert parse_tiles(" ".join(BOTZONE)) == list(range(34))
    assert parse_tiles(",".join(BOTZONE)) == list(range(34))
    assert parse_tiles("W1,B1 ,T1 F1  J1") == [M, P, S, E, C]
    assert is_botzone("W1 B2") and not is_botzone("W12m") and not is_botzone("")


@pytest.mark.parametrize("t", range(34))
def test_each_tile_id_by_every_name(t):
    assert tile_id(TILE_NAMES[t]) == t
    assert tile_id(BOTZONE[t]) == t
    assert tile_id(t) == t and tile_id(np.int16(t)) == t
    assert tile_name(t) == TILE_NAMES[t]
    assert botzone_token(t) == BOTZONE[t]


def test_z_names_as_single_tiles():
    assert [tile_id(f"{r}z") for r in range(1, 8)] == list(range(27, 34))


@pytest.mark.parametrize("bad, message", [
    (34, "out of range"),
    (-1, "out of range"),
    (True, "must be a name"),
    (3.0, "must be a name"),
    (None, "must be a name"),
    ("", "not a single tile"),
    ("12m", "not a single tile"),
    ("8z", "not an honour"),
    ("X", "unknown character 'X'"),
])
def test_tile_id_rejects(bad, message):
    with pytest.raises(HandError, match=message):
        tile_id(bad)


@pytest.mark.parametrize("bad", [34, -1, "x", None])
def test_printers_reject_bad_ids(bad):
    # an id out of range would otherwise print as a wrong but plausible token ("J4", "T9")
    for printer in (tile_name, botzone_token):
        with pytest.raises(HandError):
            printer(bad)
    with pytest.raises(HandError):
        format_tiles([0, bad])


@pytest.mark.parametrize("text, message", [
    ("123x", r"unknown character 'x' at position 3"),
    ("10m", r"'0' at position 1"),
    ("8z", r"'8z' at position 0 is not an honour"),
    ("19z", r"'9z' at position 1 is not an honour"),
    ("m123", r"suit letter 'm' at position 0 has no digits"),
    ("5z z", r"suit letter 'z' at position 3 has no digits"),
    ("123", r"digits at the end of '123' have no suit letter"),
    ("12E", r"digits before position 2"),
    ("123m[456p1]", r"melds in brackets are not allowed"),
    ("W1 H1", r"H1 is a flower"),
    ("1m\u4e2d", r"unknown character '\u4e2d'"),
    ("e", r"unknown character 'e'"),
    ("W1 W2 5m", r"have no suit letter"),  # Botzone and compact do not mix
])
def test_parse_tiles_errors_name_the_problem(text, message):
    with pytest.raises(HandError, match=message):
        parse_tiles(text)


@pytest.mark.parametrize("bad", [b"123m", 123, None, ["1m"]])
def test_parse_tiles_needs_a_str(bad):
    with pytest.raises(HandError, match="expected a tile string"):
        parse_tiles(bad)


def test_counts_of_every_input_form():
    expected = np.zeros(34, np.uint8)
    expected[[M, M + 1, M + 2, M + 4, P + 3, P + 4, P + 5, S + 6, S + 7, S + 8]] = 1
    expected[E] = 3
    forms = [
        "123m456p789sEEE5m",
        "123m456p789s111z5m",
        "W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 F1 W5",
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "1z", "F1", "5m"],
        [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 27, 4],
        np.array([0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 27, 4]),
        expected.tolist(),
        tuple(expected.tolist()),
        expected.astype(np.int64),
        expected.astype(np.uint16),
        expected,
    ]
    for form in forms:
        got = counts_of(form)
        assert got.dtype == np.uint8 and got.shape == (34,), form
        assert np.array_equal(got, expected), form


def test_counts_of_returns_a_copy():
    source = np.zeros(34, np.uint8)
    got = counts_of(source)
    got[0] = 3
    assert source[0] == 0


@pytest.mark.parametrize("bad, message", [
    ("11111m", "1m appears 5 times"),
    ("W9 W9 W9 W9 W9", "9m appears 5 times"),
    (["E"] * 5, "E appears 5 times"),
    ([0] * 4 + [5] + [0] * 29, "5m appears 5 times"),
    ([-1] + [0] * 33, "negative count -1 for tile 1m"),
    (np.array([0] * 33 + [-2]), "negative count -2 for tile P"),
    (np.array([0] * 33 + [256], np.int64), "P appears 256 times"),   # would wrap to 0 as uint8
    (np.array([2**64 - 1] + [0] * 33, np.uint64), "1m appears 18446744073709551615 times"),
    ([10**30] + [0] * 33, "appears 1000000000000000000000000000000 times"),
    (np.ones(34), "must hold integers, got dtype float64"),
    (np.ones(34, bool), "must hold integers, got dtype bool"),
    ([1.0] * 34, "must be a name"),
    ([True] * 34, "must be a name"),
    (np.zeros((2, 34), np.uint8), r"one-dimensional .* shape \(2, 34\)"),
    (np.array(3), r"one-dimensional .* shape \(\)"),
    (np.zeros(33, np.int64), "a count array has exactly 34 entries"),
    ([0] * 35, "a count array has exactly 34 entries"),
    (b"123m", "not bytes"),
    (bytearray(34), "not bytearray"),
    (None, "cannot read tiles from NoneType"),
    (7, "cannot read tiles from int"),
    (2.5, "cannot read tiles from float"),
    ([None], "must be a name"),
    ([["1m"]], "must be a name"),
    (["1m", "x"], "unknown character 'x'"),
])
def test_counts_of_rejects(bad, message):
    with pytest.raises(HandError, match=message):
        counts_of(bad)


def test_format_tiles_counts_and_order():
    counts = counts_of("123m456p789sEEE5m")
    assert format_tiles(counts) == "1235m456p789sEEE"
    assert format_tiles([M + 4, M, E, P]) == "15m1pE"
    # ordered: each run of one suit gets its own letter, so the last tile stays last
    assert format_tiles([M + 4, M, E, P], ordered=True) == "51mE1p"
    assert format_tiles(["5m", "E"], ordered=True) == "5mE"
    assert format_tiles([]) == ""
    assert format_botzone([M, WHITE, P + 4]) == "W1 J3 B5"
    assert format_botzone(counts_of("EE1s")) == "T1 F1 F1"


def _random_tiles(rng: random.Random, n: int) -> list[int]:
    wall = [t for t in range(34) for _ in range(4)]
    return rng.sample(wall, n)


def test_round_trips_of_random_tile_sequences():
    rng = random.Random(2024)
    for _ in range(2000):
        ids = _random_tiles(rng, rng.randint(0, 18))
        assert parse_tiles(format_tiles(ids, ordered=True)) == ids
        assert parse_tiles(format_botzone(ids)) == ids
        assert sorted(parse_tiles(format_tiles(ids))) == sorted(ids)
        counts = counts_of(ids)
        assert int(counts.sum()) == len(ids)
        assert np.array_equal(counts_of(format_tiles(counts)), counts)
        assert np.array_equal(counts_of([TILE_NAMES[t] for t in ids]), counts)


def _outcome(parse, text):
    try:
        return parse(text)
    except HandError as exc:
        return f"HandError: {exc}"


def _fast(text: str):
    """The fast reader's reading of `text`: (ids, id written last, most copies, counts), or
    None where it leaves the text to the checked reader."""
    ids, counts = np.empty(len(text), np.uint8), np.zeros(34, np.uint8)
    found = read_compact(text, ids, counts)
    if found == NOT_COMPACT:
        return None
    return ids[len(text) - (found & MAX_TILES):].tolist(), ((found >> 16) & 255) - 1, found >> 24, counts.tolist()


def test_the_fast_reader_agrees_with_the_checked_reader():
    """The notation's two readers: whatever the fast one reads, the checked one reads the same
    (it never raises there); what it refuses, parse_tiles leaves to the checked one, whose ids
    or message parse_tiles gives."""
    rng = random.Random(99)
    alphabet = "123456789mpsz" + "ESWNCFP" + "0 \t\nxW[]" + "\u3000é"
    read = refused = 0
    for i in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        if i % 4 == 0:
            text = format_tiles(_random_tiles(rng, rng.randint(1, 14)), ordered=True)
        checked = _outcome(_parse_compact_checked, text)
        if not is_botzone(text) and "[" not in text and "]" not in text:  # parse_tiles' own answers
            assert _outcome(parse_tiles, text) == checked, text
        fast = _fast(text)
        if fast is None:
            refused += 1
            continue
        ids, last, most, counts = fast
        assert checked == ids, text
        assert last == (ids[-1] if ids else -1) and counts == np.bincount(ids, minlength=34).tolist(), text
        assert most == max(counts), text
        read += 1
    assert read > 5000 and refused > 5000  # both readers are exercised


def test_the_fast_reader_refuses_what_it_cannot_count():
    assert _fast("1m" * 255) is not None and _fast("1m" * 256) is None  # a count past 255 would wrap
    assert _fast(" 1m\t2m ") == ([0, 1], 1, 1, [1, 1] + [0] * 32)  # white space anywhere, as the checked reader
    assert _fast("1m\u30002m") is None and parse_tiles("1m\u30002m") == [0, 1]  # not ASCII: the checked reader's
    assert _fast("8z") is None and _fast("0m") is None and _fast("12") is None and _fast("12E") is None
