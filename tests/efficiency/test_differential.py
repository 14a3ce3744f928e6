"""Differential test against PyMahjongGB (the C++ code behind the Botzone judge).

50,000 seeded 3n+1 hands per run: wall draws, near-complete hands, hands biased toward each
special form, and hands with 1-4 melds. Per form, shanten and useful tiles must agree, except
where PyMahjongGB's targets use a fifth copy of a tile:

* its useful tiles include kinds the hand already holds four times (mjfast drops them);
* with melds it ignores the copies the melds use, so it may call a hand one step closer or
  list tiles whose only use needs a locked copy. Those hands must differ in that direction
  (our shanten higher, or equal with our useful tiles a subset), and a sample of them is
  re-derived by the exhaustive reference, which mjfast must match exactly.

MJFAST_DIFF_HANDS sets the number of hands (the deep runs in the closing notes use millions).
"""

from __future__ import annotations

import os

import MahjongGB
import numpy as np

import mjfast
from mjfast.hand import Hand
from mjfast.tiles import TILE_INDEX, botzone_token

from .. import reference
from ..hands import mixed_hands

N_HANDS = int(os.environ.get("MJFAST_DIFF_HANDS", "50000"))
SEED = int(os.environ.get("MJFAST_DIFF_SEED", "20261129"))
REFERENCE_SAMPLE = 60

THEIR_FORMS = {
    "regular": MahjongGB.RegularShanten,
    "seven_pairs": MahjongGB.SevenPairsShanten,
    "thirteen_orphans": MahjongGB.ThirteenOrphansShanten,
    "honors_knitted": MahjongGB.HonorsAndKnittedTilesShanten,
    "knitted_straight": MahjongGB.KnittedStraightShanten,
}


def _name(token: str) -> str:
    return mjfast.TILE_NAMES[mjfast.parse_tiles(token)[0]]


def test_differential_shanten_and_useful_tiles():
    rng = np.random.default_rng(SEED)
    tally = {"agree": 0, "own_four_copies": 0, "meld_locks": 0, "reference_checked": 0}
    for counts, melds in mixed_hands(rng, N_HANDS):
        hand = Hand(counts, melds)
        tiles = tuple(botzone_token(t) for t in range(34) for _ in range(int(counts[t])))
        ours = mjfast.shanten_by_form(hand)
        our_useful = mjfast.useful_by_form(hand)
        exhausted = {t for t in range(34) if hand.counts[t] + hand.meld_counts[t] == 4}
        for form, fn in THEIR_FORMS.items():
            applicable = hand.n_melds == 0 or (form == "regular") or (form == "knitted_straight" and hand.n_melds == 1)
            if not applicable:
                assert ours[form] is None, (str(hand), form)
                continue
            s, useful = fn(tiles)
            useful = {TILE_INDEX[_name(u)] for u in useful}
            mine = {TILE_INDEX[t] for t in our_useful[form]} if our_useful[form] is not None else None
            if ours[form] == s and mine == useful:
                tally["agree"] += 1
            elif ours[form] == s and mine == useful - exhausted:
                tally["own_four_copies"] += 1
            else:
                assert hand.n_melds > 0 or exhausted, (str(hand), form, ours[form], s, mine, useful)
                if ours[form] is None:  # a meld holds all four copies of a knitted tile
                    assert form == "knitted_straight" and any(m.kind == "kong" for m in hand.melds)
                else:
                    assert ours[form] > s or (ours[form] == s and mine <= useful), (str(hand), form)
                tally["meld_locks" if hand.n_melds else "own_four_copies"] += 1
                if hand.n_melds and tally["reference_checked"] < REFERENCE_SAMPLE:
                    _check_against_reference(hand)
                    tally["reference_checked"] += 1
    print("differential tally:", tally)
    assert tally["agree"] > 0.9 * N_HANDS
    assert tally["meld_locks"] > 0 and tally["reference_checked"] > 0


def _check_against_reference(hand: Hand) -> None:
    ref, ref_useful = reference.melded_deficiency_and_useful(hand.counts, hand.meld_counts, hand.n_melds)
    assert mjfast.shanten(hand) == ref - 1, str(hand)
    assert {TILE_INDEX[t] for t in mjfast.useful_tiles(hand)} == ref_useful, str(hand)


def test_overall_shanten_matches_pymahjonggb_on_concealed_hands():
    rng = np.random.default_rng(SEED + 1)
    compared = 0
    for counts, melds in mixed_hands(rng, 5000):
        hand = Hand(counts, melds)
        if hand.n_melds or (hand.counts == 4).any():
            continue
        tiles = tuple(botzone_token(t) for t in range(34) for _ in range(int(counts[t])))
        assert mjfast.shanten(hand) == MahjongGB.MahjongShanten((), tiles), str(hand)
        compared += 1
    assert compared > 3000
