"""A match: the same bots play many seeded games; scores are summed per bot.

    summary = run_match(["mjfast", "shanten", "shanten", "shanten"], range(1000), duplicate=True)
    print(summary.report())

Bots are named as in bots.BOTS and run in this process, or each as a `mjfast botzone`
process spoken to over the protocol (processes=True). With rotate, game k seats bot i at
seat (i + k) % 4, so that over four games every bot plays every seat. With duplicate, each
seed's walls are played four times, the seats rotated each time, so that every bot plays
every seat on the same tiles (most of the luck of the deal cancels out).

The summary gives each bot's mean score per game and, for the first bot named against each
other, the mean difference per game, each with its 95% interval: the unit of the interval is
a seed (its four games under duplicate), the scores of one seed's games being related.

With the judge's time limits (`limits`, table.TimeLimits) the bots keep Botzone's clock
(bots.Clock; a bot process keeps its own), a late answer is a TLE foul, and the summary
gives each bot's answer times (percentiles over its answers under the later limit, and over
those to its own draws, where it decides a discard; the slowest first answer of a game) and
its TLEs. A bot run as a process (processes=True) that plays one seat also has its resident
memory after every game (ProcessAgent.memory): the report gives it after the first game, every
100th and the last, and the peak, so that a long series shows whether it grows.
"""

from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..game.agents import InProcessAgent, ProcessAgent
from ..game.botzone_log import write_botzone
from ..game.logformat import format_game
from ..game.state import DUPLICATE
from ..game.table import DRAWN, FIRST, TimeLimits, play_game
from ..game.walls import deal_walls
from .clock import BOTZONE_CLOCK
from .names import BOTS

MEMORY_EVERY = 100  # the report gives a bot process's memory after every this many games


@dataclass
class BotRecord:
    name: str
    games: int = 0
    score: int = 0
    wins: int = 0
    fouls: int = 0
    tles: int = 0
    memory: list = field(default_factory=list)  # a bot process's (resident, peak) kB after each game
    answer_times: list = field(default_factory=list)  # seconds, every later answer (with time limits)
    draw_times: list = field(default_factory=list)  # seconds, the answers to its own draws
    first_times: list = field(default_factory=list)  # seconds, the first answer of each game

    @property
    def average(self) -> float:
        return self.score / self.games if self.games else 0.0

    def times_line(self) -> str:
        """Its answer times: percentiles over the later answers and over its own draws, and
        the slowest first answer, in ms."""
        def percentiles(times: list) -> str:
            ordered = sorted(times)
            at = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.9, 0.99)] + [ordered[-1]]
            return "p50 {:.1f}, p90 {:.1f}, p99 {:.1f}, max {:.1f} ms".format(*(1000 * t for t in at))

        if not self.answer_times:
            return ""
        line = f"{len(self.answer_times)} later answers: {percentiles(self.answer_times)}"
        if self.draw_times:
            line += f"; {len(self.draw_times)} to its draws: {percentiles(self.draw_times)}"
        if self.first_times:
            line += f"; first answers max {1000 * max(self.first_times):.1f} ms"
        return line + f"; TLE {self.tles}"


