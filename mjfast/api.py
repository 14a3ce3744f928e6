"""The public per-hand calls: shanten, useful tiles, waits, acceptance, best discards.

Every call takes a Hand or anything parse_hand reads (a compact or Botzone string, a
34-count array, a list of tiles). Count arrays and plain strings without melds skip
building a Hand: one kernel call checks the tiles and answers, and only when it reports a
problem is the input read again in full, to raise the HandError that names it
(mjfast.hand.check_tiles words every fault).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import budget
from .efficiency import one_hand as _k
from .efficiency import rows as _rows
from .efficiency.all_forms import FORM_NAMES
from .efficiency.group_dp import INF
from .efficiency.lookup_table import load_table
from .efficiency.scratch import N_FORMS
from .errors import HandError
from .hand import Hand, check_tiles, parse_hand, visible_counts
from .jit import DirectKernel
from .tiles import N_KINDS, TILE_NAMES, compact_counts, parse_tiles, tally, tile_id

# Kernels see only C-contiguous, writeable uint8 arrays: one compiled signature whatever the
# caller passes (numba compiles read-only arrays separately). Kernels never write to them.
NO_MELDS = np.zeros(N_KINDS, np.uint8)
_UINT8 = NO_MELDS.dtype
_HAND_SHAPE = (N_KINDS,)
_NOTHING_SEEN = np.zeros(N_KINDS, np.uint8)
# The per-hand kernels, called without numba's type dispatch after their first call: every
# argument below is converted first (see mjfast.jit.DirectKernel).
_shanten_of = DirectKernel(_k.shanten_of)
_forms_of = DirectKernel(_k.forms_of)
_useful_of = DirectKernel(_k.useful_of)
_discards_of = DirectKernel(_k.discards_of)
_context: "tuple[np.ndarray, np.ndarray] | None" = None


def kernel_context() -> "tuple[np.ndarray, np.ndarray]":
    """(lookup table, scratch) the per-hand kernels share, made once per process. The
    scratch's memos (melded groups, scored hands) serve every later query. Kernels hold the
    GIL, so calls from several Python threads never share the scratch at the same time."""
    global _context
    if _context is None:
        from .efficiency.scratch import new_scratch

        _context = (load_table(), new_scratch())
    return _context


_BIT_NAMES = {1 << t: name for t, name in enumerate(TILE_NAMES)}


def tile_names(mask: int) -> tuple[str, ...]:
    """Names of the tiles in a 34-bit mask, in tile order."""
    names = []
    while mask:
        low = mask & -mask
        names.append(_BIT_NAMES[low])
        mask ^= low
    return tuple(names)


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
    """The model behind the order and the figures (mjfast.budget.MODELS): "value" (the value
    model as stated), "value-no-exchange" (its lower bound without exchanges: the time
    budget had no room for them), "fan-aware" (no value figures: asked for, or no value graph
    fitted the budget) or "efficiency" (no fan figures either). The same for every option of
    a query."""
    deal_in: "float | None" = None
    """With the opponents' danger (best_discards' `danger`): the probability that this discard
    deals in now (mjfast.danger)."""
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


def _hand_arrays(h) -> tuple[np.ndarray, np.ndarray, int]:
    """(standing counts, meld counts, number of melds), kernel-ready, from any hand input.

    Count arrays and plain strings are not checked here: the kernels check them and
    _raise_for reads them again for the message."""
    if h.__class__ is np.ndarray and h.dtype is _UINT8 and h.shape == _HAND_SHAPE:
        return (h if h.flags.carray else np.array(h)), NO_MELDS, 0  # carray: C-contiguous, aligned, writeable
    if h.__class__ is str and "[" not in h:
        counts = compact_counts(h)
        if counts is not None:
            return counts, NO_MELDS, 0
        ids = parse_tiles(h)
        if len(ids) <= 14:  # counts fit a byte; the kernel checks everything else
            return np.array(tally(ids), np.uint8), NO_MELDS, 0
        return parse_hand(h).kernel_arrays()  # raises the HandError that names the problem
    if isinstance(h, Hand):
        return h.kernel_arrays()
    return parse_hand(h).kernel_arrays()


def _raise_for(h, needs: "int | None", call: str, visible=None) -> None:
    """Raise the HandError behind a kernel's status: the input read in full names it."""
    hand = parse_hand(h)  # raises for a hand no call takes
    check_tiles(hand.counts, hand.meld_counts, hand.n_melds, needs, call,
                None if visible is None else visible_counts(visible))


