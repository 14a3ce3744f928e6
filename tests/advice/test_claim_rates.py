"""The claims' rates (advice.claim_rates): measured on the real matches, and as the value model
takes them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import mjfast
from mjfast.advice import claim_rates as C
from mjfast.advice.model import ValueModel

FIT = Path(__file__).resolve().parents[2] / "tables" / "fit_claims.py"


def _fit():
    spec = importlib.util.spec_from_file_location("fit_claims", FIT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rates_are_what_the_real_matches_give():
    fit = _fit()
    observed, expected, _ = fit.measure(fit.SOURCES)
    assert np.allclose(observed / expected, np.array(C.RATES), atol=0.005)
    assert observed.sum() == pytest.approx(expected.sum())  # a discard is some tile: the shares sum to one


def test_the_classes_and_stages():
    assert [C.tile_class(mjfast.parse_tiles(t)[0]) for t in ("E", "C", "1m", "9s", "2p", "8m", "3s", "7p", "5m")] == \
        [0, 0, 1, 1, 2, 2, 3, 3, 3]
    assert [C.stage_of(d) for d in (21, 15, 14, 8, 7, 0)] == [0, 0, 1, 1, 2, 2]


def test_the_weights_follow_the_model():
    assert C.claim_weights(ValueModel()).shape == (0, 34)  # no rows: no claims (advice.value.query.Model)
    assert not C.claim_weights(ValueModel()).any()  # off by default (docs/advice.md: what each share measured)
    full, half = C.claim_weights(ValueModel(claims=1.0)), C.claim_weights(ValueModel(claims=0.5))
    assert np.allclose(half, full / 2)
    east, five = mjfast.parse_tiles("E")[0], mjfast.parse_tiles("5m")[0]
    assert full[0, east] == pytest.approx(C.RATES[0][0] * C.PUNG_HELD)  # 10 draws: 20 own draws left, early
    assert full[1, five] == pytest.approx(C.RATES[3][0] * C.CHOW_HELD)
    late = C.claim_weights(ValueModel(draws=3, claims=1.0))
    assert late[0, east] == pytest.approx(C.RATES[0][2] * C.PUNG_HELD)
    with pytest.raises(mjfast.ArgumentError, match="value model out of range"):
        mjfast.best_discards("123m456p789s1357sE", model=ValueModel(claims=1.5))


def test_claims_raise_an_open_hand_and_never_lower_a_figure():
    """With claims every figure is at least the figure without (a claim is taken only where it
    does better), and a hand with chows and pungs to make gains."""
    for text in ("[123m]45m6p78s1157s99p", "12m456p78s1157sEEW", "[EEE1]23m5p67s135799p"):
        without = {o.tile: o for o in mjfast.best_discards(text, model=ValueModel(claims=0.0))}
        with_claims = {o.tile: o for o in mjfast.best_discards(text, model=ValueModel(claims=1.0))}
        assert with_claims.keys() == without.keys()
        for tile, o in with_claims.items():
            assert o.win_probability >= without[tile].win_probability - 1e-12, (text, tile)
            assert o.expected_score >= without[tile].expected_score - 1e-12, (text, tile)
        assert any(o.win_probability > without[t].win_probability + 1e-3 for t, o in with_claims.items()), text
