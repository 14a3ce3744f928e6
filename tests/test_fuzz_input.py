"""Fuzz the input layer: random and mutated hand strings, count arrays and tile lists go to the
parsers and to every public per-hand call. Each call returns a result of the right type or
raises HandError; nothing else may escape (IndexError, TypeError, KeyError, OverflowError,
numba errors, crashes). The RNG is seeded, and every failure names its input, so a failure
reproduces with the one call it shows.
"""

import random

import numpy as np

import mjfast
from mjfast import DiscardOption, Hand, HandError, Meld
from mjfast.tiles import TILE_NAMES
from tests.test_hand import random_hand

SEED = 20261129
FORMS = {"regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"}
NOTATION = "123456789mpsz" + "ESWNCFP" + "WBTJH" + "[],0 "
OUTSIDE = "xXqe\u4e2d\u00e9\t\n\x00\ud800-+;.|()_\u0663\uff13"
JUNK = [None, 1.5, True, [], "", "10m", "8z", 2**70, -1, 34, b"1m", (), {"1m": 1}, np.float32(2)]


class Escapes:
    """Calls that raised anything but HandError, or returned the wrong thing, by input."""

    def __init__(self):
        self.found: list[str] = []

    def call(self, what: str, fn, *args, **kwargs):
        """(result, None) or (None, the HandError); anything else is recorded."""
        try:
            return fn(*args, **kwargs), None
        except HandError as exc:
            if not str(exc):
                self.fail(what, args, kwargs, "HandError without a message")
            return None, exc
        except Exception as exc:  # noqa: BLE001 - the point is to catch every escape
            self.fail(what, args, kwargs, f"{type(exc).__name__}: {exc}")
            return None, exc

    def fail(self, what, args, kwargs, problem: str):
        if len(self.found) < 30:
            shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
            self.found.append(f"{what}({shown[:300]}): {problem[:300]}")

    def check(self, ok: bool, what, args, problem: str):
        if not ok:
            self.fail(what, args, {}, problem)

    def assert_none(self):
        assert not self.found, "\n".join(self.found)


def test_the_recorder_catches_every_other_exception():
    esc = Escapes()
    assert esc.call("ok", int, "3") == (3, None)
    assert isinstance(esc.call("hand", mjfast.parse_hand, "x")[1], HandError)
    assert not esc.found
    esc.call("index", [].__getitem__, 0)
    esc.call("silent", lambda: (_ for _ in ()).throw(HandError("")))
    assert esc.found == ["index(0): IndexError: list index out of range",
                         "silent(): HandError without a message"]
    try:
        esc.assert_none()
    except AssertionError as exc:
        assert "IndexError" in str(exc)
    else:
        raise AssertionError("assert_none passed with escapes recorded")


# ---------------------------------------------------------------- input generators

def random_string(rng: random.Random) -> str:
    """Characters mostly from the notation alphabet, sometimes from outside it."""
    n = rng.choice([rng.randint(0, 6), rng.randint(8, 20), rng.randint(20, 40)])
    return "".join(rng.choice(NOTATION) if rng.random() < 0.9 else rng.choice(OUTSIDE) for _ in range(n))


def valid_text(rng: random.Random) -> str:
    """A valid hand in one of the string notations."""
    h = random_hand(rng)
    melds = "".join(str(m) for m in h.melds)
    return rng.choice([
        str(h),
        melds + " " + h.to_botzone() if melds else h.to_botzone(),
        str(h).replace("1]", ",1]").replace("E", "1z"),
    ])


def mutate(rng: random.Random, text: str) -> str:
    """1-3 edits: insert, delete, replace, swap, duplicate a tile, break a bracket."""
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(chars))
        op = rng.randrange(7)
        if op == 0:
            chars.insert(i, rng.choice(NOTATION + OUTSIDE))
        elif op == 1 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 2 and chars:
            chars[min(i, len(chars) - 1)] = rng.choice(NOTATION)
        elif op == 3 and len(chars) > 1:
            j = min(i, len(chars) - 2)
            chars[j], chars[j + 1] = chars[j + 1], chars[j]
        elif op == 4:
            chars[i:i] = list(rng.choice(TILE_NAMES))          # one more copy of some tile
        elif op == 5:
            brackets = [k for k, c in enumerate(chars) if c in "[]"]
            if brackets and rng.random() < 0.6:
                del chars[rng.choice(brackets)]
            else:
                chars.insert(i, rng.choice("[]"))
        else:
            digits = [k for k, c in enumerate(chars) if c.isdigit()]
            if digits:
                chars[rng.choice(digits)] = rng.choice("0123456789")
    return "".join(chars)


def random_array(rng: random.Random) -> np.ndarray:
    """Count arrays: mostly near a real hand, with wrong shapes, dtypes and values mixed in."""
    shape = rng.choice([(34,)] * 8 + [(33,), (35,), (0,), (13,), (14,), (2, 34), (34, 1), ()])
    if shape == (34,):
        values = random_hand(rng, n_melds=0).counts.astype(np.int64)
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            values[rng.randrange(34)] = rng.choice([0, 1, 2, 3, 4, 5, 6, -1, -3, 255, 256])
    else:
        values = np.array([rng.randint(-2, 40) for _ in range(int(np.prod(shape)))], np.int64).reshape(shape)
    dtype = rng.choice([np.uint8] * 4 + [np.int8, np.int16, np.int64, np.uint64, np.float64, np.bool_, object])
    with np.errstate(all="ignore"):
        return values.astype(dtype)                      # negatives wrap in unsigned dtypes


