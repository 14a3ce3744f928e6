"""Compile (or load from numba's cache) every kernel a user may call, in one go.

The first call of each kernel in a fresh environment compiles it; `mjfast warmup` (or
`mjfast.warmup.warm_up()`) pays that once, up front, and the cache keeps it for later runs.
numba compiles on one core, so `mjfast warmup` (and the build, build_kernels.py) compile
groups of calls in parallel processes, one a core (process_parts, warm_up_in_processes).

This module imports nothing of mjfast until a call runs: the build reads it from the
package it builds without importing that package.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable

import numpy as np

# Groups of warm-up calls (their names below), each compiled in a process of its own: the
# discard and claim advice, over half of the whole compile (its longest chain, the fan scorer
# then the value engine, cannot be split: a process that reaches a kernel first compiles it,
# the other would compile it again), everything else but the log analysis, and the log
# analysis (`mjfast logs`, `mjfast review`), which finds most of its kernels compiled after
# either group. The order shares work between the processes: the shared cores are cached
# kernels (fan.kernel.score_into, discards.discard_options...), so the rest scores first and
# ranks batches last, the advice ranks plainly first and scores after.
ADVICE = ("best_discards (plain)", "best_discards (fan-aware)", "hand_value", "best_discards",
          "best_discards (melds)", "claim_options")
LOG_ANALYSIS = ("logs analysis",)


def process_parts(cpus: int, logs: bool = True) -> "list[dict]":
    """warm_up's arguments for each process that compiles in parallel on `cpus` cores: every
    call once (the log analysis only if `logs`). On two cores the log analysis follows the
    rest in its process, where it finds most of its kernels compiled."""
    if cpus < 2:
        return [{"skip": () if logs else LOG_ANALYSIS}]
    if cpus == 2 or not logs:
        return [{"only": list(ADVICE)}, {"skip": ADVICE if logs else ADVICE + LOG_ANALYSIS}]
    return [{"only": list(ADVICE)}, {"skip": ADVICE + LOG_ANALYSIS}, {"only": list(LOG_ANALYSIS)}]


PROGRESS_EVERY = 10.0  # seconds between warm_up_in_processes' progress reports


def warm_up_in_processes(parts: "list[dict]", env: "dict | None" = None, cwd=None,
                         progress: "Callable[[int, float], None] | None" = None) -> "str | None":
    """Run warm_up(**part) for every part at once, each in a child process of this Python;
    None when all of them worked, else what the first that failed said last. `progress`, if
    given, is told every PROGRESS_EVERY seconds the kernels the children compiled so far and
    the seconds since they started (each child appends a byte a kernel to a file of its own:
    runtime.notice's MJFAST_PROGRESS)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mjfast-warmup-") as folder:
        tallies = [os.path.join(folder, f"part{k}") for k in range(len(parts))]
        workers = []
        for part, tally in zip(parts, tallies):
            child = dict(os.environ if env is None else env, MJFAST_PROGRESS=tally)
            workers.append(subprocess.Popen([sys.executable, "-c", f"import mjfast.warmup as w; w.warm_up(**{part!r})"],
                                            cwd=cwd, env=child, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                            text=True))
        # each child's stderr drained on a thread of its own: a full pipe would stop the child
        errors = [""] * len(workers)

        def drain(k: int) -> None:
            errors[k] = workers[k].communicate()[1]

        readers = [threading.Thread(target=drain, args=(k,), daemon=True) for k in range(len(workers))]
        for reader in readers:
            reader.start()
        told = started
        for reader in readers:
            while reader.is_alive():
                reader.join(max(0.0, told + PROGRESS_EVERY - time.perf_counter()))
                if progress is not None and time.perf_counter() - told >= PROGRESS_EVERY:
                    told = time.perf_counter()
                    progress(sum(os.path.getsize(t) for t in tallies if os.path.exists(t)), told - started)
    failure = None
    for worker, said in zip(workers, errors):
        if worker.returncode != 0 and failure is None:
            failure = ((said or "").strip().splitlines() or [f"exit status {worker.returncode}"])[-1]
    return failure


def child_env() -> dict:
    """The environment for warm_up_in_processes' children to import this mjfast, quietly."""
    env = dict(os.environ, MJFAST_QUIET="1")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join([here] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    return env


def call_names() -> list[str]:
    """The names of the warm-up calls, in the order warm_up runs them."""
    return list(_calls())


def warm_up(only: "list[str] | None" = None, skip: "tuple[str, ...]" = ()) -> list[str]:
    """Run each public entry point once on a small input (those named in `only` if given, in
    its order, but not those in `skip`: call_names()); returns the names warmed."""
    calls = _calls()
    unknown = sorted(set(only or ()).union(skip) - set(calls))
    if unknown:
        from mjfast.errors import ArgumentError

        raise ArgumentError(f"no warm-up call named {', '.join(unknown)}; the names are: {', '.join(calls)}")
    names = [name for name in (calls if only is None else only) if name not in skip]
    for name in names:
        calls[name]()
    return names


def _calls() -> dict:
    """Each warm-up call by name: one public entry point on a small input."""
    import mjfast
    from mjfast.efficiency import batch
    from mjfast.fan import score, score_batch, winning_tiles

    hand13 = mjfast.parse_hand("123m456p789s1357s")
    hand14 = mjfast.parse_hand("123m456p789s1357sE")
    melded = mjfast.parse_hand("[555m1]46m123p456p99s")
    return {
        "fan.score": lambda: score("123m456p789s123sEE"),
        "fan.winning_tiles": lambda: winning_tiles(hand13),
        "fan.score_batch": lambda: score_batch(np.array(mjfast.parse_hand("123m456p789s123sEE").counts)[None, :],
                                               np.array([27])),
        "shanten": lambda: (mjfast.shanten(hand13), mjfast.shanten("123m456p789s1357s")),  # a Hand, a string
        "shanten (melds)": lambda: mjfast.shanten(melded),
        "shanten_by_form": lambda: mjfast.shanten_by_form(hand13),
        "useful_tiles": lambda: mjfast.useful_tiles(hand13),
        "useful_by_form": lambda: mjfast.useful_by_form(hand13),
        "acceptance": lambda: mjfast.acceptance(hand13),
        "best_discards (plain)": lambda: mjfast.best_discards(hand14, ranking="efficiency"),
        "best_discards (fan-aware)": lambda: mjfast.best_discards(hand14, ranking="fan-aware"),
        "hand_value": lambda: mjfast.hand_value(hand13),
        "best_discards": lambda: mjfast.best_discards(hand14),
        "best_discards (melds)": lambda: mjfast.best_discards("[555m1]46m123p456p99s9s"),
        "claim_options": lambda: mjfast.claim_options("123m456p78s1157sE", "9s", offered_by=1),
        "batch.shanten": lambda: batch.shanten(hand13.counts[None, :]),
        "batch.regular_shanten": lambda: batch.regular_shanten(hand13.counts[None, :]),
        "batch.shanten_by_form": lambda: batch.shanten_by_form(hand13.counts[None, :]),
        "batch.useful": lambda: batch.useful(hand13.counts[None, :]),
        "batch.discards": lambda: batch.discards(np.array(hand14.counts)[None, :], next_step=True),
        "logs analysis": _analyse_a_game,
    }


def _analyse_a_game() -> None:
    """`mjfast logs`' analysis (and `mjfast review`'s) of one seeded game of four ShantenBots."""
    from mjfast.bots import ShantenBot
    from mjfast.game import InProcessAgent, play_game
    from mjfast.game.walls import deal_walls
    from mjfast.logs.analysis import GameAnalyser

    log = play_game([InProcessAgent(ShantenBot()) for _ in range(4)], deal_walls(1), 0).log
    GameAnalyser(fan_aware=True).analyse(log, 0)
