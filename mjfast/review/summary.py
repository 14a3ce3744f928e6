"""The figures of a player's decisions over one game or many: agreement with mjfast (top 1,
top 3), the points lost per decision and the bad-move rate (advice.loss, over the decisions
the value ranking figures), the cost per decision in efficiency, the decisions that cost
most, by turn and by shanten, with intervals.

Everything is kept as counts and sums (and the few costliest decisions), so a summary over
any number of games takes the same memory. Intervals at 95%: Wilson's for a share, mean
± 1.96 standard errors for a cost.
"""

from __future__ import annotations

import heapq
from collections import Counter

from ..logs.intervals import mean_interval, wilson

__all__ = ["COSTS", "Summary", "cost_key", "plus_minus", "wilson"]

COSTLIEST = 10
# The costs every summary reports, in order (any other cost a decision carries comes after).
COSTS = ("shanten", "valid_acceptance", "acceptance")


class _Mean:
    """n, sum and sum of squares of a cost."""

    __slots__ = ("n", "total", "squares")

    def __init__(self):
        self.n, self.total, self.squares = 0, 0.0, 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def to_dict(self) -> dict:
        return mean_interval(self.n, self.total, self.squares)


class _Group:
    """Decisions, agreements, points lost, bad moves and costs of one group (a player, a kind,
    a turn, a shanten)."""

    __slots__ = ("decisions", "agreements", "top3", "bad_moves", "points_lost", "costs")

    def __init__(self):
        self.decisions = self.agreements = self.top3 = self.bad_moves = 0
        self.points_lost = _Mean()  # over the decisions with value figures
        self.costs: dict = {}

    def add(self, decision: dict) -> None:
        self.decisions += 1
        self.agreements += bool(decision["agrees"])
        self.top3 += bool(decision["top3"])
        if decision["points_lost"] is not None:
            self.points_lost.add(decision["points_lost"])
            self.bad_moves += bool(decision["bad_move"])
        for name, value in decision["cost"].items():
            self.costs.setdefault(name, _Mean()).add(value)

    def to_dict(self) -> dict:
        names = [c for c in COSTS if c in self.costs] + sorted(c for c in self.costs if c not in COSTS)
        valued = self.points_lost.n
        return {"decisions": self.decisions,
                "agreement": round(self.agreements / self.decisions, 4) if self.decisions else None,
                "agreement_interval": wilson(self.agreements, self.decisions),
                "top3": round(self.top3 / self.decisions, 4) if self.decisions else None,
                "top3_interval": wilson(self.top3, self.decisions),
                "valued": valued, "bad_moves": self.bad_moves,
                "bad_move_rate": round(self.bad_moves / valued, 4) if valued else None,
                "bad_move_interval": wilson(self.bad_moves, valued),
                "points_lost": self.points_lost.to_dict(),
                "cost": {name: self.costs[name].to_dict() for name in names}}


def plus_minus(figure: dict) -> str:
    """A mean figure ({"n", "mean", "interval"}) as text: "0.43 ± 0.06", "–" for none."""
    if figure["mean"] is None:
        return "–"
    text = f"{figure['mean']:.2f}"
    if figure["interval"] is not None:
        low, high = figure["interval"]
        text += f" ± {(high - low) / 2:.2f}"
    return text


def cost_key(decision: dict) -> tuple:
    """How much a decision cost, to sort by: points lost (where valued), then shanten, valid
    acceptance and acceptance."""
    found = decision["cost"]
    return (decision["points_lost"] or 0, *(found.get(name) or 0 for name in COSTS))


class Summary:
    """The figures of one player's decisions; add() them one by one (docs/review.md)."""

    def __init__(self, name: str):
        self.name = name
        self.games = 0
        self.all = _Group()
        self.kinds: dict = {}
        self.turns: dict = {}
        self.shanten: dict = {}
        self.flags: Counter = Counter()
        self._costliest: list = []  # a heap of (cost key, order, decision in short)
        self._order = 0

    def add_game(self, review: dict, seat: int) -> None:
        """Add the decisions of `seat` in one game's review."""
        self.games += 1
        for decision in review["decisions"]:
            if decision["player"] == seat:
                self.add(decision, review["match_id"], review["file"])

    def add(self, decision: dict, match_id: str = "", file: str = "") -> None:
        self.all.add(decision)
        self.kinds.setdefault(decision["kind"], _Group()).add(decision)
        if decision["turn"] is not None:
            self.turns.setdefault(decision["turn"], _Group()).add(decision)
        if decision["shanten_before"] is not None:
            self.shanten.setdefault(decision["shanten_before"], _Group()).add(decision)
        self.flags.update(decision["flags"])
        key = cost_key(decision)
        if key > (0,) * len(key):  # it cost something
            self._order += 1
            short = {"match_id": match_id, "file": file, "step": decision["step"], "line": decision["line"],
                     "turn": decision["turn"], "kind": decision["kind"], "choice": decision["choice"],
                     "mjfast": decision["mjfast"], "points_lost": decision["points_lost"],
                     "bad_move": decision["bad_move"], "cost": decision["cost"], "flags": decision["flags"]}
            entry = (key, -self._order, short)
            if len(self._costliest) < COSTLIEST:
                heapq.heappush(self._costliest, entry)
            else:
                heapq.heappushpop(self._costliest, entry)

    def to_dict(self) -> dict:
        figures = self.all.to_dict()
        return {
            "player": self.name, "games": self.games, **figures,
            "by_kind": {kind: group.to_dict() for kind, group in sorted(self.kinds.items())},
            "flags": dict(sorted(self.flags.items())),
            "costliest": [short for _, _, short in sorted(self._costliest, reverse=True)],
            "by_turn": [{"turn": t, **g.to_dict()} for t, g in sorted(self.turns.items())],
            "by_shanten": [{"shanten_before": s, **g.to_dict()} for s, g in sorted(self.shanten.items())],
        }
