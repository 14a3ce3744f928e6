"""Every discard of a hand, ranked: best_discards and its options.

The efficiency and fan-aware rankings come from their entry kernels (plain.discards_of,
fan_aware.fan_discards_of) as rows (rows.py), turned into DiscardOptions here (the one
converter); the value rankings add the value figures of the value engine (advice.value, run by
its budget under a time budget) to the fan-aware options. Every call takes a Hand or anything
parse_hand reads; bad input raises the HandError that names it.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from ..efficiency.api import hand_arrays, kernel_context, raise_for_status, tile_names, visible_array
from ..efficiency.status import OK
from ..errors import ArgumentError, HandError
from ..hand import Hand, parse_hand
from ..runtime.dispatch import DirectKernel
from ..tiles import N_KINDS, TILE_NAMES, tile_id
from . import rows as _rows
from .danger import risk_of
from .model import DEFAULT_RANKING, RANKINGS, ValueModel, value_model
from .plain import discards_of
from .position import new_position
from .value import budget
from .value.query import NO_RISK, Figures, Query, new_query

# The plain ranking's kernel, called without numba's type dispatch after its first call
# (mjfast.runtime.dispatch.DirectKernel; mjfast.efficiency.api converts every argument first).
_discards_of = DirectKernel(discards_of)


class WaitFans(NamedTuple):
    """A wait of a ready hand and the fans its win scores, flowers aside (they add to the
    total but not toward the 8-fan minimum)."""

    tile: str
    """The winning tile."""
    discard: int
    """Fans of the win on another player's discard."""
    self_drawn: int
    """Fans of the win by self-draw."""


class DiscardOption(NamedTuple):
    """One discard of a 3n+2 hand, and what the 3n+1 hand left by it has."""

    tile: str
    """The tile discarded."""
    shanten: int
    """Shanten of the hand left (0 ready), over every form."""
    acceptance: int
    """Unseen copies of its useful tiles (the discarded tile counts as seen)."""
    next_acceptance: float
    """Over the useful draws weighted by their unseen copies, the acceptance after the draw and
    the best discard that follows. Worked out only where it can decide the ranking: plain,
    for the discards that keep the best shanten; fan-aware, for the discards still tied for
    first place when the ranking reaches it. 0.0 elsewhere, and for a ready hand (its useful
    draws win)."""
    useful_mask: int
    """The useful tiles as bits (tile id t is bit t); `useful` gives their names (the waits
    when shanten is 0)."""
    valid_acceptance: "int | None" = None
    """Fan-aware only. Ready: unseen copies of the waits whose discard win reaches the 8-fan
    minimum. One step away (or ready with no such wait): unseen copies of the draws after
    which a discard leaves a ready hand with such a wait. None further away, and for discards
    that leave the hand further than another discard that is ready with a valid wait (they
    cannot rank above it, so their fans are not worked out)."""
    next_valid_acceptance: float = 0.0
    """Fan-aware, one step away: over the useful draws weighted by unseen copies, the valid
    acceptance after the draw and the best discard."""
    valid_draws_mask: int = 0
    """Fan-aware: the draws counted in valid_acceptance when the hand is not ready and valid
    (`valid_draws` gives their names)."""
    wait_fans: "tuple[WaitFans, ...]" = ()
    """Fan-aware, ready: each wait with its fans."""
    effective_shanten: "int | None" = None
    """Fan-aware: the shanten that counts in MCR. A ready hand none of whose waits reaches the
    minimum is one step away (it must change its waits), and a hand one step away whose draws
    all lead to such hands is two steps away."""
    win_probability: "float | None" = None
    """Value-aware (see docs/advice.md for the model): the probability of a valid win (8 fans,
    flowers aside) within the draws left, the rest of the hand played to make it most likely."""
    expected_score: "float | None" = None
    """Value-aware: the expected points won (Botzone settlement: 3 x (8 + fans) self-drawn,
    8 + fans + 2 x 8 on a discard; 0 without a win), the rest played to make it most."""
    ready_by_draw: "tuple[float, ...]" = ()
    """Value-aware: [k] the probability of being ready with a wait that can win within k + 1
    draws (each figure with the play that makes it most likely)."""
    win_by_draw: "tuple[float, ...]" = ()
    """Value-aware: [k] the probability of a valid win within k + 1 draws."""
    model: str = budget.FAN_AWARE
    """The model behind the order and the figures (mjfast.advice.value.MODELS): "value" (the value
    model as stated), "value-no-exchange" (its lower bound without exchanges: the time
    budget had no room for them), "fan-aware" (no value figures: asked for, or no value graph
    fitted the budget) or "efficiency" (no fan figures either). The same for every option of
    a query."""
    deal_in: "float | None" = None
    """With the opponents' danger (best_discards' `danger`): the probability that this discard
    deals in now (mjfast.advice.danger)."""
    deal_in_cost: "float | None" = None
    """With the danger: the points this discard is expected to lose now, deal_in x what
    dealing in pays. expected_score is net of it and of the danger of the later discards."""

    @property
    def useful(self) -> tuple[str, ...]:
        return tile_names(self.useful_mask)

    @property
    def useful_kinds(self) -> int:
        return bin(self.useful_mask).count("1")

    @property
    def valid_draws(self) -> tuple[str, ...]:
        return tile_names(self.valid_draws_mask)

    def __repr__(self) -> str:
        fans = ""
        if self.valid_acceptance is not None:
            fans = f", valid_acceptance={self.valid_acceptance}"
        return (f"DiscardOption(tile={self.tile!r}, shanten={self.shanten}, acceptance={self.acceptance}, "
                f"next_acceptance={self.next_acceptance:.3f}, useful={self.useful}{fans})")