def random_list(rng: random.Random) -> list:
    """Tile lists (names, ids, Botzone tokens), 34 counts, with junk items mixed in."""
    kind = rng.randrange(4)
    if kind == 0:
        items = [TILE_NAMES[rng.randrange(34)] for _ in range(rng.randint(0, 16))]
    elif kind == 1:
        items = [rng.randint(-1, 35) for _ in range(rng.randint(0, 16))]
    elif kind == 2:
        items = rng.choice([random_hand(rng).to_botzone().split(), [rng.choice("WBTFJH") + str(rng.randint(0, 9))]])
    else:
        items = [rng.choice([0, 0, 0, 1, 1, 2, 3, 4, 5, -1]) for _ in range(34)]
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        items.insert(rng.randint(0, len(items)), rng.choice(JUNK))
    return items


def random_visible(rng: random.Random):
    return rng.choice([
        None, "", random_string(rng), mutate(rng, "1m2p3sEEW1"), random_array(rng), random_list(rng),
        rng.choice(TILE_NAMES) * rng.randint(1, 5), random_hand(rng), 7, b"1m",
    ])


# ---------------------------------------------------------------- the parsers (no kernels)

def check_parsed(esc: Escapes, x, h):
    """A parsed Hand is valid, and its compact text reads back as the same hand."""
    if not isinstance(h, Hand):
        esc.fail("parse_hand", (x,), {}, f"returned {type(h).__name__}")
        return
    total = h.n_standing + 3 * h.n_melds
    esc.check(total in (13, 14) and h.n_melds <= 4, "parse_hand", (x,), f"accepted {total} tiles")
    esc.check(int((h.counts + h.meld_counts).max()) <= 4, "parse_hand", (x,), "accepted a 5th copy")
    back, err = esc.call("parse_hand(str(h))", mjfast.parse_hand, str(h))
    esc.check(err is None and np.array_equal(back.counts, h.counts) and back.melds == h.melds,
              "parse_hand", (x,), f"printed as {str(h)!r}, which does not read back")


def check_counts_result(esc: Escapes, what: str, x, c):
    ok = isinstance(c, np.ndarray) and c.dtype == np.uint8 and c.shape == (34,) and int(c.max()) <= 4
    esc.check(ok, what, (x,), f"returned {c!r}")


def fuzz_parsers(esc: Escapes, x):
    h, _ = esc.call("parse_hand", mjfast.parse_hand, x)
    if h is not None:
        check_parsed(esc, x, h)
    c, _ = esc.call("visible_counts", mjfast.visible_counts, x)
    if c is not None:
        check_counts_result(esc, "visible_counts", x, c)
    c, _ = esc.call("counts_of", mjfast.counts_of, x)
    if c is not None:
        check_counts_result(esc, "counts_of", x, c)
    if isinstance(x, str):
        ids, _ = esc.call("parse_tiles", mjfast.parse_tiles, x)
        esc.check(ids is None or all(type(t) is int and 0 <= t < 34 for t in ids), "parse_tiles", (x,), repr(ids))
        m, _ = esc.call("parse_meld", mjfast.parse_meld, x)
        esc.check(m is None or isinstance(m, Meld), "parse_meld", (x,), repr(m))


def test_fuzz_random_strings():
    rng, esc = random.Random(SEED), Escapes()
    for _ in range(3000):
        fuzz_parsers(esc, random_string(rng))
    esc.assert_none()


def test_fuzz_mutated_hands():
    rng, esc = random.Random(SEED + 1), Escapes()
    parsed = 0
    for _ in range(3000):
        x = mutate(rng, valid_text(rng))
        fuzz_parsers(esc, x)
        parsed += esc.call("parse_hand", mjfast.parse_hand, x)[0] is not None
    esc.assert_none()
    assert 100 < parsed < 2900        # the mutations reach both sides of the validation


def test_fuzz_arrays_and_lists():
    rng, esc = random.Random(SEED + 2), Escapes()
    for _ in range(1500):
        fuzz_parsers(esc, random_array(rng))
        fuzz_parsers(esc, random_list(rng))
    esc.assert_none()


