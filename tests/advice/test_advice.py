"""Fan-aware discard advice: the expert puzzles, and the rules behind valid acceptance."""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.fan import score
from mjfast.hand import Hand
from mjfast.tiles import TILE_INDEX

from ..hands import near_complete_hand, wall_hand
from ..puzzles import agreement, load_puzzles


def _by_tile(options):
    return {o.tile: o for o in options}


def _fan_aware(hand, **conditions):
    """The lexicographic fan-aware ranking (the figures these tests check are on every option
    of any ranking; this one costs microseconds)."""
    return mjfast.best_discards(hand, ranking="fan-aware", **conditions)


def test_expert_puzzles_are_answered_as_the_experts_do():
    tally, wrong = agreement(load_puzzles(), lambda hand: _fan_aware(hand)[0].tile)
    ready_ok, ready_n = tally["ready"]
    step_ok, step_n = tally["one_step"]
    print(f"ready puzzles {ready_ok}/{ready_n}, one-step puzzles {step_ok}/{step_n}")
    print("disagreeing:", [(p.line, p.hand, sorted(p.accepted), ours) for p, ours in wrong])
    assert (ready_n, step_n) == (263, 664)
    assert ready_ok >= 0.99 * ready_n
    assert step_ok >= 0.90 * step_n


def test_plain_efficiency_misses_what_fans_decide():
    # Puzzle 2: both discards leave a two-sided wait on 8 tiles, but only 4m keeps both
    # waits at 8 fans (三色三步高 345/456 ...); 7m's 6s wait scores 4.
    hand = "[345m1][345p1]4m5m6m7m4s5s9p9p"
    fan = _fan_aware(hand)
    plain = mjfast.best_discards(hand, fan_aware=False)
    assert fan[0].tile == "4m" and fan[0].valid_acceptance == 8
    assert plain[0].tile != "4m"
    seven = _by_tile(fan)["7m"]
    assert seven.acceptance == 8 and seven.valid_acceptance == 4
    assert {w.tile: w.discard for w in seven.wait_fans}["6s"] < 8


def test_winds_decide_whether_a_wait_is_valid():
    # EEE SSS 123m 45p 99m: with East the prevalent and South the seat wind, both pungs
    # score (圈风刻 + 门风刻) and the waits reach 9; with West/North they reach only 7.
    good = _by_tile(_fan_aware("EEESSS123m45p99mN", seat_wind="S", prevalent_wind="E"))["N"]
    bad = _by_tile(_fan_aware("EEESSS123m45p99mN", seat_wind="W", prevalent_wind="N"))["N"]
    assert good.shanten == bad.shanten == 0
    assert good.effective_shanten == 0 and good.valid_acceptance == 8
    assert bad.effective_shanten == 1  # ready, but no wait can win: it must change its waits
    assert all(w.discard < 8 for w in bad.wait_fans)


def test_a_meld_costs_the_concealed_hand_fans():
    concealed = _by_tile(_fan_aware("EEESSS123m45p99mN", seat_wind="S", prevalent_wind="E"))["N"]
    melded = _by_tile(_fan_aware("[EEE1]SSS123m45p99mN", seat_wind="S", prevalent_wind="E"))["N"]
    assert concealed.effective_shanten == 0
    assert melded.effective_shanten == 1
    assert max(w.discard for w in melded.wait_fans) < min(w.discard for w in concealed.wait_fans)


def test_options_behind_a_valid_ready_hand_keep_plain_figures():
    # Puzzle 1: discarding 3m leaves a ready hand with valid waits, so the discards that
    # leave the hand one step away cannot rank above it and are not worked out.
    options = _fan_aware("2m3m3m4m4m5m6m2p3p4p3s4sPP")
    assert options[0].effective_shanten == 0 and options[0].valid_acceptance > 0
    behind = [o for o in options if o.shanten >= 1]
    assert behind and all(o.valid_acceptance is None and o.next_acceptance == 0.0 for o in behind)
    assert all(o.acceptance > 0 for o in behind)  # the plain figures are still there


def test_flowers_never_count_toward_the_minimum():
    without = _by_tile(_fan_aware("EEESSS123m45p99mN", seat_wind="W", prevalent_wind="N"))
    with_eight = _by_tile(_fan_aware("EEESSS123m45p99mN", seat_wind="W", prevalent_wind="N", flowers=8))
    for tile, option in without.items():
        assert with_eight[tile].valid_acceptance == option.valid_acceptance
        assert with_eight[tile].effective_shanten == option.effective_shanten


def test_wait_fans_are_what_score_says():
    """Also under every pair of winds in turn, the same hands again: the kernels' memo of
    scored hands persists from one call to the next and must key on the winds too."""
    rng = np.random.default_rng(5)
    hands = [Hand(*near_complete_hand(rng, int(rng.integers(0, 3)), 0, drawn=True)) for _ in range(40)]
    winds = [("S", "E")] + [(seat, prevalent) for seat in "ESWN" for prevalent in "ESWN"]
    checked = 0
    for i, hand in enumerate(hands):
        for seat, prevalent in winds if i < 6 else winds[:1]:
            for option in _fan_aware(hand, seat_wind=seat, prevalent_wind=prevalent):
                for wait in option.wait_fans:
                    c = np.array(hand.counts)
                    c[TILE_INDEX[option.tile]] -= 1
                    c[TILE_INDEX[wait.tile]] += 1
                    won = Hand(c, hand.melds, TILE_INDEX[wait.tile])
                    at_winds = {"seat_wind": seat, "prevalent_wind": prevalent}
                    assert wait.discard == score(won, **at_winds).points
                    assert wait.self_drawn == score(won, self_drawn=True, **at_winds).points
                    checked += 1
    assert checked > 200