_fan_inputs = None


def fan_inputs():
    """(the fan-aware kernel, flower_count, wind_index, pack_melds, ruleset_of), imported on
    first use (importing mjfast stays light, and import statements inside best_discards would
    cost microseconds on every call)."""
    return _fan_inputs or _load_fan_inputs()


def _load_fan_inputs():
    global _fan_inputs
    from ..fan.conditions import flower_count, wind_index
    from ..fan.encode import pack_melds
    from ..fan.ruleset import ruleset_of
    from .fan_aware import fan_discards_of

    _fan_inputs = (DirectKernel(fan_discards_of), flower_count, wind_index, pack_melds, ruleset_of)
    return _fan_inputs


# The fields a ranking leaves out, at their defaults: the value figures (after the fan-aware
# fields), and the fan-aware and value figures (after the plain fields).
_NO_VALUE_FIGURES = DiscardOption._field_defaults["win_probability"], None, (), (), budget.FAN_AWARE, None, None
_NO_FAN_FIGURES = (None, 0.0, 0, (), None) + _NO_VALUE_FIGURES[:4] + (budget.EFFICIENCY, None, None)


def options_from_rows(rows: np.ndarray, n: int, wait_points: "np.ndarray | None" = None) -> list[DiscardOption]:
    """The DiscardOptions of the first n discard rows of an entry kernel (columns:
    advice.rows); rows of rows.FAN_WIDTH carry the fan-aware fields, and `wait_points`
    (34 x 34 x 2, see fan_aware.fan_discards_of) the waits' fans. The one converter from the
    kernels' rows to options.

    This runs on every plain and fan-aware call, where it cost as much as the kernel: the
    options are built column by column (one numpy conversion a kind of column, then zip and
    map, which loop in C), not field by field."""
    figures = rows[:n].T
    ints = figures.astype(np.int64).tolist()
    tiles, shanten, masks = ints[_rows.TILE], ints[_rows.SHANTEN], ints[_rows.USEFUL_MASK]
    names = list(map(TILE_NAMES.__getitem__, tiles))
    if figures.shape[0] == _rows.PLAIN_WIDTH:
        return list(map(_new_option, _OPTION_TYPE, zip(
            names, shanten, ints[_rows.ACCEPTANCE], figures[_rows.NEXT_ACCEPTANCE].tolist(), masks, *_NO_FAN_COLUMNS)))
    waits = [_wait_fans(wait_points[t], m) if s == 0 else () for t, s, m in zip(tiles, shanten, masks)]
    return list(map(_new_option, _OPTION_TYPE, zip(
        names, shanten, ints[_rows.ACCEPTANCE], figures[_rows.NEXT_ACCEPTANCE].tolist(), masks,
        [None if v == _rows.UNKNOWN else v for v in ints[_rows.VALID_ACCEPTANCE]],
        figures[_rows.NEXT_VALID_ACCEPTANCE].tolist(), ints[_rows.VALID_DRAWS_MASK], waits,
        ints[_rows.EFFECTIVE_SHANTEN], *_NO_VALUE_COLUMNS)))


def _wait_fans(points: np.ndarray, mask: int) -> "tuple[WaitFans, ...]":
    """The WaitFans of a ready hand's waits (`mask`), from their points (34 x 2)."""
    fans = points.tolist()
    return tuple(WaitFans(TILE_NAMES[w], *fans[w]) for w in range(N_KINDS) if (mask >> w) & 1)


