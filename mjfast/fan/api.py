"""Public functions of mjfast.fan: score, score_best_tile, winning_tiles, score_batch (and settle, in
settlement.py).

The Python layer owns parsing, validation and errors; the kernels get clean vectors.
"""

from __future__ import annotations

import threading
from typing import Iterable

import numpy as np

from ..errors import ArgumentError, HandError
from ..hand import Hand, parse_hand
from ..runtime.dispatch import DirectKernel
from ..tiles import TILE_NAMES
from . import batch
from .conditions import MAX_FLOWERS, WIND_BY_LETTER, condition_bits, flag, flower_count, wind_index
from .encode import hand_vectors, meld_code, pack_melds
from .kernel import (
    FLOWERS_SHIFT,
    NOT_READY_SIZE,
    PREVALENT_SHIFT,
    RULES_SHIFT,
    SCORED_WIN_SHIFT,
    SEAT_SHIFT,
    SUMMARY_LEN,
    WIN_SHIFT,
    score_each_win,
    score_hand,
)
from .layout import WIN_KONG, WIN_LAST_COPY, WIN_LAST_TILE, WIN_SELF_DRAWN
from .result import FanResult, fans_of_counts
from .ruleset import JUDGE, Ruleset, ruleset_of

_NOT_A_WIN = (
    "is not a winning hand: its standing tiles and melds make neither four sets and a pair, "
    "nor seven pairs, thirteen orphans, honours and knitted tiles, or a knitted straight with a set and a pair"
)


def _not_drawn(hand: Hand) -> HandError:
    return HandError(
        f"{hand.to_compact()} has {hand.n_standing} standing tiles with {hand.n_melds} meld(s): that is a hand "
        "waiting for its winning tile, not a win; add the winning tile last, or use winning_tiles()"
    )


def _winning_hand(hand_or_string) -> Hand:
    """The hand to score; the tile count is checked by the kernel (and explained by _not_drawn)."""
    hand = hand_or_string if hand_or_string.__class__ is Hand else parse_hand(hand_or_string)
    if hand.last_tile is None:
        if not hand.drawn:
            raise _not_drawn(hand)
        raise HandError(
            f"{hand.to_compact()}: score() needs to know the winning tile; write the hand as a string with the "
            "winning tile last, or give a Hand with last_tile set"
        )
    return hand


def _fan_input(hand: Hand) -> tuple:
    """(standing counts, hand code) of a winning hand as kernel.score_hand reads them (made
    once per hand, see Hand.derived: packing the melds costs more than scoring's Python
    layer)."""
    win = hand.last_tile
    if win is None:
        _winning_hand(hand)  # raises the error that says what is missing
    melds = hand.melds
    # hand.counts itself, read-only: numba dispatches on a read-only array about 0.1 µs more
    # slowly, less than a writeable copy costs a hand scored once
    return hand.counts, (pack_melds(melds) if melds else 0) | win << WIN_SHIFT


# score() calls the kernel without numba's dispatch: its arguments are always a Hand's own
# read-only uint8 counts and two ints (see mjfast.runtime.dispatch.DirectKernel).
_score_hand = DirectKernel(score_hand)
# score()'s fast path writes the condition bits as 1, 2, 4, 8.
assert (WIN_SELF_DRAWN, WIN_LAST_COPY, WIN_KONG, WIN_LAST_TILE) == (1, 2, 4, 8)
# Each spelling of a wind as its setup bits (see kernel.SEAT_SHIFT).
_SEAT_BITS = {key: i << SEAT_SHIFT for key, i in WIND_BY_LETTER.items()}
_PREVALENT_BITS = {key: i << PREVALENT_SHIFT for key, i in WIND_BY_LETTER.items()}


