"""Seeded walls: Botzone's duplicate format (a private 34-tile wall per player) and the
144-tile wall with the eight flowers.

Duplicate: the 136 tiles without flowers are shuffled and cut into four walls of 34; each
player is dealt the first 13 of their own wall and draws the other 21 in order. Shared: the
144 tiles are shuffled; players 0-3 take 13 each from the front, draws come from the front,
and the replacements for flowers and kongs from the back.
"""

from __future__ import annotations

import random

from ..tiles import N_KINDS
from .state import DUPLICATE, HAND_SIZE, SHARED
from .tokens import FLOWER_IDS, is_flower

PER_PLAYER = 34


class DuplicateWalls:
    wall = DUPLICATE

    def __init__(self, walls):
        if len(walls) != 4 or any(len(w) != PER_PLAYER for w in walls):
            raise ValueError(f"the duplicate format is four walls of {PER_PLAYER} tiles")
        self.walls = [list(w) for w in walls]
        self.next = [HAND_SIZE] * 4

    def deal(self, player: int) -> list[int]:
        return self.walls[player][:HAND_SIZE]

    def draw(self, player: int, replacement: bool = False) -> int:
        tile = self.walls[player][self.next[player]]
        self.next[player] += 1
        return tile


class SharedWall:
    wall = SHARED

    def __init__(self, tiles):
        self.tiles = list(tiles)
        self.front, self.back = 4 * HAND_SIZE, len(self.tiles)

    def deal(self, player: int) -> list[int]:
        """The 13 tiles of `player` then the flowers among them, each replaced from the back
        (deals are made in player order: player 0's replacements come first)."""
        hand = self.tiles[HAND_SIZE * player:HAND_SIZE * (player + 1)]
        flowers = []
        while any(is_flower(t) for t in hand):
            flower = next(t for t in hand if is_flower(t))
            hand.remove(flower)
            flowers.append(flower)
            hand.append(self.draw(player, replacement=True))
        return hand + flowers

    def draw(self, player: int, replacement: bool = False) -> int:
        if replacement:
            self.back -= 1
            return self.tiles[self.back]
        self.front += 1
        return self.tiles[self.front - 1]


def deal_walls(seed: int, wall: str = DUPLICATE) -> "DuplicateWalls | SharedWall":
    """The walls of game `seed`: the same seed always gives the same walls."""
    rng = random.Random(seed)
    tiles = [t for t in range(N_KINDS) for _ in range(4)]
    if wall == DUPLICATE:
        rng.shuffle(tiles)
        return DuplicateWalls([tiles[PER_PLAYER * p:PER_PLAYER * (p + 1)] for p in range(4)])
    if wall == SHARED:
        tiles += list(FLOWER_IDS)
        rng.shuffle(tiles)
        return SharedWall(tiles)
    raise ValueError(f"wall must be {DUPLICATE!r} or {SHARED!r}, got {wall!r}")
