"""The table at scale: thousands of seeded games, every one checked; games per second; the
mjfast bot's average score against the baseline bots; reading and replaying logs.

    pytest bench/bench_table.py                       # MJFAST_TABLE_GAMES games per match (1000)
    MJFAST_TABLE_GAMES=200 pytest bench/bench_table.py

Each game must end without an illegal action, with scores that sum to zero, and with a log
that re-reads to the same game and replays with its Fan and Score lines reproduced (the
checks of tests/game/test_game_table.py). Bots run in this process; the figures are microseconds
per game (per game read, for the log benchmark), and each match's summary is printed at the end.
"""

from __future__ import annotations

import io
import os

import pytest

from mjfast.bots import BOTS
from mjfast.game import InProcessAgent, Replay, read_games, run_match
from mjfast.game.table import play_games
from tests.data import LOGS
from tests.game.test_game_table import assert_sound

GAMES = int(os.environ.get("MJFAST_TABLE_GAMES", "1000"))
REPORTS: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def report(request):
    yield
    # pytest captures output while fixtures run: print past the capture
    with request.config.pluginmanager.get_plugin("capturemanager").global_and_fixture_disabled():
        for text in REPORTS:
            print("\n" + text)


def _play_checked(names: list, seeds, wall: str = "duplicate") -> list:
    agents = [InProcessAgent(BOTS[name](wall=wall)) for name in names]
    logs = []
    for result in play_games(agents, seeds, wall=wall):
        assert_sound(result)
        logs.append(result.log)
    return logs


def _bench_games(benchmark, names: list, wall: str, task: str) -> None:
    seeds = range(GAMES)
    benchmark.extra_info.update(task=task, lib="mjfast", hands=GAMES)
    logs = benchmark.pedantic(_play_checked, args=(names, seeds, wall), rounds=1, iterations=1)
    kinds = [("Huang" if log.drawn else "win" if log.fan_total is not None else "foul") for log in logs]
    REPORTS.append(f"{task}: {GAMES} games, {kinds.count('win')} wins, {kinds.count('Huang')} exhaustive draws, "
                   f"{kinds.count('foul')} fouls; all sum to zero and re-read to the same game")


def bench_four_mjfast_bots(benchmark):
    _bench_games(benchmark, ["mjfast"] * 4, "duplicate", "4 mjfast bots, duplicate walls")


def bench_four_mjfast_bots_shared_wall(benchmark):
    _bench_games(benchmark, ["mjfast"] * 4, "shared", "4 mjfast bots, 144-tile wall")


def bench_four_baseline_bots(benchmark):
    _bench_games(benchmark, ["random", "shanten", "random", "shanten"], "duplicate",
                 "2 random + 2 shanten bots, duplicate walls")


@pytest.mark.parametrize("baseline", ["shanten", "random"])
def bench_mjfast_against_baselines(benchmark, baseline):
    """One mjfast bot against three baseline bots, seats rotated every game."""
    task = f"mjfast vs 3 {baseline} bots, seats rotated"
    names = ["mjfast", baseline, baseline, baseline]
    benchmark.extra_info.update(task=task, lib="mjfast", hands=GAMES)
    log = io.StringIO()
    summary = benchmark.pedantic(run_match, args=(names, range(GAMES)), kwargs=dict(rotate=True, log=log),
                                 rounds=1, iterations=1)
    assert summary.fouls == 0 and summary.unbalanced == 0
    games = list(read_games(log.getvalue().splitlines()))
    assert len(games) == GAMES and all(Replay(g).check().score_line_matches for g in games)
    REPORTS.append(f"mjfast vs 3 {baseline} bots:\n{summary.report()}")


def bench_read_and_replay_logs(benchmark):
    """Parsing and replaying (every rule checked, no re-scoring) of the real matches,
    repeated: the reader issue 6's analysis runs on."""
    text = (LOGS / "botzone_mahjong_gb_16matches.txt").read_text(encoding="utf-8")
    lines = (text.strip() + "\n\n").splitlines() * 50
    n = 16 * 50

    def read_all():
        for game in read_games(lines):
            for _ in Replay(game):
                pass

    benchmark.extra_info.update(task="read and replay a real Botzone game", lib="mjfast", hands=n)
    benchmark(read_all)
