"""The per-hand fast paths: kernels called through their entry points, strings counted in
one pass. Each must answer exactly what the general path answers."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

import mjfast
from mjfast.efficiency import api, one_hand
from mjfast.errors import HandError
from mjfast.hand import Hand, _compact_hand, _parse_any
from mjfast.runtime.dispatch import DirectKernel
from mjfast.tiles import compact_counts, counts_of, parse_tiles
from tests.hands import wall_hand


def test_direct_kernel_binds_the_entry_point_and_agrees():
    kernel = DirectKernel(one_hand.shanten_of)
    table, work = api.kernel_context()
    rng = np.random.default_rng(7)
    hands = [np.array(wall_hand(rng, 0, bool(i % 2))[0], np.uint8) for i in range(200)]
    first = kernel.call(table, hands[0], api.NO_MELDS, 0, work)
    assert kernel.call != kernel._first_call  # later calls skip the dispatcher
    assert first == one_hand.shanten_of(table, hands[0], api.NO_MELDS, 0, work)
    for h in hands:
        assert kernel.call(table, h, api.NO_MELDS, 0, work) == one_hand.shanten_of(table, h, api.NO_MELDS, 0, work)


@pytest.mark.parametrize("make", [
    lambda c: c.astype(np.int64),                      # another dtype
    lambda c: np.repeat(c, 2)[::2],                    # not contiguous
    lambda c: np.frombuffer(c.tobytes(), np.uint8),    # read-only
    lambda c: c.tolist(),                              # a list of counts
])
def test_any_count_array_gives_the_same_answer(make):
    rng = np.random.default_rng(3)
    for _ in range(50):
        counts = np.array(wall_hand(rng, 0, False)[0], np.uint8)
        assert mjfast.shanten(make(counts)) == mjfast.shanten(counts)
        assert mjfast.useful_tiles(make(counts)) == mjfast.useful_tiles(counts)


def test_compact_counts_agrees_with_the_parser():
    rng = np.random.default_rng(5)
    for _ in range(500):
        hand = mjfast.parse_hand(np.array(wall_hand(rng, 0, bool(rng.integers(2)))[0], np.uint8))
        text = hand.to_compact()
        assert np.array_equal(compact_counts(text), hand.counts)


@pytest.mark.parametrize("text", ["123m 456p", "W1W2", "123mm", "m123", "12E", "8z", "123", "1m0p", "", "1m,2m"])
def test_compact_counts_leaves_the_rest_to_the_parser(text):
    counts = compact_counts(text)
    if counts is None:
        return
    assert list(counts) == list(counts_of(text))


def test_compact_counts_never_disagrees_on_random_text():
    rng = random.Random(11)
    alphabet = "123456789mpszESWNCFPWBTJ0 ,x"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 20)))
        counts = compact_counts(text)
        if counts is None:
            continue
        ids = parse_tiles(text)  # must not raise: the fast path accepted it
        assert list(counts) == np.bincount(np.array(ids, np.int64), minlength=34).tolist(), text


def test_concealed_hands_read_by_the_kernel_agree_with_the_parser():
    """parse_hand reads a plain compact string in one kernel call: valid hands with random edits
    (tiles dropped, added or replaced, letters that are no notation) give the Hand the full
    parser gives, or the same HandError."""
    rng = random.Random(13)
    np_rng = np.random.default_rng(13)
    read = refused = 0
    for i in range(20000):
        if i % 10 == 0:
            text = Hand(np.array(wall_hand(np_rng, 0, bool(i % 20))[0], np.uint8)).to_compact()
        edited = _mutated(rng, text) if i % 5 else text
        try:
            expected = _parse_any(edited, ())
        except HandError as error:
            with pytest.raises(HandError, match=re.escape(str(error))):
                mjfast.parse_hand(edited)
            refused += 1
            continue
        assert _same_hand(mjfast.parse_hand(edited), expected), edited
        read += 1
    assert read > 3000 and refused > 3000  # both sides are exercised


def test_string_fast_path_still_raises_the_parsers_errors():
    with pytest.raises(HandError, match="5"):
        mjfast.shanten("11111m")
    with pytest.raises(HandError, match="3 standing tiles"):
        mjfast.shanten("123m")


def _same_hand(a: Hand, b: Hand) -> bool:
    return (a == b and a.n_standing == b.n_standing and np.array_equal(a.meld_counts, b.meld_counts)
            and not a.counts.flags.writeable and not a.meld_counts.flags.writeable)


def test_melded_strings_read_in_one_pass_agree_with_the_parser():
    rng = np.random.default_rng(8)
    for i in range(600):
        counts, melds = wall_hand(rng, i % 5, bool(i % 2))
        text = Hand(counts, tuple(melds), int(np.flatnonzero(counts)[-1])).to_compact()
        fast = _compact_hand(text) if melds else mjfast.parse_hand(text)  # parse_hand reads concealed hands itself
        assert fast is not None, text
        assert _same_hand(fast, _parse_any(text, ())), text
        assert mjfast.parse_hand(text) == fast


def _mutated(rng: random.Random, text: str) -> str:
    """text with one or two characters deleted, inserted or replaced."""
    alphabet = "[]123456789mpszESWNCFP ,0"
    for _ in range(rng.randrange(1, 3)):
        at = rng.randrange(len(text) + 1)
        edit = rng.randrange(3)
        if edit == 0:
            text = text[:at] + text[at + 1:]
        else:
            text = text[:at] + rng.choice(alphabet) + text[at + (edit == 2):]
    return text


def test_melded_fast_path_never_disagrees_on_mutated_text():
    """Valid melded hands with random edits: whatever the one-pass reader accepts, the full
    parser accepts too, and reads the same."""
    rng = random.Random(12)
    np_rng = np.random.default_rng(12)
    accepted = 0
    for i in range(20000):
        if i % 10 == 0:
            counts, melds = wall_hand(np_rng, 1 + (i // 10) % 4, bool((i // 10) % 2))  # 1-4 melds: i % 10 == 0 here
        text = _mutated(rng, Hand(counts, tuple(melds)).to_compact())
        fast = _compact_hand(text)
        if fast is None:
            continue
        accepted += 1
        assert _same_hand(fast, _parse_any(text, ())), text  # must not raise: the fast path accepted it
    assert accepted > 1000  # the edits do reach the fast path


def test_the_uncounted_entry_compiles_and_loads_whole(tmp_path):
    """shanten(counts) calls a kernel compiled without reference counts (one_hand.shanten_of_counts)
    that calls shanten_of, compiled with them so that the views of the scratch it makes are
    counted as its counted callers (useful_of) count them. Compiled uncounted, shanten_of took
    its helpers' compile along: a process that loaded the kernels from the cache after one had
    compiled them in this order aborted (malloc's check) at its first shanten(counts). Here one
    process compiles them in that order, a second loads them; both answer right, and leave the
    scratch's references as they found them."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = """if True:
        import sys
        import numpy as np, mjfast
        from mjfast.efficiency.api import kernel_context
        nine_gates = np.array(mjfast.parse_hand("1112345678999s").counts)
        assert mjfast.shanten(nine_gates) == 0  # the uncounted entry first
        table, work = kernel_context()
        before = sys.getrefcount(work)
        for _ in range(20):
            assert mjfast.waits(nine_gates) == [f"{r}s" for r in range(1, 10)]
            assert mjfast.shanten(nine_gates) == 0 and mjfast.acceptance(nine_gates) == 23
            assert mjfast.shanten_by_form("[123m1]456p789sEEE5m")["regular"] == 0
        print(sys.getrefcount(work) - before)
    """
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), MJFAST_QUIET="1", PYTHONPATH=str(root))
    for run in ("compiles", "loads"):
        done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, (run, done.stderr[-2000:])
        assert done.stdout.split() == ["0"], run  # no reference to the scratch taken or dropped
