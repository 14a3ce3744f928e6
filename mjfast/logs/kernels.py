"""One numba call per logged decision: everything the analysis asks of mjfast's kernels.

A discard decision costs one dispatch from Python whatever it asks: the waiting hand the
player held before the turn (shanten, acceptance), every discard ranked plainly
(efficiency.one_hand.discards_of without the look-ahead) and, when wanted, fan-aware
(advice.fan_aware.fan_discards_of, the ranking of mjfast.best_discards). A claim opportunity costs one
too: the shanten of every claim the rules allow. The kernels are mjfast's own; this module
reads their figures straight into the decision's row (columns.DECISION_CELLS).
"""

from __future__ import annotations

import numpy as np

from ..advice.fan_aware import fan_discards_of
from ..advice.plain import discards_of
from ..advice.ranking import PLAIN_KEYS, ranked, set_efficiency_keys
from ..advice.rows import (
    ACCEPTANCE,
    EFFECTIVE_SHANTEN,
    FAN_WIDTH,
    NEXT_ACCEPTANCE,
    PLAIN_WIDTH,
    SHANTEN,
    TILE,
    USEFUL_MASK,
    VALID_ACCEPTANCE,
)
from ..efficiency.discards import masked_sum
from ..efficiency.one_hand import shanten_of, unseen_copies, useful_of
from ..efficiency.status import OK, SEEN_TOO_OFTEN
from ..runtime.decorators import njit
from .columns import ACTIONS, KINDS, NA, OPTION_BITS, D

# Cells of a decision row, as compile-time constants for the kernels.
_GAME, _LINE, _PLAYER, _TURN, _KIND, _TILE_CELL, _ACTION = (
    D["game"], D["line"], D["player"], D["turn"], D["kind"], D["tile"], D["action"])
_SHANTEN_BEFORE, _ACCEPTANCE_BEFORE = D["shanten_before"], D["acceptance_before"]
_SHANTEN_AFTER, _ACCEPTANCE_AFTER = D["shanten_after"], D["acceptance_after"]
_COMPLETE, _OPTIONS = D["complete"], D["discard_options"]
_BEST_PLAIN, _PLAIN_RANK, _BEST_SHANTEN, _BEST_ACCEPTANCE = (
    D["best_plain"], D["plain_rank"], D["best_shanten"], D["best_acceptance"])
_SHANTEN_LOST, _ACCEPTANCE_LOST = D["shanten_lost"], D["acceptance_lost"]
_FAN_CELLS = np.array([D["best_fan_aware"], D["fan_aware_rank"], D["effective_shanten_after"],
                       D["best_effective_shanten"], D["valid_acceptance_after"], D["best_valid_acceptance"]])
_BEST_FAN, _FAN_RANK, _EFFECTIVE_AFTER, _BEST_EFFECTIVE, _VALID_AFTER, _BEST_VALID = _FAN_CELLS
_OVERRULED, _CLAIM_OPTIONS, _CLAIM_SHANTEN = D["overruled"], D["options"], D["claim_shanten"]
_DISCARD, _CLAIM = KINDS.index("discard"), KINDS.index("claim")
_PLAY, _PASS, _CHI, _PENG, _GANG, _HU = (ACTIONS.index(a) for a in ("play", "pass", "chi", "peng", "gang", "hu"))
_CHI_BIT, _PENG_BIT, _GANG_BIT, _HU_BIT = (OPTION_BITS[a] for a in ("chi", "peng", "gang", "hu"))


# discard_row's status for a discard of a tile the hand does not hold (the kernels' own
# statuses are small numbers).
NOT_HELD = 100
# Claims (see claim_shanten): the meld a claim makes.
CLAIM_CHOW, CLAIM_PUNG, CLAIM_KONG = 0, 1, 2


class Scratch:
    """The kernels' working arrays for one analyser, reused by every decision."""

    def __init__(self):
        from ..efficiency.scratch import new_scratch

        self.work = new_scratch()
        self.plain_rows = np.empty((34, PLAIN_WIDTH), np.float64)
        self.fan_rows = np.empty((34, FAN_WIDTH), np.float64)
        self.wait_points = np.zeros((34, 34, 2), np.int64)


