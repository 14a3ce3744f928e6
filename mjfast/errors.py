"""mjfast's exceptions and the wording of each fault a hand's tiles can have.

MjfastError is the root of everything mjfast raises on purpose. Its kinds, one meaning each:
HandError (a hand, tiles, a meld or counts that mjfast cannot accept, or a hand a call cannot
take), ArgumentError (any other argument outside what a call takes: a ranking, a budget,
winds, a ruleset, a wall, a mode...), GameError (what a game or its log did that the rules or
the format refuse; mjfast.game's IllegalAction, LogError and ProtocolError are its kinds);
the command's, the service's and the bots' errors are MjfastErrors too.

Faults of notation (an unknown character, a malformed meld) are worded where they are read
(mjfast.tiles, mjfast.hand); the faults below are of the tiles themselves, whatever the
notation, and mjfast.hand.check_tiles finds them (every caller words a fault the same way).
"""

from __future__ import annotations

from .tile_ids import TILE_NAMES

MAX_COPIES = 4
MAX_MELDS = 4


class MjfastError(Exception):
    """The root of every exception mjfast raises on purpose: `except mjfast.MjfastError` catches
    them all (and nothing else: a bug raises something else). Each kind below has one meaning."""


class HandError(MjfastError, ValueError):
    """A hand, tile string, meld or count array that mjfast cannot accept (or a hand that a call
    cannot take: one not a win for scoring, one of the other size).

    The message names the problem (the character, the tile, the count) so that a user can fix
    the input without reading mjfast's code.
    """


class ArgumentError(MjfastError, ValueError):
    """An argument of a call that is neither a hand nor tiles, outside what the call takes: a
    ranking, a time budget, a number of draws, winds, flowers, win conditions, a ruleset, a name
    or a mode. The message names the argument and what it may be."""


class GameError(MjfastError, ValueError):
    """What a game did that the rules or a log's format refuse: mjfast.game's IllegalAction (an
    action the rules forbid), LogError (a log's line that cannot be read or replayed) and
    ProtocolError (a request or response outside Botzone's protocol) are its kinds. The message
    says what and where."""


def too_many_copies(tile: int, standing: int, in_melds: int = 0) -> HandError:
    """More copies of a tile in the hand (standing and in its melds) than the set has."""
    where = f" ({standing} standing + {in_melds} in melds)" if in_melds else ""
    return HandError(f"tile {TILE_NAMES[tile]} appears {standing + in_melds} times{where}; "
                     f"there are only {MAX_COPIES} copies")


def seen_too_often(tile: int, held: int, seen: int) -> HandError:
    """More copies of a tile in the hand and among the tiles seen elsewhere than the set has."""
    return HandError(f"tile {TILE_NAMES[tile]} is seen more than {MAX_COPIES} times: {held} in the hand and its melds, "
                     f"{seen} seen elsewhere; there are only {MAX_COPIES} copies")


def too_many_melds(n_melds: int) -> HandError:
    return HandError(f"{n_melds} melds: a hand has at most {MAX_MELDS}")


_NEEDS = {13: "a hand waiting to draw); for a hand that has just drawn, ask best_discards",
          14: "a hand that has just drawn); for a hand waiting to draw, ask useful_tiles, waits or acceptance"}


def wrong_size(n_standing: int, n_melds: int, needs: "int | None" = None, call: str = "") -> HandError:
    """A tile count no hand has (needs None), or not the one a call needs (13: waiting to
    draw, 14: just drawn, counting each meld as 3)."""
    head = f"{n_standing} standing tiles with {n_melds} meld(s): "
    if needs is None:
        return HandError(head + f"a hand needs {13 - 3 * n_melds} (waiting) or {14 - 3 * n_melds} (after a draw) "
                                "standing tiles")
    return HandError(head + f"{call} needs {needs} tiles counting melds ({needs - 3 * n_melds} standing: "
                            f"{_NEEDS[needs]}")
