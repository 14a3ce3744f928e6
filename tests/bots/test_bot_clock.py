"""The bot on Botzone's clock (game/bots.py Clock, game/botzone.py) and the table that keeps
the judge's time limits (game/table.py TimeLimits, game/match.py)."""

from __future__ import annotations

import io
import json
import sys
import time

import pytest

from mjfast.bots import BOTZONE_CLOCK, Clock
from mjfast.bots.botzone import _time_limit, process_started, run
from mjfast.bots.match import bot_command, run_match
from mjfast.game import FanAwareBot, InProcessAgent, MjfastBot, ProtocolBot, ShantenBot, play_game
from mjfast.game.agents import LateAnswer, ProcessAgent
from mjfast.game.protocol import PASS
from mjfast.game.table import DRAWN, FIRST, OTHER, TimeLimits
from mjfast.game.walls import deal_walls

DEAL = "1 0 0 0 0 W1 W2 W9 B1 B5 B9 T1 T4 T8 F1 F2 J2 J3"  # a hand five steps from ready


def _dealt(bot):
    bot.respond("0 0 0")
    bot.respond(DEAL)
    return bot


def test_an_answer_with_no_time_left_takes_the_fan_aware_ranking():
    out_of_time = _dealt(MjfastBot(clock=Clock(later=0.001)))
    assert out_of_time.respond("2 J1") == _dealt(FanAwareBot()).respond("2 J1") == "PLAY W2"
    # the same hand with time: the value ranking's answer, another tile here
    assert _dealt(MjfastBot(clock=Clock(budget_ms=60_000, later=120))).respond("2 J1") == \
        _dealt(MjfastBot()).respond("2 J1") == "PLAY T8"


def test_the_engine_gets_the_limit_less_the_margin_at_most_its_budget():
    clock = Clock(first=6.0, later=1.0, margin=0.3, budget_ms=200.0)
    started = time.perf_counter()
    assert clock.engine_deadline(1.0, started).at == pytest.approx(started + 0.2)
    assert clock.engine_deadline(0.4, started).at == pytest.approx(started + 0.2)  # the margin: at most half
    assert clock.engine_deadline(0.3, started).at == pytest.approx(started + 0.15)
    assert clock.engine_deadline(1.0, started - 0.9).left_ms() == 0.0  # the request came 0.9 s ago


def test_the_budget_s_old_name_think_ms_still_works_and_warns():
    with pytest.warns(DeprecationWarning, match="budget_ms"):
        clock = Clock(1.0, 0.5, think_ms=80.0)
    assert clock == Clock(1.0, 0.5, 0.3, 80.0) and clock.budget_ms == 80.0
    with pytest.warns(DeprecationWarning, match="budget_ms"):
        assert clock.think_ms == 80.0
    assert clock._replace(later=2.0).budget_ms == 80.0


class _Stopwatch(ProtocolBot):
    """Records when each answer's clock started and its limit; passes."""

    def __init__(self):
        super().__init__(clock=BOTZONE_CLOCK)
        self.seen = []

    def respond(self, request, started=None, limit=None):
        self.seen.append((started, limit))
        return super().respond(request, started, limit)


def test_the_program_times_each_answer_from_its_input_and_reads_time_limit():
    bot = _Stopwatch()
    lines = [json.dumps({"requests": ["0 0 0"], "responses": [], "time_limit": 5}), json.dumps(DEAL)]
    before = time.perf_counter()
    assert run(bot, io.StringIO("\n".join(lines) + "\n"), io.StringIO(), keep_running=True) == 0
    (first, first_limit), (second, second_limit) = bot.seen
    assert first <= before and first == pytest.approx(process_started(), abs=0.01)  # the process's start
    assert first_limit == 5.0 and second_limit is None and second >= before
    assert [_time_limit(v) for v in (1, "6", 1000, "", None, "x", -1, float("nan"))] == \
        [1.0, 6.0, 1.0, None, None, None, None, None]


class _Slow(ShantenBot):
    """Takes `seconds` over every answer to its own draws."""

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds = seconds

    def on_draw(self):
        time.sleep(self.seconds)
        return super().on_draw()


def test_a_late_answer_is_a_tle_scored_as_the_judge_scores_it():
    agents = [InProcessAgent(_Slow(0.12))] + [InProcessAgent(ShantenBot()) for _ in range(3)]
    result = play_game(agents, deal_walls(3), 0, "late", TimeLimits(first=1.0, later=0.1))
    assert result.outcome.kind == "foul" and result.outcome.offender == 0 and result.late == 0
    assert result.outcome.scores == (-30, 10, 10, 10)
    assert result.outcome.reason.startswith("TLE: answered in 0.1") and "the limit is 0.1 s" in result.outcome.reason
    times = result.answer_times[0]
    assert times[0][1] == FIRST and times[-1][1] == DRAWN and times[-1][0] > 0.1
    assert {kind for _, kind in times[1:-1]} == {OTHER}
    in_time = play_game([InProcessAgent(_Slow(0.01))] + agents[1:], deal_walls(3), 0, "on-time",
                        TimeLimits(first=1.0, later=0.1))
    assert in_time.late is None and in_time.outcome.kind != "foul"


def test_a_match_on_the_clock_reports_answer_times_and_tles():
    summary = run_match(["mjfast", "shanten", "shanten", "shanten"], range(2), limits=TimeLimits())
    mjfast = summary.bots["mjfast"]
    assert mjfast.tles == 0 and len(mjfast.first_times) == 2 and mjfast.draw_times
    assert len(mjfast.answer_times) + len(mjfast.first_times) > 2 * 20
    report = summary.report()
    assert "answer times:" in report and "to its draws: p50" in report and "TLE 0" in report


def test_a_program_on_the_clock_is_timed_from_the_request():
    """A `mjfast botzone` process keeps its own clock (the table's limits, passed on its command
    line); the table times it from each request. The limits here leave room for a first
    answer that loads or compiles kernels on a busy machine: what is tested is the timing."""
    limits = TimeLimits(first=300.0, later=30.0)
    agent = ProcessAgent(bot_command("mjfast", "duplicate", limits), timeout=300)
    assert bot_command("mjfast", "duplicate", limits)[-4:] == ["--first-limit", "300.0", "--limit", "30.0"]
    assert "--no-clock" in bot_command("mjfast", "duplicate")
    try:
        result = play_game([agent] + [InProcessAgent(ShantenBot()) for _ in range(3)], deal_walls(5), 0, "timed",
                           limits)
    finally:
        agent.close()
    assert result.outcome.kind != "foul"
    times = result.answer_times[0]
    assert times[0][1] == FIRST and all(t > 0 for t, _ in times)
    assert any(kind == DRAWN for _, kind in times)


def test_a_late_program_is_stopped_so_that_its_answer_is_never_read_as_the_next(tmp_path):
    script = tmp_path / "late.py"
    script.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(0.5)\n    print('PASS')\n"
                      "    print('>>>BOTZONE_REQUEST_KEEP_RUNNING<<<', flush=True)\n")
    agent = ProcessAgent([sys.executable, str(script)])
    try:
        agent.send("0 0 0")
        with pytest.raises(LateAnswer, match="TLE: no answer within the 0.2 s limit"):
            agent.receive(0.2)
        assert agent.proc is None  # killed: a new request starts it again
        agent.send("0 1 0")
        assert agent.receive(5.0) == "PASS"
    finally:
        agent.close()


def test_pass_is_the_answer_when_nothing_is_decided():
    assert _Stopwatch().respond("0 1 0") == str(PASS)