@njit
def _position(rows, n, tile):
    for i in range(n):
        if rows[i, TILE] == tile:
            return i
    return -1


@njit
def _plain_ranking(fan_rows, n, plain_rows):
    """The rows of one_hand.discards_of without the look-ahead (tile, shanten, acceptance,
    next acceptance 0, useful mask), from the n rows of advice.fan_discards_of: the same
    figures (both come from discards.discard_options) ranked by its keys: shanten, then
    acceptance, then the less connected tile, then tile order."""
    keys = np.empty((34, PLAIN_KEYS), np.float64)
    held = np.zeros(34, np.bool_)
    at = np.empty(34, np.int64)
    for i in range(n):
        t = np.int64(fan_rows[i, TILE])
        held[t] = True
        at[t] = i
        set_efficiency_keys(keys, t, fan_rows[i, SHANTEN], fan_rows[i, ACCEPTANCE], 0.0)
    order = ranked(PLAIN_KEYS, keys, held)
    for k in range(n):
        i = at[order[k]]
        plain_rows[k, TILE] = fan_rows[i, TILE]
        plain_rows[k, SHANTEN] = fan_rows[i, SHANTEN]
        plain_rows[k, ACCEPTANCE] = fan_rows[i, ACCEPTANCE]
        plain_rows[k, NEXT_ACCEPTANCE] = 0.0
        plain_rows[k, USEFUL_MASK] = fan_rows[i, USEFUL_MASK]


@njit
def _known(valid):
    """A valid acceptance, NA where the kernel marks it unknown (negative)."""
    return np.int64(valid) if valid >= 0 else np.int64(NA)


@njit
def _fill_head(row, game, line, player, turn, kind, tile, action):
    """The cells every decision row starts with: where it is, whose, and what was done."""
    row[_GAME] = game
    row[_LINE] = line
    row[_PLAYER] = player
    row[_TURN] = turn
    row[_KIND] = kind
    row[_TILE_CELL] = tile
    row[_ACTION] = action


