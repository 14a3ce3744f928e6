"""Batch calls on every core: a kernel run over ranges of rows by a few threads at once.

The batch kernels release the GIL (`nogil=True`) and take the range of rows they answer
(`kernel(start, stop, *args)`), so threads calling them run in parallel. numba's own parallel
loops (`prange`) did the same, but compiling a kernel with one took four to seven times as
long as without (6.5 s against 1.3 s for batch.shanten's), for a loop at most 7% faster.
"""

from __future__ import annotations

import threading

from .jit import worker_threads as thread_count  # one a core, or NUMBA_NUM_THREADS

__all__ = ["over_rows", "thread_count"]


def over_rows(kernel, n_rows: int, min_rows_per_task: int, *args) -> None:
    """kernel(start, stop, *args) over rows 0..n_rows on up to thread_count() threads (the
    caller's among them), each taking the next task until none is left. A task is a share of
    the rows left (half of them divided among the threads, at least min_rows_per_task): the
    first tasks are long, so that starting them costs nothing, and the last short, so that
    the threads finish together. The first error a task raises is raised here once every
    thread has stopped; the tasks not yet started are then skipped."""
    n_threads = min(thread_count(), -(-n_rows // min_rows_per_task))
    if n_threads <= 1:
        kernel(0, n_rows, *args)
        return
    taking = threading.Lock()
    next_row = [0]
    errors: list[BaseException] = []

    def next_task() -> "tuple[int, int] | None":
        with taking:
            start = next_row[0]
            if start >= n_rows or errors:
                return None
            stop = min(n_rows, start + max(min_rows_per_task, (n_rows - start) // (2 * n_threads)))
            next_row[0] = stop
            return start, stop

    def work() -> None:
        try:
            task = next_task()
            while task is not None:
                kernel(task[0], task[1], *args)
                task = next_task()
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
