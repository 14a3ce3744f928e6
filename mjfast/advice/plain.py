"""The plain (efficiency) ranking's entry kernel: every discard of a hand by shanten,
acceptance, next acceptance, then the less connected tile (ranking.py), as discard rows
(rows.py). The fan-aware ranking's entry is fan_aware.fan_discards_of."""

import numpy as np

from ..efficiency.discards import discard_options
from ..efficiency.group_dp import INF
from ..efficiency.one_hand import check_seen
from ..efficiency.status import OK
from ..runtime.decorators import njit
from .ranking import PLAIN_KEYS, ranked, set_efficiency_keys
from .rows import ACCEPTANCE, NEXT_ACCEPTANCE, SHANTEN, TILE, USEFUL_MASK


@njit(cache=True)
def discards_of(table, counts, meld_counts, n_melds, visible, with_next, out, work):
    """Every discard of a 3n+2 hand, best first by the plain ranking (ranking.py), as rows of
    out (34 x rows.PLAIN_WIDTH). Returns (status, number of rows)."""
    unseen = np.empty(34, np.int64)
    status = check_seen(counts, meld_counts, n_melds, 14, visible, unseen)
    if status != OK:
        return status, 0
    dist = np.empty(34, np.int64)
    masks = np.empty(34, np.int64)
    acc = np.empty(34, np.int64)
    nxt = np.empty(34, np.float64)
    discard_options(table, counts, meld_counts, n_melds, unseen, with_next, dist, masks, acc, nxt, work)
    keys = np.empty((34, PLAIN_KEYS), np.float64)
    for t in range(34):
        set_efficiency_keys(keys, t, dist[t] - 1, acc[t], nxt[t])
    order = ranked(PLAIN_KEYS, keys, dist < INF)
    for i in range(order.shape[0]):
        t = order[i]
        out[i, TILE] = t
        out[i, SHANTEN] = dist[t] - 1
        out[i, ACCEPTANCE] = acc[t]
        out[i, NEXT_ACCEPTANCE] = nxt[t]
        out[i, USEFUL_MASK] = masks[t]
    return OK, order.shape[0]