@njit(cache=True)
def discard_row(table, standing, meld_counts, exposed, n_melds, melds, shown, seat, prevalent, rules, minimum,
                discarded, waiting, before_meld_counts, before_shanten, before_useful, fan_aware, plain_rows, fan_rows,
                wait_points, work, row, game, line, turn):
    """Fill the decision row of one discard. Returns (status, shanten after the discard, its
    useful tiles as a mask, and the claim masks of the hand after it: see claim_masks); status
    is rows.OK unless the hand or what is seen is inconsistent or the tile is not held
    (NOT_HELD); the row is then incomplete.

    standing / meld_counts / n_melds / melds: the 3n+2 hand as the player discards (standing
    tiles as the TableState's counts in a bytearray, melds packed as fan.encode.pack_melds);
    exposed: the tile counts of the player's melds that the others see (all but concealed
    kongs); shown: TableState.shown, the discards and exposed melds on the table; waiting,
    before_*: the 3n+1 hand the player held before this turn's draw or claim, its shanten and
    useful tiles (they do not depend on what is seen); discarded: the tile played. Ranks are
    1-based positions in mjfast's ranked lists.

    When the row is complete, `waiting` is left holding the standing tiles after the discard:
    the hand the player waits with until their next turn (the caller reads it from Python
    lists, a conversion that costs more than this kernel's copy).
    """
    counts = np.empty(34, np.uint8)
    visible = np.empty(34, np.uint8)  # what the player sees elsewhere now
    for t in range(34):
        counts[t] = standing[t]
        visible[t] = shown[t] - exposed[t]
    # The fan-aware ranking works out every discard's plain figures on its way: the plain
    # ranking is then a re-sort of its rows, not a second sweep of the discards. Of its next
    # acceptances the row needs only the order they give (every_next False).
    if fan_aware:
        status, n = fan_discards_of(table, counts, meld_counts, n_melds, melds, visible, seat, prevalent, rules,
                                    minimum, False, fan_rows, wait_points, work)
        if status == OK:
            _plain_ranking(fan_rows, n, plain_rows)
    else:
        status, n = discards_of(table, counts, meld_counts, n_melds, visible, False, plain_rows, work)
    if status != OK:
        return status, 0, np.int64(0), np.int64(0), np.int64(0)
    i = _position(plain_rows, n, discarded)
    if i < 0:
        return NOT_HELD, 0, np.int64(0), np.int64(0), np.int64(0)
    unseen = np.empty(34, np.int64)
    if not unseen_copies(waiting, before_meld_counts, visible, unseen):
        return SEEN_TOO_OFTEN, 0, np.int64(0), np.int64(0), np.int64(0)
    _fill_head(row, game, line, seat, turn, _DISCARD, discarded, _PLAY)
    row[_SHANTEN_BEFORE] = before_shanten
    row[_ACCEPTANCE_BEFORE] = masked_sum(before_useful, unseen)
    row[_OPTIONS] = n
    shanten_after = np.int64(plain_rows[i, SHANTEN])
    acceptance_after = np.int64(plain_rows[i, ACCEPTANCE])
    best_shanten = np.int64(plain_rows[0, SHANTEN])
    best_acceptance = np.int64(plain_rows[0, ACCEPTANCE])
    row[_PLAIN_RANK] = i + 1
    row[_SHANTEN_AFTER] = shanten_after
    row[_ACCEPTANCE_AFTER] = acceptance_after
    row[_BEST_PLAIN] = np.int64(plain_rows[0, TILE])
    row[_BEST_SHANTEN] = best_shanten
    row[_BEST_ACCEPTANCE] = best_acceptance
    row[_SHANTEN_LOST] = shanten_after - best_shanten
    # Further from ready, the draws that would have advanced the best discard are all lost.
    row[_ACCEPTANCE_LOST] = best_acceptance - acceptance_after if shanten_after == best_shanten else best_acceptance
    # The 14 tiles are complete exactly when some discard leaves a ready hand waiting on it.
    complete = 0
    for k in range(n):
        if plain_rows[k, SHANTEN] == 0 and (np.int64(plain_rows[k, USEFUL_MASK]) >> np.int64(plain_rows[k, TILE])) & 1:
            complete = 1
    row[_COMPLETE] = complete
    useful = np.int64(plain_rows[i, USEFUL_MASK])
    if fan_aware:
        i = _position(fan_rows, n, discarded)
        row[_FAN_RANK] = i + 1
        row[_BEST_FAN] = np.int64(fan_rows[0, TILE])
        row[_EFFECTIVE_AFTER] = np.int64(fan_rows[i, EFFECTIVE_SHANTEN])
        row[_BEST_EFFECTIVE] = np.int64(fan_rows[0, EFFECTIVE_SHANTEN])
        row[_VALID_AFTER] = _known(fan_rows[i, VALID_ACCEPTANCE])
        row[_BEST_VALID] = _known(fan_rows[0, VALID_ACCEPTANCE])
    else:
        for c in _FAN_CELLS:
            row[c] = NA
    for t in range(34):  # a loop, not a slice copy: that compiles numba's shape-error code
        waiting[t] = counts[t]
    waiting[discarded] -= 1
    pungs, chows = claim_masks(waiting)
    return OK, shanten_after, useful, pungs, chows


@njit(cache=True)
def claim_masks(counts):
    """(pungs, chows): tile masks of the discards a waiting hand's standing tiles could claim,
    by a pung (two copies held) and, from the player before, by a chow (two tiles of a run
    around it held: the runs of TableState.chow_middles). A tile outside both masks and the
    waits needs no question to the rules."""
    pungs = np.int64(0)
    chows = np.int64(0)
    for t in range(34):
        if counts[t] >= 2:
            pungs |= np.int64(1) << t
        if t < 27:
            rank = t % 9
            if ((rank >= 2 and counts[t - 2] and counts[t - 1]) or (1 <= rank <= 7 and counts[t - 1] and counts[t + 1])
                    or (rank <= 6 and counts[t + 1] and counts[t + 2])):
                chows |= np.int64(1) << t
    return pungs, chows


