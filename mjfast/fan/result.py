"""What score() returns: the fans a hand scores, their total, and the conditions it was scored
under (after the corrections the judge makes)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..hand import Hand
from ..tiles import tile_name
from .conditions import WIND_LETTERS
from .kernel import AT_CORRECTED, AT_LISTED, AT_N_LISTED, AT_TOTAL
from .layout import WIN_KONG, WIN_LAST_COPY, WIN_LAST_TILE, WIN_SELF_DRAWN
from .names import DISPLAY_ORDER, FANS, FLOWER_TILES, N_FANS
from .ruleset import Ruleset


class Fan(NamedTuple):
    """One fan of a result: its names, points per occurrence, how many times it counts."""

    name_cn: str
    name_en: str
    points: int
    count: int
    id: int

    @property
    def total(self) -> int:
        return self.points * self.count

    def __str__(self) -> str:
        return f"{self.name_cn} {self.points}" + (f"*{self.count}" if self.count > 1 else "")


# Fan entries are immutable: make each (fan, count) once.
_FAN_ENTRIES = [[Fan(f.name_cn, f.name_en, f.points, c, f.id) for c in range(9)] for f in FANS]


def fans_of_counts(counts) -> tuple[Fan, ...]:
    """The Fan entries for fan counts by id (a batch row), highest first."""
    values = counts.tolist()
    return tuple(_FAN_ENTRIES[f][values[f]] for f in DISPLAY_ORDER.tolist() if values[f])


def fans_of_row(row) -> tuple[Fan, ...]:
    """The Fan entries of a kernel output row, highest first (from its listed pairs)."""
    n = int(row[AT_N_LISTED])
    pairs = row[AT_LISTED:AT_LISTED + 2 * n].tolist()
    return tuple(_FAN_ENTRIES[pairs[i]][pairs[i + 1]] for i in range(0, 2 * n, 2))


class FanResult:
    """The score of one winning hand.

    total: all points, flowers included; points: without flowers (what the 8-fan minimum
    looks at); fans: the Fan entries, highest first; meets_minimum: points >= the ruleset's
    minimum. self_drawn, last_copy, kong, last_tile: the conditions as scored, after the
    judge's corrections (e.g. 和绝张 dropped while the hand holds another copy).
    """

    __slots__ = ("_row", "_hand", "_win_tile", "ruleset", "seat_wind", "prevalent_wind", "_fans")

    def __init__(self, row: np.ndarray, hand: Hand, win_tile: int, ruleset: Ruleset, seat_wind: int,
                 prevalent_wind: int):
        self._row = row
        self._hand = hand
        self._win_tile = win_tile
        self.ruleset = ruleset
        self.seat_wind = WIND_LETTERS[seat_wind]
        self.prevalent_wind = WIND_LETTERS[prevalent_wind]
        self._fans = None

    @property
    def total(self) -> int:
        return int(self._row[AT_TOTAL])

    @property
    def flowers(self) -> int:
        return int(self._row[FLOWER_TILES])

    @property
    def points(self) -> int:
        return self.total - self.flowers

    @property
    def meets_minimum(self) -> bool:
        return self.points >= self.ruleset.minimum

    @property
    def fans(self) -> tuple[Fan, ...]:
        if self._fans is None:
            self._fans = fans_of_row(self._row)
        return self._fans

    @property
    def counts(self) -> np.ndarray:
        """Occurrences of every fan by id (N_FANS ints)."""
        return self._row[:N_FANS].copy()

    def count(self, name: str) -> int:
        """How many times the fan called `name` (Chinese, English or alias) counts."""
        from .names import fan_by_name

        return int(self._row[fan_by_name(name).id])

    def __contains__(self, name: str) -> bool:
        return self.count(name) > 0

    @property
    def hand(self) -> Hand:
        """The winning hand, with its winning tile written last."""
        if self._hand.last_tile != self._win_tile or not self._hand.drawn:
            counts = self._hand.counts.copy()
            if not self._hand.drawn:
                counts[self._win_tile] += 1
            self._hand = Hand(counts, self._hand.melds, self._win_tile)
        return self._hand

    @property
    def win_tile(self) -> str:
        return tile_name(self._win_tile)

    def _condition(self, bit: int) -> bool:
        return bool(self._row[AT_CORRECTED] & bit)

    @property
    def self_drawn(self) -> bool:
        return self._condition(WIN_SELF_DRAWN)

    @property
    def last_copy(self) -> bool:
        return self._condition(WIN_LAST_COPY)

    @property
    def kong(self) -> bool:
        return self._condition(WIN_KONG)

    @property
    def last_tile(self) -> bool:
        return self._condition(WIN_LAST_TILE)

    def fan_line(self, names: str = "cn") -> str:
        """The fans as one line: "清龙 16, 不求人 4, ..." (names "cn" or "en")."""
        if names not in ("cn", "en"):
            from ..errors import HandError

            raise HandError(f"names must be 'cn' or 'en', got {names!r}")
        parts = []
        for fan in self.fans:
            name = fan.name_cn if names == "cn" else fan.name_en
            parts.append(f"{name} {fan.points}" + (f"*{fan.count}" if fan.count > 1 else ""))
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.total}: {self.fan_line()}"

    def __repr__(self) -> str:
        return f"<FanResult {self.hand.to_compact()} total={self.total} [{self.fan_line()}]>"
