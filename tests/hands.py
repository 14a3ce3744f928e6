"""Random and adversarial hands for tests and benchmarks (seeded numpy generators).

Every generator returns (standing counts uint8[34], melds list[Meld]) that form a valid
13-tile hand (or 14 with `drawn=True`) counting each meld as three tiles.
"""

from __future__ import annotations

import numpy as np

from mjfast.hand import CHOW, KONG, PUNG, Meld

ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])
KNITTED_TILES = np.array([0, 3, 6, 10, 13, 16, 20, 23, 26, 1, 4, 7, 11, 14, 17, 19, 22, 25, 2, 5, 8, 9, 12, 15, 18, 21,
                          24])


def _set_tiles(rng, room) -> "list[int] | None":
    """A random set whose tiles still fit in `room` (copies left per kind)."""
    for _ in range(20):
        if rng.random() < 0.55:
            suit, rank = rng.integers(3), rng.integers(7)
            tiles = [9 * suit + rank + i for i in range(3)]
        else:
            tiles = [int(rng.integers(34))] * 3
        need = np.bincount(tiles, minlength=34)
        if (need <= room).all():
            return tiles
    return None


def random_melds(rng, n_melds: int, room) -> list[Meld]:
    """n_melds random melds (chows, pungs, exposed/concealed/added kongs), taken from room."""
    melds = []
    while len(melds) < n_melds:
        tiles = _set_tiles(rng, room)
        if tiles is None:
            continue
        t = tiles[0]
        if tiles[1] != t:
            meld = Meld(CHOW, t, int(rng.integers(1, 4)))
        elif room[t] == 4 and rng.random() < 0.3:
            kind = rng.integers(3)
            meld = Meld(KONG, t, 0) if kind == 0 else Meld(KONG, t, int(rng.integers(1, 4)), added=bool(kind == 2))
        else:
            meld = Meld(PUNG, t, int(rng.integers(1, 4)))
        for x in meld.tiles:
            room[x] -= 1
        melds.append(meld)
    return melds


def _draw(rng, room, n, pool=None) -> np.ndarray:
    """n tiles drawn without replacement from room (optionally only kinds in pool)."""
    kinds = np.arange(34) if pool is None else np.asarray(pool)
    wall = np.repeat(kinds, room[kinds])
    picked = rng.choice(wall, n, replace=False)
    counts = np.bincount(picked, minlength=34)
    room -= counts
    return counts


def wall_hand(rng, n_melds=0, drawn=False):
    """Standing tiles straight from a shuffled wall."""
    room = np.full(34, 4)
    melds = random_melds(rng, n_melds, room)
    counts = _draw(rng, room, 13 - 3 * n_melds + drawn)
    return counts.astype(np.uint8), melds


def near_complete_hand(rng, n_melds=0, swaps=1, drawn=False):
    """A complete hand with tiles swapped for random ones and one removed (or kept if drawn)."""
    room = np.full(34, 4)
    melds = random_melds(rng, n_melds, room)
    counts = np.zeros(34, np.int64)
    for _ in range(4 - n_melds):
        tiles = _set_tiles(rng, room)
        if tiles is None:
            return wall_hand(rng, n_melds, drawn)
        for t in tiles:
            counts[t] += 1
            room[t] -= 1
    pair_kinds = np.flatnonzero(room >= 2)
    p = int(rng.choice(pair_kinds))
    counts[p] += 2
    room[p] -= 2
    swaps = min(swaps, int(counts.sum()) - 1)
    remove = swaps + (0 if drawn else 1)
    for _ in range(remove):
        t = int(rng.choice(np.flatnonzero(counts)))
        counts[t] -= 1
        room[t] += 1
    counts += _draw(rng, room, swaps)
    return counts.astype(np.uint8), melds


def biased_hand(rng, form: str, drawn=False):
    """A concealed hand drawn mostly from the kinds a special form uses."""
    room = np.full(34, 4)
    n = 13 + drawn
    if form == "seven_pairs":
        kinds = rng.choice(34, 8, replace=False)
        counts = np.zeros(34, np.int64)
        for _ in range(n):
            t = int(rng.choice(kinds))
            if counts[t] < 4:
                counts[t] += 1
            else:
                counts[int(rng.choice(np.flatnonzero(counts < 4)))] += 1
        return counts.astype(np.uint8), []
    pool = ORPHANS if form == "thirteen_orphans" else np.concatenate([KNITTED_TILES[:9], ORPHANS[6:]])
    if form == "knitted_straight":
        perm = rng.permutation(3)
        pool = np.array([9 * perm[j] + j + 3 * i for j in range(3) for i in range(3)])
    core = min(n - int(rng.integers(0, 4)), len(pool) * 4)
    counts = np.zeros(34, np.int64)
    take = rng.choice(pool, min(core, len(pool)), replace=False)
    counts[take] += 1
    room -= counts
    counts += _draw(rng, room, n - int(counts.sum()))
    return counts.astype(np.uint8), []


def mixed_hands(rng, count: int, drawn=False, max_melds=4):
    """A reproducible mix of every generator above."""
    hands = []
    for i in range(count):
        kind = i % 10
        if kind < 3:
            hands.append(wall_hand(rng, 0, drawn))
        elif kind < 5:
            hands.append(near_complete_hand(rng, 0, int(rng.integers(0, 4)), drawn))
        elif kind < 7:
            form = ("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")[i % 4]
            hands.append(biased_hand(rng, form, drawn))
        else:
            n_melds = int(rng.integers(1, max_melds + 1))
            maker = near_complete_hand if kind < 9 else wall_hand
            hands.append(maker(rng, n_melds, drawn=drawn) if maker is wall_hand
                         else maker(rng, n_melds, int(rng.integers(0, 3)), drawn))
    return hands


def sweep_hands(rng, count: int = 300, per_form: int = 30):
    """mixed_hands with per_form more hands biased to each special form: the draws of the
    sweep tests, which must meet every form's moves."""
    hands = mixed_hands(rng, count)
    for form in ("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"):
        hands += [biased_hand(rng, form) for _ in range(per_form)]
    return hands
