"""A game's decisions in two numba calls: everything the analysis asks of mjfast's kernels.

The replay (analysis.py) stages every decision of a game as rows of arrays (decisions.py);
then one call fills the rows of all its discards and one those of all its claim
opportunities, where one call a decision cost a dispatch of 17 to 25 arguments each.

- discard_rows: the waiting hands the players hold between their turns (the deal's, then the
  hand each discard leaves) get their shanten and useful tiles; every discard is ranked
  plainly (efficiency's discards_of without the look-ahead) and, when wanted, fan-aware
  (advice.fan_aware.fan_discards_of, the ranking of mjfast.best_discards), and its row reads
  the figures (columns.DECISION_CELLS).
- claim_rows: the shanten of every claim the rules allowed on an offered tile, and what the
  player did.

The arrays' columns are named below (F_ for a discard's facts, C_ for a claim's, G_ for the
game's); decisions.py fills them.
"""

from __future__ import annotations

import numpy as np

from ..advice.fan_aware import fan_discards_of
from ..advice.plain import discards_of
from ..advice.position import Position
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

# A discard's tiles (uint8, 4 x 34 each): the 14 standing tiles, the tiles of its melds, those
# of its exposed melds (all but concealed kongs) and what the table shows (discards and
# exposed melds: TableState.shown).
T_STANDING, T_MELDED, T_EXPOSED, T_SHOWN = range(4)
# A discard's facts (int64): seat, tile played, melds (their number, and packed as
# fan.encode.pack_melds), the waiting hands before (held before the turn's draw or claim) and
# after it (hand ids), the player's turn, the log's line, whether another player won on the
# tile, the bot's answer time and verdict (NA where the log has none), and the status the
# kernel leaves (OK, a kernels' status, or NOT_HELD). Discard d fills row d.
(F_SEAT, F_TILE, F_N_MELDS, F_MELDS, F_BEFORE, F_AFTER, F_TURN, F_LINE, F_DEALT_IN, F_RESPONSE, F_VERDICT,
 F_STATUS) = range(12)
FACTS = 12
# A claim opportunity (int64): the waiting hand (its id), the tile offered, the OPTION_BITS
# of the claims allowed, the mask of the chows' middle tiles, what the player did (an ACTIONS
# index, and the tile as the log writes it), whether that claim lost on priority, the player,
# the turn, the line, the answer time and verdict. Claim c fills row c.
(C_HAND, C_TILE, C_OPTIONS, C_MIDDLES, C_DONE, C_DONE_TILE, C_OVERRULED, C_PLAYER, C_TURN, C_LINE, C_RESPONSE,
 C_VERDICT) = range(12)
CLAIMS = 12
# The game's facts (int64): its position among the games read, the prevalent wind, the
# ruleset's code and minimum, whether to rank fan-aware too.
G_INDEX, G_PREVALENT, G_RULES, G_MINIMUM, G_FAN_AWARE = range(5)
# A waiting hand's figures (int64): shanten (-100 - status for a hand the kernels reject),
# useful tiles as a mask, melds. Hands 0-3 are the deal's.
H_SHANTEN, H_USEFUL, H_N_MELDS = range(3)
DEALT = 4

# discard_rows' status for a discard of a tile the hand does not hold (the kernels' own
# statuses are small numbers).
NOT_HELD = 100
# Claims (see claim_shanten): the meld a claim makes.
CLAIM_CHOW, CLAIM_PUNG, CLAIM_KONG = 0, 1, 2

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
_RESPONSE, _VERDICT, _DEALT_IN = D["response_ms"], D["verdict"], D["dealt_in"]
_DISCARD, _CLAIM = KINDS.index("discard"), KINDS.index("claim")
_PLAY, _PASS, _CHI, _PENG, _GANG, _HU = (ACTIONS.index(a) for a in ("play", "pass", "chi", "peng", "gang", "hu"))
_CHI_BIT, _PENG_BIT, _GANG_BIT, _HU_BIT = (OPTION_BITS[a] for a in ("chi", "peng", "gang", "hu"))


