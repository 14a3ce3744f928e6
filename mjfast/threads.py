"""Batch calls on every core: a kernel run over ranges of rows by a few threads at once.

The batch kernels release the GIL (`nogil=True`) and take the range of rows they answer
(`kernel(start, stop, *args)`), so threads calling them run in parallel. numba's own parallel
loops (`prange`) did the same, but compiling a kernel with one took four to seven times as
long as without (6.5 s against 1.3 s for batch.shanten's), for a loop at most 7% faster.

The helper threads are started once and wait for work between calls: starting a thread a call
cost 0.07-0.09 ms, a fifth of a batch of 300 discard analyses split in two. A helper waiting
for the next call, and a caller waiting for its helpers' last tasks, first spin a while
without the GIL (spin_while) and only then block: a blocked thread woke 20-30 µs after it
was signalled on a 2-core VM, a spinning one 2-5 µs after, and those wake-ups were a tenth of
that batch's time.
"""

from __future__ import annotations

import itertools
import os
import queue
import threading

import numpy as np

from .jit import atomic_load, njit
from .jit import worker_threads as thread_count  # one a core, or NUMBA_NUM_THREADS

__all__ = ["over_rows", "spin_while", "thread_count"]

# How long a waiting thread spins before it blocks: about 0.1 ms here (a read takes a few
# tenths of a nanosecond), to span the Python between two batch calls in a loop.
SPINS = 300_000
# And how long it goes on spinning once the flag changed, before it takes the GIL back: a
# few microseconds, for the thread that changed the flag to let the GIL go (to enter its
# kernel, or to start spinning itself). A thread that finds the GIL held sleeps until it is
# let go, and wakes 20-30 µs after that.
GRACE = 10_000


@njit(cache=True, nogil=True, nrt=False)
def spin_while(flag, value, spins, grace):
    """flag[0] once it differs from `value` (read `grace` more times after that, the value
    then read), or `value` after `spins` reads. Runs without the GIL, so that the threads it
    waits for run their Python meanwhile."""
    for _ in range(spins):
        now = atomic_load(flag)
        if now != value:
            for _ in range(grace):
                now = atomic_load(flag)
            return now
    return value


class _Rows:
    """One over_rows call: its rows handed out a task at a time, the count of threads at work
    on them, and the first error a task raised."""

    def __init__(self, kernel, n_rows: int, min_rows_per_task: int, n_threads: int, args: tuple) -> None:
        self.kernel, self.args = kernel, args
        self.n_rows, self.min_rows, self.n_threads = n_rows, min_rows_per_task, n_threads
        self.next_row = 0
        self.working = np.zeros(1, np.int64)  # threads between start() and the end of work(): for spin_while
        self.errors: list[BaseException] = []
        self.changed = threading.Condition(threading.Lock())

    def _next_task(self) -> "tuple[int, int] | None":
        start = self.next_row
        if start >= self.n_rows or self.errors:
            return None
        stop = min(self.n_rows, start + max(self.min_rows, (self.n_rows - start) // self.n_threads))
        self.next_row = stop
        return start, stop

    def start(self) -> "tuple[int, int] | None":
        """A first task for this thread, which then counts as at work, or None when none is
        left (a helper arriving that late returns at once: its caller may have returned)."""
        with self.changed:
            task = self._next_task()
            if task is not None:
                self.working[0] += 1
        return task

    def work(self, task: "tuple[int, int] | None") -> None:
        """Run `task` (from start()) and the next ones until none is left."""
        if task is None:
            return
        try:
            while task is not None:
                self.kernel(task[0], task[1], *self.args)
                with self.changed:
                    task = self._next_task()
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            with self.changed:
                self.errors.append(error)
        with self.changed:
            self.working[0] -= 1
            self.changed.notify_all()

    def help(self) -> None:
        """A helper's job."""
        self.work(self.start())

    def wait(self) -> None:
        """Until every task handed out has finished (none is left to hand out by then):
        spinning while the count of threads at work falls, then blocking."""
        left = self.working[0]
        while left:
            now = spin_while(self.working, left, SPINS, GRACE)
            if now == left:
                break
            left = now
        with self.changed:
            self.changed.wait_for(lambda: self.working[0] == 0)


class _Helpers:
    """Daemon threads that run the calls' jobs as they are queued. Any number of callers may
    queue at once (each call waits only for the tasks it handed out); a forked child starts
    its own threads, since only the forking thread lives on in it."""

    def __init__(self) -> None:
        self.jobs: "queue.SimpleQueue" = queue.SimpleQueue()
        self.started = 0
        self.starting = threading.Lock()
        self.pid = os.getpid()
        # A new number once a call's jobs are queued: idle helpers spin on it.
        self.posted = np.zeros(1, np.int64)
        self.calls = itertools.count(1)

    def _serve(self, jobs: "queue.SimpleQueue") -> None:
        while True:
            seen = self.posted[0]
            if jobs.empty():  # a job queued after this is posted after `seen`
                spin_while(self.posted, seen, SPINS, GRACE)
            jobs.get()()

    def run(self, rows: _Rows) -> None:
        helpers = rows.n_threads - 1
        with self.starting:
            if self.pid != os.getpid():  # a forked child: the parent's threads are not here
                self.jobs, self.started, self.pid = queue.SimpleQueue(), 0, os.getpid()
            jobs = self.jobs
            while self.started < helpers:
                threading.Thread(target=self._serve, args=(jobs,), name=f"mjfast-batch-{self.started}",
                                 daemon=True).start()
                self.started += 1
        task = rows.start()  # first, so that the caller's kernel starts right after the post
        for _ in range(helpers):
            jobs.put(rows.help)
        self.posted[0] = next(self.calls)
        rows.work(task)
        rows.wait()


_HELPERS = _Helpers()


def over_rows(kernel, n_rows: int, min_rows_per_task: int, *args) -> None:
    """kernel(start, stop, *args) over rows 0..n_rows on up to thread_count() threads (the
    caller's among them), each taking the next task until none is left. A task is the rows
    left divided among the threads (at least min_rows_per_task): the first tasks are long, so
    that starting them costs nothing, and the last short, so that the threads finish together.
    Tasks of half that (twice as many) took 300 discard analyses 0.55 ms against 0.49. The
    first error a task raises is raised here once every task started has stopped; the tasks
    not yet started are then skipped."""
    n_threads = min(thread_count(), -(-n_rows // min_rows_per_task))
    if n_threads <= 1:
        kernel(0, n_rows, *args)
        return
    rows = _Rows(kernel, n_rows, min_rows_per_task, n_threads, args)
    _HELPERS.run(rows)
    if rows.errors:
        raise rows.errors[0]