def score(hand_or_string, self_drawn=False, last_copy=False, kong=False, last_tile=False, seat_wind="E",
          prevalent_wind="E", flowers=0, ruleset=None) -> FanResult:
    """Score a winning hand: the best reading's fans, total and whether it meets the minimum.

    `hand_or_string`: a Hand or any notation parse_hand reads ("[123p1][345s2]...6m"); the
    tile written last is the winning tile. Conditions: `self_drawn` (自摸), `last_copy` (和绝张:
    the winning tile was the last unseen copy), `kong` (杠上开花 when self-drawn, 抢杠和 on a
    discard), `last_tile` (the wall's last tile: 妙手回春 / 海底捞月), winds (E S W N or 0-3),
    `flowers` (0-8). Conditions the hand contradicts are corrected as the judge corrects them
    (see FanResult.self_drawn ... for what was scored). Raises HandError for a bad hand or one
    that is not a win, ArgumentError for bad conditions.
    """
    # This is the per-call path: the common cases (a Hand, bools, letters, an int) skip the
    # general checks, which give the same answers.
    hand = hand_or_string if hand_or_string.__class__ is Hand else _winning_hand(hand_or_string)
    encoded = hand.derived("fan_input", _fan_input)
    if self_drawn.__class__ is bool and last_copy.__class__ is bool and kong.__class__ is bool \
            and last_tile.__class__ is bool:  # condition_bits without its checks
        setup = self_drawn | last_copy << 1 | kong << 2 | last_tile << 3
    else:
        setup = condition_bits(self_drawn, last_copy, kong, last_tile)
    wind = _SEAT_BITS.get(seat_wind) if seat_wind.__class__ is str else None
    setup |= wind if wind is not None else wind_index(seat_wind, "seat_wind") << SEAT_SHIFT
    wind = _PREVALENT_BITS.get(prevalent_wind) if prevalent_wind.__class__ is str else None
    setup |= wind if wind is not None else wind_index(prevalent_wind, "prevalent_wind") << PREVALENT_SHIFT
    if flowers.__class__ is not int or not 0 <= flowers <= MAX_FLOWERS:
        flowers = flower_count(flowers)
    setup |= flowers << FLOWERS_SHIFT
    if ruleset is None:
        rules = JUDGE  # code 0
    else:
        rules = ruleset_of(ruleset)
        setup |= rules.code << RULES_SHIFT
    summary = _score_hand.call(encoded[0], encoded[1], setup)
    if summary[0] < 0:
        raise _not_drawn(hand) if not hand.drawn else HandError(f"{hand.to_compact()} {_NOT_A_WIN}")
    return FanResult(summary, hand, rules)


def score_best_tile(hand_or_string, **conditions) -> FanResult:
    """Score a 14-tile hand whose winning tile is not named (the judge's initial-hand mode; a
    hand typed whole): each distinct standing tile is tried as the winning tile under the same
    `conditions` (score()'s keywords), and the result worth the most is returned, the first in
    tile order between equals. Its `win_tile` says which tile that was. Raises HandError for a
    bad condition, or when no tile makes the hand a win."""
    _setup(conditions)  # the conditions' errors, before a failed try could hide them
    hand = hand_or_string if hand_or_string.__class__ is Hand else parse_hand(hand_or_string)
    if not hand.drawn:
        raise _not_drawn(hand)
    best = None
    for tile in np.flatnonzero(hand.counts).tolist():
        try:
            result = score(Hand(hand.counts, hand.melds, tile), **conditions)
        except HandError:  # no win with this tile last
            continue
        if best is None or result.total > best.total:
            best = result
    if best is None:
        raise HandError(f"{hand.to_compact()} {_NOT_A_WIN}, whichever of its tiles wins")
    return best


_CONDITION_NAMES = ("self_drawn", "last_copy", "kong", "last_tile", "seat_wind", "prevalent_wind", "flowers", "ruleset")


def _setup(conditions: dict) -> tuple[int, "Ruleset"]:
    """(the kernels' setup, the Ruleset) of score()'s keyword arguments, each checked."""
    unknown = sorted(set(conditions) - set(_CONDITION_NAMES))
    if unknown:
        raise ArgumentError(f"unknown condition(s) {', '.join(unknown)}; known: {', '.join(_CONDITION_NAMES)}")
    rules = ruleset_of(conditions.get("ruleset"))
    setup = (
        condition_bits(conditions.get("self_drawn", False), conditions.get("last_copy", False),
                       conditions.get("kong", False), conditions.get("last_tile", False))
        | wind_index(conditions.get("seat_wind", "E"), "seat_wind") << SEAT_SHIFT
        | wind_index(conditions.get("prevalent_wind", "E"), "prevalent_wind") << PREVALENT_SHIFT
        | flower_count(conditions.get("flowers", 0)) << FLOWERS_SHIFT
        | rules.code << RULES_SHIFT
    )
    return setup, rules


