"""How likely a discard is to deal in, from what its player sees: the game's last discard.

When nobody can draw again, a discard cannot help its player's hand; it can only hand
another player the win (8 + fans from the discarder under the Botzone settlement). The
danger of a tile counts the ways an opponent's concealed tiles could wait on it, given the
copies the discarder cannot see (every copy not in their hand, on the table or in a meld):

    a single wait (one copy held)        unseen(t)
    a pair wait (two copies held)        unseen(t) choose 2
    a run waiting on t (suits only)      unseen(a) x unseen(b) for each run a, b, t

summed over the opponents whose hands are still open to a win on it (all three: MCR has no
furiten, so a tile an opponent discarded stays dangerous, but each copy seen is one fewer
way to wait on it). An honour with no copy unseen scores 0: no regular or seven-pairs hand
can win on it (only thirteen orphans or honours-and-knitted could, waiting on a tile they
lack).
"""

from __future__ import annotations

import numpy as np

from ..advice.danger import ways_to_wait


def safest_discard(held, unseen) -> int:
    """The kind held (counts `held`, 34) least likely to deal in: the fewest ways to wait on it
    (danger.ways_to_wait); ties go to the tile with fewer unseen copies, then to tile order.
    Shape plays no part: on the last discard the hand can no longer improve."""
    ways = ways_to_wait(np.asarray(unseen, np.int64))
    kinds = [t for t in range(34) if held[t]]
    return min(kinds, key=lambda t: (ways[t], unseen[t], t))
