"""Interleaved A/B of the advice paths between checkouts, for a change's same-run figures on a
noisy machine.

    python bench/ab.py OLD_CHECKOUT,NEW_CHECKOUT [--rounds 8] [--tasks value1,value2,fan_aware]

One worker process per checkout (its mjfast imported from there, its kernels compiled or
loaded first); each round runs a task in every checkout one after the other, and a hand's
figure is its least time over the rounds: a busy moment slows one round of one checkout, not
every round. Prints, per task, each checkout's mean over the hands of those least times and
the ratio of the first checkout's to it (above 1: faster than the first). The hands are the
speed record's (bench/record.py: value bands by shanten from seed 48, 18 draws, no budget;
200 dealt 14-tile hands from seed 47 for the other rankings).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent
TASKS = ("value1", "value2", "value3", "fan_aware", "efficiency", "efficiency_no_next")


def _task_hands(mjfast):
    """{task: (hands, best_discards keywords)}."""
    from record import dealt_hands

    sizes = {1: 20, 2: 12, 3: 6}
    rng = np.random.default_rng(48)
    bands: dict[int, list] = {band: [] for band in sizes}
    while any(len(bands[b]) < n for b, n in sizes.items()):
        counts = dealt_hands(rng, 1, 14)[0]
        band = mjfast.shanten(counts)
        if band in bands and len(bands[band]) < sizes[band]:
            bands[band].append(counts)
    dealt = dealt_hands(np.random.default_rng(47), 200, 14)
    value = {f"value{band}": (hands, {"draws": 18}) for band, hands in bands.items()}
    return {**value, "fan_aware": (dealt, {"ranking": "fan-aware"}), "efficiency": (dealt, {"ranking": "efficiency"}),
            "efficiency_no_next": (dealt, {"ranking": "efficiency", "next_step": False})}


def worker(tree: str) -> None:
    """Answers each task named on stdin with one line: the seconds of each of its hands."""
    sys.path[:0] = [tree, str(BENCH)]
    import mjfast

    if not mjfast.__file__.startswith(tree):
        raise SystemExit(f"bench/ab.py: mjfast imported from {mjfast.__file__}, not from {tree}")
    tasks = _task_hands(mjfast)
    for hands, keywords in tasks.values():  # compiled or loaded before any clock
        mjfast.best_discards(hands[0], **keywords)
    print("ready", flush=True)
    for line in sys.stdin:
        hands, keywords = tasks[line.strip()]
        times = []
        for counts in hands:
            started = time.perf_counter()
            mjfast.best_discards(counts, **keywords)
            times.append(time.perf_counter() - started)
        print(" ".join(f"{t:.9f}" for t in times), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", help="checkouts separated by commas, the first the reference")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--tasks", default="value1,value2,value3,fan_aware,efficiency",
                        help=f"comma-separated, of {', '.join(TASKS)}")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.trees)
        return 0
    trees = [str(Path(t).resolve()) for t in args.trees.split(",")]
    tasks = args.tasks.split(",")
    unknown = [t for t in tasks if t not in TASKS]
    if unknown or args.rounds < 1:
        parser.error(f"unknown tasks {unknown}" if unknown else "--rounds takes a positive number")
    workers = []
    for tree in trees:
        process = subprocess.Popen([sys.executable, __file__, tree, "--worker"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=tree))
        if process.stdout.readline().strip() != "ready":
            raise SystemExit(f"bench/ab.py: the worker of {tree} did not start")
        workers.append(process)
    least: dict = {}
    for _ in range(args.rounds):
        for task in tasks:
            for tree, process in zip(trees, workers):
                process.stdin.write(task + "\n")
                process.stdin.flush()
                times = [float(x) for x in process.stdout.readline().split()]
                least[tree, task] = np.minimum(least.get((tree, task), times), times)
    for process in workers:
        process.stdin.close()
        process.wait()
    for task in tasks:
        reference = least[trees[0], task].mean()
        print(task.ljust(20), "  ".join(f"{Path(t).name} {1e3 * least[t, task].mean():.3f} ms "
                                         f"({reference / least[t, task].mean():.2f}x)" for t in trees))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