def _visible(visible) -> np.ndarray:
    if visible is None:
        return _NOTHING_SEEN
    return np.array(visible_counts(visible))


def shanten(h) -> int:
    """Shanten over every MCR form the hand may still take: -1 complete, 0 ready."""
    table, work = _context or kernel_context()
    if h.__class__ is np.ndarray and h.dtype is _UINT8 and h.shape == _HAND_SHAPE and h.flags.carray:
        # a bot's count array, as the kernel takes it: _hand_arrays inlined (a third of the call)
        counts, meld_counts, n_melds = h, NO_MELDS, 0
    else:
        counts, meld_counts, n_melds = _hand_arrays(h)
    s = _shanten_of.call(table, counts, meld_counts, n_melds, work)
    if s <= -100:
        _raise_for(h, None, "shanten")
    return s


def _forms(h, prune: bool, with_masks: bool, needs: "int | None", call: str):
    counts, meld_counts, n_melds = _hand_arrays(h)
    dist = np.empty(N_FORMS, np.int64)
    masks = np.empty(N_FORMS, np.int64)
    table, work = _context or kernel_context()
    status = _forms_of.call(table, counts, meld_counts, n_melds, needs or 0, prune, with_masks, dist, masks, work)
    if status != _rows.OK:
        _raise_for(h, needs, call)
    return dist, masks


def shanten_by_form(h) -> dict[str, "int | None"]:
    """Shanten of each form; None where the form is impossible (melds, tile limits)."""
    dist, _ = _forms(h, False, False, None, "shanten_by_form")
    return {FORM_NAMES[f]: (int(dist[f]) - 1 if dist[f] < INF else None) for f in range(N_FORMS)}


def useful_by_form(h) -> dict[str, "list[str] | None"]:
    """Useful tiles of a 3n+1 hand for each form separately; None where the form is impossible."""
    dist, masks = _forms(h, False, True, 13, "useful_by_form")
    return {FORM_NAMES[f]: (list(tile_names(int(masks[f]))) if dist[f] < INF else None) for f in range(N_FORMS)}


def _useful(h, visible, call: str) -> tuple[int, int, int]:
    """(shanten, useful mask, acceptance) of a 3n+1 hand."""
    counts, meld_counts, n_melds = _hand_arrays(h)
    table, work = _context or kernel_context()
    status, s, mask, acc = _useful_of.call(table, counts, meld_counts, n_melds, _visible(visible), work)
    if status != _rows.OK:
        _raise_for(h, 13, call, visible)
    return s, mask, acc


def useful_tiles(h) -> list[str]:
    """Tiles whose draw lowers the shanten of a 3n+1 hand (a kind held 4 times never is)."""
    return list(tile_names(_useful(h, None, "useful_tiles")[1]))


def waits(h) -> list[str]:
    """The winning tiles of a ready 3n+1 hand; [] when the hand is not ready."""
    s, mask, _ = _useful(h, None, "waits")
    return list(tile_names(mask)) if s == 0 else []


def acceptance(h, visible=None) -> int:
    """Unseen copies of the useful tiles of a 3n+1 hand, given the tiles seen elsewhere."""
    return _useful(h, visible, "acceptance")[2]


_fan_inputs = None


def _load_fan_inputs():
    """The fan-aware kernel and its converters, imported on first use (importing mjfast stays
    light, and import statements inside best_discards would cost microseconds on every call)."""
    global _fan_inputs
    from .efficiency.fan_advice import fan_discards_of
    from .fan.conditions import flower_count, wind_index
    from .fan.encode import pack_melds
    from .fan.ruleset import ruleset_of

    _fan_inputs = (DirectKernel(fan_discards_of), flower_count, wind_index, pack_melds, ruleset_of)
    return _fan_inputs


# An option from all its fields in order, without the keyword-handling __new__ (a list of
# options is built on every query); the defaults of the fields a ranking leaves out.
_new_option = tuple.__new__
_NO_VALUE_FIGURES = DiscardOption._field_defaults["win_probability"], None, (), (), budget.FAN_AWARE, None, None
_NO_FAN_FIGURES = (None, 0.0, 0, (), None) + _NO_VALUE_FIGURES[:4] + (budget.EFFICIENCY, None, None)


