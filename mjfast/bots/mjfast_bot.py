"""MjfastBot, mjfast's own bot (mjfast botzone's): wins whenever the hand scores the 8-fan
minimum (flowers aside); discards by best_discards' value ranking (the expected points of each
discard) in the race (mjfast.advice.race: the rest of its wall, each round a chance that
another player ends the hand, at what that costs) with the danger of its discards
(mjfast.advice.danger: the chance each deals in, at 8 + the winner's fans, folding where it
pays); the tile just drawn first among near-ties. Within MAX_CLAIM_SHANTEN steps of ready, it
claims a chow, pung or kong when claim_options values it above passing (valued without the
race, over a share of the wall); kongs and the last discard as FanAwareBot. On a clock
(bots.clock) the value engine gets the answer's budget and falls back to its lower bound,
then to FanAwareBot's decision; the first answer of a game loads every kernel the game will
call. `race=False` plays a share of the wall instead (advice.model.draws_left), `danger=False`
without the danger, `claims` counts that share of the claims in the value model
(ValueModel.claims); docs/advice.md states what each measured."""

from __future__ import annotations

import numpy as np

from ..advice.claims import claim_options
from ..advice.danger import table_danger
from ..advice.model import ValueModel, value_model
from ..advice.options import best_discards
from ..advice.race import table_race_model
from ..game.protocol import Response
from ..game.state import DUPLICATE
from ..hand import Hand
from .clock import MIN_BUDGET_MS, Clock
from .fan_aware import FanAwareBot

# MjfastBot weighs claims by value up to this shanten (further, FanAwareBot's rule: none).
MAX_CLAIM_SHANTEN = 4


class MjfastBot(FanAwareBot):
    """Plays by mjfast's value-aware advice (see the module doc): discards by best_discards'
    default ranking (the expected points), claims by claim_options, on the clock when it has
    one; with `race` (the default) in the race of advice.race.table_race_model, else with the
    draws the game is likely to last (advice.model.draws_left); with `danger` (the default)
    counting the cost of dealing in (advice.danger.table_danger); with `claims` (0 to 1), the
    value model's share of the claims in the continuation."""

    def __init__(self, wall: str = DUPLICATE, clock: "Clock | None" = None, danger: bool = True,
                 claims: "float | None" = None, race: bool = True):
        super().__init__(wall, clock)
        self.danger = danger
        self.race = race
        self.model = None if claims is None else value_model(None, ValueModel(claims=claims))

    def _model(self):
        if self.race and self.table is not None:  # a game under way
            return table_race_model(self.table, self.seat, self.model)
        return self.model

    def draws(self) -> int:
        return self._setting()[1]

    def _setting(self):
        model = self._model()
        return model, (model.draws if self.race else super().draws())  # the race's model says its draws

    def _claim_setting(self):
        # Claims are valued without the race: with it the bot claimed a quarter more than the
        # strong players (93 against 73 of 266 chances; 84.2% of the answers theirs, 88.0%
        # without), and the table showed no difference (docs/advice.md, "The race").
        return self.model, super().draws()

    def _danger(self, draws: int):
        return table_danger(self.table, self.seat, draws) if self.danger else None

    def on_start(self) -> None:
        if self.clock is not None:
            _load_kernels()

    def advice(self, hand: Hand, visible: np.ndarray, shanten: int, drawn: "int | None" = None):
        left = self.budget_ms()
        if left is not None and left < MIN_BUDGET_MS:
            return super().advice(hand, visible, shanten, drawn)
        model, draws = self._setting()
        return best_discards(hand, visible=visible, seat_wind=self.seat, prevalent_wind=self.prevalent_wind,
                             flowers=self.table.seats[self.seat].flowers, draws=draws, drawn=drawn,
                             model=model, budget_ms=left, danger=self._danger(draws))

    def claim(self, hand: Hand, shanten: int, giver: int, tile: int) -> Response:
        left = self.budget_ms()
        if shanten > MAX_CLAIM_SHANTEN or not (hand.counts[tile] >= 2 or self.table.chow_middles(self.seat)) or \
                (left is not None and left < MIN_BUDGET_MS):
            return super().claim(hand, shanten, giver, tile)  # far from ready, nothing to claim, or no time
        return self._claimed(self._claim_options(hand, giver, tile, "expected-score", left))


_kernels_loaded = False


def _load_kernels() -> None:
    """Every kernel a game's decisions call, loaded (or compiled) once a process: a discard,
    claims of a concealed and of a melded hand (their value graphs too), a win scored."""
    global _kernels_loaded
    if _kernels_loaded:
        return
    from ..fan import score

    best_discards("123m456p78s1157sEC", draws=2)
    best_discards("[789s3]123m456p1157sE", draws=2)
    claim_options("123m456p78s1157sE", "9s", offered_by=1, draws=2)
    claim_options("[789s3]123m456p11sEE", "E", offered_by=2, draws=2)
    score("[789s3]123m456p11sEEE", self_drawn=True)
    _kernels_loaded = True
