"""A load test of `mjfast serve --http` on the loopback: 1, 8 and 64 concurrent clients, each on
its own kept-alive connection, for a few seconds each; requests per second, latency, and a check
of every answer.

    python bench/load_http.py [--seconds 3] [--clients 1,8,64] [--limit 20000]

The requests are real: the advise request of each discard decision in the 16 Botzone matches of
tests/data/logs (as bench_service.py sends them), and the shanten request of the same hands (the
transport's own cost). A level sends more requests than there are decisions, so hands come
round again, and mjfast's memo of scored hands serves some of their fans. Each answer must
equal, field for field, the answer this process works out for the same request before the
test. The service runs as its own process; the clients are threads of this one (both share the
machine's cores: on 2 cores the figures are the service's and the clients' together).
Bounded: each level stops after --seconds or --limit requests, every socket times out after
30 s, and the service is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from real_decisions import advise_params  # noqa: E402  (bench/, this script's folder)

from mjfast.service.server import handle  # noqa: E402

SOCKET_TIMEOUT = 30


def workloads(n: int) -> dict[str, list[tuple[bytes, object]]]:
    """(request body, expected answer) lists by name; the answers are worked out here."""
    params = advise_params(n)
    loads = {"advise": [{"op": "advise", **p} for p in params],
             "shanten": [{"op": "shanten", "hand": p["hand"]} for p in params]}
    return {name: [(json.dumps({"id": i, **r}).encode(), json.loads(json.dumps(handle({"id": i, **r}))))
                   for i, r in enumerate(requests)] for name, requests in loads.items()}


def start_service() -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "mjfast.cli", "serve", "--http", "127.0.0.1:0"],
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    banner = proc.stderr.readline()
    port = re.search(r":(\d+)$", banner.strip())
    if port is None:
        proc.kill()
        raise SystemExit(f"the service did not start: {banner!r}")
    return proc, int(port.group(1))


def run_level(port: int, requests: list, clients: int, seconds: float, limit: int) -> dict:
    """`clients` threads, one connection each, sending requests round the list until the time
    or the request budget runs out."""
    deadline = time.perf_counter() + seconds
    budget = threading.Semaphore(limit)
    latencies: list[list[float]] = [[] for _ in range(clients)]
    wrong: list[str] = []
    failed: list[str] = []
    start = threading.Barrier(clients + 1)

    def client(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=SOCKET_TIMEOUT)
        mine = latencies[k]
        i = k * 7919  # each client starts elsewhere in the list
        start.wait()
        try:
            while time.perf_counter() < deadline and budget.acquire(blocking=False):
                body, expected = requests[i % len(requests)]
                i += 1
                sent = time.perf_counter()
                conn.request("POST", "/", body=body, headers={"Content-Type": "application/json"})
                reply = conn.getresponse()
                answer = json.loads(reply.read())
                mine.append(time.perf_counter() - sent)
                if reply.status != 200 or answer != expected:
                    wrong.append(f"request {answer.get('id')}: status {reply.status}")
        except Exception as exc:  # counted and shown: a failure is a finding, not a crash
            failed.append(f"{type(exc).__name__}: {exc}")
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join(seconds + SOCKET_TIMEOUT + 5)
    elapsed = time.perf_counter() - began
    every = sorted(x for mine in latencies for x in mine)
    return {"clients": clients, "requests": len(every), "seconds": elapsed, "per_second": len(every) / elapsed,
            "median_ms": 1e3 * statistics.median(every) if every else float("nan"),
            "p99_ms": 1e3 * every[int(0.99 * (len(every) - 1))] if every else float("nan"),
            "wrong": wrong, "failed": failed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="how long each level runs (default 3)")
    parser.add_argument("--clients", default="1,8,64", help="concurrent clients of each level (default 1,8,64)")
    parser.add_argument("--limit", type=int, default=20000, help="at most this many requests a level")
    args = parser.parse_args()
    levels = [int(n) for n in args.clients.split(",")]
    loads = workloads(100_000)  # every decision of the matches
    proc, port = start_service()
    bad = 0
    try:
        for requests in loads.values():  # the service loads its kernels before the clock runs
            run_level(port, requests[:1], 1, 60.0, 1)
        print(f"mjfast serve --http on 127.0.0.1:{port}; each level {args.seconds:g} s or {args.limit} requests")
        print(f"{'workload':10s} {'clients':>7s} {'requests':>9s} {'req/s':>8s} {'median ms':>10s} {'p99 ms':>8s}"
              "  answers")
        for name, requests in loads.items():
            for clients in levels:
                r = run_level(port, requests, clients, args.seconds, args.limit)
                verdict = "all correct" if not r["wrong"] and not r["failed"] else \
                    f"{len(r['wrong'])} wrong, {len(r['failed'])} clients failed: {(r['wrong'] + r['failed'])[:3]}"
                bad += len(r["wrong"]) + len(r["failed"])
                print(f"{name:10s} {clients:7d} {r['requests']:9d} {r['per_second']:8.0f} {r['median_ms']:10.2f} "
                      f"{r['p99_ms']:8.2f}  {verdict}", flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=SOCKET_TIMEOUT)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
