"""The inputs of issue 61 at full size, built here (a gzip bomb is one compressed member written
again and again: milliseconds to build, a thousandth of its size on disk; a huge plain file is
sparse), each read by a command in a process of its own whose peak resident memory and CPU time
the kernel reports (wait4, in a small parent that starts it): each file is refused by name on
standard error and in the summary, the command exits 1, and neither memory nor time grows with
what the file holds. Before the bounds, `mjfast replay` took 4.1 GB and 74 s on the gzip and
exited 0. The library's readers at each bound are test_bounds.py's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import NamedTuple

import pytest

from .data import LOGS, ROOT
from .test_bounds import DEEP, ENDLESS, MiB, gzip_bomb

GiB = 2**30
# The goal of issue 61 for a command refusing a bomb (measured: replay 48 MB, review 105 MB, logs
# 134 MB with pyarrow and matplotlib loaded and its report written).
RESIDENT = 300 * MiB
CPU_SECONDS = 5  # a refusal takes milliseconds; the rest is the interpreter, the imports, the report


class Ran(NamedTuple):
    status: int
    out: str
    err: str
    peak: int  # bytes resident at most
    cpu: float  # seconds, user and system


# The command runs as the grandchild of a small Python that reports its resource usage: the kernel
# counts into a process's peak resident memory the memory of the process it was started from (a
# pytest worker holds hundreds of MB), so the command is started from one that holds little.
_MEASURE = """import json, os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as out:
    json.dump([usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime], out)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def mjfast(*args: str, timeout: float = 300) -> Ran:
    """`python -m mjfast ARGS` run to its end (killed after `timeout` seconds), measured."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            tempfile.NamedTemporaryFile("r", suffix=".json") as usage:
        command = [sys.executable, "-c", _MEASURE, usage.name, sys.executable, "-m", "mjfast", *args]
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err, start_new_session=True)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            raise AssertionError(f"mjfast {' '.join(args)} still ran after {timeout} s") from None
        peak, cpu = json.loads(usage.read())
        out.seek(0)
        err.seek(0)
        return Ran(proc.returncode, out.read(), err.read(), peak, cpu)


@pytest.fixture(scope="module")
def bomb(tmp_path_factory):
    """2 GiB of spaces in a .json.gz of some 2 MB (the issue's)."""
    path = tmp_path_factory.mktemp("bombs") / "bomb.json.gz"
    gzip_bomb(path, " ", 2 * GiB)
    assert 2 * MiB <= path.stat().st_size < 3 * MiB
    return path


def _refused_by_name(ran: Ran, path, reason: str) -> None:
    assert ran.status == 1, ran.err
    assert f"{path}: {reason}" in ran.err.replace(": cannot be read: ", ": ").replace("unreadable: ", "")
    assert "no game could be read" in ran.err and "internal error" not in ran.err + ran.out


LINE_REASON = "line 1 runs past 65536 characters: not a text log"


def test_replay_refuses_the_gzip_bomb_by_name_at_once(bomb):
    ran = mjfast("replay", str(bomb))
    _refused_by_name(ran, bomb, LINE_REASON)
    assert ran.out.splitlines()[-1].endswith(f"; 1 file(s) could not be read: {bomb}")  # the summary names it
    assert ran.peak < RESIDENT and ran.cpu < CPU_SECONDS


@pytest.mark.parametrize("command", [["review", "--fan-aware"], ["logs", "--no-fan-aware"]])
def test_review_and_logs_refuse_the_gzip_bomb_by_name_at_once(bomb, tmp_path, command):
    ran = mjfast(command[0], str(bomb), "--out", str(tmp_path), "--workers", "1", *command[1:])
    _refused_by_name(ran, bomb, LINE_REASON)
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["unreadable_files"] == [{"file": str(bomb), "reason": LINE_REASON}]
    assert ran.peak < RESIDENT and ran.cpu < CPU_SECONDS


def test_a_huge_plain_file_is_refused_unread_or_read_a_line_at_a_time(tmp_path):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(1_500_000_000)  # 1.5 GB of NUL bytes on no disk: one line
    ran = mjfast("replay", str(huge))
    _refused_by_name(ran, huge, "holds more than 256 MiB once decompressed: refused (--max-log-size raises the bound)")
    assert ran.peak < RESIDENT and ran.cpu < CPU_SECONDS
    ran = mjfast("replay", str(huge), "--max-log-size", "2G")  # let in: read, and its first line too long
    _refused_by_name(ran, huge, LINE_REASON)
    assert ran.peak < RESIDENT and ran.cpu < CPU_SECONDS


def test_a_game_that_never_ends_is_read_to_the_bound_the_flag_sets(tmp_path):
    path = tmp_path / "endless.txt.gz"
    gzip_bomb(path, ENDLESS.split("\n", 2)[2], GiB, head=ENDLESS)  # a GiB of action lines after one Match line
    ran = mjfast("replay", str(path), "--max-log-size", "32M")
    _refused_by_name(ran, path, "holds more than 32 MiB once decompressed: refused (--max-log-size raises the bound)")
    assert ran.out.startswith("0 games read")  # the game was cut by the refusal, as by a broken gzip stream
    assert ran.peak < RESIDENT and ran.cpu < 3 * CPU_SECONDS  # two million lines read, a thousand held


def test_a_json_log_nested_200000_deep_is_a_log_error_naming_the_file_and_the_depth(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * DEEP, encoding="utf-8")
    ran = mjfast("replay", str(path))
    assert ran.status == 1 and "internal error" not in ran.err
    assert ran.out.startswith(f"{path}: match deep, line 0: JSON nested {DEEP} deep; mjfast reads at most 100 levels")
    assert ran.peak < RESIDENT and ran.cpu < CPU_SECONDS


@pytest.mark.parametrize("size, wanted", [("300000000", 300_000_000), ("512M", 512 * MiB), ("2G", 2 * GiB),
                                          ("1.5GiB", 3 * GiB // 2), ("64kb", 64 * 2**10)])
def test_the_flag_takes_a_size_with_a_binary_unit(size, wanted):
    from mjfast.commands.options import _size

    assert _size(size) == wanted


@pytest.mark.parametrize("size", ["", "M", "-1G", "0", "2X", "1e400"])
def test_the_flag_refuses_what_is_no_size(size, capsys):
    from mjfast import cli

    with pytest.raises(SystemExit) as exit:
        cli.main(["replay", str(LOGS), f"--max-log-size={size}"])
    assert exit.value.code == 2 and "a size is a number of bytes" in capsys.readouterr().err
