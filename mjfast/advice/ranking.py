"""The rankings of discards: lexicographic keys per discard and the sort that orders them.

Each ranking writes one row of keys per tile kind (smaller first; figures where more is
better are negated), then `ranked` sorts the kinds held by their rows.

- Plain efficiency (PLAIN_KEYS): shanten, acceptance, next acceptance, then the less
  connected tile (centrality).
- Fan-aware (FAN_KEYS): effective shanten, valid acceptance where known (plain acceptance
  elsewhere), acceptance, next valid acceptance, fan value, fan potential, next acceptance
  (NEXT_KEY: worked out only for the discards still tied for first place before it, see
  tied_for_first), the less connected tile, tile order.
"""

import numpy as np

from ..runtime.decorators import njit
from .rows import UNKNOWN

PLAIN_KEYS = 4
FAN_KEYS = 9
NEXT_KEY = 6  # the fan-aware key of the next acceptance


@njit
def centrality(t):
    """How connected a tile can be: honours 0, terminals 1, 2/8 2, 3-7 3 (tie-break)."""
    if t >= 27:
        return 0
    r = t % 9
    return 1 if r == 0 or r == 8 else min(r, 8 - r, 3)


@njit
def set_efficiency_keys(keys, t, shanten, acceptance, next_acceptance):
    """Row t of the plain ranking's keys: shanten, then acceptance and next acceptance (most
    first), then the less connected tile."""
    keys[t, 0] = shanten
    keys[t, 1] = -acceptance
    keys[t, 2] = -next_acceptance
    keys[t, 3] = centrality(t)


@njit
def set_fan_aware_keys(keys, t, effective, valid, acceptance, next_valid, value, potential):
    """Row t of the fan-aware ranking's keys but NEXT_KEY (see the module doc); `valid` may be
    UNKNOWN (then the plain acceptance stands in)."""
    keys[t, 0] = effective
    keys[t, 1] = -(valid if valid != UNKNOWN else acceptance)
    keys[t, 2] = -acceptance
    keys[t, 3] = -next_valid
    keys[t, 4] = -value
    keys[t, 5] = -potential
    keys[t, NEXT_KEY] = 0.0
    keys[t, 7] = centrality(t)
    keys[t, 8] = t


@njit
def comes_before(keys, a, b, n_keys):
    """Whether row a of keys comes strictly before row b on the first n_keys keys."""
    for k in range(n_keys):
        if keys[a, k] != keys[b, k]:
            return keys[a, k] < keys[b, k]
    return False


@njit
def tied_for_first(keys, held, n_keys):
    """The tile mask of the kinds held (bools `held`) tied for first place on the first
    n_keys keys."""
    top = -1
    for t in range(34):
        if held[t] and (top < 0 or comes_before(keys, t, top, n_keys)):
            top = t
    which = np.int64(0)
    for t in range(34):
        if held[t] and not comes_before(keys, top, t, n_keys):
            which |= np.int64(1) << t
    return which


@njit
def ranked(n_keys, keys, held):
    """Tile ids of the held kinds, sorted by their rows of `keys` (lexicographic, smallest
    first); ties keep tile order."""
    order = np.empty(34, np.int64)
    n = 0
    for t in range(34):
        if not held[t]:
            continue
        i = n
        while i > 0:
            p = order[i - 1]
            goes_after = False
            decided = False
            for k in range(n_keys):
                if keys[p, k] != keys[t, k]:
                    goes_after = keys[p, k] < keys[t, k]
                    decided = True
                    break
            if goes_after or not decided:
                break
            order[i] = p
            i -= 1
        order[i] = t
        n += 1
    return order[:n]