def winning_tiles(hand13, **conditions) -> dict[str, FanResult]:
    """Every tile that completes `hand13` (a hand before its win: 13 tiles counting each meld as
    three) and what the win scores, as {tile name: FanResult}, in tile order.

    `conditions` are score()'s keyword arguments, applied to every winning tile (和绝张 is
    dropped for a tile the hand already holds, as score() does). A tile the hand holds all four
    copies of cannot be won on and is left out. Wins below the minimum are included: check
    `meets_minimum`.
    """
    setup, rules = _setup(conditions)
    hand = hand13 if hand13.__class__ is Hand else parse_hand(hand13)
    found = getattr(_buffers, "wins", None)
    if found is None:
        found = _buffers.wins = np.empty((34, SUMMARY_LEN), np.int64)
    n = score_each_win(hand.counts, pack_melds(hand.melds), setup, found)
    if n == NOT_READY_SIZE:
        raise HandError(
            f"{hand.to_compact()} has {hand.n_standing} standing tiles with {hand.n_melds} meld(s); winning_tiles() "
            f"takes a hand waiting for its winning tile ({13 - 3 * hand.n_melds} standing tiles)"
        )
    return {TILE_NAMES[row[1] >> SCORED_WIN_SHIFT]: FanResult(tuple(row), hand, rules) for row in found[:n].tolist()}


# Per-thread output buffer of winning_tiles (the kernel writes into it, see score_each_win).
_buffers = threading.local()


class BatchScores:
    """Scores of many hands: `totals` (int64[N], -1 where a row is not a win), `fans`
    (uint8[N, N_FANS] counts by fan id, see mjfast.fan.FANS) and `conditions` (uint8[N], the
    corrected win-condition bits, see mjfast.fan.layout)."""

    __slots__ = ("totals", "fans", "conditions")

    def __init__(self, totals: np.ndarray, fans: np.ndarray, conditions: np.ndarray):
        self.totals = totals
        self.fans = fans
        self.conditions = conditions

    def __len__(self) -> int:
        return len(self.totals)

    def fan_list(self, i: int):
        """The Fan entries of row i, highest first (as FanResult.fans)."""
        return fans_of_counts(self.fans[i])


def _per_row(value, n: int, what: str, convert, low: int, high: int) -> np.ndarray:
    """A condition given once for all rows or once per row, as an int64 array of n values in
    low..high. Integer (or bool) arrays are checked in bulk; anything else goes through
    `convert` (value, what) one value at a time."""
    arr = np.asarray(value) if not isinstance(value, str) else None
    if arr is not None and arr.dtype.kind in "biu":
        arr = arr.astype(np.int64)
        if arr.ndim == 0:
            arr = np.full(n, int(arr), np.int64)
        if arr.shape != (n,):
            raise ArgumentError(f"{what} must be one value or {n} values, got shape {arr.shape}")
        if arr.min(initial=low) < low or arr.max(initial=high) > high:
            raise ArgumentError(f"{what} values must be {low}-{high}")
        return arr
    if arr is None or arr.ndim == 0:
        return np.full(n, int(convert(value, what)), np.int64)
    values = value if isinstance(value, (list, tuple)) else arr.tolist()  # keep mixed lists' own values
    if len(values) != n:
        raise ArgumentError(f"{what} has {len(values)} entries for {n} hands")
    if arr.dtype.kind == "U" and isinstance(value, np.ndarray):  # e.g. winds as letters: each distinct once
        distinct, where = np.unique(arr, return_inverse=True)
        return np.array([int(convert(str(v), what)) for v in distinct], np.int64)[where.ravel()]
    return np.array([int(convert(v, what)) for v in values], np.int64)


