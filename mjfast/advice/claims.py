"""What to do with another player's discard: the value of passing and of every legal claim.

    claim_options("123m456p78s1157sE", "9s", offered_by=1)   # best first
    [ClaimOption(action='chow', meld='[789s3]', discard='E', ...), ClaimOption(action='pass', ...)]

Each option carries the value figures of best_discards (docs/advice.md states the model):
passing keeps the hand (hand_value, the offered tile now seen); a chow or pung makes the meld
and the best discard follows (best_discards of the hand with the new meld); an exposed kong
gets its replacement draw (hand_value with one draw more); a win on the discard is certain
and scores the Botzone settlement for the winner, 8 + fans + 2 x 8. Options are ranked by
the same figure as best_discards; a tie goes to the option listed first in CLAIMS (passing
before claiming: a claim that gains nothing opens the hand for nothing).

The value graphs of all the options run together (mjfast.advice.value.budget), so that under
a time budget they are all of one model. The fan-aware ranking (asked for, or when no value graph
fits the budget: no value figures) puts a win first, then the claims that bring the hand a
step closer to a ready hand with a wait that can score 8 fans (the best discard after them
has a lower shanten and a valid acceptance; the best first by shanten, valid acceptance and
next valid acceptance) and an exposed kong that keeps the shanten of an open hand, then
passing, then the other claims.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..efficiency.api import shanten
from ..errors import ArgumentError, HandError
from ..hand import Hand, parse_hand, standing_less, visible_counts
from ..melds import CHOW, KONG, PUNG, Meld
from ..tiles import TILE_NAMES, tile_id
from .model import DEFAULT_RANKING, RANKINGS, ValueModel, a_round_on, value_model
from .options import discard_query
from .value import budget
from .waiting import hand_query, hand_value_of

CLAIMS = ("win", "pass", "pung", "chow", "kong")
WHO = {1: "left", 2: "across", 3: "right"}  # the player who discards, seen from the claimer
_ACTION = {PUNG: "pung", CHOW: "chow", KONG: "kong"}


class ClaimOption(NamedTuple):
    """One answer to another player's discard."""

    action: str
    """'win', 'pass', 'pung', 'chow' or 'kong'."""
    meld: "str | None"
    """The meld a claim makes, in mjfast's notation ('[789s3]': the digit says which tile was
    claimed for a chow, who gave it for a pung or kong)."""
    discard: "str | None"
    """After a chow or pung, the best discard that follows (by the ranking)."""
    shanten: int
    """Of the hand after the claim (and its discard): -1 for a win."""
    win_probability: "float | None"
    """The probability of a valid win within the draws left (1.0 for a win now); None without
    value figures (model "fan-aware")."""
    expected_score: "float | None"
    """The expected points won (the win's own for a win now); None without value figures."""
    ready_by_draw: "tuple[float, ...]" = ()
    win_by_draw: "tuple[float, ...]" = ()
    fans: "int | None" = None
    """For a win: its fans, flowers included."""
    valid_acceptance: "int | None" = None
    """After a chow or pung, the fan-aware valid acceptance of the best discard (see
    DiscardOption); None for the other options."""
    model: str = budget.VALUE
    """The model behind the figures and the order, the same for every option of an answer
    (see DiscardOption.model): "fan-aware" means no value figures."""
    deal_in: "float | None" = None
    """With the danger, after a chow or pung: the chance that its discard deals in (see
    DiscardOption.deal_in)."""
    deal_in_cost: "float | None" = None
    """With the danger, after a chow or pung: the points its discard is expected to lose."""


