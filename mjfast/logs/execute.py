"""Where the chunks are analysed: in this process, in local worker processes, or on a Dask
cluster. Each way yields the results in the order of the chunks, with a bounded number of
chunks in flight, so memory stays flat and the output is the same whichever way ran it. A
chunk an earlier run analysed (kept) is not analysed again: its result takes its place.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
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


def in_order(submit: Callable, items: Iterable, window: int, describe: Callable = str) -> Iterator:
    """Submit items (submit(item) -> a Future) as results come back, at most `window` at a
    time; yield the results in the order of the items. A worker's failure (a crash, mjfast
    missing on a Dask worker) is raised as a LogsError naming the item (`describe(item)`)."""
    pending: deque = deque()
    for item in items:
        pending.append((item, submit(item)))
        if len(pending) >= window:
            yield _result(pending.popleft(), describe)
    while pending:
        yield _result(pending.popleft(), describe)


def _or_kept(submit: Callable, kept: Callable) -> Callable:
    """submit(chunk), unless kept(chunk) has the chunk's result already (a Future that is
    done, see done())."""
    def go(chunk):
        result = kept(chunk)
        return submit(chunk) if result is None else done(result)

    return go


def _no_result(chunk) -> None:
    return None


def _result(pending: tuple, describe: Callable):
    item, future = pending
    try:
        return future.result()
    except Exception as exc:
        raise LogsError(f"a worker failed on {describe(item)}: {type(exc).__name__}: {exc}") from exc


def _chunk_text(chunk) -> str:
    return f"{chunk.file}, games {chunk.first + 1}-{chunk.first + len(chunk.blocks)} of the run"


def done(result) -> Future:
    """A Future already holding `result`: work done in this process, in in_order's stream."""
    future: Future = Future()
    future.set_result(result)
    return future


def spawned_pool(workers: int) -> ProcessPoolExecutor:
    """Local worker processes, spawned, not forked: a forked child would inherit numba's state
    from a parent that may have run kernels already."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


@contextmanager
def analysed(chunks: Iterable, fan_aware: bool, workers: "int | None" = None, dask: "str | None" = None,
             value: bool = False, ruleset=None, kept: Callable = _no_result) -> Iterator[Iterator[ChunkResult]]:
    """The ChunkResult of every chunk, in order: on the Dask scheduler at address `dask`, or
    on `workers` local processes (default: every core; 1: in this process); the analysis as
    work.analyse_chunk(chunk, fan_aware, value, ruleset). kept(chunk): the chunk's result from
    an earlier run, or None when it is to be analysed."""
    if dask is not None:
        with _dask_client(dask) as client:
            window = CHUNKS_IN_FLIGHT_PER_WORKER * max(1, sum(client.nthreads().values()))
            submit = _or_kept(lambda chunk: client.submit(analyse_chunk, chunk, fan_aware, value, ruleset, pure=False),
                              kept)
            yield in_order(submit, chunks, window, _chunk_text)
        return
    workers = local_cores() if workers is None else workers
    if workers == 1:
        yield in_order(_or_kept(lambda chunk: done(analyse_chunk(chunk, fan_aware, value, ruleset)), kept), chunks, 1,
                       _chunk_text)
        return
    pool = spawned_pool(workers)
    try:
        yield in_order(_or_kept(lambda chunk: pool.submit(analyse_chunk, chunk, fan_aware, value, ruleset), kept),
                       chunks, CHUNKS_IN_FLIGHT_PER_WORKER * workers, _chunk_text)
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
