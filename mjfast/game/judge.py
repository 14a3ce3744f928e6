"""The Botzone judge's figures of a position, worked out from a TableState as the judge works
them out: the tiles left in each player's wall (its `tileCnt`) and, for each player, the fans
of the win open to them (its `canHu`).

The judge writes both at every step of its JSON log (docs/game.md, "Botzone's JSON match
log"). canHu[p] is:

- the fans of p's win on the tile open to p: the tile p just drew (p's own turn), the
  discard open to claims, or another player's added kong (robbing); flowers included and
  counted before the 8-fan minimum, so it can be 1-7 (the judge's `calculate_fan` total);
- NO_WIN (-3) when that hand is no win;
- NOT_CHECKED (-4) when no tile is open to p (the judge's 0 at INIT is the same).

The judge with flowers (ailab-pku's judge/main.cpp) also scores the discarder's own hand with
the tile just discarded, as a win on a discard: canHu says whether the discard was a winning
tile of its own player. Botzone's judge of 2026 writes -4 there. mjfast works the figure out
for every player, as the judge with flowers does.

The replay compares the judge's figures with these (JudgeCheck); the Botzone JSON writer
writes these for a game mjfast played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import HandError
from .state import CLAIM, DISCARD, ROB, IllegalAction, TableState

NO_WIN = -3
NOT_CHECKED = -4


def open_tile(table: TableState, player: int) -> "int | None":
    """The tile the judge scores `player`'s hand with now, or None: the tile just drawn on
    their own turn, the pending discard (the discarder's too), or another player's added
    kong."""
    if table.phase == DISCARD:
        return table.seats[player].last_drawn if player == table.turn else None
    if table.phase == CLAIM or (table.phase == ROB and player != table.pending[0]):
        return table.pending[1]
    return None


def can_hu(table: TableState, player: int) -> int:
    """The judge's canHu for `player` at this point (see the module doc)."""
    from ..fan import score

    tile = open_tile(table, player)
    if tile is None:
        return NOT_CHECKED
    try:
        win = table.win(player, tile) if table.phase == DISCARD else table.win_on_pending(player)
        return score(win.hand, **win.conditions).total
    except (IllegalAction, HandError):
        return NO_WIN


def tile_counts(table: TableState) -> tuple:
    """The judge's tileCnt: the tiles left in each player's wall."""
    return tuple(table.tiles_left(p) for p in range(4))


def figures(table: TableState) -> tuple[tuple, tuple]:
    """(tileCnt, canHu) as the judge would write them now."""
    return tile_counts(table), tuple(can_hu(table, p) for p in range(4))


@dataclass
class JudgeCheck:
    """The judge's tileCnt and canHu of one game compared with mjfast's, step by step.

    tile_counts: the tileCnt values compared (one per player and step); can_hu: the canHu
    values compared (the positive ones and the -3s: -4 and 0 say nothing); the *_matched
    counts; mismatches: (line, what differs) for each value mjfast does not reproduce."""

    tile_counts: int = 0
    tile_counts_matched: int = 0
    can_hu: int = 0
    can_hu_matched: int = 0
    mismatches: list = field(default_factory=list)

    def compare(self, table: TableState, line: int, judge_tile_counts, judge_can_hu) -> None:
        """Compare the judge's figures of one step (None where it wrote none) with the table's."""
        if judge_tile_counts is not None:
            for p, written in enumerate(judge_tile_counts):
                left = table.tiles_left(p)
                self.tile_counts += 1
                if written == left:
                    self.tile_counts_matched += 1
                else:
                    self.mismatches.append((line, f"tileCnt[{p}] {written}, mjfast {left}"))
        if judge_can_hu is not None:
            for p, written in enumerate(judge_can_hu):
                if written <= 0 and written != NO_WIN:
                    continue
                figure = can_hu(table, p)
                self.can_hu += 1
                if figure == written:
                    self.can_hu_matched += 1
                else:
                    said = {NO_WIN: "no win", NOT_CHECKED: "no tile open to the player"}
                    self.mismatches.append((line, f"canHu[{p}] {said.get(written, written)}, "
                                                  f"mjfast {said.get(figure, figure)}"))
