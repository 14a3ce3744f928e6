"""Melds, hands and their notations (mjfast.hand): parsing, printing, round trips, validation.

Expected melds and counts are written from DESIGN.md (ids: 0-8 m, 9-17 p, 18-26 s,
27-33 E S W N C F P) and the ChineseOfficialMahjongHelper meld digits, not from the code.
"""

import random

import numpy as np
import pytest
from MahjongGB import MahjongFanCalculator, MahjongShanten

from mjfast import Hand, HandError, Meld, counts_of, parse_hand, parse_meld, visible_counts
from mjfast.hand import CHOW, KONG, PUNG, parse_melds

E, C, WHITE = 27, 31, 33
SUIT_LETTERS = "mps"
HONOUR_LETTERS = "ESWNCFP"
MELD_KINDS = ("chow", "pung", "concealed kong", "exposed kong", "added kong")


def counts(*pairs) -> np.ndarray:
    """A 34-count array from (tile id, copies) pairs."""
    c = np.zeros(34, np.uint8)
    for t, n in pairs:
        c[t] += n
    return c


# ---------------------------------------------------------------- melds

@pytest.mark.parametrize("text, kind, tile, offer, added", [
    ("[123m1]", CHOW, 0, 1, False),
    ("[123m2]", CHOW, 0, 2, False),
    ("[789s3]", CHOW, 24, 3, False),
    ("[345p2]", CHOW, 11, 2, False),
    ("[123m]", CHOW, 0, 1, False),        # no digit: claimed from the left / first tile
    ("[555p2]", PUNG, 13, 2, False),
    ("[555p]", PUNG, 13, 1, False),
    ("[EEE3]", PUNG, E, 3, False),
    ("[555z1]", PUNG, C, 1, False),       # 5z = C = 中
    ("[777z2]", PUNG, WHITE, 2, False),   # 7z = P = 白
    ("[5555p]", KONG, 13, 0, False),      # concealed
    ("[5555p0]", KONG, 13, 0, False),
    ("[5555p3]", KONG, 13, 3, False),     # exposed, from the right
    ("[5555p5]", KONG, 13, 1, True),      # added to a pung from the left
    ("[5555p6]", KONG, 13, 2, True),
    ("[PPPP7]", KONG, WHITE, 3, True),
    ("[1111s6]", KONG, 18, 2, True),
    ("[EEE,2]", PUNG, E, 2, False),       # GB-Mahjong's comma form
    ("[123m,3]", CHOW, 0, 3, False),
    ("[NNNN,1]", KONG, 30, 1, False),
    ("[9999m,7]", KONG, 8, 3, True),
    (" [ 456s 1 ] ", CHOW, 21, 1, False),
    ("456s1", CHOW, 21, 1, False),        # brackets are optional for a single meld
])
def test_parse_meld(text, kind, tile, offer, added):
    assert parse_meld(text) == Meld(kind, tile, offer, added)


@pytest.mark.parametrize("pack, meld", [
    (("CHI", "W2", 1), Meld(CHOW, 0, 1)),             # CHI names the middle tile
    (("CHI", "T8", 3), Meld(CHOW, 24, 3)),
    (("CHI", "B5", 2), Meld(CHOW, 12, 2)),
    (("PENG", "F1", 2), Meld(PUNG, E, 2)),
    (("PENG", "J1", 3), Meld(PUNG, C, 3)),
    (("GANG", "J3", 0), Meld(KONG, WHITE, 0)),        # offer 0 = concealed kong
    (("GANG", "B5", 3), Meld(KONG, 13, 3)),
    (["PENG", "W9", 1], Meld(PUNG, 8, 1)),
    (("peng", "5m", 1), Meld(PUNG, 4, 1)),            # mjfast names are accepted too
])
def test_parse_pymahjonggb_pack(pack, meld):
    assert parse_meld(pack) == meld


