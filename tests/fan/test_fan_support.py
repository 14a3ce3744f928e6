"""Helpers for the fan tests: random winning hands of every form, the vector files, and
PyMahjongGB's answer for a hand. The tests at the bottom check the helpers themselves.

Random hands are built from their parts (sets and a pair, or a special form's tiles), never by
drawing tiles until something wins; each hand picks a "style" (a tile pool and a pung/chow mix)
so that rare fans (flushes, honour hands, shifted and mirrored sets...) come up often enough
for a differential test to see them.
"""

from __future__ import annotations

import random

import numpy as np

from mjfast.hand import Hand, Meld
from mjfast.tiles import botzone_token

from ..data import VECTORS

SUITED = list(range(27))
HONORS = list(range(27, 34))
TERMINALS = [0, 8, 9, 17, 18, 26]
GREEN = [19, 20, 21, 23, 25, 32]
REVERSIBLE = [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33]


def _suit(s):
    return list(range(9 * s, 9 * s + 9))


def _ranks(ranks):
    return [9 * s + r - 1 for s in range(3) for r in ranks]


# Tile pools a hand's sets are drawn from (a chow needs its lowest tile in the pool and all
# three in the same suit; any of its tiles may fall outside a pool only for the "any" pool).
POOLS = {
    "any": list(range(34)),
    "one_suit": None,  # filled per hand: one suit
    "one_suit_honors": None,  # one suit and the honours
    "two_suits": None,
    "honors_terminals": TERMINALS + HONORS,
    "honors_heavy": HONORS + HONORS + list(range(34)),
    "simples": _ranks(range(2, 9)),
    "even": _ranks([2, 4, 6, 8]),
    "fives": _ranks([3, 4, 5]),  # chows 345/456/567 start at 3-5; pungs of 5 come from rank 5
    "low": _ranks([1, 2, 3, 4]),
    "high": _ranks([6, 7, 8, 9]),
    "middle": _ranks([4, 5, 6]),
    "green": GREEN,
    "reversible": REVERSIBLE,
    "same_rank": None,  # one or two ranks in all suits
    "shifted": None,  # a few neighbouring ranks of one suit
    "terminal_chows": _ranks([1, 7]),
    "winds": list(range(27, 31)),
    "dragons": list(range(31, 34)),
    "terminals": TERMINALS,
}
# Sets fixed in advance, the rest drawn from the "any" pool: (kind, suit offset from a random
# suit, rank) — patterns too rare to come up by chance.
TEMPLATES = {
    "three_suited_terminal_chows": [("chow", 0, 1), ("chow", 0, 7), ("chow", 1, 1), ("chow", 1, 7), ("pair", 2, 5)],
    "pure_terminal_chows": [("chow", 0, 1), ("chow", 0, 7), ("chow", 0, 1), ("chow", 0, 7), ("pair", 0, 5)],
    "mixed_straight": [("chow", 0, 1), ("chow", 1, 4), ("chow", 2, 7)],
    "pure_straight": [("chow", 0, 1), ("chow", 0, 4), ("chow", 0, 7)],
    # 无番和 needs open sets, all suits and honours, and nothing that combines.
    "chicken": [("chow", 0, 1), ("chow", 0, 3), ("chow", 1, 6), ("chow", 2, 5), ("honor_pair", 0, 0)],
}


def _pool(rng: random.Random, style: str) -> list[int]:
    s = rng.randrange(3)
    if style == "one_suit":
        return _suit(s)
    if style == "one_suit_honors":
        return _suit(s) + HONORS
    if style == "two_suits":
        return _suit(s) + _suit((s + 1) % 3)
    if style == "same_rank":
        r = rng.randrange(1, 8)
        return _ranks([r, r + rng.choice([0, 1, 2])])
    if style == "shifted":
        r = rng.randrange(1, 6)
        return [9 * s + r - 1 + d for d in range(rng.choice([3, 4, 5]))]
    return POOLS[style]