# What options_from_rows zips and maps: an option from its fields in order without the
# keyword-handling __new__, and the columns of the fields a ranking leaves out.
_new_option = tuple.__new__
_OPTION_TYPE = itertools.repeat(DiscardOption)
_NO_FAN_COLUMNS = tuple(itertools.repeat(value) for value in _NO_FAN_FIGURES)
_NO_VALUE_COLUMNS = tuple(itertools.repeat(value) for value in _NO_VALUE_FIGURES)


# A discard of the drawn tile whose figure is within this fraction of the best goes first:
# figures that close are equal within the model (docs/advice.md, "How the defaults were chosen").
DRAWN_TIE = 1e-3


class DiscardQuery(NamedTuple):
    """A 14-tile hand's value query, prepared: its options with the fan-aware figures, the
    value graph to run (mjfast.advice.value.Query) and the efficiency order of its discards (tile
    ids), which breaks ties. claim_options runs several at once (one model for all)."""

    options: list
    value_query: Query
    efficiency_order: list

    def valued(self, figures: Figures, model: str, ranking: str, drawn: "int | None") -> list:
        """The options with their value figures (per tile id), ordered by `ranking`; ties
        (equal figures) go in the efficiency order, which agrees with strong play more often
        than the fan-aware one, except that the drawn tile goes first when its figure is within
        DRAWN_TIE of the best (docs/advice.md)."""
        ready, win, score = figures
        position = {t: i for i, t in enumerate(self.efficiency_order)}
        risk = self.value_query.risk
        danger = risk is not NO_RISK
        deal_in, cost = risk.deal_in.tolist(), (risk.deal_in * risk.loss).tolist()
        valued = []
        for option in self.options:
            t = _TILE_IDS[option.tile]
            valued.append((option._replace(win_probability=float(win[t, -1]), expected_score=float(score[t]),
                                           ready_by_draw=tuple(ready[t].tolist()), win_by_draw=tuple(win[t].tolist()),
                                           model=model, deal_in=deal_in[t] if danger else None,
                                           deal_in_cost=cost[t] if danger else None), position[t]))
        field = "win_probability" if ranking == "win-probability" else "expected_score"
        valued.sort(key=lambda o: (-getattr(o[0], field), o[1]))
        ordered = [option for option, _ in valued]
        if drawn is not None:
            name = TILE_NAMES[drawn]
            mine = next(i for i, option in enumerate(ordered) if option.tile == name)
            best = getattr(ordered[0], field)
            if best - getattr(ordered[mine], field) <= DRAWN_TIE * abs(best):
                ordered.insert(0, ordered.pop(mine))
        return ordered


_TILE_IDS = {name: t for t, name in enumerate(TILE_NAMES)}


def best_discards(h, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0, fan_aware=True,
                  next_step=True, ruleset=None, ranking=None, draws=None,
                  model: "ValueModel | None" = None, drawn=None, budget_ms=None, danger=None) -> list[DiscardOption]:
    """Every distinct discard of a 3n+2 hand, best first.

    ranking (default DEFAULT_RANKING, "expected-score"): by the value figures (the expected
    score, or the win probability, of each discard under mjfast's value model with `draws`
    left, see docs/advice.md and ValueModel), ties in the efficiency order; every option also
    carries the fan-aware figures. "fan-aware" keeps the lexicographic fan-aware ranking alone
    (no value figures, microseconds instead of milliseconds); "efficiency" pure efficiency.
    `ranking=` is the way to choose; fan_aware=False is the older spelling of
    ranking="efficiency", kept working.

    The fan-aware ranking goes by effective shanten (a result whose waits or draws cannot
    reach the 8-fan minimum counts as one step further), then valid acceptance where it is
    worked out (plain acceptance where it is not), acceptance, next valid acceptance, fan
    value (unseen copies x fans of the valid waits), fan potential (how close the big chow
    fans are), next_acceptance, then the less connected tile (honours, terminals, 2/8,
    middle), then tile order; each option carries the fan-aware fields (see DiscardOption).
    Winds (E S W N or 0-3) and the ruleset change the fans; `flowers` is checked but never
    counts toward the minimum.

    Pure efficiency ranks by shanten, acceptance, next_acceptance, then the same tie-breaks;
    next_step=False (efficiency only) also skips next_acceptance (0.0). docs/advice.md
    explains each figure.

    drawn: the tile just drawn (a name or id among the standing tiles), when known; under
    the value rankings, discarding it goes first when its figure is within 0.1% of the best
    (DRAWN_TIE): throwing the drawn tile back shows the table nothing new of the hand.

    budget_ms: the milliseconds the value rankings may take (None: no limit). The richest
    model that fits is used (mjfast.advice.value.budget: the model as stated, its lower bound without
    exchanges, or no value figures and the fan-aware ranking) and every option names it
    (DiscardOption.model). Without a budget the figures are always the model's as stated.

    danger: the opponents' danger (mjfast.advice.danger.Danger, e.g. danger.table_danger of a game's
    table): the value rankings then count the cost of dealing in, this discard's and the
    later ones', and may fold (docs/advice.md); each option carries deal_in and deal_in_cost.
    """
    ranking = _ranking(ranking, fan_aware)
    budget_ms = budget.check_budget(budget_ms)
    if ranking == "efficiency":
        counts, meld_counts, n_melds = hand_arrays(h)
        table, work = kernel_context()
        rows = np.empty((N_KINDS, _rows.PLAIN_WIDTH), np.float64)
        status, n = _discards_of.call(table, counts, meld_counts, n_melds, visible_array(visible), bool(next_step),
                                      rows, work)
        if status != OK:
            raise_for_status(h, 14, "best_discards", visible)
        return options_from_rows(rows, n)
    query = discard_query(h, visible, seat_wind=seat_wind, prevalent_wind=prevalent_wind, flowers=flowers,
                          ruleset=ruleset, draws=draws, model=model, value=ranking != "fan-aware", danger=danger)
    if ranking == "fan-aware":
        return query.options
    if drawn is not None:
        drawn = _drawn_tile(query.value_query.position.counts, drawn)
    status, found, used = budget.value_figures([query.value_query], budget_ms)
    if status != OK:
        raise_for_status(h, 14, "best_discards", visible)
    if found is None:
        return query.options  # no value graph fitted the budget: the fan-aware ranking
    return query.valued(found[0], used, ranking, drawn)