def all_melds() -> list[Meld]:
    """Every distinct meld: 21 chows x 3 digits, 34 pungs x 3, 34 kongs x (0-3 and added 1-3)."""
    chows = [Meld(CHOW, 9 * s + r, d) for s in range(3) for r in range(7) for d in (1, 2, 3)]
    pungs = [Meld(PUNG, t, d) for t in range(34) for d in (1, 2, 3)]
    kongs = [Meld(KONG, t, d) for t in range(34) for d in (0, 1, 2, 3)]
    added = [Meld(KONG, t, d, added=True) for t in range(34) for d in (1, 2, 3)]
    return chows + pungs + kongs + added


def test_every_meld_prints_and_parses_back():
    melds = all_melds()
    assert len(melds) == 63 + 102 + 136 + 102
    assert len({str(m) for m in melds}) == len(melds)
    for m in melds:
        text = str(m)
        assert text.startswith("[") and text.endswith("]")
        assert parse_meld(text) == m
        assert parse_meld(text[1:-1]) == m


def test_every_meld_pymahjonggb_round_trip():
    for m in all_melds():
        pack = m.to_pymahjonggb()
        assert pack[0] == {CHOW: "CHI", PUNG: "PENG", KONG: "GANG"}[m.kind]
        assert 0 <= pack[2] <= 3
        # PyMahjongGB has no added-kong code: an added kong comes back as the exposed kong
        assert parse_meld(pack) == Meld(m.kind, m.tile, m.offer)


def test_meld_printing_examples():
    assert str(Meld(CHOW, 0, 1)) == "[123m1]"
    assert str(Meld(PUNG, 13, 2)) == "[555p2]"
    assert str(Meld(KONG, 13, 0)) == "[5555p]"
    assert str(Meld(KONG, 13, 3)) == "[5555p3]"
    assert str(Meld(KONG, 13, 1, added=True)) == "[5555p5]"
    assert str(Meld(PUNG, C, 1)) == "[CCC1]"
    assert Meld(CHOW, 0, 1).to_pymahjonggb() == ("CHI", "W2", 1)
    assert Meld(KONG, E, 0).to_pymahjonggb() == ("GANG", "F1", 0)
    assert Meld(KONG, 13, 0).concealed and not Meld(KONG, 13, 3).concealed


def test_meld_normalises_numpy_and_bool_fields():
    m = Meld(PUNG, np.int64(5), np.uint8(2))
    assert type(m.tile) is int and type(m.offer) is int
    assert str(m) == "[666m2]" and m == Meld(PUNG, 5, 2) and hash(m) == hash(Meld(PUNG, 5, 2))


@pytest.mark.parametrize("text, message", [
    ("[124m1]", "three tiles must be a run in one suit or three of a kind"),
    ("[135p2]", "three tiles must be a run"),
    ("[ESW1]", "three tiles must be a run"),           # no honour chows
    ("[567z1]", "three tiles must be a run"),          # C F P is not a chow either
    ("[89m1p1]", "three tiles must be a run"),         # 8m 9m 1p: ids consecutive, suits mixed
    ("[12m3p1]", "three tiles must be a run"),
    ("[123m4]", r"a chow's digit says which tile was claimed \(1-3\), got 4"),
    ("[123m0]", r"a chow's digit .* got 0"),
    ("[123m5]", r"a chow's digit .* got 5"),
    ("[555p0]", r"a pung's digit says who gave it \(1-3\), got 0"),
    ("[555p5]", r"a pung's digit .* got 5"),           # only a kong can be added
    ("[555p9]", r"a pung's digit .* got 9"),
    ("[5555p4]", r"a kong's digit is none/0 .* got 4"),
    ("[5555p8]", "an added kong's digit is 5, 6 or 7"),
    ("[5555p9]", "an added kong's digit is 5, 6 or 7"),
    ("[12m1]", "a meld is a chow, a pung or a kong"),
    ("[1234m]", "a meld is a chow, a pung or a kong"),
    ("[55555p]", "a meld is a chow, a pung or a kong"),
    ("[5m]", "a meld is a chow, a pung or a kong"),
    ("[]", "expected tiles then an optional digit"),
    ("[1]", "expected tiles then an optional digit"),
    ("[123m12]", "expected tiles then an optional digit"),
    ("[123m1,]", "expected tiles then an optional digit"),
    ("[123m\u0663]", "expected tiles then an optional digit"),  # Arabic-Indic 3 is no digit here
    ("[123m\uff13]", "expected tiles then an optional digit"),  # nor fullwidth 3
    ("[123m1", "unbalanced brackets"),
    ("123m1]", "unbalanced brackets"),
    ("[1x3m1]", "unknown character 'x' at position 1"),
    ("[888z1]", "'8z' at position 0 is not an honour"),
    ("[000m1]", "'0' at position 0"),
])
def test_malformed_melds(text, message):
    with pytest.raises(HandError, match=message):
        parse_meld(text)