@njit(cache=True)
def waiting_figures(table, counts, meld_counts, n_melds, work):
    """(shanten, useful tiles as a mask, claim masks: see claim_masks) of a 3n+1 hand; shanten
    -100 - status for a hand the kernels reject."""
    nothing_seen = np.zeros(34, np.uint8)
    status, shanten, useful, _ = useful_of(table, counts, meld_counts, n_melds, nothing_seen, work)
    pungs, chows = claim_masks(counts)
    if status != OK:
        return -100 - status, np.int64(0), pungs, chows
    return shanten, useful, pungs, chows


@njit
def claim_shanten(table, counts, meld_counts, n_melds, kind, tile, claimed, work):
    """Shanten of a 3n+1 hand after it claims `claimed` into a chow starting at `tile`, or a
    pung or kong of `tile` (the hand then holds 3n+2 standing tiles, or 3n+1 after a kong and
    before its replacement draw). -100 - status for a hand the kernels reject."""
    after = counts.copy()
    melded = meld_counts.copy()
    if kind == CLAIM_CHOW:
        for t in range(tile, tile + 3):
            melded[t] += 1
            if t != claimed:
                after[t] -= 1
    else:
        size = 4 if kind == CLAIM_KONG else 3
        melded[tile] += size
        after[tile] -= size - 1
    return shanten_of(table, after, melded, n_melds + 1, work)


@njit(cache=True)
def claim_row(table, counts, meld_counts, n_melds, work, tile, options, middles, done, done_tile, overruled,
              shanten_before, row, game, line, player, turn):
    """Fill the decision row of one claim opportunity of a player whose waiting hand is
    counts / meld_counts / n_melds, with shanten `shanten_before`.

    tile: the tile offered; options: the OPTION_BITS of the claims the rules allow on it (a
    win reaching the minimum, a pung, a kong, chows); middles: the mask of the middle tiles of
    the chows allowed (the log writes a chow by its middle tile); done: the ACTIONS index of
    what the player did (pass, or the claim, written done_tile as the log writes it);
    overruled: 1 when that claim lost on priority (the hand is then as it was, as after a
    pass). A hand the kernels reject gives its claims' shanten as claim_shanten does.
    """
    taken = done != _PASS and not overruled
    after = shanten_before
    if taken:
        # a win completes the hand; a claim the rules do not allow breaks the game when the
        # replay applies it
        after = -1 if done == _HU else NA
    best = np.int64(1 << 30)
    if options & _HU_BIT:
        best = -1
    for bit, kind, action in ((_PENG_BIT, CLAIM_PUNG, _PENG), (_GANG_BIT, CLAIM_KONG, _GANG)):
        if options & bit:
            shanten = claim_shanten(table, counts, meld_counts, n_melds, kind, tile, tile, work)
            best = min(best, shanten)
            if taken and done == action and done_tile == tile:
                after = shanten
    for middle in range(34):
        if (middles >> middle) & 1:
            shanten = claim_shanten(table, counts, meld_counts, n_melds, CLAIM_CHOW, middle - 1, tile, work)
            best = min(best, shanten)
            if taken and done == _CHI and done_tile == middle:
                after = shanten
    _fill_head(row, game, line, player, turn, _CLAIM, tile, done)
    row[_OVERRULED] = overruled
    row[_CLAIM_OPTIONS] = options
    row[_SHANTEN_BEFORE] = shanten_before
    row[_SHANTEN_AFTER] = after
    row[_CLAIM_SHANTEN] = best


@njit(cache=True)
def discard_totals(decisions):
    """(discards, plain agreements, fan-aware agreements, acceptance lost) of a game's decision
    rows: its discard rows, those ranked 1 plainly and fan-aware (a claim row's ranks are NA),
    and the sum of their acceptance_lost."""
    discards = plain = fan_aware = lost = 0
    for i in range(decisions.shape[0]):
        if decisions[i, _KIND] == _DISCARD:
            discards += 1
            lost += decisions[i, _ACCEPTANCE_LOST]
        plain += decisions[i, _PLAIN_RANK] == 1
        fan_aware += decisions[i, _FAN_RANK] == 1
    return discards, plain, fan_aware, lost
