"""Batch calls on every core: a kernel run over ranges of rows by a few threads at once.

The batch kernels release the GIL (`nogil=True`) and take the range of rows they answer
(`kernel(start, stop, *args)`), so threads calling them run in parallel. numba's own parallel
loops (`prange`) did the same, but compiling a kernel with one took seven times as long as
without (8.8 s against 1.2 s for batch.shanten's), for no faster a loop.
"""

from __future__ import annotations

import itertools
import threading

from .jit import worker_threads

__all__ = ["over_rows", "thread_count"]


def thread_count() -> int:
    """Threads a batch call runs on: one a core, or NUMBA_NUM_THREADS."""
    return worker_threads()


# Tasks a thread takes in a call, about: enough for threads to finish together when rows cost
# unequal time, few enough that starting each (a Python call of the kernel) costs nothing.
TASKS_PER_THREAD = 4


def over_rows(kernel, n_rows: int, min_rows_per_task: int, *args) -> None:
    """kernel(start, stop, *args) over rows 0..n_rows in tasks of at least min_rows_per_task
    rows, on up to thread_count() threads (the caller's among them), each taking the next task
    until none is left. The first error a task raises is raised here once every thread has
    stopped; the tasks not yet started are then skipped."""
    n_threads = min(thread_count(), -(-n_rows // min_rows_per_task))
    if n_threads <= 1:
        kernel(0, n_rows, *args)
        return
    rows_per_task = max(min_rows_per_task, -(-n_rows // (n_threads * TASKS_PER_THREAD)))
    n_tasks = -(-n_rows // rows_per_task)
    tasks = itertools.count()  # next() on it is atomic: each task is taken once
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for task in tasks:
                if task >= n_tasks or errors:
                    return
                start = task * rows_per_task
                kernel(start, min(n_rows, start + rows_per_task), *args)
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            errors.append(error)

    helpers = [threading.Thread(target=work, daemon=True) for _ in range(n_threads - 1)]
    for helper in helpers:
        helper.start()
    work()
    for helper in helpers:
        helper.join()
    if errors:
        raise errors[0]