def _chow_ok(t: int) -> bool:
    return t < 27 and t % 9 <= 6


def _try_add(counts, kind, tile) -> bool:
    size = {"kong": 4, "pung": 3}.get(kind, 2)
    need = [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * size
    for t in set(need):
        if counts[t] + need.count(t) > 4:
            return False
    for t in need:
        counts[t] += 1
    return True


def _template_sets(rng: random.Random, counts, name: str):
    """Place a template's sets; returns (sets, pair or None)."""
    first = rng.randrange(3)
    sets, pair = [], None
    for kind, offset, rank in TEMPLATES[name]:
        if kind == "honor_pair":
            pair = rng.choice(HONORS)
            _try_add(counts, "pair", pair)
            continue
        t = 9 * ((first + offset) % 3) + rank - 1
        _try_add(counts, kind, t)
        if kind == "pair":
            pair = t
        else:
            sets.append((kind, t))
    return sets, pair


def random_regular(rng: random.Random) -> tuple[Hand, int]:
    """A random regular winning hand (0-4 melds, kongs of every kind) and its winning tile."""
    counts = np.zeros(34, np.int64)
    sets, pair = [], None
    if rng.random() < 0.08:
        template = rng.choice(list(TEMPLATES))
        sets, pair = _template_sets(rng, counts, template)
        pool, p_pung, p_kong = list(range(34)), 0.5, 0.1
    else:
        template = None
        style = rng.choice(list(POOLS))
        pool = _pool(rng, style)
        p_pung = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0])
        p_kong = rng.choice([0.1, 0.1, 0.6])
    while len(sets) < 4:
        for attempt in range(60):
            tiles = pool if attempt < 40 else list(range(34))
            t = rng.choice(tiles)
            kind = "pung" if (rng.random() < p_pung or not _chow_ok(t)) else "chow"
            if kind == "pung" and rng.random() < p_kong:
                kind = "kong"
            if _try_add(counts, kind, t):
                sets.append((kind, t))
                break
        else:
            raise RuntimeError("could not place a set")
    for attempt in range(100):
        if pair is not None:
            break
        t = rng.choice(pool if attempt < 50 else list(range(34)))
        if _try_add(counts, "pair", t):
            pair = t
    n_melds = rng.choice([1, 2, 3, 4]) if template == "chicken" else rng.choice([0, 0, 1, 2, 3, 4])
    melds, standing = [], np.zeros(34, np.uint8)
    standing[pair] += 2
    for i, (kind, t) in enumerate(sets):
        if kind == "kong":
            # A kong is always a meld: concealed, exposed or added.
            how = rng.random()
            if how < 0.4:
                melds.append(Meld("kong", t, 0))
            elif how < 0.7:
                melds.append(Meld("kong", t, rng.randint(1, 3)))
            else:
                melds.append(Meld("kong", t, rng.randint(1, 3), added=True))
        elif i < n_melds:
            melds.append(Meld(kind, t, rng.randint(1, 3)))
        else:
            for x in ([t, t + 1, t + 2] if kind == "chow" else [t] * 3):
                standing[x] += 1
    win = rng.choice([t for t in range(34) if standing[t] > 0])
    return Hand(standing, tuple(melds), win), win