def test_fuzz_melds_and_hand_constructor():
    rng, esc = random.Random(SEED + 3), Escapes()
    kinds = ["CHI", "PENG", "GANG", "chi", "KONG", 1, None]
    for _ in range(1500):
        pack = (rng.choice(kinds), rng.choice(list(TILE_NAMES) + ["W0", "B9", "J4", 3, -1, None]),
                rng.choice([0, 1, 2, 3, 4, -1, 1.0, True, "1"]))
        esc.call("parse_meld", mjfast.parse_meld, rng.choice([pack, pack[:2], list(pack), pack + (1,)]))
        esc.call("Meld", Meld, rng.choice(["chow", "pung", "kong", "x", 0]),
                 rng.choice([0, 7, 26, 27, 33, 34, -1, "1m", 2.0]), rng.choice([0, 1, 3, 4, 5, -1, 1.5, None]),
                 rng.choice([False, True]))
        melds = rng.choice([(), None, "[123m1]", [random_string(rng)], [pack], 5, "[EEE2]x"])
        h, _ = esc.call("Hand", Hand, rng.choice([random_array(rng), random_list(rng)]), melds,
                        rng.choice([None, None, 0, 33, 34, -1, "5m", 1.5]))
        if h is not None:
            check_parsed(esc, "Hand(...)", h)
        esc.call("parse_hand", mjfast.parse_hand, mutate(rng, valid_text(rng)), melds)
    esc.assert_none()


# ---------------------------------------------------------------- every public call

def check_calls(esc: Escapes, x, visible):
    """Every per-hand call on `x`: the right type when parse_hand accepts x, HandError when it
    does not; a bad `visible` is a HandError too."""
    h, parse_err = esc.call("parse_hand", mjfast.parse_hand, x)
    total = None if h is None else h.n_standing + 3 * h.n_melds

    s, err = esc.call("shanten", mjfast.shanten, x)
    esc.check((err is None) == (parse_err is None), "shanten", (x,), f"disagrees with parse_hand: {err or s}")
    if s is not None:
        esc.check(type(s) is int and -1 <= s <= 8, "shanten", (x,), f"returned {s!r}")

    forms, _ = esc.call("shanten_by_form", mjfast.shanten_by_form, x)
    if forms is not None:
        esc.check(set(forms) == FORMS and all(v is None or type(v) is int for v in forms.values())
                  and min(v for v in forms.values() if v is not None) == s,
                  "shanten_by_form", (x,), f"returned {forms!r} beside shanten {s}")

    useful, err = esc.call("useful_tiles", mjfast.useful_tiles, x)
    esc.check((err is None) == (total == 13), "useful_tiles", (x,), f"with {total} tiles: {err or useful}")
    if useful is not None:
        esc.check(isinstance(useful, list) and all(t in TILE_NAMES for t in useful), "useful_tiles", (x,), repr(useful))
        w, _ = esc.call("waits", mjfast.waits, x)
        esc.check(w == (useful if s == 0 else []), "waits", (x,), f"{w!r} beside useful {useful!r}, shanten {s}")
        if hasattr(mjfast, "useful_by_form"):
            by_form, _ = esc.call("useful_by_form", mjfast.useful_by_form, x)
            esc.check(isinstance(by_form, dict) and set(by_form) == FORMS, "useful_by_form", (x,), repr(by_form))

    seen, seen_err = esc.call("visible_counts", mjfast.visible_counts, visible)
    acc, err = esc.call("acceptance", mjfast.acceptance, x, visible=visible)
    if useful is not None and seen_err is not None:
        esc.check(err is not None, "acceptance", (x, visible), "accepted a visible= that visible_counts rejects")
    if acc is not None:
        esc.check(type(acc) is int and 0 <= acc <= 4 * len(useful), "acceptance", (x, visible), repr(acc))

    options, err = esc.call("best_discards", mjfast.best_discards, x, visible=visible, next_step=False)
    esc.check(err is not None or total == 14, "best_discards", (x, visible), f"answered a hand of {total} tiles")
    if options is not None and h is not None:
        kinds = {TILE_NAMES[t] for t in range(34) if h.counts[t]}
        ok = (all(isinstance(o, DiscardOption) for o in options) and {o.tile for o in options} == kinds
              and len(options) == len(kinds) and all(type(o.acceptance) is int for o in options))
        esc.check(ok, "best_discards", (x, visible), repr(options)[:200])


def test_fuzz_every_public_call():
    rng, esc = random.Random(SEED + 4), Escapes()
    inputs = []
    for _ in range(120):
        inputs.append(mutate(rng, valid_text(rng)))
        inputs.append(random_array(rng))
    inputs += [valid_text(rng) for _ in range(60)]
    inputs += [random_hand(rng).counts.copy() for _ in range(30)]     # the uint8 fast path
    inputs += [random_hand(rng) for _ in range(20)]                    # Hand objects as is
    inputs += [random_string(rng) for _ in range(20)] + [random_list(rng) for _ in range(20)]
    inputs += [None, 5, 2.5, b"123m456p789sEEE5m", np.zeros(34, np.uint8), np.full(34, 255, np.uint8)]
    answered = 0
    for x in inputs:
        check_calls(esc, x, random_visible(rng))
        answered += esc.call("parse_hand", mjfast.parse_hand, x)[1] is None
    # next_acceptance is a second kernel path: a few drawn hands with it on
    for _ in range(15):
        h = random_hand(rng, drawn=True)
        options, _ = esc.call("best_discards", mjfast.best_discards, str(h), visible=random_visible(rng))
        esc.check(options is None or all(type(o.next_acceptance) is float for o in options),
                  "best_discards", (str(h),), repr(options)[:200])
    esc.assert_none()
    assert answered > 80