def options_from_rows(rows: np.ndarray, n: int, wait_points: "np.ndarray | None" = None) -> list[DiscardOption]:
    """The DiscardOptions of the first n discard rows of an entry kernel (columns:
    efficiency.rows); rows of rows.FAN_WIDTH carry the fan-aware fields, and `wait_points`
    (34 x 34 x 2, see fan_advice.fan_discards_of) the waits' fans. The one converter from the
    kernels' rows to options. The rows are float64: their integer columns are converted in
    one numpy cast, not one int() a cell (this runs on every plain call: microseconds count)."""
    ints = rows[:n].astype(np.int64).tolist()
    next_figures = rows[:n, _rows.NEXT_ACCEPTANCE].tolist()
    tile, shanten, acceptance, mask = _rows.TILE, _rows.SHANTEN, _rows.ACCEPTANCE, _rows.USEFUL_MASK  # local: fast
    if rows.shape[1] == _rows.PLAIN_WIDTH:
        return [_new_option(DiscardOption, (TILE_NAMES[row[tile]], row[shanten], row[acceptance], x, row[mask])
                            + _NO_FAN_FIGURES) for row, x in zip(ints, next_figures)]
    options = []
    for row, next_acceptance, next_valid in zip(ints, next_figures, rows[:n, _rows.NEXT_VALID_ACCEPTANCE].tolist()):
        t, s, m = row[tile], row[shanten], row[mask]
        waits = ()
        if s == 0:
            fans = wait_points[t].tolist()  # one conversion, not two numpy scalars a wait
            waits = tuple(WaitFans(TILE_NAMES[w], *fans[w]) for w in range(N_KINDS) if (m >> w) & 1)
        valid = row[_rows.VALID_ACCEPTANCE]
        options.append(_new_option(DiscardOption, (
            TILE_NAMES[t], s, row[acceptance], next_acceptance, m, None if valid == _rows.UNKNOWN else valid,
            next_valid, row[_rows.VALID_DRAWS_MASK], waits, row[_rows.EFFECTIVE_SHANTEN]) + _NO_VALUE_FIGURES))
    return options


class ValueModel(NamedTuple):
    """The value model's parameters (docs/advice.md states the model and how they were chosen).

    draws: the player's own draws the model plays out. A table knows its tiles left, and
    draws_left(tiles_left) turns them into the draws a game is likely to last (strong games
    end, by someone's win, after about half the wall); a hand alone gets DRAWS, a game's
    middle. ron_discards: the discards by others before each of the player's draws, each a
    chance of a win on it. hazard: the chance that a round ends the game otherwise. extra: how
    many steps behind the best route a hand may fall and still be played (exchanges: a ready
    hand short of 8 fans must change its waits)."""

    draws: int = 10
    ron_discards: float = 2.0
    hazard: float = 0.0
    extra: int = 1


VALUE_MODEL = ValueModel()
# How best_discards orders discards by default, and the other rankings it knows.
RANKINGS = ("expected-score", "win-probability", "fan-aware", "efficiency")
DEFAULT_RANKING = "expected-score"


