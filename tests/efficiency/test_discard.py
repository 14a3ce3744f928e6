"""best_discards against a slow, obviously-correct reference built from the per-hand calls."""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import HandError
from mjfast.hand import Hand
from mjfast.tiles import TILE_INDEX, TILE_NAMES

from ..hands import mixed_hands, sweep_hands


def _acceptance(hand13: Hand, unseen: np.ndarray) -> int:
    return int(sum(unseen[TILE_INDEX[t]] for t in mjfast.useful_tiles(hand13)))


def reference_options(hand: Hand, visible: np.ndarray) -> dict[str, tuple]:
    """tile -> (shanten, useful, acceptance, next_acceptance), by definition, tile by tile."""
    unseen = 4 - hand.counts.astype(int) - hand.meld_counts - visible
    out = {}
    for t in range(34):
        if hand.counts[t] == 0:
            continue
        counts = hand.counts.copy()
        counts[t] -= 1
        h13 = hand.with_counts(counts)
        s = mjfast.shanten(h13)
        useful = tuple(mjfast.useful_tiles(h13))
        nxt = 0.0
        if s > 0:
            total_w = 0
            acc_sum = 0.0
            for name in useful:
                u = TILE_INDEX[name]
                if unseen[u] <= 0:
                    continue
                after = unseen.copy()
                after[u] -= 1
                c14 = counts.copy()
                c14[u] += 1
                best = 0
                for k in range(34):
                    if c14[k] == 0:
                        continue
                    c13 = c14.copy()
                    c13[k] -= 1
                    h = hand.with_counts(c13)
                    if mjfast.shanten(h) == s - 1:
                        best = max(best, _acceptance(h, after))
                total_w += unseen[u]
                acc_sum += unseen[u] * best
            nxt = acc_sum / total_w if total_w else 0.0
        out[TILE_NAMES[t]] = (s, useful, _acceptance(h13, unseen), nxt)
    best = min(v[0] for v in out.values())
    # next_acceptance ranks only the discards that keep the best shanten
    return {t: (s, u, a, n if s == best else 0.0) for t, (s, u, a, n) in out.items()}


def test_best_discards_match_reference_on_random_hands():
    rng = np.random.default_rng(4242)
    hands = mixed_hands(rng, 40, drawn=True)
    for counts, melds in hands:
        hand = Hand(counts, melds)
        seen = np.zeros(34, np.int64)
        room = 4 - hand.counts.astype(int) - hand.meld_counts
        for t in rng.choice(34, 6):
            if room[t] > seen[t]:
                seen[t] += 1
        options = mjfast.best_discards(hand, visible=seen.astype(np.uint8), fan_aware=False)
        ref = reference_options(hand, seen)
        assert {o.tile for o in options} == set(ref)
        for o in options:
            s, useful, acc, nxt = ref[o.tile]
            assert (o.shanten, o.useful, o.acceptance) == (s, useful, acc), (str(hand), o.tile)
            assert o.next_acceptance == pytest.approx(nxt), (str(hand), o.tile)
        keys = [(o.shanten, -o.acceptance, -o.next_acceptance) for o in options]
        assert keys == sorted(keys)


@pytest.mark.parametrize("text, visible", [
    ("13m46p79s2588sESWC", ""),               # lone honours alike: one figure serves all four
    ("13m46p79s2588sESWC", "W"),              # W seen: unlike the other lone honours
    ("24m468p3579sEWWCP", ""),                # lone E C P alike, the pair of W not
    ("258p369sEESSWNCP", "S"),                # pairs E and S, a copy of S seen
    ("[EEE]147m258pESWNC", "SSS"),            # E and S: none left unseen, but E is melded
    ("[123m]5p369sESWNCFP", "CP"),
])
def test_next_acceptance_of_interchangeable_honours(text, visible):
    """An honour held, melded and unseen as often as one already looked ahead from takes
    its figure (discard._honour_twin), and any other is worked out: every discard's figures
    as the reference computes them, one by one."""
    hand = mjfast.parse_hand(text)
    seen = np.zeros(34, np.int64)
    for name in visible:
        seen[TILE_INDEX[name]] += 1
    ref = reference_options(hand, seen)
    options = mjfast.best_discards(hand, visible=visible or None, fan_aware=False)
    assert sum(o.tile in "ESWNCFP" and o.next_acceptance > 0 for o in options) >= 2
    for o in options:
        s, useful, acc, nxt = ref[o.tile]
        assert (o.shanten, o.acceptance, o.next_acceptance) == (s, acc, pytest.approx(nxt)), (text, o.tile)


def test_best_discard_of_a_textbook_hand():
    # 123m456p789s + 1357s + E: discarding the lone East keeps 1357s (1-shanten, 23 tiles:
    # 1s 2s 3s 4s 5s 6s 7s, three copies each of the held ones, four of the others).
    options = mjfast.best_discards("123m456p789s1357sE", fan_aware=False)
    assert options[0].tile == "E"
    assert options[0].shanten == 1
    assert options[0].useful == ("1s", "2s", "3s", "4s", "5s", "6s", "7s")
    assert options[0].acceptance == 23


