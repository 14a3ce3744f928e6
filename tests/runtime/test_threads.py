"""mjfast.runtime.threads.over_rows: every row answered once, errors raised in the caller, and batch
answers independent of the thread count."""

import threading
import time

import numpy as np
import pytest

import mjfast
import mjfast.runtime.threads as threads
from mjfast.efficiency import batch
from mjfast.fan import batch as fan_batch
from mjfast.fan import score_batch


def _recorder():
    seen = []
    lock = threading.Lock()

    def kernel(start, stop, out):
        with lock:
            seen.append((start, stop, threading.get_ident()))
        out[start:stop] += 1

    return kernel, seen


@pytest.mark.parametrize("n_rows,per_task,n_threads", [(1, 4, 2), (10, 3, 2), (10, 3, 5), (64, 8, 3), (7, 100, 4)])
def test_every_row_once_one_range_a_thread(monkeypatch, n_rows, per_task, n_threads):
    monkeypatch.setattr(threads, "thread_count", lambda: n_threads)
    kernel, seen = _recorder()
    out = np.zeros(n_rows, np.int64)
    threads.over_rows(kernel, n_rows, per_task, out)
    assert out.tolist() == [1] * n_rows
    ranges = sorted((start, stop) for start, stop, _ in seen)
    assert [stop for _, stop in ranges[:-1]] == [start for start, _ in ranges[1:]]  # in order, none twice
    assert len(ranges) == min(n_threads, -(-n_rows // per_task))  # a range a thread, none under per_task rows
    assert max(stop - start for start, stop in ranges) - min(stop - start for start, stop in ranges) <= 1
    caller = [ident for start, _, ident in seen if start == 0]
    assert caller == [threading.get_ident()]  # the caller answers the first range itself


def test_one_thread_is_one_call_in_the_caller(monkeypatch):
    monkeypatch.setattr(threads, "thread_count", lambda: 1)
    kernel, seen = _recorder()
    threads.over_rows(kernel, 100, 7, np.zeros(100, np.int64))
    assert seen == [(0, 100, threading.get_ident())]


def test_a_task_error_is_raised_in_the_caller(monkeypatch):
    monkeypatch.setattr(threads, "thread_count", lambda: 3)

    def kernel(start, stop):
        if start <= 50 < stop:
            raise ZeroDivisionError("the task of row 50")

    with pytest.raises(ZeroDivisionError, match="the task of row 50"):
        threads.over_rows(kernel, 100, 10)


def test_batch_answers_do_not_depend_on_threads(monkeypatch):
    hands14 = [mjfast.parse_hand(s).counts for s in ("123m456p789s1357sE", "19m19p19s1234567z5z", "11223344556677m")]
    counts14 = np.array([hands14[i % 3] for i in range(300)], np.uint8)
    counts13 = counts14.copy()
    counts13[np.arange(300), np.argmax(counts13 > 0, axis=1)] -= 1  # each hand's lowest tile discarded
    win = mjfast.parse_hand("123m456p789s123sEE").counts
    answers = []
    for n_threads in (1, 2, 5):
        monkeypatch.setattr(threads, "thread_count", lambda n=n_threads: n)
        monkeypatch.setattr(batch, "_CHUNK", 16)
        monkeypatch.setattr(batch, "_DISCARD_CHUNK", 16)
        monkeypatch.setattr(fan_batch, "CHUNK", 8)
        scores = score_batch(np.repeat(np.array(win)[None, :], 40, axis=0), np.full(40, 27))
        answers.append([batch.shanten(counts13), batch.regular_shanten(counts13), batch.shanten_by_form(counts13),
                        *batch.useful(counts13),
                        *batch.discards(counts14, next_step=True), scores.totals, scores.fans])
    for other in answers[1:]:
        for a, b in zip(answers[0], other):
            assert np.array_equal(a, b)


def test_the_pool_is_made_once_and_serves_every_call(monkeypatch):
    monkeypatch.setattr(threads, "thread_count", lambda: 3)
    monkeypatch.setattr(threads, "_pool", None)  # not the one an earlier test made for more threads
    record, seen = _recorder()

    def kernel(start, stop, out):
        time.sleep(0.001)
        record(start, stop, out)

    for _ in range(20):
        threads.over_rows(kernel, 64, 1, np.zeros(64, np.int64))
    helpers = {ident for _, _, ident in seen} - {threading.get_ident()}
    assert 1 <= len(helpers) <= 2  # the pool's two threads, never a thread a call
    assert all(t.name.startswith("mjfast-batch") for t in threading.enumerate() if t.ident in helpers)


def test_a_forked_child_gets_a_pool_of_its_own(monkeypatch):
    """A pool's threads do not survive fork: a child that inherited a pool still answers."""
    import multiprocessing

    monkeypatch.setattr(threads, "thread_count", lambda: 2)
    threads.over_rows(_add_one, 100, 1, np.zeros(100, np.int64))  # the parent's pool, made
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as child:
        assert child.apply(_rows_in_child, ()) == [1] * 1000


def _add_one(start, stop, out):
    out[start:stop] += 1


def _rows_in_child():
    out = np.zeros(1000, np.int64)
    threads.over_rows(_add_one, 1000, 1, out)
    return out.tolist()


def test_callers_on_several_threads_at_once_each_get_all_their_rows(monkeypatch):
    monkeypatch.setattr(threads, "thread_count", lambda: 2)
    outs = [np.zeros(5000, np.int64) for _ in range(4)]

    def kernel(start, stop, out):
        out[start:stop] += 1

    callers = [threading.Thread(target=lambda o=o: [threads.over_rows(kernel, 5000, 7, o) for _ in range(10)])
               for o in outs]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert all(out.tolist() == [10] * 5000 for out in outs)


def test_a_borrowed_array_is_the_same_array_uncounted():
    from numba import njit

    from mjfast.runtime.intrinsics import borrowed

    @njit
    def row_sums(m):
        m = borrowed(m)
        out = np.zeros(m.shape[0], np.int64)
        for i in range(m.shape[0]):
            row = m[i]
            out[i] = row.sum()
        return out

    m = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert row_sums(m).tolist() == m.sum(axis=1).tolist()