class Scratch:
    """The kernels' working arrays for one analyser, reused by every game."""

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


@njit
def _copy(source, target):
    """A loop, not a slice copy: that compiles numba's shape-error code."""
    for t in range(34):
        target[t] = source[t]


@njit
def _deal_figures(table, hands, figures, work):
    """The shanten and useful tiles of the deal's four waiting hands."""
    counts = np.empty(34, np.uint8)
    melded = np.zeros(34, np.uint8)
    nothing_seen = np.zeros(34, np.uint8)
    for h in range(DEALT):
        _copy(hands[h, 0], counts)
        status, shanten, useful, _ = useful_of(table, counts, melded, 0, nothing_seen, work)
        figures[h, H_SHANTEN] = shanten if status == OK else -100 - status
        figures[h, H_USEFUL] = useful if status == OK else 0
        figures[h, H_N_MELDS] = 0


@njit(cache=True)
def discard_rows(table, tiles, facts, hands, figures, game, plain_rows, fan_rows, wait_points, work, rows):
    """Fill the row of every discard of a game (rows[d] for tiles[d] and facts[d], see the F_
    and T_ columns), in order, and the figures of the waiting hands: the deal's (hands 0-3, given)
    and the hand each discard leaves (hand facts[d, F_AFTER], written here: its standing
    tiles, melds, shanten and useful tiles). facts[d, F_STATUS] is each discard's status;
    returns the first discard whose status is not OK (its row is then incomplete, the later
    ones untouched), or -1. Ranks are 1-based positions in mjfast's ranked lists."""
    _deal_figures(table, hands, figures, work)
    fan_aware = game[G_FAN_AWARE] != 0
    counts = np.empty(34, np.uint8)
    melded = np.empty(34, np.uint8)
    visible = np.empty(34, np.uint8)  # what the player sees elsewhere now
    waiting = np.empty(34, np.uint8)
    waiting_melded = np.empty(34, np.uint8)
    unseen = np.empty(34, np.int64)
    for d in range(facts.shape[0]):
        seat, discarded, before, after = facts[d, F_SEAT], facts[d, F_TILE], facts[d, F_BEFORE], facts[d, F_AFTER]
        n_melds = facts[d, F_N_MELDS]
        for t in range(34):
            counts[t] = tiles[d, T_STANDING, t]
            melded[t] = tiles[d, T_MELDED, t]
            visible[t] = tiles[d, T_SHOWN, t] - tiles[d, T_EXPOSED, t]
        # The fan-aware ranking works out every discard's plain figures on its way: the plain
        # ranking is then a re-sort of its rows, not a second sweep of the discards. Of its next
        # acceptances the row needs only the order they give (every_next False).
        if fan_aware:
            position = Position(table, counts, melded, n_melds, facts[d, F_MELDS], 14, visible, seat,
                                game[G_PREVALENT], game[G_RULES], game[G_MINIMUM], 0)
            status, n = fan_discards_of(position, False, fan_rows, wait_points, work)
            if status == OK:
                _plain_ranking(fan_rows, n, plain_rows)
        else:
            status, n = discards_of(table, counts, melded, n_melds, visible, False, plain_rows, work)
        i = _position(plain_rows, n, discarded) if status == OK else -1
        if status == OK and i < 0:
            status = NOT_HELD
        if status == OK:
            _copy(hands[before, 0], waiting)
            _copy(hands[before, 1], waiting_melded)
            if not unseen_copies(waiting, waiting_melded, visible, unseen):
                status = SEEN_TOO_OFTEN
        facts[d, F_STATUS] = status
        if status != OK:
            return d
        row = rows[d]
        _fill_head(row, game[G_INDEX], facts[d, F_LINE], seat, facts[d, F_TURN], _DISCARD, discarded, _PLAY)
        row[_SHANTEN_BEFORE] = figures[before, H_SHANTEN]
        row[_ACCEPTANCE_BEFORE] = masked_sum(figures[before, H_USEFUL], unseen)
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
            waits = np.int64(plain_rows[k, USEFUL_MASK])
            if plain_rows[k, SHANTEN] == 0 and (waits >> np.int64(plain_rows[k, TILE])) & 1:
                complete = 1
        row[_COMPLETE] = complete
        row[_DEALT_IN] = facts[d, F_DEALT_IN]
        row[_RESPONSE] = facts[d, F_RESPONSE]
        row[_VERDICT] = facts[d, F_VERDICT]
        if fan_aware:
            k = _position(fan_rows, n, discarded)
            row[_FAN_RANK] = k + 1
            row[_BEST_FAN] = np.int64(fan_rows[0, TILE])
            row[_EFFECTIVE_AFTER] = np.int64(fan_rows[k, EFFECTIVE_SHANTEN])
            row[_BEST_EFFECTIVE] = np.int64(fan_rows[0, EFFECTIVE_SHANTEN])
            row[_VALID_AFTER] = _known(fan_rows[k, VALID_ACCEPTANCE])
            row[_BEST_VALID] = _known(fan_rows[0, VALID_ACCEPTANCE])
        # the hand the player waits with until their next turn
        counts[discarded] -= 1
        _copy(counts, hands[after, 0])
        _copy(melded, hands[after, 1])
        figures[after, H_SHANTEN] = shanten_after
        figures[after, H_USEFUL] = np.int64(plain_rows[i, USEFUL_MASK])
        figures[after, H_N_MELDS] = n_melds
    return -1


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
def claim_rows(table, claims, hands, figures, game, work, rows):
    """Fill the row of every claim opportunity of a game (rows[c] for claims[c], see the C_
    columns): the claims the rules allowed, the best shanten one of them gave, and the
    shanten after what the player did (a pass or an overruled claim keeps the waiting hand's;
    a win completes the hand; a claim the rules do not allow breaks the game when the replay
    applies it, so it is never here). A hand the kernels reject gives its claims' shanten as
    claim_shanten does."""
    counts = np.empty(34, np.uint8)
    melded = np.empty(34, np.uint8)
    for c in range(claims.shape[0]):
        hand, tile, options, middles = claims[c, C_HAND], claims[c, C_TILE], claims[c, C_OPTIONS], claims[c, C_MIDDLES]
        done, done_tile, overruled = claims[c, C_DONE], claims[c, C_DONE_TILE], claims[c, C_OVERRULED]
        _copy(hands[hand, 0], counts)
        _copy(hands[hand, 1], melded)
        n_melds, shanten_before = figures[hand, H_N_MELDS], figures[hand, H_SHANTEN]
        taken = done != _PASS and not overruled
        after = shanten_before
        if taken:
            after = -1 if done == _HU else NA
        best = np.int64(1 << 30)
        if options & _HU_BIT:
            best = -1
        for bit, kind, action in ((_PENG_BIT, CLAIM_PUNG, _PENG), (_GANG_BIT, CLAIM_KONG, _GANG)):
            if options & bit:
                shanten = claim_shanten(table, counts, melded, n_melds, kind, tile, tile, work)
                best = min(best, shanten)
                if taken and done == action and done_tile == tile:
                    after = shanten
        for middle in range(34):
            if (middles >> middle) & 1:
                shanten = claim_shanten(table, counts, melded, n_melds, CLAIM_CHOW, middle - 1, tile, work)
                best = min(best, shanten)
                if taken and done == _CHI and done_tile == middle:
                    after = shanten
        row = rows[c]
        _fill_head(row, game[G_INDEX], claims[c, C_LINE], claims[c, C_PLAYER], claims[c, C_TURN], _CLAIM, tile, done)
        row[_OVERRULED] = overruled
        row[_CLAIM_OPTIONS] = options
        row[_SHANTEN_BEFORE] = shanten_before
        row[_SHANTEN_AFTER] = after
        row[_CLAIM_SHANTEN] = best
        row[_RESPONSE] = claims[c, C_RESPONSE]
        row[_VERDICT] = claims[c, C_VERDICT]


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