def _reference_valid_draws(hand13: Hand, unseen: np.ndarray) -> set[str]:
    """Draws after which some discard leaves a ready hand with a wait worth 8 on a discard
    win, from the public calls alone."""
    found = set()
    for u in range(34):
        if unseen[u] <= 0:
            continue
        c14 = np.array(hand13.counts)
        c14[u] += 1
        for option in mjfast.best_discards(hand13.with_counts(c14), fan_aware=False, next_step=False):
            if option.shanten != 0:
                continue
            c13 = c14.copy()
            c13[TILE_INDEX[option.tile]] -= 1
            for w in option.useful:
                if unseen[TILE_INDEX[w]] - (TILE_INDEX[w] == u) <= 0:
                    continue
                won = c13.copy()
                won[TILE_INDEX[w]] += 1
                if score(Hand(won, hand13.melds, TILE_INDEX[w])).points >= 8:
                    found.add(mjfast.TILE_NAMES[u])
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_one_step_valid_draws_match_a_slow_reference(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    while checked < 6:
        counts, melds = near_complete_hand(rng, int(rng.integers(0, 2)), 1, drawn=True)
        hand = Hand(counts, melds)
        unseen = 4 - hand.counts.astype(int) - hand.meld_counts
        for option in _fan_aware(hand):
            if option.shanten != 1 or option.valid_acceptance is None:  # None: a ready option wins
                continue
            c13 = np.array(hand.counts)
            c13[TILE_INDEX[option.tile]] -= 1
            useful = set(option.useful)
            expected = _reference_valid_draws(hand.with_counts(c13), unseen) & useful
            assert set(option.valid_draws) == expected, (str(hand), option.tile)
            assert option.valid_acceptance == sum(unseen[TILE_INDEX[t]] for t in expected)
            checked += 1
            break


def test_fan_potential_sweep_is_exactly_fan_potential():
    # The ranking compares potentials for ties, so the sweep must give the very same floats.
    from mjfast.advice.fan_aware import fan_potential, potentials_after_discards

    rng = np.random.default_rng(7)
    for _ in range(300):
        counts, _ = near_complete_hand(rng, 0, int(rng.integers(0, 5)), drawn=True)
        hand = counts.astype(np.int64)
        swept = np.full(34, -1.0)
        potentials_after_discards(hand, swept)
        for t in range(34):
            if hand[t] == 0:
                assert swept[t] == -1.0
                continue
            hand[t] -= 1
            assert swept[t] == fan_potential(hand)
            hand[t] += 1


def test_the_order_alone_skips_the_next_acceptance_of_honours_alike():
    """Without every_next (the log analysis reads only the order) the fan-aware rows are
    those of best_discards in the same order, but for the next acceptance of discards tied
    for first place that are all interchangeable honours: equal with every_next, 0.0 without."""
    from mjfast.advice.fan_aware import fan_discards_of
    from mjfast.advice.position import new_position
    from mjfast.efficiency.lookup_table import load_table
    from mjfast.efficiency.scratch import new_scratch
    from mjfast.efficiency.status import OK
    from mjfast.fan.encode import pack_melds
    from mjfast.fan.ruleset import ruleset_of

    table, work, rules = load_table(), new_scratch(), ruleset_of(None)
    rng = np.random.default_rng(11)
    skipped = 0
    for _ in range(300):
        hand = Hand(*wall_hand(rng, int(rng.integers(0, 2)), drawn=True))
        counts, meld_counts, n_melds = hand.kernel_arrays()
        rows = {}
        for every_next in (True, False):
            out = np.zeros((34, 9))
            position = new_position(table, counts, meld_counts, n_melds, pack_melds(hand.melds) if n_melds else 0, 14,
                                    np.zeros(34, np.uint8), 0, 0, rules.code, rules.minimum, 0)
            status, n = fan_discards_of(position, every_next, out, np.zeros((34, 34, 2), np.int64), work)
            assert status == OK
            rows[every_next] = out[:n]
        full, order_only = rows[True], rows[False]
        others = [0, 1, 2, 4, 5, 6, 7, 8]
        assert np.array_equal(full[:, others], order_only[:, others]), str(hand)
        differs = full[:, 3] != order_only[:, 3]
        if differs.any():
            skipped += 1
            assert differs.sum() >= 2 and (order_only[differs, 3] == 0.0).all()
            assert (full[differs, 0] >= TILE_INDEX["E"]).all() and len(set(full[differs, 3])) == 1, str(hand)
    assert skipped > 100  # 168 of the 300 hands
