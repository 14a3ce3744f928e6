"""The kernels' scratch: one int64 array, laid out here, that a caller keeps from one call
to the next (a one-hand query then allocates nothing, and the memos serve later queries).

Group slots of 10 distances and 10 masks each (see group_dp): slots 0-3 hold the hand's
groups; slots 4-12 hold the nine (suit, knitted part) remainders of the knitted-straight form
and 13 its honours; slots 14-17 hold, for each group, the merge of the other three (a discard
sweep changes one group at a time, and builds them from two of the slots 19-24) and 18 the
changed group. A draw sweep (a 3n+1 hand, then each draw and each discard after it: two
groups change) adds, for each pair of groups, the merge of the other two (19-24), the drawn
tile's group (25), for each group, the merge of the other three after the draw (26-29), and
for each kind k, k's group in the prepared hand less k (30-63, see
regular_sweep.prepare_draws). After the slots come a merge's running row, a group's input to
the DP, a query's per-form results, a draw sweep's prepared hand, and the two memos: the
group DP's results (regular) and the scores of completed hands (fan_aware).
"""

import numpy as np

from ..runtime.decorators import njit
from ..tileprops import KNITTED_PARTS_OF
from .group_dp import N_ENTRIES

N_FORMS = 5  # the forms: see all_forms


# The group slots (see the module doc).
N_SLOTS = 64
LEAVE_OUT = 14
CHANGED = 18
LEAVE_TWO_OUT = 19
DRAWN = 25
DRAWN_LEAVE_OUT = 26
KEPT = 30
# The tile mask of each group.
GROUP_TILES = np.array([0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27], np.int64)
# The leave-two-out slot of each pair of groups (the diagonal is unused).
PAIR_SLOT = np.array([[-1, 0, 1, 2], [0, -1, 3, 4], [1, 3, -1, 5], [2, 4, 5, -1]], np.int64) + LEAVE_TWO_OUT
# The slots of each knitted straight's four remainder groups (three suits, then the honours).
REMAINDER_SLOTS = np.array([[4 + 3 * s + KNITTED_PARTS_OF[k, s] for s in range(3)] + [13] for k in range(6)], np.int64)

# Offsets in the scratch: the slots' distances and masks, then the rest.
DIST = 0
MASK = N_SLOTS * N_ENTRIES
ACC = 2 * N_SLOTS * N_ENTRIES
ACC_MASK = ACC + N_ENTRIES
TMP = ACC + 2 * N_ENTRIES
TMP_MASK = ACC + 3 * N_ENTRIES
DP_IN = ACC + 4 * N_ENTRIES  # counts and caps of one group for the DP (2 x 9)
REST = DP_IN + 18  # 34 counts: the tiles left beside a knitted part
LOCKED = REST + 34  # 34 counts: copies locked by melds and a knitted part
FORM_DIST = LOCKED + 34  # N_FORMS: a query's per-form distances (see form_rows)
FORM_MASK = FORM_DIST + N_FORMS  # N_FORMS: and masks
# A draw sweep's 3n+1 hand X: the regular form's deficiency of X, its presence bits and
# groups' ranks, and for each kind k held and prepared, the regular form's distance and
# useful mask of the 3n hand X less k (see regular_sweep.regular_candidates).
DRAW_SELF = FORM_MASK + N_FORMS
DRAW_BITS = DRAW_SELF + 1
DRAW_RANKS = DRAW_BITS + 4
DRAW_DISCARDS = DRAW_RANKS + 4  # the tile mask of the discards prepared
DRAW_KEPT = DRAW_DISCARDS + 1  # the tile mask of the kinds whose KEPT row is current
LESS_ONE_DIST = DRAW_KEPT + 1
LESS_ONE_MASK = LESS_ONE_DIST + 34
MEMO_READY = LESS_ONE_MASK + 34  # 1 once the memo's keys are cleared (on first use)
MEMO = MEMO_READY + 1  # the group DP's results, memoised (see regular._group_dp)
MEMO_SLOTS = 4096  # 1024 missed often enough on a log's melded hands to cost a third of their time
MEMO_ROW = 1 + 3 * N_ENTRIES  # key, distances, masks, keeps
# Space for advice.fan_aware's memo of scored hands (fan_aware._points): a flag, 0 until its keys
# are cleared on first use, then the slots, each three words of key and a value.
SCORE_MEMO = MEMO + MEMO_SLOTS * MEMO_ROW
SCORE_MEMO_SLOTS = 8192
SCORE_MEMO_ROW = 4
SCRATCH = SCORE_MEMO + 1 + SCORE_MEMO_SLOTS * SCORE_MEMO_ROW


@njit(cache=True)
def new_scratch():
    """A scratch for the efficiency kernels. Every part is written before it is read
    (nothing is cleared here: this is on every query's path, and the memos' 950 KB are
    touched only by the queries that use them, see regular._group_dp and SCORE_MEMO)."""
    work = np.empty(SCRATCH, np.int64)
    work[MEMO_READY] = 0
    work[SCORE_MEMO] = 0
    return work


@njit
def form_rows(work):
    """(dist, masks): N_FORMS slots each in the scratch for all_forms' results, so that a
    one-hand query allocates nothing."""
    return work[FORM_DIST:FORM_DIST + N_FORMS], work[FORM_MASK:FORM_MASK + N_FORMS]