@pytest.mark.parametrize("pack, message", [
    (("CHI", "W1", 1), "a CHI names the middle tile"),
    (("CHI", "W9", 1), "a CHI names the middle tile"),
    (("CHI", "F2", 1), "a CHI names the middle tile"),
    (("CHI", "W2", 0), r"a chow's digit .* got 0"),
    (("PENG", "W2", 0), r"a pung's digit .* got 0"),
    (("GANG", "W2", 4), "offer must be an integer 0..3, got 4"),
    (("GANG", "W2", -1), "offer must be an integer 0..3"),
    (("PENG", "W2", 1.0), "offer must be an integer"),
    (("PENG", "W2", True), "offer must be an integer"),
    (("PENG", "W2", "1"), "offer must be an integer"),
    (("PONG", "W2", 1), "pack kind must be CHI, PENG or GANG"),
    ((1, "W2", 1), "pack kind must be CHI, PENG or GANG"),
    (("PENG", "W0", 1), "'0' at position 1"),
    (("PENG", "X1", 1), "unknown character 'X'"),
    (("PENG", 34, 1), "out of range"),
    (("PENG", None, 1), "must be a name"),
    (("PENG", "W2"), r"a PyMahjongGB pack is \(kind, tile, offer\)"),
    (("PENG", "W2", 1, 0), r"a PyMahjongGB pack is \(kind, tile, offer\)"),
    ((), r"a PyMahjongGB pack is \(kind, tile, offer\)"),
])
def test_malformed_packs(pack, message):
    with pytest.raises(HandError, match=message):
        parse_meld(pack)


@pytest.mark.parametrize("args, message", [
    (("triple", 0, 1), "meld kind must be chow, pung or kong"),
    ((CHOW, 7, 1), "no chow starts at 8m"),
    ((CHOW, 27, 1), "no chow starts at E"),
    ((PUNG, 34, 1), "meld tile must be a tile id 0..33, got 34"),
    ((PUNG, -1, 1), "meld tile must be a tile id"),
    ((PUNG, "1m", 1), "meld tile must be a tile id"),
    ((PUNG, 3, 1.5), "meld digit must be an integer, got 1.5"),
    ((PUNG, 3, None), "meld digit must be an integer"),
    ((PUNG, 3, 1, True), "only a kong can be added to a pung, not a pung"),
    ((CHOW, 3, 1, True), "only a kong can be added"),
    ((KONG, 3, 0, True), r"an added kong needs who gave the pung"),
])
def test_meld_constructor_rejects(args, message):
    with pytest.raises(HandError, match=message):
        Meld(*args)


@pytest.mark.parametrize("bad", [5, 2.0, None, {"kind": "chow"}, b"[123m1]"])
def test_parse_meld_rejects_other_types(bad):
    with pytest.raises(HandError, match="a meld must be a string"):
        parse_meld(bad)


