"""Requests per second and latency of `mjfast serve` for advise, over JSON lines and HTTP.

    pytest bench/bench_service.py

The requests are real: the hand and the visible tiles of each discard decision in the 16
Botzone matches of tests/data/logs, as a bot would send them. The service runs as a separate
process, as a bot would use it. Each round sends every request once:

- one at a time: send, wait for the response, send the next (a bot's latency);
- pipelined (JSON lines): send all, then read all (the throughput of one connection).

The same work done in this process (the operation alone, no transport) is timed beside them,
and a shanten query on the same hands shows what the transport itself costs. Figures are per
request; the table at the end gives requests per second.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import threading

import pytest
from real_decisions import advise_params

from mjfast.service.ops import op_advise

SERVE = [sys.executable, "-m", "mjfast.cli", "serve"]
RESULTS: dict[str, float] = {}


PARAMS = advise_params(200)
LINES = [json.dumps({"id": i, "op": "advise", **p}) + "\n" for i, p in enumerate(PARAMS)]
PLAIN = [json.dumps({"id": i, "op": "advise", "fan_aware": False, **p}) + "\n" for i, p in enumerate(PARAMS)]
# the cheapest query on the same hands: what the transport itself costs
SHANTEN = [json.dumps({"id": i, "op": "shanten", "hand": p["hand"]}) + "\n" for i, p in enumerate(PARAMS)]


def _info(benchmark, task: str, n: int) -> None:
    benchmark.extra_info.update(task=task, lib="mjfast", hands=n)


def _record(benchmark, task: str, n: int) -> None:
    RESULTS[task] = benchmark.stats.stats.median / n


@pytest.fixture(scope="module", autouse=True)
def report(request):
    op_advise(dict(PARAMS[0]))  # compile in this process too
    yield
    # pytest captures output while fixtures run: print past the capture
    with request.config.pluginmanager.get_plugin("capturemanager").global_and_fixture_disabled():
        print("\n\nmjfast serve, advise on real decisions (median per request):")
        for task, seconds in RESULTS.items():
            print(f"  {task:60s} {seconds * 1e6:9.1f} us {1 / seconds:9.0f} requests/s")


@pytest.fixture(scope="module")
def lines_service():
    proc = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    proc.stdin.write(LINES[0])
    proc.stdout.readline()  # compiled and answering
    yield proc
    proc.stdin.close()
    proc.wait(timeout=30)


@pytest.fixture(scope="module")
def http_service():
    proc = subprocess.Popen(SERVE + ["--http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+)$", proc.stderr.readline().strip()).group(1))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    _post(conn, LINES[0])
    yield conn
    conn.close()
    proc.terminate()
    proc.wait(timeout=30)


def _post(conn, body: str) -> bytes:
    conn.request("POST", "/", body=body, headers={"Content-Type": "application/json"})
    return conn.getresponse().read()


def bench_advise_in_process(benchmark):
    task = "advise, the operation alone (no transport)"
    _info(benchmark, task, len(PARAMS))
    benchmark(lambda: [op_advise(dict(p)) for p in PARAMS])
    _record(benchmark, task, len(PARAMS))


KINDS = {"advise": LINES, "advise fan_aware=false": PLAIN, "shanten": SHANTEN}


@pytest.mark.parametrize("kind", KINDS)
def bench_advise_json_lines_one_at_a_time(benchmark, lines_service, kind):
    task = f"{kind}, JSON lines, one request at a time"
    stdin, stdout = lines_service.stdin, lines_service.stdout
    requests = KINDS[kind]

    def round_trips():
        for line in requests:
            stdin.write(line)
            stdout.readline()

    _info(benchmark, task, len(requests))
    benchmark(round_trips)
    _record(benchmark, task, len(requests))


def bench_advise_json_lines_pipelined(benchmark, lines_service):
    task = "advise, JSON lines, all requests sent then all read"
    stdin, stdout = lines_service.stdin, lines_service.stdout
    def pipelined():  # a pipe holds 64 KiB: the writer runs in a thread so that neither side blocks
        writer = threading.Thread(target=lambda: stdin.writelines(LINES))
        writer.start()
        answers = [stdout.readline() for _ in LINES]
        writer.join()
        return answers

    _info(benchmark, task, len(LINES))
    answers = benchmark(pipelined)
    assert [json.loads(a)["id"] for a in answers] == list(range(len(LINES)))
    _record(benchmark, task, len(LINES))


@pytest.mark.parametrize("kind", KINDS)
def bench_advise_http_one_at_a_time(benchmark, http_service, kind):
    task = f"{kind}, HTTP keep-alive, one request at a time"
    requests = KINDS[kind]
    _info(benchmark, task, len(requests))
    benchmark(lambda: [_post(http_service, body) for body in requests])
    _record(benchmark, task, len(requests))
