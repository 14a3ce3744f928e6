"""Botzone's Chinese Standard Mahjong protocol: the requests a bot is sent and its responses.

Requests (one line each; tiles are Botzone tokens, flowers H1-H8):

    0 <seat> <prevalent wind>                          the first turn: PASS
    1 <h0> <h1> <h2> <h3> <13 tiles> <flowers...>      the deal; hN = flowers of player N,
                                                       then all flowers, player 0's first: PASS
    2 <tile>                                           you drew: PLAY t | GANG t | BUGANG t | HU
    3 <p> BUHUA <flower>                               p showed a flower: PASS
    3 <p> DRAW                                         p drew: PASS
    3 <p> PLAY <t>                                     p discarded t
    3 <p> PENG <t>                                     p punged the discard and discarded t
    3 <p> CHI <middle> <t>                             p chowed the discard and discarded t
        after PLAY, PENG, CHI by another player: PASS | HU | PENG t | CHI middle t | GANG
    3 <p> GANG                                         p made a kong (concealed if p had just
                                                       drawn, else of the discard): PASS
    3 <p> BUGANG <t>                                   p added t to a pung: PASS | HU (robbing)

A PENG or CHI response names the tile discarded after the claim. Requests about a player's
own actions come back to that player too; they answer PASS.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import GameError
from .tokens import TOKEN_ID, TOKENS, is_flower


class ProtocolError(GameError):
    """A request or response that does not follow the protocol."""


class Start(NamedTuple):
    seat: int
    prevalent_wind: int


class Deal(NamedTuple):
    flower_counts: tuple  # per player
    tiles: tuple  # the 13 tiles dealt
    flowers: tuple  # every player's flowers, player 0's first


class Drawn(NamedTuple):
    tile: int


class Event(NamedTuple):
    """Something player `player` did: action is BUHUA, DRAW, PLAY, PENG, CHI, GANG or
    BUGANG; tiles as in the request (CHI: middle tile, then the discard)."""

    player: int
    action: str
    tiles: tuple


_EVENT_TILES = {"BUHUA": 1, "DRAW": 0, "PLAY": 1, "PENG": 1, "CHI": 2, "GANG": 0, "BUGANG": 1}
# Responses and how many tiles each names (GANG names one after a draw, none on a discard).
_RESPONSE_TILES = {"PASS": (0,), "PLAY": (1,), "GANG": (0, 1), "BUGANG": (1,), "HU": (0,), "PENG": (1,), "CHI": (2,)}


class Response(NamedTuple):
    action: str
    tiles: tuple = ()

    def __str__(self) -> str:
        return " ".join([self.action, *(TOKENS[t] for t in self.tiles)])


PASS = Response("PASS")


def _tiles(words, what: str) -> tuple:
    try:
        return tuple(TOKEN_ID[w] for w in words)
    except KeyError as exc:
        raise ProtocolError(f"{what}: {exc.args[0]!r} is not a tile") from None


def _int(word: str, low: int, high: int, what: str) -> int:
    if not word.isdigit() or not low <= int(word) <= high:
        raise ProtocolError(f"{what} must be {low}-{high}, got {word!r}")
    return int(word)


def parse_request(text: str) -> "Start | Deal | Drawn | Event":
    words = text.split()
    if not words:
        raise ProtocolError("empty request")
    kind = words[0]
    if kind == "0" and len(words) == 3:
        return Start(_int(words[1], 0, 3, "seat"), _int(words[2], 0, 3, "prevalent wind"))
    if kind == "1" and len(words) >= 18:
        counts = tuple(_int(w, 0, 8, "flower count") for w in words[1:5])
        tiles = _tiles(words[5:18], "deal")
        flowers = _tiles(words[18:], "flowers")
        if len(flowers) != sum(counts) or not all(is_flower(f) for f in flowers) or any(is_flower(t) for t in tiles):
            raise ProtocolError(f"deal request: 13 tiles then {sum(counts)} flowers expected: {text!r}")
        return Deal(counts, tiles, flowers)
    if kind == "2" and len(words) == 2:
        return Drawn(_tiles(words[1:], "draw")[0])
    if kind == "3" and len(words) >= 3 and _EVENT_TILES.get(words[2]) == len(words) - 3:
        return Event(_int(words[1], 0, 3, "player"), words[2], _tiles(words[3:], words[2]))
    raise ProtocolError(f"not a request of the protocol: {text!r}")


def parse_response(text: str) -> Response:
    words = text.split()
    if not words or words[0] not in _RESPONSE_TILES or len(words) - 1 not in _RESPONSE_TILES[words[0]]:
        raise ProtocolError(f"not a response of the protocol: {text.strip()[:60]!r}")
    return Response(words[0], _tiles(words[1:], words[0]))


def start_request(seat: int, prevalent_wind: int) -> str:
    return f"0 {seat} {prevalent_wind}"


def deal_request(flower_counts, tiles, flowers) -> str:
    return " ".join(["1", *map(str, flower_counts), *(TOKENS[t] for t in tiles), *(TOKENS[f] for f in flowers)])


def draw_request(tile: int) -> str:
    return f"2 {TOKENS[tile]}"


def event_request(player: int, action: str, *tiles: int) -> str:
    return " ".join(["3", str(player), action, *(TOKENS[t] for t in tiles)])
