"""Whether tiles complete a hand, and whether a winning hand waited on one tile only.

A group is a suit (9 ranks, chows allowed) or the honours (7 tiles, pungs and pairs only).
Whether a group splits into sets is decided greedily, rank by rank: any split can trade three
equal chows for three pungs, so the chows starting at a rank are the count left there after
the chows from the two ranks below, modulo 3. That needs no copy of the counts and no search.

Waits are formal, as the judge counts them (ruling 3): a tile is a wait when adding it makes
the standing tiles a complete regular hand (or seven pairs), even when the hand already holds
all four copies; `live_only` drops such tiles (Ruleset.formal_waits=False).
"""

import numpy as np

from ..runtime.decorators import njit
from ..tileprops import HONORS_START

NO_FIT, SETS_FIT, PAIR_FIT = 0, 1, 2
# "No tile" as a typed value: numba compiles a separate copy of a function for each literal
# argument it is called with (compile time only), so constants passed to kernels are typed.
NO_TILE = np.int64(-1)


@njit
def group_splits(counts, start, n, plus_at, pair_at):
    """True if group counts[start:start+n], with one extra tile at offset `plus_at` and a pair
    taken out at offset `pair_at` (either -1 for none), split into sets."""
    chows = n == 9
    prev1 = 0  # chows that started one rank below
    prev2 = 0  # chows that started two ranks below
    for i in range(n):
        left = counts[start + i] - prev1 - prev2
        if i == plus_at:
            left += 1
        if i == pair_at:
            left -= 2
        if left < 0:
            return False
        new_chows = left % 3
        if new_chows != 0 and (not chows or i + 2 >= n):
            return False
        prev2 = prev1
        prev1 = new_chows
    return True


@njit
def group_fit(counts, start, n, plus_at):
    """SETS_FIT if the group (plus one tile at `plus_at`, -1 for none) splits into sets,
    PAIR_FIT if it splits into sets and one pair, NO_FIT otherwise."""
    total = 0
    weighted = 0  # sum of offset x count
    pairs = 0  # honours: tiles held 2 (or 5) times
    for i in range(n):
        c = counts[start + i] + (1 if i == plus_at else 0)
        total += c
        weighted += i * c
        if c % 3 == 2:
            pairs += 1
        elif c % 3 == 1 and n == 7:
            return NO_FIT  # a lone honour (or a fourth copy) fits no set
    if n == 7:
        return SETS_FIT if pairs == 0 else PAIR_FIT if pairs == 1 else NO_FIT
    residue = total % 3
    if residue == 0:
        return SETS_FIT if group_splits(counts, start, n, plus_at, NO_TILE) else NO_FIT
    if residue == 2:
        # Every set's offsets sum to a multiple of 3 (3i for a pung, 3i + 3 for a chow), so
        # the pair's offset j has 2j = weighted (mod 3): only every third offset can hold it.
        for j in range((2 * weighted) % 3, n, 3):
            have = counts[start + j] + (1 if j == plus_at else 0)
            if have >= 2 and group_splits(counts, start, n, plus_at, j):
                return PAIR_FIT
    return NO_FIT


@njit
def _group_start(g):
    return 9 * g if g < 3 else HONORS_START


@njit
def seven_pairs_wait(counts13):
    """The tile 13 concealed tiles wait on for seven pairs (a quad counts as two pairs), or -1."""
    pairs = 0
    single = -1
    for t in range(34):
        c = counts13[t]
        pairs += c // 2
        if c % 2 == 1:
            if single >= 0:
                return -1
            single = t
    return single if pairs == 6 else -1


@njit
def _could_complete(counts13, x):
    """Cheap necessary condition for tile x to complete a hand: it pairs with a tile held, or
    (suited) sits within two ranks of one."""
    if counts13[x] > 0:
        return True
    if x >= HONORS_START:
        return False
    rank = x % 9
    for d in (-2, -1, 1, 2):
        if 0 <= rank + d < 9 and counts13[x + d] > 0:
            return True
    return False


@njit
def _group_of(t):
    return t // 9 if t < HONORS_START else 3


