"""Kill `mjfast logs` and `mjfast review` at random moments and run them again with the same
arguments: the files they end with must be those of a run never killed, byte for byte, and the
run again must take what the killed one had done instead of doing it again.

    python bench/kill_resume.py [--kills 10] [--seed 1] [--games 1000] [--work DIR]

The logs: the 16 real matches of tests/data/logs beside --games games of four bots from
`mjfast table` (every hand new). `mjfast logs` analyses them on every core; `mjfast review
--fan-aware` reviews every seat of the real matches and of the first 200 table games. Each
command runs once never killed (the reference, timed), then --kills times killed (SIGKILL) at a
moment drawn uniformly from 5% to 95% of the reference's time and run again to the end. The
report gives, for each kill, the moment, the units the run again found done (the line it writes
on stderr), its time, and whether every file equals the reference's.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "logs" / "botzone_mahjong_gb_16matches.txt"
MJFAST = [sys.executable, "-m", "mjfast.cli"]
DONE = re.compile(r"resuming the unfinished run in .*: (\d+) (chunk|game)\(s\) done")


def files_of(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def timed(command: list) -> tuple[float, subprocess.CompletedProcess]:
    began = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr[-2000:]}")
    return time.perf_counter() - began, done


def kill_and_resume(name: str, command: list, work: Path, kills: int, rng: random.Random) -> int:
    """The reference run, then `kills` killed runs resumed; the runs whose files differ."""
    reference = work / f"{name}-reference"
    seconds, _ = timed([*command, str(reference)])
    expected = files_of(reference)
    print(f"{name}: a run never killed takes {seconds:.1f} s and writes {len(expected)} files")
    print(f"  {'kill':>4s} {'killed at':>10s} {'found done':>11s} {'run again':>10s}  files")
    differ = 0
    for k in range(1, kills + 1):
        out = work / f"{name}-killed-{k}"
        at = rng.uniform(0.05, 0.95) * seconds
        proc = subprocess.Popen([*command, str(out)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            proc.wait(at)
            finished = True  # it ended before the kill
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            finished = False
        again, done = timed([*command, str(out)])
        found = DONE.search(done.stderr)
        same = files_of(out) == expected
        differ += not same
        print(f"  {k:4d} {at:9.1f}s {found.group(1) + ' ' + found.group(2) + 's' if found else 'none':>11s} "
              f"{again:9.1f}s  {'identical' if same else 'DIFFERENT'}{' (it had finished)' if finished else ''}",
              flush=True)
        shutil.rmtree(out)
    return differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill moments and of the table's games")
    parser.add_argument("--games", type=int, default=1000, help="games of bots beside the real matches")
    parser.add_argument("--work", type=Path, default=None, help="where the logs and outputs go (default: a temporary "
                                                                  "folder, removed at the end)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="mjfast-kill-"))
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    shutil.copy(REAL, logs / "real.txt")
    table = logs / "table.txt"
    timed([*MJFAST, "table", "--games", str(args.games), "--seed", str(args.seed),
           "--bots", "shanten,shanten,fan-aware,random", "--log", str(table)])
    few = logs.parent / "review-logs"
    few.mkdir(exist_ok=True)
    shutil.copy(REAL, few / "real.txt")
    blocks = table.read_text(encoding="utf-8").split("\n\n")
    (few / "table.txt").write_text("\n\n".join(blocks[:200]), encoding="utf-8")
    rng = random.Random(args.seed)
    differ = kill_and_resume("mjfast logs", [*MJFAST, "logs", str(logs), "--out"], work, args.kills, rng)
    differ += kill_and_resume("mjfast review", [*MJFAST, "review", str(few), "--fan-aware", "--out"], work,
                              args.kills, rng)
    print(f"{differ} run(s) of {2 * args.kills} ended with files other than the reference's")
    if args.work is None:
        shutil.rmtree(work)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
