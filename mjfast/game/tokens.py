"""Botzone tile tokens as small integers, for the game engine and the log reader.

Tiles 0-33 are mjfast's tile ids (mjfast.tiles: 1m-9m, 1p-9p, 1s-9s, E S W N, C F P). The
eight flowers H1-H8 get the ids 34-41: they exist only in the 144-tile wall, never in a hand.
Botzone writes B for dots and T for bamboo: W1 = 1m, B1 = 1p, T1 = 1s, F1-F4 = E S W N,
J1-J3 = C F P.
"""

from __future__ import annotations

from ..tiles import N_KINDS, botzone_token

N_FLOWERS = 8
FLOWER_IDS = range(N_KINDS, N_KINDS + N_FLOWERS)
TOKENS: tuple[str, ...] = tuple(botzone_token(t) for t in range(N_KINDS)) + tuple(
    f"H{i}" for i in range(1, N_FLOWERS + 1))
TOKEN_ID: dict[str, int] = {token: i for i, token in enumerate(TOKENS)}


def is_flower(tile: int) -> bool:
    return tile >= N_KINDS
