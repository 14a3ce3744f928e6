"""A load test of `mjfast serve --http` on the loopback: 1, 8, 64 and 256 concurrent clients,
each on its own kept-alive connection, for a few seconds each; requests per second, latency, a
check of every answer, and the service's resident memory after each level. Then the faults:
while 8 clients go on asking, 1,000 connections are opened and left idle, 20 clients send a
request a byte at a time, 500 disconnect half way through a request and 500 announce bodies
over the limit; the clients' figures, what became of each fault and the service's resident
memory (sampled every 0.2 s) are reported.

    python bench/load_http.py [--seconds 3] [--clients 1,8,64,256] [--limit 20000] [--no-faults]

The requests are real: the advise request of each discard decision in the 16 Botzone matches of
tests/data/logs (as bench_service.py sends them), and the shanten request of the same hands (the
transport's own cost). A level sends more requests than there are decisions, so hands come
round again, and mjfast's memo of scored hands serves some of their fans. Each answer must
equal, field for field, the answer this process works out for the same request before the
test. The service runs as its own process; the clients are threads of this one (both share the
machine's cores: on 2 cores the figures are the service's and the clients' together).
Bounded: each level stops after --seconds or --limit requests, every socket times out after
30 s, the faults last --fault-seconds, and the service is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import socket
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
from tests.service.test_http import closed_by_server  # noqa: E402

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


def resident_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))


def _idle(port: int, n: int) -> list:
    return [socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) for _ in range(n)]


def _slow(port: int, stop: threading.Event, closed: list) -> None:
    """A request sent a byte every 0.5 s until the service closes the connection."""
    text = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n" + b'{"op": "version"}'.ljust(40)
    began = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) as sock:
        for byte in text:
            if stop.wait(0.5):
                return
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
        closed.append(time.perf_counter() - began)


def _broken(port: int, n: int, over_limit: bool) -> int:
    """n clients that go away half way through a request, or announce a body over the limit;
    the answers the service gave (413 for a body over the limit)."""
    answered = 0
    for _ in range(n):
        with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) as sock:
            if over_limit:  # answered from the headers, before any of the body is sent
                sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
                answered += sock.recv(12).startswith(b"HTTP/1.1 413")
            else:
                sock.sendall(b'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"op": "sha')
    return answered


def run_faults(proc: subprocess.Popen, port: int, requests: list, seconds: float) -> dict:
    """8 clients asking while the faults run; the service's memory sampled all along."""
    memory = [resident_kb(proc.pid)]
    stop = threading.Event()
    results: dict = {}

    def sample() -> None:
        while not stop.wait(0.2):
            memory.append(resident_kb(proc.pid))

    def clients() -> None:
        results["clients"] = run_level(port, requests, 8, seconds, 10**9)

    slow_closed: list = []
    threads = [threading.Thread(target=sample, daemon=True), threading.Thread(target=clients, daemon=True)]
    threads += [threading.Thread(target=_slow, args=(port, stop, slow_closed), daemon=True) for _ in range(20)]
    for thread in threads:
        thread.start()
    idle = _idle(port, 1000)
    results["disconnected"] = 500 - _broken(port, 500, over_limit=False)
    results["over_limit_413"] = _broken(port, 500, over_limit=True)
    threads[1].join(seconds + SOCKET_TIMEOUT + 5)
    results["idle_closed"] = sum(closed_by_server(sock, 0.01) for sock in idle)
    stop.set()
    for sock in idle:
        sock.close()
    results["slow_closed"] = sorted(slow_closed)
    results["memory_mb"] = (memory[0] / 1024, max(memory) / 1024, resident_kb(proc.pid) / 1024)
    results["alive"] = proc.poll() is None and run_level(port, requests[:1], 1, 10.0, 1)["requests"] == 1
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="how long each level runs (default 3)")
    parser.add_argument("--clients", default="1,8,64,256", help="concurrent clients of each level (default 1,8,64,256)")
    parser.add_argument("--limit", type=int, default=20000, help="at most this many requests a level")
    parser.add_argument("--fault-seconds", type=float, default=20.0, help="how long the faults run (default 20)")
    parser.add_argument("--no-faults", action="store_true", help="the load levels only")
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
              f" {'service MB':>10s}  answers")
        for name, requests in loads.items():
            for clients in levels:
                r = run_level(port, requests, clients, args.seconds, args.limit)
                verdict = "all correct" if not r["wrong"] and not r["failed"] else \
                    f"{len(r['wrong'])} wrong, {len(r['failed'])} clients failed: {(r['wrong'] + r['failed'])[:3]}"
                bad += len(r["wrong"]) + len(r["failed"])
                print(f"{name:10s} {clients:7d} {r['requests']:9d} {r['per_second']:8.0f} {r['median_ms']:10.2f} "
                      f"{r['p99_ms']:8.2f} {resident_kb(proc.pid) / 1024:10.0f}  {verdict}", flush=True)
        if not args.no_faults:
            f = run_faults(proc, port, loads["shanten"], args.fault_seconds)
            c = f["clients"]
            bad += len(c["wrong"]) + len(c["failed"]) + (not f["alive"])
            print(f"faults for {args.fault_seconds:g} s while 8 clients ask (shanten): {c['requests']} requests, "
                  f"{c['per_second']:.0f}/s, median {c['median_ms']:.2f} ms, p99 {c['p99_ms']:.2f} ms, "
                  f"{len(c['wrong'])} wrong, {len(c['failed'])} clients failed")
            slow = f["slow_closed"]
            print(f"  1000 idle connections: {f['idle_closed']} closed by the service by the end; 20 clients sending "
                  f"a byte every 0.5 s: {len(slow)} closed, after {slow[0] if slow else 0:.1f}-"
                  f"{slow[-1] if slow else 0:.1f} s; 500 gone half way through a request; 500 bodies over the "
                  f"limit: {f['over_limit_413']} answered 413")
            print("  service resident memory: {:.0f} MB before, peak {:.0f} MB, {:.0f} MB after; still answering: "
                  "{}".format(*f["memory_mb"], f["alive"]))
    finally:
        proc.terminate()
        proc.wait(timeout=SOCKET_TIMEOUT)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