def claim_options(hand, tile, offered_by: int = 1, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0,
                  ruleset=None, draws=None, model: "ValueModel | None" = None, ranking=None,
                  last_discard: bool = False, budget_ms=None, danger=None) -> list[ClaimOption]:
    """Every answer to `tile` discarded by another player, best first (see the module doc).

    hand: the 3n+1 hand waiting to draw; offered_by: who discards it, 1 the player on the left
    (上家, the only one whose discard may be chowed), 2 across, 3 on the right; visible: the
    tiles seen elsewhere, not counting the offered one. last_discard: the game's last discard
    (the next player has no tile to draw), which can only be won on. ranking:
    "expected-score" (the default), "win-probability" or "fan-aware"; draws, model,
    budget_ms (for the whole answer) and danger (mjfast.advice.danger.Danger: the discard after a
    chow or pung, and every later one) as for best_discards.

    A chow or pung takes the place of this round's draw (the claimed tile is the round's
    tile), so its continuation has one draw fewer than passing; an exposed kong's replacement
    draw is its round's draw.
    """
    h = hand if isinstance(hand, Hand) else parse_hand(hand)
    if h.drawn:
        raise HandError(f"{h.to_compact()} has drawn: a claim is made by a hand waiting to draw (13 tiles "
                        "counting melds)")
    t = tile_id(tile)
    if offered_by not in WHO:
        raise ArgumentError(f"offered_by is who discards the tile: 1 left, 2 across, 3 right; got {offered_by!r}")
    ranking = DEFAULT_RANKING if ranking is None else ranking
    if ranking not in RANKINGS[:3]:
        raise ArgumentError(f"claims are ranked by {', '.join(RANKINGS[:3])}, not {ranking!r}")
    model = value_model(draws, model)
    budget_ms = budget.check_budget(budget_ms)
    seen = visible_counts(visible).astype(np.int64)
    if int(seen[t]) + int(h.counts[t]) + int(h.meld_counts[t]) >= 4:
        raise HandError(f"{TILE_NAMES[t]} is offered, but the hand and the tiles seen hold all 4 copies")
    conditions = dict(seat_wind=seat_wind, prevalent_wind=prevalent_wind, flowers=flowers, ruleset=ruleset)
    after_pass = seen.copy()
    after_pass[t] += 1
    value = ranking != "fan-aware"
    # (action, meld, the hand after it, its 14-tile query or None, its value query)
    choices: list[tuple] = [("pass", None, h, None, hand_query(h, after_pass, draws=model.draws, model=model,
                                                                danger=danger, **conditions) if value else None)]
    for meld, used in ([] if last_discard else _claims(h, t, offered_by)):
        after = Hand(standing_less(h, used), h.melds + (meld,))
        if meld.kind == KONG:  # the replacement draw is the round's draw
            kong = hand_query(after, seen, draws=model.draws, model=model, danger=danger, **conditions) if value \
                else None
            choices.append(("kong", meld, after, None, kong))
        else:  # the claimed tile is the round's: one draw fewer, and a race a round on
            query = discard_query(after, seen, draws=max(1, model.draws - 1), model=a_round_on(model), value=value,
                                  danger=danger, **conditions)
            choices.append((_ACTION[meld.kind], meld, after, query, query.value_query))
    win = _win(h, t, seen, conditions)
    found = None
    if value:
        _, found, used_model = budget.value_figures([c[4] for c in choices], budget_ms)
    if found is None:
        return ([] if win is None else [win._replace(model=budget.FAN_AWARE)]) + _fan_aware(h, choices)
    options = [] if win is None else [win._replace(model=used_model)]
    for (action, meld, _, query, waiting), figures in zip(choices, found):
        if query is None:
            v = hand_value_of(waiting, figures, used_model)
            options.append(ClaimOption(action, None if meld is None else str(meld), None, v.shanten,
                                       v.win_probability, v.expected_score, v.ready_by_draw, v.win_by_draw,
                                       model=used_model))
            continue
        best = query.valued(figures, used_model, ranking, None)[0]
        options.append(ClaimOption(action, str(meld), best.tile, best.shanten, best.win_probability,
                                   best.expected_score, best.ready_by_draw, best.win_by_draw,
                                   valid_acceptance=best.valid_acceptance, model=used_model, deal_in=best.deal_in,
                                   deal_in_cost=best.deal_in_cost))
    field = "win_probability" if ranking == "win-probability" else "expected_score"
    return sorted(options, key=lambda o: (-getattr(o, field), CLAIMS.index(o.action)))


def _fan_aware(h: Hand, choices: list) -> list[ClaimOption]:
    """The options other than a win in the fan-aware order (see the module doc)."""
    before = shanten(h)
    ahead: list[tuple] = []
    behind: list[tuple] = []
    for action, meld, after, query, _ in choices:
        if action == "pass":
            continue
        if query is None:  # a kong: a fan and a draw in an open hand, when the shape keeps
            after_shanten = shanten(after)
            option = ClaimOption(action, str(meld), None, after_shanten, None, None, model=budget.FAN_AWARE)
            (ahead if not h.concealed and after_shanten <= before else behind).append(((-1,), option))
            continue
        best = query.options[0]
        option = ClaimOption(action, str(meld), best.tile, best.shanten, None, None,
                             valid_acceptance=best.valid_acceptance, model=budget.FAN_AWARE)
        if best.shanten < before and best.valid_acceptance:
            ahead.append(((best.shanten, -best.valid_acceptance, -best.next_valid_acceptance), option))
        else:
            behind.append(((), option))
    ahead.sort(key=lambda o: o[0])
    passing = ClaimOption("pass", None, None, before, None, None, model=budget.FAN_AWARE)
    return [o for _, o in ahead] + [passing] + [o for _, o in behind]


def _win(h: Hand, t: int, seen: np.ndarray, conditions: dict) -> "ClaimOption | None":
    """The win on the discard, if the hand wins on it with the minimum."""
    from ..fan import score
    from ..fan.settlement import winner_gain

    won = np.array(h.counts)
    won[t] += 1
    if won[t] > 4:
        return None
    try:
        result = score(Hand(won, h.melds, t), last_copy=int(seen[t]) + int(h.counts[t]) + int(h.meld_counts[t]) == 3,
                       **conditions)
    except HandError:  # not a winning hand
        return None
    if not result.meets_minimum:
        return None
    return ClaimOption("win", None, None, -1, 1.0, float(winner_gain(result.total, False)), fans=result.total)


def _claims(h: Hand, t: int, offered_by: int):
    """(meld, standing tiles it takes) of each chow, pung and kong the hand may make of t."""
    held = int(h.counts[t])
    if held >= 2:
        yield Meld(PUNG, t, offered_by), {t: 2}
    if held >= 3:
        yield Meld(KONG, t, offered_by), {t: 3}
    if offered_by != 1 or t >= 27:
        return
    for first in range(max(t - 2, t - t % 9), min(t, t - t % 9 + 6) + 1):  # the runs first..first+2 holding t
        others = [x for x in range(first, first + 3) if x != t]
        if all(h.counts[x] for x in others):
            yield Meld(CHOW, first, t - first + 1), {x: 1 for x in others}
