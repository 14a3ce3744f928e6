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
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .api import DEFAULT_RANKING, RANKINGS, ValueModel, best_discards, hand_value, value_model
from .errors import HandError
from .hand import CHOW, KONG, PUNG, Hand, Meld, parse_hand, standing_less, visible_counts
from .tiles import TILE_NAMES, tile_id

CLAIMS = ("win", "pass", "pung", "chow", "kong")
WHO = {1: "left", 2: "across", 3: "right"}  # the player who discards, seen from the claimer


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
    win_probability: float
    """The probability of a valid win within the draws left (1.0 for a win now)."""
    expected_score: float
    """The expected points won (the win's own for a win now)."""
    ready_by_draw: "tuple[float, ...]" = ()
    win_by_draw: "tuple[float, ...]" = ()
    fans: "int | None" = None
    """For a win: its fans, flowers included."""


def claim_options(hand, tile, offered_by: int = 1, visible=None, *, seat_wind="E", prevalent_wind="E", flowers=0,
                  ruleset=None, draws=None, model: "ValueModel | None" = None, ranking=None,
                  last_discard: bool = False) -> list[ClaimOption]:
    """Every answer to `tile` discarded by another player, best first (see the module doc).

    hand: the 3n+1 hand waiting to draw; offered_by: who discards it, 1 the player on the left
    (上家, the only one whose discard may be chowed), 2 across, 3 on the right; visible: the
    tiles seen elsewhere, not counting the offered one. last_discard: the game's last discard
    (the next player has no tile to draw), which can only be won on. ranking:
    "expected-score" (the default) or "win-probability"; draws and model as for best_discards.
    """
    h = hand if isinstance(hand, Hand) else parse_hand(hand)
    if h.drawn:
        raise HandError(f"{h.to_compact()} has drawn: a claim is made by a hand waiting to draw (13 tiles "
                        "counting melds)")
    t = tile_id(tile)
    if offered_by not in WHO:
        raise HandError(f"offered_by is who discards the tile: 1 left, 2 across, 3 right; got {offered_by!r}")
    ranking = DEFAULT_RANKING if ranking is None else ranking
    if ranking not in RANKINGS[:2]:
        raise HandError(f"claims are ranked by {' or '.join(RANKINGS[:2])}, not {ranking!r}")
    model = value_model(draws, model)
    seen = visible_counts(visible).astype(np.int64)
    if int(seen[t]) + int(h.counts[t]) + int(h.meld_counts[t]) >= 4:
        raise HandError(f"{TILE_NAMES[t]} is offered, but the hand and the tiles seen hold all 4 copies")
    conditions = dict(seat_wind=seat_wind, prevalent_wind=prevalent_wind, flowers=flowers, ruleset=ruleset)
    options = [_win(h, t, seen, conditions)]
    after_pass = seen.copy()
    after_pass[t] += 1
    kept = hand_value(h, after_pass, draws=model.draws, model=model, **conditions)
    options.append(ClaimOption("pass", None, None, kept.shanten, kept.win_probability, kept.expected_score,
                               kept.ready_by_draw, kept.win_by_draw))
    if not last_discard:
        for meld, used in _claims(h, t, offered_by):
            after = Hand(standing_less(h, used), h.melds + (meld,))
            if meld.kind == KONG:  # the replacement draw comes at once
                value = hand_value(after, seen, draws=min(model.draws + 1, 40), model=model, **conditions)
                options.append(ClaimOption("kong", str(meld), None, value.shanten, value.win_probability,
                                           value.expected_score, value.ready_by_draw, value.win_by_draw))
                continue
            best = best_discards(after, seen, ranking=ranking, draws=model.draws, model=model, **conditions)[0]
            options.append(ClaimOption("pung" if meld.kind == PUNG else "chow", str(meld), best.tile, best.shanten,
                                       best.win_probability, best.expected_score, best.ready_by_draw,
                                       best.win_by_draw))
    options = [o for o in options if o is not None]
    field = "win_probability" if ranking == "win-probability" else "expected_score"
    return sorted(options, key=lambda o: (-getattr(o, field), CLAIMS.index(o.action)))


def _win(h: Hand, t: int, seen: np.ndarray, conditions: dict) -> "ClaimOption | None":
    """The win on the discard, if the hand wins on it with the minimum."""
    from .fan import score

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
    return ClaimOption("win", None, None, -1, 1.0, float(3 * 8 + result.total), fans=result.total)


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
