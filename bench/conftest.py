"""Prints every benchmark per hand, beside PyMahjongGB's figure for the same work and the ratio.

A benchmark declares what it measures through benchmark.extra_info:
    hands: hands processed per round (figures are per hand)
    microseconds_each: the figure itself, where the benchmark works it out (a rate that
           leaves out what every round pays once, as bench_logs does)
    task:  the work both libraries do (pairs mjfast with PyMahjongGB)
    lib:   "mjfast" or "pymahjonggb"
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # bench imports the test hand generators


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    rows: dict[str, dict[str, float]] = {}
    for bench in session.benchmarks:
        info = bench.extra_info
        if "task" not in info:
            continue
        per_hand = info.get("microseconds_each") or bench.stats.median / info.get("hands", 1) * 1e6
        rows.setdefault(info["task"], {})[info["lib"]] = per_hand
    if not rows:
        return
    write = terminalreporter.write_line
    write("")
    write("median microseconds per hand (a game, for the logs), same hands, same run")
    write(f"{'task':58s} {'mjfast':>10s} {'PyMahjongGB':>12s} {'ratio':>8s}")
    for task, libs in rows.items():
        ours = libs.get("mjfast")
        theirs = libs.get("pymahjonggb")
        ratio = f"{theirs / ours:7.0f}x" if ours and theirs else ""
        fmt = lambda v: f"{v:10.3f}" if v is not None and v < 100 else (f"{v:10.1f}" if v is not None else " " * 10)
        write(f"{task:58s} {fmt(ours)} {fmt(theirs):>12s} {ratio:>8s}")