def test_parse_melds_forms():
    expected = (Meld(CHOW, 0, 1), Meld(PUNG, E, 2))
    assert parse_melds("[123m1][EEE2]") == expected
    assert parse_melds(" [123m1] [EEE,2] ") == expected
    assert parse_melds(["[123m1]", ("PENG", "F1", 2)]) == expected
    assert parse_melds(iter(expected)) == expected
    assert parse_melds(Meld(CHOW, 0, 1)) == expected[:1]
    assert parse_melds(None) == parse_melds("") == parse_melds([]) == ()
    with pytest.raises(HandError, match="has tiles outside brackets"):
        parse_melds("[123m1]5m")
    with pytest.raises(HandError, match="melds must be a string or a list of melds, got int"):
        parse_melds(3)


# ---------------------------------------------------------------- hands

def test_issue_example_hand():
    h = parse_hand("[123m1]456p789sEEE5m")
    assert h.melds == (Meld(CHOW, 0, 1),)
    assert np.array_equal(h.counts, counts((12, 1), (13, 1), (14, 1), (24, 1), (25, 1), (26, 1), (E, 3), (4, 1)))
    assert np.array_equal(h.meld_counts, counts((0, 1), (1, 1), (2, 1)))
    assert h.last_tile == 4
    assert (h.n_standing, h.n_melds, h.drawn, h.concealed) == (10, 1, False, False)
    assert str(h) == "[123m1]456p789sEEE5m"
    assert repr(h) == "Hand('[123m1]456p789sEEE5m')"


