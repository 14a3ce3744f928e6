"""score_batch(): many hands in parallel, its input checks and its per-row conditions."""

from __future__ import annotations

import numpy as np
import pytest

from mjfast.errors import ArgumentError, HandError
from mjfast.fan import BatchScores, hands_to_arrays, score, score_batch

HANDS = ["[123m,1]456p789s123s5m5m", "1112345678999m5m", "[1111p,1][2222s]345m678m8p8p", "EESSWWNNPPFFCC"]


def test_batch_matches_score_with_per_row_conditions():
    counts, wins, melds = hands_to_arrays(HANDS)
    self_drawn = [True, False, True, False]
    seats = ["E", 1, "W", 3]
    flowers = np.array([0, 1, 2, 3])
    batch = score_batch(counts, wins, melds, self_drawn=self_drawn, seat_wind=seats, flowers=flowers)
    assert isinstance(batch, BatchScores) and len(batch) == 4
    for i, hand in enumerate(HANDS):
        expected = score(hand, self_drawn=self_drawn[i], seat_wind=seats[i], flowers=int(flowers[i]))
        assert batch.totals[i] == expected.total
        assert np.array_equal(batch.fans[i], expected.counts)
        assert batch.fan_list(i) == expected.fans
        assert bool(batch.conditions[i] & 1) == expected.self_drawn


def test_rows_that_are_no_win_get_minus_one():
    counts, wins, melds = hands_to_arrays(HANDS[:1])
    bad = counts.copy()
    bad[0, 4] -= 1  # 5m
    bad[0, 5] += 1  # 6m: no longer a win, same tile count
    batch = score_batch(np.vstack([counts, bad]), [wins[0], 5], np.vstack([melds, melds]))
    assert batch.totals[0] == 12 and batch.totals[1] == -1 and not batch.fans[1].any()


def test_melds_default_to_none():
    counts, wins, _ = hands_to_arrays(["EESSWWNNPPFFCC"])
    assert score_batch(counts, wins).totals[0] == 88


def test_empty_batch():
    batch = score_batch(np.zeros((0, 34), np.uint8), np.zeros(0, np.int64))
    assert len(batch) == 0


@pytest.mark.parametrize("change, message", [
    (lambda c, w, m: (c[:, :33], w, m), "N x 34"),
    (lambda c, w, m: (c.astype(float), w, m), "N x 34"),
    (lambda c, w, m: (c, w + 40, m), "winning tile must be a tile id"),
    (lambda c, w, m: (c, np.array([30, 4, 4, 4]), m), "not among"),
    (lambda c, w, m: (c, w, m[:, :3]), "N x 4 x 3"),
    (lambda c, w, m: (c, w, np.where(m == 3, 4, m)), "meld kinds"),
    (lambda c, w, m: (np.where(np.arange(34) == 0, 5, c), w, m), "counts must be 0-4"),
    (lambda c, w, m: (c, w[:2], m), "win_tiles must be 4"),
])
def test_bad_input_raises_hand_error(change, message):
    counts, wins, melds = hands_to_arrays(HANDS)
    with pytest.raises(HandError, match=message):
        score_batch(*change(counts.astype(np.int64), wins, melds))


def test_meld_checks():
    counts, wins, melds = hands_to_arrays(HANDS[:1])
    gap = melds.copy()
    gap[0, 1] = gap[0, 0]
    gap[0, 0] = 0
    with pytest.raises(HandError, match="first slots"):
        score_batch(counts, wins, gap)
    concealed_chow = melds.copy()
    concealed_chow[0, 0, 2] = 0
    with pytest.raises(HandError, match="only a kong"):
        score_batch(counts, wins, concealed_chow)
    too_many = melds.copy()
    too_many[0, 1] = (2, 4, 1)  # a pung of 5m beside two 5m in hand and one in the chow? 5m x 6
    with pytest.raises(HandError):
        score_batch(counts, wins, too_many)


@pytest.mark.parametrize("kwargs", [dict(self_drawn=[True]), dict(seat_wind="X"), dict(flowers=9),
                                    dict(prevalent_wind=[0, 1, 2, 7]), dict(kong=np.array([0, 1, 2, 0]))])
def test_bad_conditions_raise_argument_error(kwargs):
    counts, wins, melds = hands_to_arrays(HANDS)
    with pytest.raises(ArgumentError):
        score_batch(counts, wins, melds, **kwargs)


def test_the_scorer_compiles_without_reference_counts_whoever_compiles_it_first(tmp_path):
    """The fan scorer runs without numba's reference counting even when the batch scorer, which
    allocates, is the first to compile it (a kernel otherwise takes its first caller's choice:
    the batch then scored a quarter slower than after the advice had compiled it)."""
    import os
    import subprocess
    import sys

    probe = ("import numpy as np, mjfast\n"
             "from mjfast.fan import score_batch\n"
             "from mjfast.fan.kernel import score_into\n"
             "score_batch(np.array(mjfast.parse_hand('123m456p789s123sEE').counts)[None, :], np.array([27]))\n"
             "print(sum(c.library.get_llvm_str().count('NRT_incref') for c in score_into.overloads.values()),"
             " len(score_into.overloads))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), MJFAST_QUIET="1")
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "1"]