def random_special(rng: random.Random) -> tuple[Hand, int]:
    """A random special-form win: 七对 (sometimes 连七对), 十三幺, 全不靠/七星不靠, 九莲宝灯, or a
    组合龙 with a set and a pair (the set sometimes a meld)."""
    form = rng.choice(["pairs", "pairs", "shifted_pairs", "orphans", "knitted_honors", "knitted", "knitted",
                       "nine_gates"])
    counts = np.zeros(34, np.uint8)
    melds = ()
    if form == "pairs":
        style = rng.choice(list(POOLS))
        pool = _pool(rng, style)
        n = 0
        while n < 7:
            t = rng.choice(pool if rng.random() < 0.85 else list(range(34)))
            if counts[t] <= 2:
                counts[t] += 2
                n += 1
    elif form == "shifted_pairs":
        start = 9 * rng.randrange(3) + rng.randrange(3)
        counts[start:start + 7] = 2
    elif form == "orphans":
        orphans = TERMINALS + HONORS
        counts[orphans] = 1
        counts[rng.choice(orphans)] += 1
    elif form == "knitted_honors":
        parts = rng.sample(range(3), 3)
        knitted = [9 * s + parts[s] + 3 * k for s in range(3) for k in range(3)]
        n_suited = rng.choice([7, 8, 9])
        chosen = rng.sample(knitted, n_suited) + rng.sample(HONORS, 14 - n_suited)
        counts[chosen] = 1
    elif form == "knitted":
        parts = rng.sample(range(3), 3)
        knitted = [9 * s + parts[s] + 3 * k for s in range(3) for k in range(3)]
        counts[knitted] = 1
        work = counts.astype(np.int64)
        while True:
            t = rng.randrange(34)
            kind = rng.choice(["chow", "pung", "pung", "kong"]) if _chow_ok(t) else rng.choice(["pung", "kong"])
            trial = work.copy()
            if _try_add(trial, kind, t):
                p = rng.randrange(34)
                if _try_add(trial, "pair", p):
                    break
        counts[p] += 2
        if kind == "kong" or rng.random() < 0.4:
            melds = (Meld(kind, t, 0 if (kind == "kong" and rng.random() < 0.5) else rng.randint(1, 3)),)
        else:
            for x in ([t, t + 1, t + 2] if kind == "chow" else [t] * 3):
                counts[x] += 1
    else:
        s = rng.randrange(3)
        counts[9 * s:9 * s + 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        counts[9 * s + rng.randrange(9)] += 1
    win = rng.choice([t for t in range(34) if counts[t] > 0])
    return Hand(counts, melds, win), win


def random_conditions(rng: random.Random) -> dict:
    """Random win conditions, winds and flowers (contradictions included: the scorer corrects)."""
    return dict(
        self_drawn=rng.random() < 0.45,
        last_copy=rng.random() < 0.15,
        kong=rng.random() < 0.12,
        last_tile=rng.random() < 0.1,
        seat_wind="ESWN"[rng.randrange(4)],
        prevalent_wind="ESWN"[rng.randrange(4)],
        flowers=rng.choice([0, 0, 0, 1, 2, 3, 8]),
    )


def random_win(rng: random.Random) -> tuple[Hand, dict]:
    """A random winning hand (about a fifth special forms) and random conditions."""
    hand, _ = random_special(rng) if rng.random() < 0.2 else random_regular(rng)
    return hand, random_conditions(rng)


def pymahjonggb_fans(hand: Hand, conditions: dict) -> list[tuple[str, int, int]]:
    """PyMahjongGB's (Chinese name, points, count) list for a winning hand."""
    from MahjongGB import MahjongFanCalculator

    packs, tiles = hand.to_pymahjonggb()
    tiles = list(tiles)
    tiles.remove(botzone_token(hand.last_tile))
    result = MahjongFanCalculator(
        packs, tuple(tiles), botzone_token(hand.last_tile), conditions.get("flowers", 0),
        conditions.get("self_drawn", False), conditions.get("last_copy", False), conditions.get("kong", False),
        conditions.get("last_tile", False), "ESWN".index(conditions.get("seat_wind", "E")),
        "ESWN".index(conditions.get("prevalent_wind", "E")), verbose=True,
    )
    return [(name, points, count) for points, count, name, _ in result]


def read_tsv(name: str) -> list[dict]:
    """Rows of a vector file as dicts (comment lines skipped, first row the header)."""
    with open(VECTORS / name, encoding="utf8") as f:
        lines = [line.rstrip("\n") for line in f if not line.startswith("#") and line.strip()]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def gb_case(text: str) -> tuple[str, dict]:
    """A GB-Mahjong case "<tiles>|<PSzjhk>|<flowers>" as (hand text, score() keywords)."""
    parts = text.split("|")
    flags = parts[1] if len(parts) > 1 and parts[1] else "EE0000"
    flowers = parts[2] if len(parts) > 2 else ""
    return parts[0], dict(
        prevalent_wind=flags[0], seat_wind=flags[1], self_drawn=flags[2] == "1", last_copy=flags[3] == "1",
        last_tile=flags[4] == "1", kong=flags[5] == "1",
        flowers=int(flowers) if flowers.isdigit() else len(flowers),
    )


def parse_fan_list(text: str) -> list[tuple[str, int, int]]:
    """"清龙 16, 花牌 1*2" as [(name, points, count)]."""
    out = []
    for part in text.split(", "):
        name, points = part.rsplit(" ", 1)
        count = 1
        if "*" in points:
            points, count = points.split("*")
        out.append((name, int(points), int(count)))
    return out


def _splits_into_sets(counts: list[int], pair_left: bool) -> bool:
    """Plain recursive check (test oracle only): do the counts split into sets (and one pair)?"""
    t = next((i for i, c in enumerate(counts) if c), None)
    if t is None:
        return not pair_left
    if pair_left and counts[t] >= 2:
        counts[t] -= 2
        ok = _splits_into_sets(counts, False)
        counts[t] += 2
        if ok:
            return True
    if counts[t] >= 3:
        counts[t] -= 3
        ok = _splits_into_sets(counts, pair_left)
        counts[t] += 3
        if ok:
            return True
    if _chow_ok(t) and counts[t + 1] and counts[t + 2]:
        for d in range(3):
            counts[t + d] -= 1
        ok = _splits_into_sets(counts, pair_left)
        for d in range(3):
            counts[t + d] += 1
        return ok
    return False


def is_win_oracle(hand: Hand) -> bool:
    """Whether a 14-tile hand is a win in some MCR form, by plain enumeration."""
    c = [int(x) for x in hand.counts]
    if _splits_into_sets(list(c), True):
        return True
    if hand.n_melds == 0:
        if all(x % 2 == 0 for x in c):
            return True
        orphans = TERMINALS + HONORS
        if all(c[t] >= 1 for t in orphans) and sum(c[t] for t in orphans) == 14:
            return True
    if hand.n_melds > 1:
        return False
    for parts in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        knitted = [9 * s + parts[s] + 3 * k for s in range(3) for k in range(3)]
        if hand.n_melds == 0 and max(c) <= 1 and all(c[t] == 0 or t in knitted or t >= 27 for t in range(34)) \
                and 7 <= sum(c[t] for t in knitted):
            return True
        if all(c[t] for t in knitted):
            rest = list(c)
            for t in knitted:
                rest[t] -= 1
            if _splits_into_sets(rest, True):
                return True
    return False


# --- checks of the helpers ---------------------------------------------------------------

def test_random_hands_are_wins_with_legal_tile_counts():
    rng = random.Random(7)
    forms = set()
    for _ in range(400):
        hand, _ = random_win(rng)
        assert hand.drawn and hand.last_tile is not None and hand.counts[hand.last_tile] > 0
        assert int((hand.counts.astype(int) + hand.meld_counts).max()) <= 4
        assert is_win_oracle(hand), hand
        forms.add(hand.n_melds)
    assert forms == {0, 1, 2, 3, 4}


def test_oracle_rejects_a_non_win():
    from mjfast.hand import parse_hand

    assert not is_win_oracle(parse_hand("123m456p789s1122sE"))
    assert is_win_oracle(parse_hand("123m456p789s11222s"))


def test_gb_case_reads_flags():
    text, kw = gb_case("[EEE,2]WWW|SN1011|c")
    assert text == "[EEE,2]WWW"
    assert kw == dict(prevalent_wind="S", seat_wind="N", self_drawn=True, last_copy=False, last_tile=True, kong=True,
                      flowers=1)
