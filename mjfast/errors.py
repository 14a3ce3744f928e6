"""The one exception type mjfast raises for anything wrong with what a caller gave it."""


class HandError(ValueError):
    """A hand, tile string, meld, count array or condition that mjfast cannot accept.

    The message names the problem (the character, the tile, the count) so that a user can fix
    the input without reading mjfast's code.
    """