def draws_left(own_draws: int) -> int:
    """The own draws a game is likely to go on for when the player could still make `own_draws`
    (TableState.own_draws_left): half of them (in the 19 strong games of tests/data/logs, the
    draws a player still made were 0.3 to 0.55 of the tiles left in their wall, 0.45 on
    average), at least one, at most 40."""
    return min(40, max(1, (int(own_draws) + 1) // 2))


def value_model(draws=None, model: "ValueModel | None" = None) -> ValueModel:
    """The model of a query: `model` (VALUE_MODEL if None) with `draws` if given, checked."""
    model = VALUE_MODEL if model is None else model
    if draws is not None:
        model = model._replace(draws=draws)
    whole = isinstance(model.draws, (int, np.integer)) and not isinstance(model.draws, bool)
    if not (whole and 1 <= model.draws <= 40):
        raise HandError(f"draws must be an integer 1..40 (the draws the player has left), got {model.draws!r}")
    if not 0 <= model.ron_discards <= 10 or not 0 <= model.hazard < 1 or model.extra not in (0, 1, 2):
        raise HandError(f"value model out of range: {model}")
    return model


# A discard of the drawn tile whose figure is within this fraction of the best goes first:
# figures that close are equal within the model (docs/advice.md, "How the defaults were chosen").
DRAWN_TIE = 1e-3


class DiscardQuery(NamedTuple):
    """A 14-tile hand's value query, prepared: its options with the fan-aware figures, the
    value graph to run (mjfast.budget.Job) and the efficiency order of its discards (tile
    ids), which breaks ties. claim_options runs several at once (one model for all)."""

    options: list
    job: budget.Job
    efficiency_order: list

    def valued(self, figures: "budget.Figures", model: str, ranking: str, drawn: "int | None") -> list:
        """The options with their value figures (per tile id), ordered by `ranking`; ties
        (equal figures) go in the efficiency order, which agrees with strong play more often
        than the fan-aware one, except that the drawn tile goes first when its figure is within
        DRAWN_TIE of the best (docs/advice.md)."""
        ready, win, score = figures
        position = {t: i for i, t in enumerate(self.efficiency_order)}
        danger = self.job.deal_in is not budget.NO_RISK
        deal_in, cost = self.job.deal_in.tolist(), (self.job.deal_in * self.job.loss).tolist()
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
    (no value figures, microseconds instead of milliseconds); "efficiency" (or
    fan_aware=False) pure efficiency.

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
    model that fits is used (mjfast.budget: the model as stated, its lower bound without
    exchanges, or no value figures and the fan-aware ranking) and every option names it
    (DiscardOption.model). Without a budget the figures are always the model's as stated.

    danger: the opponents' danger (mjfast.danger.Danger, e.g. danger.table_danger of a game's
    table): the value rankings then count the cost of dealing in, this discard's and the
    later ones', and may fold (docs/advice.md); each option carries deal_in and deal_in_cost.
    """
    ranking = _ranking(ranking, fan_aware)
    budget_ms = budget.check_budget(budget_ms)
    if ranking == "efficiency":
        counts, meld_counts, n_melds = _hand_arrays(h)
        table, work = _context or kernel_context()
        rows = np.empty((N_KINDS, _rows.PLAIN_WIDTH), np.float64)
        status, n = _discards_of.call(table, counts, meld_counts, n_melds, _visible(visible), bool(next_step), rows,
                                      work)
        if status != _rows.OK:
            _raise_for(h, 14, "best_discards", visible)
        return options_from_rows(rows, n)
    query = discard_query(h, visible, seat_wind=seat_wind, prevalent_wind=prevalent_wind, flowers=flowers,
                          ruleset=ruleset, draws=draws, model=model, value=ranking != "fan-aware", danger=danger)
    if ranking == "fan-aware":
        return query.options
    if drawn is not None:
        drawn = _drawn_tile(query.job.inputs[1], drawn)
    status, found, used = budget.value_figures([query.job], value_model(draws, model).extra, budget_ms)
    if status != _rows.OK:
        _raise_for(h, 14, "best_discards", visible)
    if found is None:
        return query.options  # no value graph fitted the budget: the fan-aware ranking
    return query.valued(found[0], used, ranking, drawn)


def discard_query(h, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0, ruleset=None, draws=None,
                  model: "ValueModel | None" = None, value: bool = True, danger=None) -> DiscardQuery:
    """best_discards' fan-aware options of a 3n+2 hand and, with `value`, its value graph
    (the job) and efficiency order, ready to run (see DiscardQuery); raises HandError for a
    hand or visible tiles that the query cannot take."""
    if not (h.__class__ is np.ndarray or (h.__class__ is str and "[" not in h)):
        h = h if isinstance(h, Hand) else parse_hand(h)  # once: the fan kernels need its melds too
    counts, meld_counts, n_melds = _hand_arrays(h)
    table, work = _context or kernel_context()
    fan_discards_of, flower_count, wind_index, pack_melds, ruleset_of = _fan_inputs or _load_fan_inputs()
    rules = ruleset_of(ruleset)
    seat = wind_index(seat_wind, "seat_wind")
    prevalent = wind_index(prevalent_wind, "prevalent_wind")
    flowers = flower_count(flowers)
    melds = pack_melds(h.melds) if n_melds else 0
    seen = _visible(visible)
    rows = np.empty((N_KINDS, _rows.FAN_WIDTH), np.float64)
    wait_points = np.zeros((N_KINDS, N_KINDS, 2), np.int64)
    status, n = fan_discards_of.call(table, counts, meld_counts, n_melds, melds, seen, seat, prevalent, rules.code,
                                      rules.minimum, True, rows, wait_points, work)
    if status != _rows.OK:
        _raise_for(h, 14, "best_discards", visible)
    options = options_from_rows(rows, n, wait_points)
    if not value:
        return DiscardQuery(options, None, [])
    model = value_model(draws, model)
    plain = np.empty((N_KINDS, _rows.PLAIN_WIDTH), np.float64)
    _, n_plain = _discards_of.call(table, counts, meld_counts, n_melds, seen, True, plain, work)
    efficiency_order = plain[:n_plain, _rows.TILE].astype(np.int64).tolist()
    job = budget.Job((table, counts, meld_counts, n_melds, melds, 14, seen, seat, prevalent, rules.code, rules.minimum,
                      flowers), model.draws, min(o.shanten for o in options), float(model.ron_discards),
                     float(model.hazard), *_danger_inputs(danger, model.draws))
    return DiscardQuery(options, job, efficiency_order)


def _danger_inputs(danger, draws: int) -> tuple:
    """(deal_in, loss, growth) of a Job from a mjfast.danger.Danger (checked), or the Job's
    defaults without one. The growth is capped so that no discard deals in for certain."""
    if danger is None:
        return budget.NO_RISK, budget.NO_RISK, budget.Job._field_defaults["growth"]
    from .danger import Danger

    if not isinstance(danger, Danger):
        raise HandError(f"danger must be a mjfast.danger.Danger (danger_of, table_danger), got {type(danger).__name__}")
    deal_in = np.ascontiguousarray(danger.deal_in, np.float64)
    loss = np.ascontiguousarray(danger.loss, np.float64)
    growth = np.ascontiguousarray(danger.growth, np.float64)
    if deal_in.shape != (N_KINDS,) or loss.shape != (N_KINDS,) or growth.ndim != 1 or len(growth) < draws + 1 or \
            not (np.all((deal_in >= 0) & (deal_in <= 1)) and np.all(loss >= 0) and np.all(growth >= 0)):
        raise HandError(f"a Danger needs deal_in (34, in 0..1), loss (34, >= 0) and growth (>= 0, at least draws + 1 "
                        f"= {draws + 1} of them)")
    top = deal_in.max()
    if top > 0:
        growth = np.minimum(growth, 1.0 / top)
    return deal_in, loss, growth


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
        raise HandError(f"unknown ranking {ranking!r}; known: {', '.join(RANKINGS)}")
    return ranking


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
    job = hand_job(h, visible, seat_wind=seat_wind, prevalent_wind=prevalent_wind, flowers=flowers,
                   ruleset=ruleset, draws=draws, model=model, danger=danger)
    status, found, used = budget.value_figures([job], value_model(draws, model).extra, budget_ms)
    if status != _rows.OK:
        _raise_for(h, 13, "hand_value", visible)
    return hand_value_of(job, found[0] if found else None, used)


def hand_job(h: Hand, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0, ruleset=None, draws=None,
             model: "ValueModel | None" = None, danger=None) -> "budget.Job":
    """The value graph (mjfast.budget.Job) of a 3n+1 Hand as it stands."""
    counts, meld_counts, n_melds = h.kernel_arrays()
    table, _ = _context or kernel_context()
    _, flower_count, wind_index, pack_melds, ruleset_of = _fan_inputs or _load_fan_inputs()
    rules = ruleset_of(ruleset)
    model = value_model(draws, model)
    seat, prevalent = wind_index(seat_wind, "seat_wind"), wind_index(prevalent_wind, "prevalent_wind")
    return budget.Job((table, counts, meld_counts, n_melds, pack_melds(h.melds) if n_melds else 0, 13,
                       _visible(visible), seat, prevalent, rules.code, rules.minimum, flower_count(flowers)),
                      model.draws, shanten(h), float(model.ron_discards), float(model.hazard),
                      *_danger_inputs(danger, model.draws))


def hand_value_of(job: "budget.Job", figures: "budget.Figures | None", model: str) -> HandValue:
    """The HandValue of a hand_job's figures (row 0), None when none were found."""
    if figures is None:
        return HandValue(job.shanten, None, None, (), (), budget.FAN_AWARE)
    ready, win, score = figures
    return HandValue(job.shanten, float(win[0, -1]), float(score[0]), tuple(ready[0].tolist()),
                     tuple(win[0].tolist()), model)
