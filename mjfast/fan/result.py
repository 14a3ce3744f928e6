"""What score() returns: the fans a hand scores, their total, and the conditions it was scored
under (after the corrections the judge makes)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..hand import Hand
from ..tiles import tile_name
from .conditions import WIND_LETTERS
from .kernel import FAN_BITS, FANS_PER_WORD, PREVALENT_SHIFT, SCORED_WIN_SHIFT, SEAT_SHIFT
from .layout import WIN_KONG, WIN_LAST_COPY, WIN_LAST_TILE, WIN_SELF_DRAWN
from .names import DISPLAY_ORDER, FANS, FLOWER_TILES, N_FANS, fan_by_name
from .ruleset import Ruleset


class Fan(NamedTuple):
    """One fan of a result: its names, points per occurrence, how many times it counts."""

    name_cn: str
    name_en: str
    points: int
    count: int  # type: ignore[assignment]  # a field named like tuple.count, which it hides: the public name
    id: int

    @property
    def total(self) -> int:
        return self.points * self.count

    def __str__(self) -> str:
        return f"{self.name_cn} {self.points}" + (f"*{self.count}" if self.count > 1 else "")


# Fan entries are immutable: make each (fan, count) once.
_FAN_ENTRIES = [[Fan(f.name_cn, f.name_en, f.points, c, f.id) for c in range(9)] for f in FANS]
# The Fan of each packed entry of a summary word (id | count << 7).
_BY_ENTRY = [_FAN_ENTRIES[e & 127][e >> 7] if (e & 127) < N_FANS and (e >> 7) <= 8 else None
             for e in range(1 << FAN_BITS)]
_ENTRY_MASK = (1 << FAN_BITS) - 1
# Fan lists decoded so far, by their first summary word, for hands with FANS_PER_WORD fans or
# fewer (nearly all): the same few thousand lists come up again and again.
_DECODED: dict[int, tuple] = {}
_DECODED_MAX = 1 << 16


def fans_of_counts(counts) -> tuple[Fan, ...]:
    """The Fan entries for fan counts by id (a batch row), highest first."""
    values = counts.tolist()
    return tuple(_FAN_ENTRIES[f][values[f]] for f in DISPLAY_ORDER.tolist() if values[f])


def fans_of_summary(summary) -> tuple[Fan, ...]:
    """The Fan entries of a kernel summary (see kernel.SUMMARY_LEN), highest first."""
    first = summary[2]
    if summary[3] == 0:
        fans = _DECODED.get(first)
        if fans is not None:
            return fans
    found = []
    for word in summary[2:]:
        while word:
            found.append(_BY_ENTRY[word & _ENTRY_MASK])
            word >>= FAN_BITS
        if len(found) % FANS_PER_WORD:
            break
    fans = tuple(found)
    if summary[3] == 0:
        if len(_DECODED) >= _DECODED_MAX:
            _DECODED.clear()
        _DECODED[first] = fans
    return fans


def _won_by(bit: int, doc: str) -> property:
    """A FanResult's flag of one win condition (a layout.WIN_* bit) it was scored with."""
    return property(lambda result: bool(result._summary[1] & bit), doc=doc)


class FanResult:
    """The score of one winning hand.

    total: all points, flowers included; points: without flowers (what the 8-fan minimum
    looks at); fans: the Fan entries, highest first; meets_minimum: points >= the ruleset's
    minimum. self_drawn, last_copy, kong, last_tile: the conditions as scored, after the
    judge's corrections (e.g. 和绝张 dropped while the hand holds another copy).
    """

    __slots__ = ("_summary", "_hand", "ruleset", "_fans")
    _fans: "tuple[Fan, ...] | None"

    def __init__(self, summary: tuple, hand: Hand, ruleset: Ruleset):
        # summary: the kernel's (see kernel.SUMMARY_LEN); its second value says what was
        # scored: the corrected conditions, the winds and the winning tile.
        self._summary = summary
        self._hand = hand
        self.ruleset = ruleset
        self._fans = None

    @property
    def total(self) -> int:
        return self._summary[0]

    @property
    def seat_wind(self) -> str:
        return WIND_LETTERS[self._summary[1] >> SEAT_SHIFT & 3]

    @property
    def prevalent_wind(self) -> str:
        return WIND_LETTERS[self._summary[1] >> PREVALENT_SHIFT & 3]

    @property
    def _win_tile(self) -> int:
        return self._summary[1] >> SCORED_WIN_SHIFT

    @property
    def flowers(self) -> int:
        return next((f.count for f in self.fans if f.id == FLOWER_TILES), 0)

    @property
    def points(self) -> int:
        return self.total - self.flowers

    @property
    def meets_minimum(self) -> bool:
        return self.points >= self.ruleset.minimum

    @property
    def fans(self) -> tuple[Fan, ...]:
        if self._fans is None:
            self._fans = fans_of_summary(self._summary)
        return self._fans

    @property
    def counts(self) -> np.ndarray:
        """Occurrences of every fan by id (N_FANS ints)."""
        counts = np.zeros(N_FANS, np.int64)
        for f in self.fans:
            counts[f.id] = f.count
        return counts

    def count(self, name: str) -> int:
        """How many times the fan called `name` (Chinese, English or alias) counts."""
        fan_id = fan_by_name(name).id
        return next((f.count for f in self.fans if f.id == fan_id), 0)

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

    # How the hand won, as it was scored (the conditions corrected: see kernel.correct_conditions).
    self_drawn = _won_by(WIN_SELF_DRAWN, "自摸: won on the player's own draw")
    last_copy = _won_by(WIN_LAST_COPY, "和绝张: the last unseen copy of the winning tile")
    kong = _won_by(WIN_KONG, "杠上开花 (self-drawn on a kong's replacement) or 抢杠和 (robbing a kong)")
    last_tile = _won_by(WIN_LAST_TILE, "妙手回春 / 海底捞月: the wall's last tile")

    def fan_line(self, names: str = "cn") -> str:
        """The fans as one line: "清龙 16, 不求人 4, ..." (names "cn" or "en")."""
        if names not in ("cn", "en"):
            from ..errors import ArgumentError

            raise ArgumentError(f"names must be 'cn' or 'en', got {names!r}")
        parts = []
        for fan in self.fans:
            name = fan.name_cn if names == "cn" else fan.name_en
            parts.append(f"{name} {fan.points}" + (f"*{fan.count}" if fan.count > 1 else ""))
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.total}: {self.fan_line()}"

    def __repr__(self) -> str:
        return f"<FanResult {self.hand.to_compact()} total={self.total} [{self.fan_line()}]>"
