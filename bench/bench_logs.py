"""Throughput and memory of `mjfast logs` on large logs: the 16 real matches repeated, and
games that mjfast's table plays (every hand new).

    python -m pytest bench/bench_logs.py -s

Each rate is measured on two file sizes, each run a fresh `mjfast logs` process as a user
runs it: the extra games over the extra time, without what every run pays once (starting,
importing numba and loading the compiled kernels, drawing the report). One core: the whole
run in one process (--workers 1); two cores: two worker processes and the first one reading,
writing and summing. Each is timed by the clock and by the CPU seconds of all the run's
processes: on a machine shared with other work the clock counts that work too, and CPU
seconds say what free cores would give. Each benchmark
prints games per second and what the 98,209 matches of the public Botzone dataset would take
at that rate. Two cores over one is also measured with one- and two-worker runs interleaved
(bench_two_cores_over_one), which the machine's changes of speed between benchmarks do not
skew.

Memory: the peak RSS of a whole run in a fresh process, on 160 games and on 5,120.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjfast.bots import ShantenBot
from mjfast.game import play_games, write_games
from mjfast.game.agents import InProcessAgent
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


TABLE_GAMES = 960


def _table_log(folder: Path, games: int) -> Path:
    """The first `games` of TABLE_GAMES games four shanten bots play on seeded walls: every
    hand new (repeated real games meet the hands they met before, which the kernels' memo of
    melded groups remembers)."""
    everything = folder / f"table_{TABLE_GAMES}.txt"
    if not everything.exists():
        agents = [InProcessAgent(ShantenBot()) for _ in range(4)]
        with open(everything, "w", encoding="utf-8") as f:
            write_games((result.log for result in play_games(agents, range(TABLE_GAMES))), f)
    path = folder / f"table_{games}.txt"
    if not path.exists():
        blocks = everything.read_text(encoding="utf-8").split("\n\n")
        path.write_text("\n\n".join(blocks[:games]).strip() + "\n", encoding="utf-8")
    return path


# Where the games come from: name -> the log of n games.
SOURCES = {
    "real": lambda folder, n: _repeated_log(folder, n // 16),
    "table": _table_log,
}


def _report(benchmark, task: str, timed_games: int, per_second: float) -> None:
    """Record the rate; `timed_games`: the games one benchmark round analyses. conftest's
    table shows the rate as microseconds a game (not the round's time over its games, which
    counts every run's start)."""
    hours = DATASET / per_second / 3600
    benchmark.extra_info.update(task=task, lib="mjfast", hands=timed_games, games_per_second=round(per_second, 1),
                                dataset_hours=round(hours, 2), microseconds_each=1e6 / per_second)
    print(f"\n{task}: {per_second:.1f} games/s; the {DATASET:,} matches would take {hours:.2f} h")


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("logs")
    analyse_logs([REAL], folder / "warm", workers=1)  # compile or load every kernel first
    return folder


def _children_cpu() -> float:
    """CPU seconds of the ended child processes and theirs (a run's worker processes)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(logs: Path, path: Path, workers: int, fan_aware: bool) -> tuple[float, float]:
    """(clock seconds, CPU seconds of all its processes) of one `mjfast logs` run on `path`,
    a fresh process as a user runs it."""
    command = [sys.executable, "-m", "mjfast.cli", "logs", str(path), "--out", str(logs / "out"),
               "--workers", str(workers)] + ([] if fan_aware else ["--no-fan-aware"])
    start_wall, start_cpu = time.perf_counter(), _children_cpu()
    subprocess.run(command, check=True, cwd=ROOT, capture_output=True)
    return time.perf_counter() - start_wall, _children_cpu() - start_cpu


def _steady(benchmark, logs, source: str, fan_aware: bool, workers: int, sizes: tuple) -> None:
    """Run `mjfast logs` on a log of sizes[0] games and on one of sizes[1]; a rate is the
    extra games over the extra time, so that what every run pays once (starting, loading the
    kernels, drawing the report) does not count. Two rates: by the clock, and by the CPU
    seconds of all the run's processes (what `workers` free cores would give; on a shared
    machine the clock also counts the others' work)."""
    paths = [SOURCES[source](logs, n) for n in sizes]
    wall, cpu = {}, {}

    def run():
        for n, path in zip(sizes, paths):
            wall[n], cpu[n] = _timed(logs, path, workers, fan_aware)

    benchmark.pedantic(run, rounds=1, iterations=1)
    extra = sizes[1] - sizes[0]
    by_clock = extra / (wall[sizes[1]] - wall[sizes[0]])
    by_cpu = workers * extra / (cpu[sizes[1]] - cpu[sizes[0]])
    benchmark.extra_info.update(wall_seconds={n: round(t, 2) for n, t in wall.items()},
                                cpu_seconds={n: round(t, 2) for n, t in cpu.items()},
                                games_per_second_by_clock=round(by_clock, 1))
    what = f"{source} games, {'full' if fan_aware else 'no fan-aware ranking'}, {workers} worker(s)"
    print(f"\n{what}: {by_clock:.1f} games/s by the clock "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    _report(benchmark, f"logs, {what}, by CPU time", sum(sizes), by_cpu)


# The extra games must take several times the noise of a run's start (a second or two of
# its 4-5 CPU seconds here): at 200-400 games/s, 480 extra games did not, and gave rates
# off by 2-8x, some negative.
_CASES = [("real", True, (160, 2560)), ("real", False, (160, 2560)), ("table", True, (80, 960)),
          ("table", False, (80, 960))]


@pytest.mark.parametrize("source, fan_aware, sizes", _CASES)
def bench_one_core(benchmark, logs, source, fan_aware, sizes):
    _steady(benchmark, logs, source, fan_aware, 1, sizes)


@pytest.mark.parametrize("source, fan_aware, sizes", _CASES)
def bench_two_cores(benchmark, logs, source, fan_aware, sizes):
    _steady(benchmark, logs, source, fan_aware, 2, sizes)


# Two cores over one, measured with the runs of one and two workers interleaved (1, 2, 2, 1,
# twice, the extra times summed): the machine changes speed by itself within a minute, and
# bench_one_core and bench_two_cores run a minute or more apart, so their ratio can compare a
# fast spell with a slow one (1.5x to 2.6x seen between them on the same code).
@pytest.mark.parametrize("source", ["real", "table"])
def bench_two_cores_over_one(benchmark, logs, source):
    sizes = next(case_sizes for case_source, fan_aware, case_sizes in _CASES if case_source == source and fan_aware)
    paths = [SOURCES[source](logs, n) for n in sizes]
    extra = {1: [0.0, 0.0], 2: [0.0, 0.0]}  # workers -> extra clock and CPU seconds, summed

    def run():
        for workers in (1, 2, 2, 1) * 2:
            (wall_small, cpu_small), (wall_big, cpu_big) = (_timed(logs, p, workers, True) for p in paths)
            extra[workers][0] += wall_big - wall_small
            extra[workers][1] += cpu_big - cpu_small

    benchmark.pedantic(run, rounds=1, iterations=1)
    games = 4 * (sizes[1] - sizes[0])  # extra games of each worker count's four runs
    rates = {w: games / extra[w][0] for w in extra}
    by_clock, by_cpu = rates[2] / rates[1], 2 * extra[1][1] / extra[2][1]
    benchmark.extra_info.update(games_per_second_by_clock=rates, two_over_one_by_clock=round(by_clock, 2),
                                two_over_one_by_cpu=round(by_cpu, 2))
    print(f"\n{source} games, full, two workers over one, runs interleaved: {by_clock:.2f}x by the clock "
          f"({rates[1]:.0f} and {rates[2]:.0f} games/s), {by_cpu:.2f}x by CPU seconds")


_PEAK_RSS = """
import resource, sys
from mjfast.logs import analyse_logs
analyse_logs([sys.argv[1]], sys.argv[2], workers=1, fan_aware=False)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def bench_memory_is_flat(benchmark, logs):
    peaks = {}

    def run():
        for copies in (10, 320):
            done = subprocess.run([sys.executable, "-c", _PEAK_RSS, str(_repeated_log(logs, copies)),
                                   str(logs / "out_rss")], capture_output=True, text=True, check=True, cwd=ROOT)
            peaks[copies] = int(done.stdout.split()[-1])

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(peak_rss_mb={16 * c: peak // 1024 for c, peak in peaks.items()})
    print("\npeak RSS: " + ", ".join(f"{peak / 1024:.0f} MB for {16 * c:,} games" for c, peak in peaks.items()))