@dataclass
class Mean:
    """A running mean and its 95% interval (Welford's update; normal approximation)."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    @property
    def half_width(self) -> float:
        return 1.96 * math.sqrt(self.m2 / (self.n - 1) / self.n) if self.n > 1 else math.inf

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ± {self.half_width:.2f}"


@dataclass
class MatchSummary:
    games: int = 0
    wins: int = 0
    draws: int = 0
    fouls: int = 0
    unbalanced: int = 0  # games whose scores do not sum to zero (never, if the table is right)
    foul_reasons: list = field(default_factory=list)
    bots: dict = field(default_factory=dict)
    per_seed: dict = field(default_factory=dict)  # bot name -> Mean of its mean score per game, per seed
    differences: dict = field(default_factory=dict)  # other bot name -> Mean of the first bot's lead over it
    _seed: dict = field(default_factory=dict)  # the current seed's (score, seat-games) per bot

    def add(self, result, names: list) -> None:
        outcome = self._count(result)
        for seat, name in enumerate(names):
            record = self.bots.setdefault(name, BotRecord(name))
            record.games += 1
            record.score += outcome.scores[seat]
            record.wins += outcome.kind == "win" and outcome.win.winner == seat
            record.fouls += outcome.kind == "foul" and outcome.offender == seat
            record.tles += result.late == seat
            for seconds, kind in result.answer_times[seat] if result.answer_times else ():
                (record.first_times if kind == FIRST else record.answer_times).append(seconds)
                if kind == DRAWN:
                    record.draw_times.append(seconds)
            total = self._seed.setdefault(name, [0, 0])
            total[0] += outcome.scores[seat]
            total[1] += 1

    def end_seed(self) -> None:
        """Close the current seed's games: their mean scores go into the intervals."""
        means = {name: score / games for name, (score, games) in self._seed.items()}
        self._seed = {}
        for name, mean in means.items():
            self.per_seed.setdefault(name, Mean()).add(mean)
        first = next(iter(self.bots), None)
        for name, mean in means.items():
            if name != first and first in means:
                self.differences.setdefault(name, Mean()).add(means[first] - mean)

    def _count(self, result):
        outcome = result.outcome
        self.games += 1
        self.wins += outcome.kind == "win"
        self.draws += outcome.kind == "draw"
        if outcome.kind == "foul":
            self.fouls += 1
            self.foul_reasons.append(f"{result.log.match_id}: player {outcome.offender}: {outcome.reason}")
        self.unbalanced += sum(outcome.scores) != 0
        return outcome

    def report(self) -> str:
        lines = [f"{self.games} games: {self.wins} wins, {self.draws} exhaustive draws, {self.fouls} fouls "
                 f"(illegal actions); scores sum to zero in {self.games - self.unbalanced} of {self.games}"]
        for record in self.bots.values():
            interval = self.per_seed.get(record.name)
            within = f" ± {interval.half_width:5.2f}" if interval is not None and interval.n > 1 else ""
            lines.append(f"  {record.name:10s} {record.games:6d} seat-games   average score "
                         f"{record.average:+7.2f}{within}   win rate {record.wins / max(record.games, 1):6.1%}   "
                         f"fouls {record.fouls}")
        for record in self.bots.values():
            if record.answer_times:
                lines.append(f"  {record.name:10s} answer times: {record.times_line()}")
            if record.memory:
                games = sorted({1, len(record.memory), *range(MEMORY_EVERY, len(record.memory) + 1, MEMORY_EVERY)})
                after = ", ".join(f"{k}: {record.memory[k - 1][0] / 1024:.0f} MB" for k in games)
                lines.append(f"  {record.name:10s} process resident after game {after}; "
                             f"peak {record.memory[-1][1] / 1024:.0f} MB")
        first = next(iter(self.bots), None)
        for name, lead in self.differences.items():
            lines.append(f"  {first} - {name}: {lead} a game (95% interval, {lead.n} seeds)")
        lines += [f"  foul: {reason}" for reason in self.foul_reasons[:10]]
        return "\n".join(lines)


def bot_command(name: str, wall: str, limits: "TimeLimits | None" = None) -> list:
    """The command that runs bot `name` as a Botzone program (keep-running, simple mode), on
    the clock of `limits` (none without)."""
    clock = ["--no-clock"] if limits is None else ["--first-limit", str(limits.first), "--limit", str(limits.later)]
    return [sys.executable, "-m", "mjfast.cli", "botzone", "--keep-running", "--bot", name, "--wall", wall, *clock]


def run_match(names, seeds, wall: str = DUPLICATE, rotate: bool = False, processes: bool = False, log=None,
              timeout: float = 30.0, match_prefix: str = "mjfast", json_folder=None,
              duplicate: bool = False, limits: "TimeLimits | None" = None) -> MatchSummary:
    """Play one game per seed (walls deal_walls(seed, wall), prevalent wind seed % 4), or four
    with `duplicate` (see the module doc); write each game to the text file `log` when given,
    and as Botzone's JSON match log to `json_folder`/<match id>.json (botzone_log.write_botzone:
    the bots' names, the walls) when given; with the judge's time limits `limits`; returns the
    summary."""
    agents: list
    if processes:
        agents = [ProcessAgent(bot_command(name, wall, limits), timeout=timeout, stderr=subprocess.DEVNULL)
                  for name in names]
    else:
        clock = None if limits is None else BOTZONE_CLOCK._replace(first=limits.first, later=limits.later)
        agents = [InProcessAgent(BOTS[name](wall=wall, clock=clock)) for name in names]
    summary = MatchSummary()
    try:
        k = 0
        for seed in seeds:
            for shift in (range(4) if duplicate else [k % 4 if rotate else 0]):
                order = [(i - shift) % 4 for i in range(4)]  # seat -> index into names/agents
                walls = deal_walls(seed, wall)
                match_id = f"{match_prefix}-{seed}" + (f"-{shift}" if duplicate else "")
                result = play_game([agents[i] for i in order], walls, seed % 4, match_id, limits)
                seated = [names[i] for i in order]
                summary.add(result, seated)
                for name, agent in zip(names, agents) if processes else ():
                    found = agent.memory() if names.count(name) == 1 else None  # a bot's one process, game by game
                    if found is not None:
                        summary.bots[name].memory.append(found)
                if log is not None:
                    log.write(("\n" if k else "") + format_game(result.log) + "\n")
                if json_folder is not None:
                    write_botzone(result.log, Path(json_folder) / f"{result.log.match_id}.json", seated, walls)
                k += 1
            summary.end_seed()
    finally:
        for agent in agents:
            agent.close()
    return summary
