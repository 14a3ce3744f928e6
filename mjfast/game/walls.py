"""Seeded walls of the three kinds TableState knows (state.DUPLICATE, DUPLICATE_FLOWERS,
SHARED).

Duplicate: the 136 tiles without flowers are shuffled and cut into four walls of 34; each
player is dealt the first 13 of their own wall and draws the other 21 in order. Duplicate
with flowers, as the Botzone judge deals it: the 144 tiles are shuffled and cut into four
walls of 36; each player takes tiles from their own wall until 13 are not flowers (the
flowers are shown), and draws, flower replacements and kong replacements all come next from
the same wall. Shared: the 144 tiles are shuffled; players 0-3 take 13 each from the front,
draws come from the front, and the replacements for flowers and kongs from the back.
"""

from __future__ import annotations

import random

from ..errors import ArgumentError
from ..tiles import N_KINDS
from .state import DUPLICATE, DUPLICATE_FLOWERS, HAND_SIZE, PRIVATE_WALL, SHARED, WALLS
from .tokens import FLOWER_IDS, is_flower


class DuplicateWalls:
    """Four private walls, of 34 tiles (wall DUPLICATE) or of 36 with the flowers
    (DUPLICATE_FLOWERS); each player deals and draws from their own, in order."""

    def __init__(self, walls, wall: str = DUPLICATE):
        size = PRIVATE_WALL.get(wall)
        if size is None or len(walls) != 4 or any(len(w) != size for w in walls):
            raise ArgumentError(f"the duplicate format is four walls of {PRIVATE_WALL[DUPLICATE]} tiles "
                                 f"(or of {PRIVATE_WALL[DUPLICATE_FLOWERS]} with the flowers)")
        self.wall = wall
        self.walls = [list(w) for w in walls]
        self.next = [0] * 4

    def deal(self, player: int) -> list[int]:
        """The 13 tiles of `player`, then the flowers taken among them."""
        standing: list[int] = []
        flowers: list[int] = []
        while len(standing) < HAND_SIZE:
            tile = self.draw(player)
            (flowers if is_flower(tile) else standing).append(tile)
        return standing + flowers

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
    if wall not in WALLS:
        raise ArgumentError(f"wall must be one of {', '.join(map(repr, WALLS))}, got {wall!r}")
    rng = random.Random(seed)
    tiles = [t for t in range(N_KINDS) for _ in range(4)]
    if wall != DUPLICATE:
        tiles += list(FLOWER_IDS)
    rng.shuffle(tiles)
    if wall == SHARED:
        return SharedWall(tiles)
    size = PRIVATE_WALL[wall]
    return DuplicateWalls([tiles[size * p:size * (p + 1)] for p in range(4)], wall)