def test_last_written_tile_is_kept():
    # the last tile is the winning tile of a scoring hand, even when out of sorted order
    h = parse_hand("123m456p789sEEE1m")
    assert h.last_tile == 0
    assert str(h) == "123m456p789sEEE1m"
    assert parse_hand("5mEEE123m456p789s").last_tile == 26
    assert parse_hand("123m456p789s5mEEE").last_tile == E
    assert parse_hand("123m456p789s5m111z").last_tile == E
    assert parse_hand("123m[456m1]456p78sEE9s").last_tile == 26    # tiles after a meld
    assert parse_hand("W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 F1 J3").last_tile == WHITE
    assert parse_hand(["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["E"]).last_tile == E
    assert parse_hand(iter([0] * 3 + [1] * 3 + [2] * 3 + [3] * 3 + [E])).last_tile == E
    assert parse_hand(np.array([0] * 3 + [1] * 3 + [2] * 3 + [3] * 3 + [E])).last_tile == E


def test_counts_have_no_last_tile():
    c = counts_of("123m456p789sEEE5m")
    for form in (c, c.tolist(), c.astype(np.int32)):
        h = parse_hand(form)
        assert h.last_tile is None
        assert str(h) == "1235m456p789sEEE"
    assert parse_hand(c) != parse_hand("123m456p789sEEE5m")     # last_tile is part of equality
    assert parse_hand(c) == parse_hand("5m123m456p789sEEE").with_counts(c)


def test_hand_from_hand_and_extra_melds():
    h = parse_hand("456p789sEEE5m", melds=["[123m1]"])
    assert h == parse_hand("[123m1]456p789sEEE5m")
    assert parse_hand(h) is h
    assert parse_hand("456p789sEEE5m", "[123m1]") == h
    assert parse_hand("B4 B5 B6 T7 T8 T9 F1 F1 F1 W5", [("CHI", "W2", 1)]) == h
    assert parse_hand(parse_hand("456p789sEEE5m", [("CHI", "W2", 1)])) == h
    base = parse_hand("[123m1]456p789sEEE5m")
    with pytest.raises(HandError, match="10 standing tiles with 2 meld"):
        parse_hand(base, ["[999s1]"])


def test_hand_z_and_letters_agree():
    assert parse_hand("123m456p789s1115z") == parse_hand("123m456p789sEEEC")
    assert parse_hand("[555z2][6666z]123p44s777z") == parse_hand("[CCC2][FFFF]123p44sPPP")


def test_standing_tiles_must_fit_the_melds():
    melds = ["[123m1]", "[456m2]", "[789m3]", "[123p1]"]
    pool = [t for t in range(E, 34) for _ in range(4)]       # honours only: no clash with melds
    for k in range(5):
        for n in range(0, 16):
            c = np.bincount(pool[:n], minlength=34)
            if n in (13 - 3 * k, 14 - 3 * k):
                h = Hand(c, melds[:k])
                assert h.drawn == (n == 14 - 3 * k)
            else:
                with pytest.raises(HandError, match=rf"{n} standing tiles with {k} meld\(s\)"):
                    Hand(c, melds[:k])


def test_at_most_four_melds():
    with pytest.raises(HandError, match="5 melds: a hand has at most 4"):
        parse_hand("[123m1][456m1][789m1][123p1][456p1]E")
    with pytest.raises(HandError, match="5 melds"):
        parse_hand("[123m1][456m1][789m1][123p1]E", ["[456p1]"])
    assert parse_hand("[123m1][456m1][789m1][123p1]E").n_melds == 4
    assert parse_hand("[123m1][456m1][789m1][123p1]EE").drawn


@pytest.mark.parametrize("text, message", [
    ("11111m23456789p1s", "1m appears 5 times"),
    ("1111m1m234567p89s", "1m appears 5 times"),
    ("[5555p]5p123m456m789m", r"5p appears 5 times \(1 standing \+ 4 in melds\)"),
    ("[555p1][555p2]123m456m789m", r"5p appears 6 times \(0 standing \+ 6 in melds\)"),
    ("[123m1][123m2][123m3][123m1]1m", r"1m appears 5 times \(1 standing \+ 4 in melds\)"),
    ("[EEEE1]E123m456p789s", r"E appears 5 times \(1 standing \+ 4 in melds\)"),
    ("123m456p789sEEESSW", "15 standing tiles with 0 meld"),
    ("123m456p789sEEESSWW", "16 standing tiles with 0 meld"),
    ("123m456p789sEEE", "12 standing tiles with 0 meld"),
    ("123m456p789sE", "10 standing tiles with 0 meld"),
    ("", "0 standing tiles with 0 meld"),
    ("   ", "0 standing tiles"),
    ("[123m1]456p789sEEE5m6m7m", "12 standing tiles with 1 meld"),
    ("[123m1][456m1][789m1][123p1]", "0 standing tiles with 4 meld"),
    ("[123m1][456m1][789m1][123p1]EEE", "3 standing tiles with 4 meld"),
    ("12[345m1]3m456p789s11s", "digits at the end of '12' have no suit letter"),
    ("123m456p789sE[EEE2", r"'\[' at position 13 .* is never closed"),
    ("123m456p789sEEE]", r"'\]' at position 15 .* has no matching '\['"),
    ("[123m1]]456p789sEEE5m", r"'\]' at position 7 .* has no matching"),
    ("[[123m1]]456p789sEEE5m", r"'\[' at position 1 .* is nested"),
    ("[123m[1]456p789sEEE5m", r"'\[' at position 5 .* is nested"),
    ("123m456p789sEEE0m", "'0' at position 15"),
    ("123m456p789sEE8z", "'8z' at position 14 is not an honour"),
    ("123m456p789sEEEX", "unknown character 'X' at position 15"),
    ("123m456p789s\tEEE\u00e9", "unknown character '\u00e9'"),
    ("W1 W2 W3 W4 W5 W6 W7 W8 W9 H1 F1 F1 F1", "H1 is a flower"),
])
def test_bad_hand_strings(text, message):
    with pytest.raises(HandError, match=message):
        parse_hand(text)


@pytest.mark.parametrize("bad, message", [
    (b"123m456p789sEEE5m", "not bytes"),
    (bytearray(b"123m"), "not bytearray"),
    (memoryview(b"123m"), "not memoryview"),
    (3.5, "cannot read tiles from float"),
    (None, "cannot read tiles from NoneType"),
    (13, "cannot read tiles from int"),
    (np.full(34, 0.5), "must hold integers, got dtype float64"),
    ([-1] + [1] * 12 + [2] + [0] * 20, "negative count -1 for tile 1m"),
    (np.array([1] * 13 + [255] + [0] * 20, np.int64), "appears 255 times"),
    (np.array([1] * 12 + [2**63 - 1] + [0] * 21), "appears 9223372036854775807 times"),
    (np.ones(35, np.uint8), "2m appears 35 times.*exactly 34 entries"),
    (np.ones(13, np.float32), "must be a name"),
    (np.zeros((13, 34), np.uint8), r"one-dimensional .* shape \(13, 34\)"),
    (np.zeros(34, np.uint8), "0 standing tiles"),
    ([1] * 34, "34 standing tiles"),
    (["1m"] * 5 + ["2m"] * 8, "1m appears 5 times"),
    (["1m", "2m", 3.0], "must be a name"),
    ([0, 1, 2, 99], "tile id 99 is out of range"),
])
def test_bad_hand_values(bad, message):
    with pytest.raises(HandError, match=message):
        parse_hand(bad)


@pytest.mark.parametrize("args, message", [
    (([0] * 34,), "0 standing tiles"),
    ((np.zeros(33, np.uint8),), r"34 entries, got shape \(33,\)"),
    (([1] * 33,), "34 entries, got 33"),
    (("123m456p789sEEE5m",), "a count array must be 34 integers, got str"),
    ((counts_of("123m456p789sEEE5m"), (), 34), "tile id 34 is out of range"),
    ((counts_of("123m456p789sEEE5m"), (), 5), "last tile 6m is not among the standing tiles"),
    ((counts_of("123m456p789sEEE5m"), (), 2.0), "must be a name"),
    ((counts_of("456p789sEEE5m"), 7), "melds must be a string or a list of melds, got int"),
])
def test_hand_constructor_rejects(args, message):
    with pytest.raises(HandError, match=message):
        Hand(*args)


def test_hand_is_immutable_and_hashable():
    h = parse_hand("[123m1]456p789sEEE5m")
    with pytest.raises(ValueError):
        h.counts[0] = 1
    with pytest.raises(AttributeError):
        h.last_tile = 5
    assert {h: 1}[parse_hand("[123m1]456p789sEEE5m")] == 1
    source = counts_of("123m456p789sEEE5m")
    kept = Hand(source)
    source[0] = 4                                  # a Hand keeps its own copy
    assert kept.counts[0] == 1


# ---------------------------------------------------------------- visible tiles

def test_visible_counts_forms():
    assert not visible_counts(None).any()
    assert not visible_counts("").any()
    assert np.array_equal(visible_counts("1m1m9sE"), counts((0, 2), (26, 1), (E, 1)))
    assert np.array_equal(visible_counts("[555p2]E"), counts((13, 3), (E, 1)))
    assert np.array_equal(visible_counts("[5555p]"), counts((13, 4)))
    assert np.array_equal(visible_counts("W1 W1,J3"), counts((0, 2), (WHITE, 1)))
    assert np.array_equal(visible_counts(["1m", 0, "F1"]), counts((0, 2), (E, 1)))
    assert np.array_equal(visible_counts(counts((3, 4))), counts((3, 4)))
    h = parse_hand("[123m1]456p789sEEE5m")
    assert np.array_equal(visible_counts(h), h.counts + h.meld_counts)
    assert visible_counts("1m").dtype == np.uint8


@pytest.mark.parametrize("bad, message", [
    ("5555m5m", "5m appears 5 times"),
    ("[5555m]5m", "5m appears 5 times"),
    ("[555m1][555m2]", "5m appears 6 times"),
    ("W1 W1 W1 W1 W1", "1m appears 5 times"),
    ("11111z", "E appears 5 times"),
    ("123x", "unknown character 'x'"),
    ("[123m1", "never closed"),
    ([5] + [0] * 33, "1m appears 5 times"),
    ([-1] + [0] * 33, "negative count"),
    (np.full(34, 9, np.uint8), "1m appears 9 times"),
    (np.zeros(34, np.float64), "must hold integers"),
    (b"1m", "not bytes"),
    (3, "cannot read tiles from int"),
])
def test_visible_counts_rejects(bad, message):
    with pytest.raises(HandError, match=message):
        visible_counts(bad)


# ---------------------------------------------------------------- random round trips

def random_meld(rng: random.Random, wall: list[int]) -> "Meld | None":
    """A random meld of any kind whose tiles are still in `wall` (copies left per kind)."""
    kind = rng.choice(MELD_KINDS)
    if kind == "chow":
        start = 9 * rng.randrange(3) + rng.randrange(7)
        meld, need = Meld(CHOW, start, rng.randint(1, 3)), {start: 1, start + 1: 1, start + 2: 1}
    else:
        t = rng.randrange(34)
        if kind == "pung":
            meld, need = Meld(PUNG, t, rng.randint(1, 3)), {t: 3}
        elif kind == "concealed kong":
            meld, need = Meld(KONG, t, 0), {t: 4}
        else:
            meld, need = Meld(KONG, t, rng.randint(1, 3), added=kind == "added kong"), {t: 4}
    if any(wall[t] < n for t, n in need.items()):
        return None
    for t, n in need.items():
        wall[t] -= n
    return meld


def random_hand(rng: random.Random, n_melds: "int | None" = None, drawn: "bool | None" = None,
                with_last: bool = True) -> Hand:
    """A random valid Hand: 0-4 melds of every kind, 13 or 14 tiles, a random last tile."""
    wall = [4] * 34
    k = rng.randint(0, 4) if n_melds is None else n_melds
    melds: list[Meld] = []
    while len(melds) < k:
        meld = random_meld(rng, wall)
        if meld is not None:
            melds.append(meld)
    drawn = rng.random() < 0.5 if drawn is None else drawn
    pool = [t for t in range(34) for _ in range(wall[t])]
    ids = rng.sample(pool, (14 if drawn else 13) - 3 * k)
    c = np.bincount(ids, minlength=34)
    return Hand(c, tuple(melds), ids[-1] if with_last else None)


def write_tile(rng: random.Random, t: int) -> str:
    """One tile in compact notation, honours as a letter or as 1z-7z at random."""
    if t < 27:
        return f"{t % 9 + 1}{SUIT_LETTERS[t // 9]}"
    return HONOUR_LETTERS[t - 27] if rng.random() < 0.5 else f"{t - 26}z"


def write_meld(rng: random.Random, m: Meld) -> str:
    """A meld written by the test, not by Meld.__str__: digits per the SI convention, the
    digit left out where it defaults (chow/pung 1, concealed kong), GB commas at random."""
    if m.kind == CHOW:
        r, suit = m.tile % 9 + 1, SUIT_LETTERS[m.tile // 9]
        body = f"{r}{r + 1}{r + 2}{suit}"
    else:
        n = 4 if m.kind == KONG else 3
        if m.tile < 27:
            body = str(m.tile % 9 + 1) * n + SUIT_LETTERS[m.tile // 9]
        elif rng.random() < 0.5:
            body = HONOUR_LETTERS[m.tile - 27] * n
        else:
            body = str(m.tile - 26) * n + "z"
    digit = str(m.offer + 4 if m.added else m.offer)
    if (m.kind != KONG and m.offer == 1 or m.kind == KONG and m.offer == 0) and rng.random() < 0.5:
        digit = ""
    sep = "," if digit and rng.random() < 0.3 else ""
    return f"[{body}{sep}{digit}]"


def write_hand(rng: random.Random, h: Hand) -> str:
    """The hand in compact notation, standing tiles shuffled with the last tile written last,
    melds in their order but placed before, between or after the tiles."""
    ids = [t for t in range(34) for _ in range(int(h.counts[t]))]
    ids.remove(h.last_tile)
    rng.shuffle(ids)
    pieces = [write_tile(rng, t) for t in ids]
    places = sorted(rng.randint(0, len(pieces)) for _ in h.melds)
    for shift, (place, m) in enumerate(zip(places, h.melds)):
        pieces.insert(place + shift, write_meld(rng, m))
    pieces.append(write_tile(rng, h.last_tile))
    return rng.choice(["", " "]).join(pieces)


def test_random_hands_parse_from_independent_text():
    rng = random.Random(7)
    for _ in range(1500):
        h = random_hand(rng)
        text = write_hand(rng, h)
        assert parse_hand(text) == h, text


def test_random_hands_print_and_parse_back():
    rng = random.Random(11)
    seen_kinds = set()
    for i in range(1500):
        h = random_hand(rng, n_melds=i % 5)
        seen_kinds.update((m.kind, m.concealed, m.added) for m in h.melds)
        text = str(h)
        assert parse_hand(text) == h, text
        assert str(parse_hand(text)) == text
        # melds first, then sorted standing tiles, the last tile written once more at the end
        assert text.startswith("".join(str(m) for m in h.melds))
    assert len(seen_kinds) == 5          # chow, pung, concealed, exposed and added kongs


def test_random_hands_without_order_print_and_parse_back():
    rng = random.Random(12)
    for _ in range(500):
        h = random_hand(rng, with_last=False)
        back = parse_hand(str(h))
        assert np.array_equal(back.counts, h.counts) and back.melds == h.melds
        assert back.last_tile == max(t for t in range(34) if h.counts[t])   # written last
        assert parse_hand(h.counts, h.melds) == h
        assert parse_hand(h.counts.tolist(), [str(m) for m in h.melds]) == h


def test_random_hands_botzone_and_pymahjonggb_round_trips():
    rng = random.Random(13)
    for _ in range(1500):
        h = random_hand(rng)
        packs, tiles = h.to_pymahjonggb()
        assert tiles[-1] == h.to_botzone().split()[-1]
        assert parse_hand(h.to_botzone(), h.melds) == h
        assert parse_hand(h.to_botzone(), "".join(map(str, h.melds))) == h
        # PyMahjongGB cannot say "added": only that flag is lost
        plain = tuple(Meld(m.kind, m.tile, m.offer) for m in h.melds)
        assert parse_hand(list(tiles), packs) == Hand(h.counts, plain, h.last_tile)
        assert parse_hand(" ".join(tiles), list(packs)) == Hand(h.counts, plain, h.last_tile)


def test_pymahjonggb_reads_our_packs_and_tiles():
    # PyMahjongGB checks tile codes, pack kinds and offers 0..3 and raises TypeError otherwise
    rng = random.Random(14)
    for _ in range(300):
        h = random_hand(rng, drawn=False)
        assert isinstance(MahjongShanten(*h.to_pymahjonggb()), int)
    # ("CHI", middle tile): the claimed chow 123m makes a pure straight (清龙) with 456m789m
    packs, tiles = parse_hand("[123m1]456789m123p5s5s").to_pymahjonggb()
    assert packs == (("CHI", "W2", 1),) and tiles[-1] == "T5"
    fans = dict((name, n) for n, name in MahjongFanCalculator(
        packs, tiles[:-1], tiles[-1], 0, False, False, False, False, 0, 0))
    assert fans.get("清龙") == 16
    # GANG offer 0 is a concealed kong: two of them score 双暗杠
    packs, tiles = parse_hand("[5555p][EEEE][CCC2]123s9s9s").to_pymahjonggb()
    fans = dict((name, n) for n, name in MahjongFanCalculator(
        packs, tiles[:-1], tiles[-1], 0, False, False, False, False, 0, 0))
    assert "双暗杠" in fans


def test_random_hands_as_tile_lists():
    rng = random.Random(15)
    for _ in range(500):
        h = random_hand(rng)
        ids = [t for t in range(34) for _ in range(int(h.counts[t]))]
        ids.remove(h.last_tile)
        rng.shuffle(ids)
        ids.append(h.last_tile)
        names = [write_tile(rng, t) for t in ids]
        assert parse_hand(names, h.melds) == h
        mixed = [str(m) if m.added else m.to_pymahjonggb() for m in h.melds]
        assert parse_hand(ids, mixed) == h
        assert parse_hand(np.array(ids, np.int16), h.melds) == h
