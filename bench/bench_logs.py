"""Throughput and memory of `mjfast logs` on a large log: the 16 real matches repeated.

    python -m pytest bench/bench_logs.py -s

Each rate is measured on two file sizes: the extra games over the extra time, without what
every run pays once (starting the worker processes, which import numba and load the compiled
kernels; drawing the report). Per core: one process (workers=1), timed in CPU seconds of this
process, so that what else the machine runs does not count. On 2 cores: two worker
processes, timed by the clock (on a machine with other work, the clock counts it too). Each
benchmark prints games per second and what the 98,209 matches of the public Botzone dataset
would take at that rate.

Memory: the peak RSS of a whole run in a fresh process, on a file and on one 8 times as long.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjfast.logs import analyse_logs

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "logs" / "botzone_mahjong_gb_16matches.txt"
DATASET = 98209  # matches in the public Botzone / PKU dataset


def _repeated_log(folder: Path, copies: int) -> Path:
    """The 16 real matches `copies` times over, each copy with its own match ids."""
    path = folder / f"real_x{copies}.txt"
    if not path.exists():
        text = REAL.read_text(encoding="utf-8").strip()
        with open(path, "w", encoding="utf-8") as f:
            for k in range(copies):
                f.write(re.sub(r"^Match (\S+)", rf"Match \1-{k}", text, flags=re.M) + "\n\n")
    return path


def _report(benchmark, task: str, timed_games: int, per_second: float) -> None:
    """Record the rate; `timed_games`: the games one benchmark round analyses (conftest's
    table divides the round's wall time by them)."""
    hours = DATASET / per_second / 3600
    benchmark.extra_info.update(task=task, lib="mjfast", hands=timed_games, games_per_second=round(per_second, 1),
                                dataset_hours=round(hours, 2))
    print(f"\n{task}: {per_second:.1f} games/s; the {DATASET:,} matches would take {hours:.2f} h")


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("logs")
    analyse_logs([REAL], folder / "warm", workers=1)  # compile or load every kernel first
    return folder


def _steady(benchmark, logs, fan_aware: bool, workers: int, copies: tuple, clock) -> None:
    """Run a file of 16 x copies[0] games and one of 16 x copies[1]; the rate is the extra
    games over the extra time, so that what every run pays once (starting the workers,
    drawing the report) does not count."""
    spent = {}

    def run():
        for c in copies:
            start = clock()
            analyse_logs([_repeated_log(logs, c)], logs / "out", workers=workers, fan_aware=fan_aware)
            spent[c] = clock() - start

    benchmark.pedantic(run, rounds=1, iterations=1)
    rate = 16 * (copies[1] - copies[0]) / (spent[copies[1]] - spent[copies[0]])
    benchmark.extra_info.update(seconds={16 * c: round(t, 2) for c, t in spent.items()})
    what = "full" if fan_aware else "no fan-aware ranking"
    where = "1 core (CPU time)" if workers == 1 else f"{workers} workers (wall clock)"
    _report(benchmark, f"logs, {what}, {where}", 16 * sum(copies), rate)


@pytest.mark.parametrize("fan_aware, copies", [(True, (2, 8)), (False, (10, 40))])
def bench_one_core(benchmark, logs, fan_aware, copies):
    _steady(benchmark, logs, fan_aware, 1, copies, time.process_time)


@pytest.mark.parametrize("fan_aware, copies", [(True, (4, 16)), (False, (20, 80))])
def bench_two_cores(benchmark, logs, fan_aware, copies):
    _steady(benchmark, logs, fan_aware, 2, copies, time.perf_counter)


_PEAK_RSS = """
import resource, sys
from mjfast.logs import analyse_logs
analyse_logs([sys.argv[1]], sys.argv[2], workers=1, fan_aware=False)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def bench_memory_is_flat(benchmark, logs):
    peaks = {}

    def run():
        for copies in (10, 80):
            done = subprocess.run([sys.executable, "-c", _PEAK_RSS, str(_repeated_log(logs, copies)),
                                   str(logs / "out_rss")], capture_output=True, text=True, check=True, cwd=ROOT)
            peaks[copies] = int(done.stdout.split()[-1])

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(peak_rss_mb_160_games=peaks[10] // 1024, peak_rss_mb_1280_games=peaks[80] // 1024)
    print(f"\npeak RSS: {peaks[10] / 1024:.0f} MB for 160 games, {peaks[80] / 1024:.0f} MB for 1,280 games")