def hands_to_arrays(hands: Iterable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(counts N x 34, winning tiles N, melds N x 4 x 3) for score_batch, from winning hands in
    any notation parse_hand reads (the tile written last wins)."""
    parsed = [_winning_hand(h) for h in hands]
    n = len(parsed)
    counts = np.zeros((n, 34), np.uint8)
    wins = np.zeros(n, np.int64)
    melds = np.zeros((n, 4, 3), np.int64)
    for i, hand in enumerate(parsed):
        counts[i] = hand.counts
        wins[i] = hand.last_tile
        for j, m in enumerate(hand.melds):
            melds[i, j] = meld_code(m)
    return counts, wins, melds


_ROW_PROBLEMS = {
    batch.BAD_COUNT: "counts must be 0-4",
    batch.BAD_WIN_TILE: "the winning tile must be a tile id 0-33",
    batch.WIN_TILE_NOT_HELD: "the winning tile is not among the standing tiles",
    batch.BAD_MELD_KIND: "meld kinds must be 0 (none), 1 (chow), 2 (pung), 3 (kong); open flags 0 or 1",
    batch.MELD_GAP: "melds must fill the first slots of each row (kind 0 only after the last meld)",
    batch.BAD_MELD_TILE: "meld tiles must be tile ids 0-33",
    batch.BAD_CHOW: "a chow starts at a tile with no run after it",
    batch.CONCEALED_NOT_KONG: "only a kong can be concealed (open flag 0); chows and pungs are claimed",
    batch.OVER_FOUR: "more than four copies of a tile, melds included",
    batch.WRONG_TILE_COUNT: "a win has 14 - 3 x melds standing tiles",
}


def _check_batch(counts, wins, melds) -> None:
    row, problem = batch.check_rows(counts, wins, melds)
    if row >= 0:
        raise HandError(f"row {row}: {_ROW_PROBLEMS[problem]}")


def score_batch(counts, win_tiles, melds=None, *, self_drawn=False, last_copy=False, kong=False, last_tile=False,
                seat_wind=0, prevalent_wind=0, flowers=0, ruleset=None) -> BatchScores:
    """Score N winning hands in parallel.

    counts: N x 34 standing tiles including the winning tile; win_tiles: N tile ids;
    melds: None or N x 4 x 3 (kind 0 none / 1 chow / 2 pung / 3 kong, tile — the lowest of a
    chow —, 1 if claimed or exposed / 0 for a concealed kong), melds in the first slots.
    Each condition is one value for all hands or one per hand. Rows that are no win get total
    -1 (a batch is not stopped by one bad hand); malformed input raises HandError.
    """
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.shape[1] != 34 or counts.dtype.kind not in "iu":
        raise HandError(f"counts must be an N x 34 integer array, got shape {counts.shape} dtype {counts.dtype}")
    n = counts.shape[0]
    wins = np.asarray(win_tiles)
    if wins.shape != (n,) or wins.dtype.kind not in "iu":
        raise HandError(f"win_tiles must be {n} integer tile ids, got shape {wins.shape} dtype {wins.dtype}")
    wins = wins.astype(np.int64)
    if melds is None:
        melds = np.zeros((n, 4, 3), np.int64)
    else:
        melds = np.asarray(melds)
        if melds.shape != (n, 4, 3) or melds.dtype.kind not in "iu":
            raise HandError(f"melds must be an N x 4 x 3 integer array, got shape {melds.shape}")
        melds = melds.astype(np.int64)
    _check_batch(counts, wins, melds)
    rules = ruleset_of(ruleset)
    bits = np.zeros(n, np.int64)
    for value, what, bit in ((self_drawn, "self_drawn", WIN_SELF_DRAWN), (last_copy, "last_copy", WIN_LAST_COPY),
                             (kong, "kong", WIN_KONG), (last_tile, "last_tile", WIN_LAST_TILE)):
        bits |= _per_row(value, n, what, flag, 0, 1) * bit
    vecs = hand_vectors(
        counts, wins, melds, bits,
        _per_row(seat_wind, n, "seat_wind", wind_index, 0, 3),
        _per_row(prevalent_wind, n, "prevalent_wind", wind_index, 0, 3),
        _per_row(flowers, n, "flowers", lambda v, what: flower_count(v), 0, MAX_FLOWERS),
    )
    return BatchScores(*batch.score_rows(vecs, rules.code))
