"""The value of a hand waiting to draw (13 tiles, melds counted as 3): what a claim passed
leaves, or a hand after an exposed kong, before its replacement draw. The model of
best_discards (docs/advice.md), as one value query (value.Query)."""

from __future__ import annotations

from typing import NamedTuple

from ..efficiency.api import kernel_context, raise_for_status, shanten, visible_array
from ..efficiency.status import OK
from ..hand import Hand, parse_hand
from .danger import risk_of
from .model import ValueModel, value_model
from .options import fan_inputs
from .position import new_position
from .value import budget
from .value.query import Figures, Query, new_query


class HandValue(NamedTuple):
    """The value figures of a waiting hand as it stands (see DiscardOption for each)."""

    shanten: int
    win_probability: "float | None"
    expected_score: "float | None"
    ready_by_draw: "tuple[float, ...]"
    win_by_draw: "tuple[float, ...]"
    model: str = budget.VALUE
    """As DiscardOption.model; "fan-aware" when no value graph fitted the budget (the figures
    are then None and empty)."""


def hand_value(h, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0, ruleset=None, draws=None,
               model: "ValueModel | None" = None, budget_ms=None, danger=None) -> HandValue:
    """The value figures of a 3n+1 hand waiting to draw (the model of best_discards): what a
    claim passed leaves, or a hand after an exposed kong, before its replacement draw (give
    one draw more). budget_ms and danger as for best_discards (the danger of its later
    discards: growth[1] is the first's)."""
    budget_ms = budget.check_budget(budget_ms)
    h = h if isinstance(h, Hand) else parse_hand(h)
    query = hand_query(h, visible, seat_wind=seat_wind, prevalent_wind=prevalent_wind, flowers=flowers,
                       ruleset=ruleset, draws=draws, model=model, danger=danger)
    status, found, used = budget.value_figures([query], budget_ms)
    if status != OK:
        raise_for_status(h, 13, "hand_value", visible)
    return hand_value_of(query, found[0] if found else None, used)


def hand_query(h: Hand, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0, ruleset=None, draws=None,
               model: "ValueModel | None" = None, danger=None) -> Query:
    """The value query (mjfast.advice.value.Query) of a 3n+1 Hand as it stands."""
    counts, meld_counts, n_melds = h.kernel_arrays()
    table, _ = kernel_context()
    _, flower_count, wind_index, pack_melds, ruleset_of = fan_inputs()
    rules = ruleset_of(ruleset)
    model = value_model(draws, model)
    seat, prevalent = wind_index(seat_wind, "seat_wind"), wind_index(prevalent_wind, "prevalent_wind")
    position = new_position(table, counts, meld_counts, n_melds, pack_melds(h.melds) if n_melds else 0, 13,
                            visible_array(visible), seat, prevalent, rules.code, rules.minimum, flower_count(flowers))
    return new_query(position, model, risk_of(danger, model.draws), shanten(h))


def hand_value_of(query: Query, figures: "Figures | None", model: str) -> HandValue:
    """The HandValue of a hand_query's figures (row 0), None when none were found."""
    if figures is None:
        return HandValue(query.shanten, None, None, (), (), budget.FAN_AWARE)
    ready, win, score = figures
    return HandValue(query.shanten, float(win[0, -1]), float(score[0]), tuple(ready[0].tolist()),
                     tuple(win[0].tolist()), model)
