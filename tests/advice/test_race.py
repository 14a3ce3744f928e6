"""The race (mjfast.advice.race): the chance that another player ends the hand, by round."""

import numpy as np
import pytest

import mjfast
from mjfast.advice.model import ValueModel, a_round_on, draws_left, one_hazard, value_model
from mjfast.advice.race import RACE_ENDING, race_features, race_hazards, race_model, table_race_model
from mjfast.bots import MjfastBot
from mjfast.errors import ArgumentError
from mjfast.game import Replay, read_games
from tests.data import LOGS


def test_the_race_grows_with_the_rounds_and_the_melds_shown():
    h = race_hazards(0, 21)
    assert h.shape == (21,) and h[0] < 1e-3  # nobody wins before the first rounds are over
    assert np.all(np.diff(h[1:]) > 0) and 0.1 < h[-1] < 0.3
    assert np.all(race_hazards(8, 5, others_melds=4) > race_hazards(8, 5, others_melds=0))
    assert np.array_equal(race_hazards(8, 5), h[8:13])  # a round's chance is its stage's
    assert race_features([3, 4], 9)[:, -1].tolist() == [8.0, 8.0]  # melds count up to 8


def test_a_race_model_plays_the_rest_of_the_wall():
    model = race_model(8, 13, 2)
    assert model.draws == 13 and len(model.hazard) == 13 and model.ending == RACE_ENDING
    assert race_model(0, 60).draws == 40 and race_model(20, 0).draws == 1
    with pytest.raises(ArgumentError):
        race_hazards(-1, 3)
    with pytest.raises(ArgumentError, match="a chance for each"):
        mjfast.best_discards("123m456p789s1357sE", model=ValueModel(draws=5, hazard=(0.1, 0.1)))
    with pytest.raises(ArgumentError):
        mjfast.best_discards("123m456p789s1357sE", model=ValueModel(draws=2, hazard=(0.1, 1.0)))


def test_the_race_counts_every_ending_of_the_hand():
    text = "123m456p789s1357sE"
    plain = {o.tile: o for o in mjfast.best_discards(text, draws=6)}
    hazard = (0.05,) * 6
    won_only = {o.tile: o for o in mjfast.best_discards(text, model=ValueModel(draws=6, hazard=hazard))}
    raced = {o.tile: o for o in mjfast.best_discards(text, model=ValueModel(draws=6, hazard=hazard, ending=12.9))}
    fold = -12.9 * (1 - 0.95 ** 6)
    for tile, o in raced.items():
        # another player's win first: the chance to win falls, and so does the score of the wins
        assert won_only[tile].win_probability <= plain[tile].win_probability
        assert o.win_probability == pytest.approx(won_only[tile].win_probability)
        assert o.expected_score >= fold - 1e-12  # folding is always a choice
        # a win spares the race's ending: the hand's points are its wins' less what the others' wins cost
        assert fold <= o.expected_score - won_only[tile].expected_score <= 0.0


def test_the_race_of_a_table_and_the_bot_that_plays_it():
    game = next(iter(read_games(LOGS / "botzone_mahjong_gb_16matches.txt")))
    replay = Replay(game)
    for step in replay:
        if step.action.kind == "Play" and step.table.draws[step.action.player] >= 6:
            table, seat = step.table, step.action.player
            break
    model = table_race_model(table, seat)
    melds = sum(len(table.seats[o].melds) for o in range(4) if o != seat)
    assert model.draws == table.own_draws_left(seat)
    assert model.hazard == pytest.approx(tuple(race_hazards(table.draws[seat], model.draws, melds)))
    bot = MjfastBot(race=True)
    bot.table, bot.seat = table, seat
    assert bot.draws() == model.draws and bot._model() == model
    # its claims are valued without the race, over the share of the wall a plain bot plays
    claim_model, claim_draws = bot._claim_setting()
    assert claim_model is None and claim_draws == draws_left(table.own_draws_left(seat)) < model.draws


def test_a_claim_races_from_the_next_round():
    model = race_model(6, 8, 2)
    options = mjfast.claim_options("123m456p789s157sE", "6s", offered_by=1, model=model)
    chow = next(o for o in options if o.meld == "[567s2]")
    # the claimed tile is this round's draw: the hand after it plays one draw fewer, its race
    # from the next round on
    later = model._replace(draws=7, hazard=model.hazard[1:])
    after = {o.tile: o for o in mjfast.best_discards("[567s2]123m456p789s1sE", model=later)}
    assert chow.expected_score == pytest.approx(after[chow.discard].expected_score, abs=1e-12)
    assert chow.win_probability == pytest.approx(after[chow.discard].win_probability, abs=1e-12)


def test_a_hazard_is_one_for_all_or_one_a_draw_and_a_round_on_drops_the_first():
    constant = value_model(3, ValueModel(hazard=0.1))
    per_draw = value_model(3, ValueModel(hazard=(0.1, 0.2, 0.3, 0.4)))
    assert one_hazard(constant) and not one_hazard(per_draw)
    assert a_round_on(constant) is constant
    assert a_round_on(per_draw).hazard == (0.2, 0.3, 0.4)
    last = value_model(1, ValueModel(hazard=(0.5,)))
    assert a_round_on(last) is last  # nothing after the last draw to shift to
    with pytest.raises(ArgumentError):
        value_model(3, ValueModel(hazard="0.1"))  # not a number: a clear error, not a TypeError