@njit
def _completes(counts13, x, held, live_only, fits, pairs):
    """Whether tile x completes the hand, given that every group but x's already fits; `fits`
    holds each group's fit (2 bits per group), `pairs` how many groups hold a pair."""
    if not _could_complete(counts13, x) or (live_only and held[x] >= 4):
        return False
    g = _group_of(x)
    start = _group_start(g)
    fit = group_fit(counts13, start, 9 if g < 3 else 7, x - start)
    if fit == NO_FIT:
        return False
    pairs_elsewhere = pairs - (1 if (fits >> (2 * g)) & 3 == PAIR_FIT else 0)
    return pairs_elsewhere + (1 if fit == PAIR_FIT else 0) == 1


@njit(cache=True)
def regular_waits(counts13, held, live_only, besides):
    """The tiles that complete these standing tiles (3n+1 of them) as sets and one pair, as a
    34-bit mask. With `live_only`, tiles the hand holds all four of (`held`: its own copies,
    melds included) are left out. With `besides` >= 0, stop at the first wait other than tile
    `besides` (the mask then holds that tile only)."""
    fits = 0  # 2 bits per group
    for g in range(4):
        fits |= group_fit(counts13, _group_start(g), 9 if g < 3 else 7, NO_TILE) << (2 * g)
    return _waits_given_fits(counts13, held, live_only, besides, fits)


@njit
def _waits_given_fits(counts13, held, live_only, besides, fits):
    """regular_waits, given the fit of each group of counts13 (2 bits per group)."""
    # A new tile changes one group only: every other group must already fit as it is. So
    # find the groups that do not; if two or more do not, no tile completes the hand, and if
    # one does not, only its tiles can.
    misfits = 0
    misfit_group = NO_TILE
    pairs = 0
    for g in range(4):
        fit = (fits >> (2 * g)) & 3
        if fit == NO_FIT:
            misfits += 1
            misfit_group = g
        elif fit == PAIR_FIT:
            pairs += 1
    waits = np.int64(0)
    if misfits > 1:
        return waits
    first, last = 0, 34
    if misfits == 1:
        first = _group_start(misfit_group)
        last = first + (9 if misfit_group < 3 else 7)
    if besides >= 0 and besides < HONORS_START:
        # The other side of a two-sided wait is the usual other wait: try it first.
        for x in (besides - 3, besides + 3):
            if first <= x < last and x // 9 == besides // 9 and _completes(counts13, x, held, live_only, fits,
                                                                             pairs):
                return np.int64(1) << x
    # With every group fitting, two of them hold a pair (3n+1 tiles): only a tile of one of
    # those can complete the hand, one added to a group of sets leaves it a tile over.
    for x in range(first, last):
        if x != besides and (misfits == 1 or (fits >> (2 * _group_of(x))) & 3 == PAIR_FIT) \
                and _completes(counts13, x, held, live_only, fits, pairs):
            waits |= np.int64(1) << x
            if besides >= 0:
                return waits
    return waits


@njit
def has_other_wait(counts14, win, held, n_melds, live_only):
    """True if the standing tiles before the win (counts14 minus `win`) also waited on a tile
    other than `win`: then the wait was not unique and 边张, 坎张, 单钓将 are not scored.
    counts14 must split into sets and a pair (a regular win).

    Waits are counted in the regular form and, without melds, in seven pairs (as the judge
    does). `held` is the hand's own copies of each tile; with `live_only`, a tile the hand
    holds all four of is not a wait. counts14 is restored before returning.
    """
    counts14[win] -= 1
    other = False
    if n_melds == 0:
        single = seven_pairs_wait(counts14)
        other = single >= 0 and single != win and not (live_only and held[single] >= 4)
    if not other:
        # The groups without the winning tile are as in the complete hand: sets (a multiple
        # of 3 tiles) or sets and the pair. Only the winning tile's group needs a look.
        win_group = _group_of(win)
        fits = 0
        for g in range(4):
            start = _group_start(g)
            n = 9 if g < 3 else 7
            if g == win_group:
                fit = group_fit(counts14, start, n, NO_TILE)
            else:
                total = 0
                for i in range(n):
                    total += counts14[start + i]
                fit = SETS_FIT if total % 3 == 0 else PAIR_FIT
            fits |= fit << (2 * g)
        other = _waits_given_fits(counts14, held, live_only, win, fits) & ~(np.int64(1) << win) != 0
    counts14[win] += 1
    return other
