"""Prints every benchmark per hand, beside PyMahjongGB's figure for the same work and the ratio.

A benchmark declares what it measures through benchmark.extra_info:
    hands: hands processed per round (figures are per hand)
    microseconds_each: the figure itself, where the benchmark works it out (a rate that
           leaves out what every round pays once, as bench_logs does)
    task:  the work both libraries do (pairs mjfast with PyMahjongGB)
    lib:   "mjfast" or "pymahjonggb"
    unscaled: True for a figure the anchor's speed does not scale (a fresh process's first
           query also waits on the disk and the process start)

The issues' targets are set on a machine where PyMahjongGB's all-forms shanten takes
ANCHOR_US a call. This VM's speed drifts (up to 2x between runs), so when that figure was
measured in the same run, a last column gives mjfast's figures at the anchor machine's speed:
scaled by ANCHOR_US over the PyMahjongGB figure of this run (not for the unscaled ones).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ANCHOR_US = 6.5
ANCHOR_TASK = "all-forms shanten, one call from Python (count array)"
sys.path.insert(0, str(ROOT))  # bench imports the test hand generators


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    rows: dict[str, dict[str, float]] = {}
    unscaled: set[str] = set()
    for bench in session.benchmarks:
        info = bench.extra_info
        if "task" not in info:
            continue
        per_hand = info.get("microseconds_each") or bench.stats.median / info.get("hands", 1) * 1e6
        rows.setdefault(info["task"], {})[info["lib"]] = per_hand
        if info.get("unscaled"):
            unscaled.add(info["task"])
    if not rows:
        return
    write = terminalreporter.write_line
    anchor = rows.get(ANCHOR_TASK, {}).get("pymahjonggb")
    speed = ANCHOR_US / anchor if anchor else None
    write("")
    write("median microseconds per hand (a game, for the logs), same hands, same run")
    if speed:
        write(f"PyMahjongGB shanten took {anchor:.2f} us against the anchor's {ANCHOR_US}: "
              f"'at anchor' = mjfast x {speed:.3f}")
    write(f"{'task':58s} {'mjfast':>10s} {'PyMahjongGB':>12s} {'ratio':>8s}"
          + (f" {'at anchor':>10s}" if speed else ""))

    def fmt(v):
        return f"{v:10.3f}" if v is not None and v < 100 else (f"{v:10.1f}" if v is not None else " " * 10)

    for task, libs in rows.items():
        ours = libs.get("mjfast")
        theirs = libs.get("pymahjonggb")
        ratio = f"{theirs / ours:7.0f}x" if ours and theirs else ""
        scaled = f" {fmt(ours * speed)}" if speed and ours and task not in unscaled else ""
        write(f"{task:58s} {fmt(ours)} {fmt(theirs):>12s} {ratio:>8s}{scaled}")
