"""The fuzzing campaign of mjfast's readers: each target of tests/readers.py (hands, text logs,
Botzone JSON logs, protocol lines, the service's requests, the bot's input, and the readers at
their bounds: an input nested past the depth bound and repeated past a size bound) under
atheris, a coverage-guided fuzzer (libFuzzer) for Python, for a stated time each, its corpus
seeded with the target's real inputs (tests/data) and its dictionary the words of the format
(readers.py).

    pip install '.[fuzz]'
    python bench/fuzz_readers.py [--seconds 600] [--targets hand,text_log,json_log,protocol,service,bot,bounds]
                                 [--work DIR] [--keep DIR]

Each target runs in its own process. An input on which the target's check fails (an exception
other than the reader's own error, or a broken promise; readers.py says which) is a finding: it
is written to --keep/<target>/ (tests/data/fuzz by default, where test_fuzz_regressions.py
checks every file kept) once per distinct failure (exception type and the line of mjfast that
raised it), and the fuzzing goes on. An input that runs past --hang seconds (by the clock),
takes more than --rss-mb of memory or crashes the process stops its target: it is run again
alone in a fresh process; when it still hangs or fails there it is kept beside the findings,
and when it takes milliseconds the stop was the machine's (a process at nice 19 on a busy
machine can wait a minute for the CPU), and the report says so. Then the target goes on for
the time left. The corpus (--work/<target>/corpus) grows from run to run. The report gives
each target's executions, their rate, its coverage (libFuzzer's count of edges of the
instrumented Python) and what was found.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STAT = re.compile(r"stat::(\w+):\s*(\d+)")
KEPT_NAME = re.compile(r"\d{8}-[0-9a-f]{12}")  # a finding's file: its day and its failure's signature
COVERAGE = re.compile(r"#\d+\s+\w+\s+cov: (\d+) ft: (\d+)")


def decode(data: bytes) -> str:
    """The text a target is given: the fuzzer's bytes as UTF-8 (test_fuzz_regressions reads
    the kept inputs the same way)."""
    return data.decode("utf-8", "replace")


def dictionary_entry(word: str) -> str:
    """A word as libFuzzer's dictionary writes it between quotes: printable ASCII as is, every
    other byte of its UTF-8 (and the quote and backslash) as \\xNN."""
    return "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\x{b:02x}" for b in word.encode("utf-8"))


def signature(exc: BaseException) -> str:
    """What tells two failures apart: the exception's type and the last line of mjfast (or of
    the check) in its traceback."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/mjfast/" in f.filename or "readers" in
              f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(exc).__name__} at {where}"


def fuzz_one(name: str, seconds: float, work: Path, keep: Path, hang: float, rss_mb: int) -> None:
    """Run atheris on target `name` in this process (the child of main)."""
    import atheris

    from mjfast.warmup import warm_up
    from tests.readers import TARGETS

    target = TARGETS[name]
    corpus = work / name / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for seed in target.seeds:  # the real inputs, named by their content
        data = seed.encode("utf-8")
        (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)
        target.check(seed)  # and every module the check needs is loaded before instrumenting
    # every kernel loaded before instrumenting: numba compiling under the instrumentation
    # would take minutes, and count as a hang of the input that asked for it
    warm_up()
    words = work / name / "dictionary"
    words.write_text("".join(f'"{dictionary_entry(word)}"\n' for word in target.words if word), encoding="ascii")
    atheris.instrument_all()
    found = {path.name.split("-")[1] for path in (keep / name).glob("*") if KEPT_NAME.fullmatch(path.name)}

    def one_input(data: bytes) -> None:
        try:
            target.check(decode(data))
        except Exception as exc:  # a finding: kept once per distinct failure, and the fuzzing goes on
            sig = hashlib.sha1(signature(exc).encode()).hexdigest()[:12]
            if sig not in found:
                found.add(sig)
                (keep / name).mkdir(parents=True, exist_ok=True)
                (keep / name / f"{time.strftime('%Y%m%d')}-{sig}").write_bytes(data)
                print(f"FINDING {name}: {signature(exc)}: {str(exc)[:200]!r}", file=sys.stderr, flush=True)

    longest = max(len(seed.encode("utf-8")) for seed in target.seeds)
    artifacts = work / name / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    atheris.Setup([sys.argv[0], str(corpus), f"-max_total_time={int(seconds)}", f"-timeout={int(hang)}",
                   f"-rss_limit_mb={rss_mb}", f"-max_len={int(longest * 1.2) + 64}", "-print_final_stats=1",
                   f"-dict={words}",
                   f"-artifact_prefix={artifacts}/"], one_input)
    atheris.Fuzz()


