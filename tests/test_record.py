"""The speed record (bench/record.py, docs/speed.md) fails a run exactly when a row's ratio to
its anchor falls below half of the baseline's, measured twice."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.data import DATA

RECORD = DATA.parent.parent / "bench" / "record.py"


def _record(tmp_path, baseline_ratio: float) -> "tuple[subprocess.CompletedProcess, dict]":
    baseline = tmp_path / "baseline.json"
    row = {"label": "parse_hand(text)", "ours_us": 1.0, "anchor_us": baseline_ratio, "anchor": "x", "unit": "us",
           "ratio": baseline_ratio, "goal": None}
    baseline.write_text(json.dumps({"meta": {"commit": "base", "mode": "quick", "date": "then"},
                                    "rows": {"parse_hand": row}}))
    out = tmp_path / "record.json"
    done = subprocess.run([sys.executable, str(RECORD), "--quick", "--only", "parse_hand", "--out", str(out),
                           "--baseline", str(baseline), "--check"], capture_output=True, text=True, timeout=600)
    return done, json.loads(out.read_text())


def test_a_ratio_far_below_the_baseline_fails_the_record(tmp_path):
    done, record = _record(tmp_path, 1e6)  # a baseline no machine reaches
    assert done.returncode == 1, done.stderr
    assert "measuring again: parse_hand" in done.stderr and "REGRESSION: parse_hand" in done.stderr
    assert 0 < record["rows"]["parse_hand"]["ratio"] < 5e5
    assert "parse_hand" in done.stdout and "baseline" in done.stdout  # the table, beside the baseline


def test_a_ratio_within_half_the_baseline_passes(tmp_path):
    done, record = _record(tmp_path, 1e-6)
    assert done.returncode == 0, done.stderr
    row = record["rows"]["parse_hand"]
    assert row["ratio"] == row["anchor_us"] / row["ours_us"] > 1e-6
    assert record["meta"]["mode"] == "quick"
