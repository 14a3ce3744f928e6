"""A long analysis that survives: `mjfast logs` and `mjfast review` stopped at any point and run
again with the same arguments finish without redoing what was done, and write the same files as
a run never stopped (byte for byte); a run killed outright (SIGKILL) half way too. A folder
holding files that cannot be read (an I/O error, binary bytes, a gzip cut short) and logs cut
short is analysed, each bad file named with its reason. (bench/kill_resume.py kills whole runs
at random points.)"""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjfast.logs import analyse_logs, execute
from mjfast.logs.resume import PARTIAL
from mjfast.review import review_logs
from mjfast.review import run as review_run

from ..data import LOGS

REAL = LOGS / "botzone_mahjong_gb_16matches.txt"
JSON_LOG = LOGS / "botzone_json" / "judge" / "flowers-game-1-hu.json"
WAIT = 120  # seconds a subprocess may take before the test fails instead of hanging


def _files(folder: Path) -> dict:
    """Every file a run left in `folder`, by name, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class Stop(Exception):
    """What stops a run half way in these tests."""


def _stopping(call, after: int, counter: list):
    """call, counting its calls in counter[0]; the call after the first `after` raises Stop."""
    def wrapped(*args, **kwargs):
        counter[0] += 1
        if counter[0] > after:
            raise Stop
        return call(*args, **kwargs)

    return wrapped


LOGS_RUN = {"workers": 1, "fan_aware": False, "games_per_chunk": 3}  # 6 chunks of the text log, 1 of the JSON


@pytest.fixture(scope="module")
def logs_reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    analyse_logs([REAL, JSON_LOG], out, **LOGS_RUN)
    return _files(out)


@pytest.mark.parametrize("after", [0, 1, 3, 6])
def test_logs_stopped_after_any_chunk_finish_what_is_left_with_the_same_files(logs_reference, tmp_path, monkeypatch,
                                                                              capsys, after):
    analyse = execute.analyse_chunk
    counter = [0]
    monkeypatch.setattr(execute, "analyse_chunk", _stopping(analyse, after, counter))
    with pytest.raises(Stop):
        analyse_logs([REAL, JSON_LOG], tmp_path, **LOGS_RUN)
    left = _files(tmp_path)
    assert not any(name.endswith((".parquet", ".csv", ".json", ".md", ".png")) and "/" not in name for name in left)
    assert sorted(name for name in left if name.startswith(f"{PARTIAL}/chunk-")) == [
        f"{PARTIAL}/chunk-{k:07d}.npz" for k in range(after)]  # each chunk done, kept whole
    counter[0] = 0
    monkeypatch.setattr(execute, "analyse_chunk", _stopping(analyse, 99, counter))
    capsys.readouterr()
    analyse_logs([REAL, JSON_LOG], tmp_path, **LOGS_RUN)
    assert counter[0] == 7 - after  # only what was left
    said = capsys.readouterr().err
    assert (f"resuming the unfinished run in {tmp_path}: {after} chunk(s) done" in said) == (after > 0)
    assert _files(tmp_path) == logs_reference


def test_a_run_with_other_arguments_starts_afresh(logs_reference, tmp_path, monkeypatch):
    analyse = execute.analyse_chunk
    counter = [0]
    monkeypatch.setattr(execute, "analyse_chunk", _stopping(analyse, 2, counter))
    with pytest.raises(Stop):
        analyse_logs([REAL, JSON_LOG], tmp_path, **{**LOGS_RUN, "games_per_chunk": 4})
    counter[0] = 0
    monkeypatch.setattr(execute, "analyse_chunk", _stopping(analyse, 99, counter))
    analyse_logs([REAL, JSON_LOG], tmp_path, **LOGS_RUN)
    assert counter[0] == 7  # nothing of the other run's chunks taken
    assert _files(tmp_path) == logs_reference


def test_logs_killed_outright_resume_from_their_chunks_done(tmp_path):
    logs = tmp_path / "long.txt"
    logs.write_text("\n\n".join([REAL.read_text(encoding="utf-8")] * 16), encoding="utf-8")  # 256 games, 8 chunks
    command = [sys.executable, "-m", "mjfast.cli", "logs", str(logs), "--workers", "1", "--no-fan-aware", "--out"]
    _killed_and_run_again(command, tmp_path, "chunk", 2, 8)


def _killed_and_run_again(command: list, tmp_path: Path, unit: str, kill_at: int, units: int) -> None:
    """`command` (its output folder last) run whole; then killed outright, with its workers, once
    `kill_at` of its `units` units (chunk or game files in partial/) are kept, and run again: the
    run again says how many it found done and ends with the whole run's files."""
    subprocess.run([*command, str(tmp_path / "whole")], check=True, capture_output=True, timeout=WAIT)
    out = tmp_path / "killed"
    kept = out / PARTIAL
    proc = subprocess.Popen([*command, str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    end = time.monotonic() + WAIT
    while proc.poll() is None and len(list(kept.glob(f"{unit}-*"))) < kill_at and time.monotonic() < end:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)  # the command and its workers
    proc.wait(WAIT)
    done = len(list(kept.glob(f"{unit}-*")))
    assert kill_at <= done < units and not (out / "summary.json").exists()
    again = subprocess.run([*command, str(out)], capture_output=True, text=True, timeout=WAIT)
    assert again.returncode == 0 and f"{done} {unit}(s) done" in again.stderr
    assert _files(out) == _files(tmp_path / "whole")


# ---------------------------------------------------------------- review

@pytest.fixture(scope="module")
def review_reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("review")
    review_logs([REAL], out, value=False, workers=1)
    return _files(out)


def test_a_review_on_two_workers_killed_outright_resumes_with_the_same_files(tmp_path):
    command = [sys.executable, "-m", "mjfast.cli", "review", str(REAL), "--fan-aware", "--workers", "2", "--out"]
    _killed_and_run_again(command, tmp_path, "game", 3, 16)


@pytest.mark.parametrize("after", [0, 1, 9, 15])
def test_reviews_stopped_after_any_game_finish_what_is_left_with_the_same_files(review_reference, tmp_path,
                                                                                monkeypatch, after):
    review = review_run.review_game
    counter = [0]
    monkeypatch.setattr(review_run, "review_game", _stopping(review, after, counter))
    with pytest.raises(Stop):
        review_logs([REAL], tmp_path, value=False, workers=1)  # in this process: review_game patched
    assert not (tmp_path / "summary.json").exists()
    assert len(list((tmp_path / PARTIAL).glob("game-*"))) == after
    counter[0] = 0
    monkeypatch.setattr(review_run, "review_game", _stopping(review, 99, counter))
    review_logs([REAL], tmp_path, value=False, workers=1)  # in this process: review_game patched
    assert counter[0] == 16 - after
    assert _files(tmp_path) == review_reference


# ---------------------------------------------------------------- files that cannot be read

@pytest.fixture
def bad_folder(tmp_path) -> Path:
    """A folder of logs: the real matches, and beside them a file that gives an I/O error on
    reading, a binary file, a gzip log cut short, a text log cut in the middle of a game and a
    JSON log cut short."""
    folder = tmp_path / "logs"
    folder.mkdir()
    text = REAL.read_text(encoding="utf-8")
    (folder / "a-real.txt").write_text(text, encoding="utf-8")
    (folder / "b-io-error.txt").symlink_to("/proc/self/mem")  # reading it at 0 fails with EIO, for any user
    (folder / "c-binary.log").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    packed = gzip.compress(text.encode("utf-8"))
    (folder / "d-cut.txt.gz").write_bytes(packed[:len(packed) // 2])
    (folder / "e-cut.txt").write_text(text[:len(text) // 2], encoding="utf-8")
    (folder / "f-cut.json").write_text(JSON_LOG.read_text(encoding="utf-8")[:5000], encoding="utf-8")
    return folder


def _check_named(found: list, folder: Path) -> None:
    reasons = {Path(f["file"]).name: f["reason"] for f in found}
    assert set(reasons) == {"b-io-error.txt", "c-binary.log", "d-cut.txt.gz"}, reasons
    assert "Input/output error" in reasons["b-io-error.txt"]
    assert reasons["c-binary.log"].startswith("not text (UTF-8)")
    assert reasons["d-cut.txt.gz"].startswith("a broken gzip stream") and "game(s) read from it" in \
        reasons["d-cut.txt.gz"]


def test_a_folder_with_files_that_cannot_be_read_is_analysed_each_bad_file_named(bad_folder, tmp_path):
    summary = analyse_logs([bad_folder], tmp_path / "out", workers=1, fan_aware=False)
    _check_named(summary["unreadable_files"], bad_folder)
    rejected = {Path(r["file"]).name for r in summary["rejected"]}
    assert rejected == {"e-cut.txt", "f-cut.json"}  # the games cut short
    assert 16 + 8 <= summary["games_analysed"] < 16 + 16 + 16  # the real ones and those before each cut
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "## Files that could not be read" in report and "c-binary.log" in report


def test_a_review_of_that_folder_names_each_bad_file(bad_folder, tmp_path):
    summary = review_logs([bad_folder], tmp_path / "out", player=0, value=False)
    _check_named(summary["unreadable_files"], bad_folder)
    assert {Path(r["file"]).name for r in summary["rejected"]} == {"e-cut.txt", "f-cut.json"}
    assert summary["games_reviewed"] >= 16 + 8


def test_replay_names_each_file_it_cannot_read_and_goes_on(bad_folder, capsys):
    from mjfast import cli

    assert cli.main(["replay", str(bad_folder)]) == 1
    printed = capsys.readouterr()
    named = {line.split(": cannot be read: ")[0] for line in printed.err.splitlines() if ": cannot be read: " in line}
    assert {Path(name).name for name in named} == {"b-io-error.txt", "c-binary.log", "d-cut.txt.gz"}
    summary = printed.out.splitlines()[-1]  # the summary names them too
    assert "3 file(s) could not be read: " in summary and all(name in summary for name in named)


@pytest.mark.parametrize("command", [["logs", "--workers", "1", "--no-fan-aware"], ["review", "--fan-aware",
                                                                                   "--player", "0"]])
def test_the_commands_name_each_file_they_cannot_read(bad_folder, tmp_path, capsys, command):
    from mjfast import cli

    assert cli.main([command[0], str(bad_folder), *command[1:], "--out", str(tmp_path / "out")]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("unreadable: ")]
    assert sorted(Path(line.split(": ")[1]).name for line in said) == ["b-io-error.txt", "c-binary.log",
                                                                       "d-cut.txt.gz"]