ARTIFACT = re.compile(r"Test unit written to (\S+)")
MAX_STOPS = 10  # a target that stops this often is reported as it is, not started again


def alone(name: str, path: Path, hang: float) -> "tuple[bool, str]":
    """Run one input libFuzzer stopped on through its target's check in a fresh process: (a
    real fault, what happened). libFuzzer's timeout is by the clock, so on a loaded machine an
    input that ran when this process had no CPU looks like a hang: alone, it takes milliseconds."""
    try:
        done = subprocess.run([sys.executable, __file__, "--one", name, "--input", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=hang)
    except subprocess.TimeoutExpired:
        return True, f"still running after {hang:g} s alone: a hang"
    if done.returncode:
        return True, f"fails alone: {(done.stderr.strip().splitlines() or ['?'])[-1][:200]}"
    return False, f"{float(done.stdout):.3f} s alone: the machine stalled, not the reader"


def run_target(name: str, args) -> dict:
    """A target for args.seconds of fuzzing (the process's start, the warm-up and the seeds
    aside), in a process of its own, started again for the time left when libFuzzer stops on an
    input: its executions, coverage and what was found."""
    executions = fuzzing = coverage = 0
    findings, stops = [], []
    left = args.seconds
    while left > 5:
        command = [sys.executable, __file__, "--one", name, "--seconds", str(int(left)), "--work", str(args.work),
                   "--keep", str(args.keep), "--hang", str(args.hang), "--rss-mb", str(args.rss_mb)]
        done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=left + 900)
        output = done.stdout
        with open(args.work / name / "output.txt", "a", encoding="utf-8") as log:
            log.write(output)
        stats = {k: int(v) for k, v in STAT.findall(output)}
        if not stats:  # the fuzzer never ran: the harness failed before it
            stops.append((True, f"start that failed (status {done.returncode}): "
                                f"{(output.strip().splitlines() or ['?'])[-1][:200]}"))
            break
        executions += stats.get("number_of_executed_units", 0)
        fuzzing += stats.get("number_of_executed_units", 0) / max(1, stats.get("average_exec_per_sec", 1))
        coverage = max([coverage] + [int(c) for c, _ in COVERAGE.findall(output)])
        findings += [line for line in output.splitlines() if line.startswith("FINDING")]
        stopped = [Path(p) for p in ARTIFACT.findall(output) if not Path(p).name.startswith("slow-unit")]
        for path in stopped:  # a timeout, out of memory, or a crash outside the check
            fault, what = alone(name, path, args.hang)
            if fault:
                (args.keep / name).mkdir(parents=True, exist_ok=True)
                (args.keep / name / path.name).write_bytes(path.read_bytes())
            stops.append((fault, f"{path.name.split('-')[0]} ({what})"))
        left = args.seconds - fuzzing
        if not stopped or len(stops) >= MAX_STOPS:
            break
    return {"executions": executions, "per_second": executions / fuzzing if fuzzing else 0, "coverage": coverage,
            "findings": findings, "stops": stops}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600, help="how long each target runs (default 600)")
    parser.add_argument("--targets", default="hand,text_log,json_log,protocol,service,bot,bounds",
                        help="the targets (tests/readers.py TARGETS)")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "mjfast-fuzz",
                        help="corpus and libFuzzer's artifacts, per target (kept between runs)")
    parser.add_argument("--keep", type=Path, default=ROOT / "tests" / "data" / "fuzz",
                        help="where findings are written, per target (default tests/data/fuzz)")
    parser.add_argument("--hang", type=float, default=30, help="seconds an input may run before it is a hang")
    parser.add_argument("--rss-mb", type=int, default=4096, help="memory a target may take")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child's own target
    parser.add_argument("--input", type=Path, help=argparse.SUPPRESS)  # the child runs this input alone
    args = parser.parse_args()
    if args.one and args.input:
        from tests.readers import TARGETS

        began = time.perf_counter()
        TARGETS[args.one].check(decode(args.input.read_bytes()))
        print(time.perf_counter() - began)
        return 0
    if args.one:
        fuzz_one(args.one, args.seconds, args.work, args.keep, args.hang, args.rss_mb)
        return 0
    print(f"each target {args.seconds:g} s; corpus in {args.work}; findings kept in {args.keep}")
    print(f"{'target':10s} {'executions':>11s} {'exec/s':>7s} {'coverage':>9s}  findings")
    bad = 0
    for name in args.targets.split(","):
        r = run_target(name, args)
        bad += len(r["findings"]) + sum(fault for fault, _ in r["stops"])
        what = "; ".join(r["findings"] + [f"stopped on a {stop}" for _, stop in r["stops"]]) or "none"
        print(f"{name:10s} {r['executions']:11d} {r['per_second']:7.0f} {r['coverage']:9d}  {what}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