def discard_query(h, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0, ruleset=None, draws=None,
                  model: "ValueModel | None" = None, value: bool = True, danger=None) -> DiscardQuery:
    """best_discards' fan-aware options of a 3n+2 hand and, with `value`, its value graph
    (a value Query) and efficiency order, ready to run (see DiscardQuery); raises HandError for a
    hand or visible tiles that the query cannot take."""
    if not (h.__class__ is np.ndarray or (h.__class__ is str and "[" not in h)):
        h = h if isinstance(h, Hand) else parse_hand(h)  # once: the fan kernels need its melds too
    counts, meld_counts, n_melds = hand_arrays(h)
    table, work = kernel_context()
    fan_discards_of, flower_count, wind_index, pack_melds, ruleset_of = fan_inputs()
    rules = ruleset_of(ruleset)
    seat = wind_index(seat_wind, "seat_wind")
    prevalent = wind_index(prevalent_wind, "prevalent_wind")
    flowers = flower_count(flowers)
    melds = pack_melds(h.melds) if n_melds else 0
    seen = visible_array(visible)
    rows = np.empty((N_KINDS, _rows.FAN_WIDTH), np.float64)
    wait_points = np.empty((N_KINDS, N_KINDS, 2), np.int64)  # the kernel fills those of the ready results' waits
    position = new_position(table, counts, meld_counts, n_melds, melds, 14, seen, seat, prevalent, rules.code,
                            rules.minimum, flowers)
    status, n = fan_discards_of.call(position, True, rows, wait_points, work)
    if status != OK:
        raise_for_status(h, 14, "best_discards", visible)
    options = options_from_rows(rows, n, wait_points)
    if not value:
        return DiscardQuery(options, None, [])
    model = value_model(draws, model)
    plain = np.empty((N_KINDS, _rows.PLAIN_WIDTH), np.float64)
    _, n_plain = _discards_of.call(table, counts, meld_counts, n_melds, seen, True, plain, work)
    efficiency_order = plain[:n_plain, _rows.TILE].astype(np.int64).tolist()
    value_query = new_query(position, model, risk_of(danger, model.draws), min(o.shanten for o in options))
    return DiscardQuery(options, value_query, efficiency_order)


def _drawn_tile(counts: np.ndarray, drawn) -> int:
    """The id of best_discards' `drawn`, checked to be among the standing tiles (`counts`)."""
    tile = tile_id(drawn)
    if counts[tile] == 0:
        raise HandError(f"the drawn tile {TILE_NAMES[tile]} is not among the standing tiles")
    return tile


def _ranking(ranking, fan_aware: bool) -> str:
    if ranking is None:
        return DEFAULT_RANKING if fan_aware else "efficiency"
    if ranking not in RANKINGS:
        raise ArgumentError(f"unknown ranking {ranking!r}; known: {', '.join(RANKINGS)}")
    return ranking