def test_discarded_tile_counts_as_seen():
    # From a complete hand, discarding one 5s waits on 5s: only two copies remain unseen
    # (one in hand, one just discarded), although the 13-tile hand alone would count three.
    options = {o.tile: o for o in mjfast.best_discards("123m456p789sEEE55s", ranking="fan-aware")}
    assert options["5s"].useful == ("5s",)
    assert options["5s"].acceptance == 2
    assert mjfast.acceptance("123m456p789sEEE5s") == 3
    assert mjfast.acceptance("123m456p789sEEE5s", visible="5s") == 2


def test_ready_options_have_no_next_step():
    options = mjfast.best_discards("123m456p789sEEE5s9s", ranking="fan-aware")
    assert any(o.shanten == 0 for o in options)
    assert all(o.next_acceptance == 0.0 for o in options if o.shanten == 0)


def test_next_step_can_be_skipped():
    full = mjfast.best_discards("123m456p789s1357sE", fan_aware=False)
    quick = mjfast.best_discards("123m456p789s1357sE", fan_aware=False, next_step=False)
    assert all(o.next_acceptance == 0.0 for o in quick)
    assert any(o.next_acceptance > 0 for o in full)
    assert {o.tile: (o.shanten, o.acceptance) for o in full} == {o.tile: (o.shanten, o.acceptance) for o in quick}


def test_best_discards_rejects_bad_visible():
    with pytest.raises(HandError):
        mjfast.best_discards("123m456p789s1357sE", visible="EEEE")


def test_draw_sweep_matches_the_discard_sweep():
    """The look-aheads' draw sweep (bounds first, merges kept from the prepared 3n+1 hand)
    against the plain discard sweep of the 3n+2 hand, on every draw of random, melded and
    special-form hands: the same deficiency and mask for every discard within the target,
    among the discards prepared and not skipped. The prepared hand changes by a swapped tile
    now and then, prepared again from the last (as a look-ahead does) or afresh."""
    from mjfast.efficiency.discards import discard_sweep, draw_sweep, knitted_floor
    from mjfast.efficiency.group_dp import INF
    from mjfast.efficiency.lookup_table import load_table
    from mjfast.efficiency.regular import meld_check_bits
    from mjfast.efficiency.regular_sweep import prepare_draws
    from mjfast.efficiency.scratch import N_FORMS, new_scratch
    from mjfast.efficiency.special_forms import presence_bits

    rng = np.random.default_rng(77)
    hands = sweep_hands(rng)
    table, work, sweep_work = load_table(), new_scratch(), new_scratch()
    dist, masks = np.empty(N_FORMS, np.int64), np.empty(N_FORMS, np.int64)
    plain_dist, plain_mask = np.empty(34, np.int64), np.empty(34, np.int64)
    drawn_dist, drawn_mask = np.empty(34, np.int64), np.empty(34, np.int64)
    ranks = np.empty(4, np.int64)
    compared = 0
    for counts, melds in hands:
        hand = Hand(counts, melds)
        x = hand.counts.astype(np.int64)
        locked = hand.meld_counts.astype(np.int64)
        n_melds = len(hand.melds)
        check_bits = meld_check_bits(locked)
        again = False  # the scratch is prepared for other melds
        for u in range(34):
            if rng.random() < 0.3:  # swap a tile v for w
                v, w = rng.choice(np.flatnonzero(x > 0)), rng.choice(np.flatnonzero(x + locked < 4))
                x[v] -= 1
                x[w] += 1
            if x[u] + locked[u] >= 4:
                continue
            x[u] += 1
            discard_sweep(table, x, locked, n_melds, plain_dist, plain_mask, sweep_work, dist, masks)
            best = plain_dist.min()
            skip = int(rng.integers(0, 1 << 34)) & int(rng.integers(0, 1 << 34))
            prepared = (1 << 34) - 1 if rng.random() < 0.5 else int(rng.integers(0, 1 << 34))
            for target in (best, best + 1):
                x[u] -= 1
                prepare_draws(table, x, locked, check_bits, 4 - n_melds, target, prepared, again, ranks, work)
                again = bool(rng.random() < 0.8)
                floor = knitted_floor(table, x, locked, n_melds, ranks, presence_bits(x)[0], target + 1, work) - 1
                x[u] += 1
                drawn_dist[:] = INF
                drawn_mask[:] = 0
                found = draw_sweep(table, x, locked, n_melds, check_bits, (u, target, floor, skip), drawn_dist,
                                   drawn_mask, work, dist, masks, ranks)
                kinds = np.arange(34)
                within = (plain_dist <= target) & ((skip >> kinds) & 1 == 0) & ((prepared >> kinds) & 1 == 1)
                assert found == sum(1 << k for k in np.flatnonzero(within)), (str(hand), u, target)
                assert np.array_equal(drawn_dist, np.where(within, plain_dist, INF)), (str(hand), u, target)
                assert np.array_equal(drawn_mask, np.where(within, plain_mask, 0)), (str(hand), u, target)
                compared += int(within.sum())
            x[u] -= 1
    assert compared > 40_000
