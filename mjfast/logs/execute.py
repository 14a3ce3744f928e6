"""Where the chunks are analysed: in this process, in local worker processes, or on a Dask
cluster. Each way yields the results in the order of the chunks, with a bounded number of
chunks in flight, so memory stays flat and the output is the same whichever way ran it.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from .sources import LogsError
from .work import ChunkResult, analyse_chunk

CHUNKS_IN_FLIGHT_PER_WORKER = 3


def local_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _in_order(submit: Callable, chunks: Iterable, window: int) -> Iterator[ChunkResult]:
    """Submit chunks as results come back, at most `window` at a time; yield the results in
    the order of the chunks. A worker's failure (a crash, mjfast missing on a Dask worker)
    is raised as a LogsError naming the chunk."""
    pending: deque = deque()
    for chunk in chunks:
        pending.append((chunk, submit(chunk)))
        if len(pending) >= window:
            yield _result(*pending.popleft())
    while pending:
        yield _result(*pending.popleft())


def _result(chunk, future) -> ChunkResult:
    try:
        return future.result()
    except Exception as exc:
        raise LogsError(f"a worker failed on {chunk.file}, games {chunk.first + 1}-{chunk.first + len(chunk.blocks)} "
                        f"of the run: {type(exc).__name__}: {exc}") from exc


@contextmanager
def analysed(chunks: Iterable, fan_aware: bool, workers: "int | None" = None,
             dask: "str | None" = None, value: bool = False) -> Iterator[Iterator[ChunkResult]]:
    """The ChunkResult of every chunk, in order: on the Dask scheduler at address `dask`, or
    on `workers` local processes (default: every core; 1: in this process); the analysis as
    work.analyse_chunk(chunk, fan_aware, value)."""
    if dask is not None:
        with _dask_client(dask) as client:
            window = CHUNKS_IN_FLIGHT_PER_WORKER * max(1, sum(client.nthreads().values()))
            yield _in_order(lambda chunk: client.submit(analyse_chunk, chunk, fan_aware, value, pure=False), chunks,
                            window)
        return
    workers = local_cores() if workers is None else workers
    if workers == 1:
        yield (analyse_chunk(chunk, fan_aware, value) for chunk in chunks)
        return
    # spawn, not fork: a forked child would inherit numba's state from a parent that may have
    # run kernels already
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        yield _in_order(lambda chunk: pool.submit(analyse_chunk, chunk, fan_aware, value), chunks,
                        CHUNKS_IN_FLIGHT_PER_WORKER * workers)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def _dask_client(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise LogsError("--dask needs Dask: pip install 'mjfast[dask]'") from None
    try:
        client = Client(address, set_as_default=False, timeout="20s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise LogsError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        yield client
    finally:
        client.close()
