"""The HTTP transport as a browser and a careless or hostile client meet it: the page and the
version on GET, a capped body (413), a body nested too deep (400), capped error messages, slow
clients timed out, idle connections past the limit closed to make room, clients that go away
half way, a full service saying so (503), no cross-origin calls unless allowed, the loopback
unless told otherwise. No browser here (see test_web.py); every socket has a timeout, and every
wait is bounded."""

from __future__ import annotations

import http.client
import io
import json
import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from mjfast.service import server as server_module
from mjfast.service.server import MAX_MESSAGE, HttpOptions, cap_message, make_http_server, serve_lines, wants_html

WAIT = 30  # seconds any socket waits before the test fails instead of hanging


@pytest.fixture
def serve():
    """serve(options) -> the port of a server on the loopback, stopped after the test."""
    servers = []

    def start(options=HttpOptions()):
        server = make_http_server("127.0.0.1", 0, options)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server.server_address[1]

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _ask(port, method="POST", path="/", body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        reply = conn.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read()
    finally:
        conn.close()


def _raw(port, data: bytes) -> bytes:
    """What the server sends back to `data` until it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def test_a_body_over_the_limit_gets_413_without_being_read(serve):
    port = serve(HttpOptions(max_body=1000))
    # a client that announces 100 GB: answered at once, from the headers alone
    answer = _raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413") and b"Connection: close" in head
    assert json.loads(body)["error"]["code"] == "too_large"
    status, _, body = _ask(port, body=json.dumps({"op": "parse", "hand": "1m" * 600}))
    assert status == 413 and "at most 1000" in json.loads(body)["error"]["message"]
    status, _, body = _ask(port, body=json.dumps({"op": "version"}))
    assert status == 200 and json.loads(body)["result"]["protocol"] == 1


def test_a_negative_or_missing_length_is_refused(serve):
    port = serve()
    assert _raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n").startswith(b"HTTP/1.1 411")
    assert _raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n").startswith(b"HTTP/1.1 411")


def test_error_messages_echo_at_most_a_capped_part_of_the_input(serve):
    port = serve()
    hand = "1" * 60000 + "X"  # 60 kB of input quoted by the parser's message
    status, _, body = _ask(port, body=json.dumps({"op": "shanten", "hand": hand}))
    message = json.loads(body)["error"]["message"]
    assert status == 400 and len(body) < 1000
    assert len(message) <= MAX_MESSAGE + 40 and "characters cut" in message
    out = io.StringIO()  # JSON lines go through the same cap
    serve_lines(io.StringIO(json.dumps({"op": "advise", "hand": hand}) + "\n"), out)
    assert len(json.loads(out.getvalue())["error"]["message"]) <= MAX_MESSAGE + 40
    assert cap_message("short") == "short"
    long = "head " + "x" * 1000 + " tail"
    assert cap_message(long).startswith("head ") and cap_message(long).endswith(" tail")


def test_a_body_nested_30000_deep_gets_bad_json_and_the_connection_goes_on(serve, capsys):
    port = serve()
    body = ('{"id": 1, "op": "version", "x": ' + "[" * 30000 + "]" * 30000 + "}").encode()  # 60 kB: under the limit
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    try:
        conn.request("POST", "/", body=body)
        reply = conn.getresponse()
        error = json.loads(reply.read())["error"]
        assert reply.status == 400 and error["code"] == "bad_json"
        assert error["message"] == "JSON nested 30001 deep; mjfast reads at most 100 levels"
        conn.request("POST", "/", body=json.dumps({"id": 2, "op": "version"}))  # the same connection, kept alive
        reply = conn.getresponse()
        assert reply.status == 200 and json.loads(reply.read())["id"] == 2
    finally:
        conn.close()
    assert "Traceback" not in capsys.readouterr().err


def test_a_silent_client_is_disconnected(serve):
    port = serve(HttpOptions(timeout=0.5))
    # half a request, then nothing: the server closes the connection instead of waiting forever
    assert _raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{\"op\"") == b""
    assert _raw(port, b"GET / HTTP/1.1\r\nHost: x") == b""
    # an idle kept-alive connection is closed too, after answering its request
    answer = _raw(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200") and b'"protocol":1' in answer


def closed_by_server(sock, wait: float) -> bool:
    """Whether the server closes `sock` within `wait` seconds (its end reads as end of file)."""
    sock.settimeout(wait)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionError:
        return True


def _handler_threads() -> int:
    return sum(t.name.startswith("Thread-") and "process_request_thread" in t.name for t in threading.enumerate())


def _eventually(condition, seconds: float = WAIT) -> bool:
    """condition() once it holds, polled for at most `seconds`."""
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.05)
    return condition()


def test_a_client_sending_a_byte_at_a_time_is_closed_at_its_deadline(serve):
    # the timeout counts for the whole request, not for each read: a trickle does not keep it open
    port = serve(HttpOptions(timeout=0.5))
    text = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n{\"op\": \"version\"}"
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sent = 0
        try:
            for byte in text:
                sock.sendall(bytes([byte]))
                sent += 1
                time.sleep(0.1)  # the whole request would take 7 s
        except OSError:
            pass
        assert sent < len(text) or closed_by_server(sock, WAIT)
        assert closed_by_server(sock, WAIT)
    status, _, body = _ask(port, body=json.dumps({"op": "version"}))
    assert status == 200


def test_idle_connections_past_the_limit_make_room_for_new_ones(serve):
    port = serve(HttpOptions(max_connections=8, timeout=WAIT))
    before = _handler_threads()
    idle = [socket.create_connection(("127.0.0.1", port), timeout=WAIT) for _ in range(30)]
    try:
        # each connection past the 8th closed the one that had waited longest: the first 22 are gone
        assert sum(closed_by_server(sock, 5) for sock in idle[:22]) == 22
        assert not any(closed_by_server(sock, 0.2) for sock in idle[22:])
        assert _eventually(lambda: _handler_threads() <= before + 8)  # a thread each, at most the limit
        status, _, body = _ask(port, body=json.dumps({"op": "version"}))  # a new client still gets in
        assert status == 200 and json.loads(body)["result"]["protocol"] == 1
        assert closed_by_server(idle[22], 5)  # the longest waiting made room for it
    finally:
        for sock in idle:
            sock.close()


def test_clients_that_go_away_half_way_leave_nothing_behind(serve):
    port = serve()
    before = _handler_threads()
    for k in range(40):
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
            if k % 2:  # the headers and part of the body
                sock.sendall(b'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"op": "sha')
            else:  # part of the headers
                sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le")
    assert _eventually(lambda: _handler_threads() <= before)
    status, _, body = _ask(port, body=json.dumps({"op": "shanten", "hand": "123m456p789s1357s"}))
    assert status == 200 and json.loads(body)["result"]["shanten"] == 1


def test_a_full_service_says_so_with_503_and_goes_on(serve, monkeypatch):
    started, release = threading.Semaphore(0), threading.Event()
    answer = server_module.handle_text

    def slow(text):  # a request that takes as long as the test wants
        started.release()
        release.wait(WAIT)
        return answer(text)

    monkeypatch.setattr(server_module, "handle_text", slow)
    port = serve(HttpOptions(max_connections=2))
    replies = []
    askers = [threading.Thread(target=lambda: replies.append(_ask(port, body=json.dumps({"op": "version"}))))
              for _ in range(2)]
    for asker in askers:
        asker.start()
    try:
        assert started.acquire(timeout=WAIT) and started.acquire(timeout=WAIT)  # both connections are answering
        status, headers, body = _ask(port, body=json.dumps({"op": "version"}))
        assert status == 503 and json.loads(body)["error"]["code"] == "busy" and headers["Retry-After"] == "1"
    finally:
        release.set()
        for asker in askers:
            asker.join(WAIT)
    assert [status for status, _, _ in replies] == [200, 200]
    monkeypatch.setattr(server_module, "handle_text", answer)
    assert _ask(port, body=json.dumps({"op": "version"}))[0] == 200


def test_no_cross_origin_calls_by_default(serve):
    port = serve()
    body = json.dumps({"op": "version"})
    status, headers, answer = _ask(port, body=body, headers={"Origin": "http://evil.example"})
    assert status == 403 and json.loads(answer)["error"]["code"] == "forbidden_origin"
    assert "Access-Control-Allow-Origin" not in headers
    status, headers, _ = _ask(port, "OPTIONS", headers={"Origin": "http://evil.example",
                                                        "Access-Control-Request-Method": "POST"})
    assert status == 403 and "Access-Control-Allow-Origin" not in headers
    # the page's own calls come from the service's own origin
    status, headers, _ = _ask(port, body=body, headers={"Origin": f"http://127.0.0.1:{port}"})
    assert status == 200 and "Access-Control-Allow-Origin" not in headers
    status, headers, _ = _ask(port, body=body)  # programs send no Origin
    assert status == 200 and "Access-Control-Allow-Origin" not in headers


def test_an_allowed_origin_may_call(serve):
    port = serve(HttpOptions(allowed_origins=("https://mahjong.example",)))
    origin = {"Origin": "https://mahjong.example"}
    status, headers, _ = _ask(port, "OPTIONS", headers={**origin, "Access-Control-Request-Method": "POST"})
    assert status == 204 and headers["Access-Control-Allow-Origin"] == "https://mahjong.example"
    assert "POST" in headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in headers["Access-Control-Allow-Headers"]
    status, headers, _ = _ask(port, body=json.dumps({"op": "version"}), headers=origin)
    assert status == 200 and headers["Access-Control-Allow-Origin"] == "https://mahjong.example"
    assert headers["Vary"] == "Origin"
    assert _ask(port, body="{}", headers={"Origin": "https://other.example"})[0] == 403


def test_get_gives_the_version_to_programs_and_the_page_to_browsers(serve):
    port = serve()
    for headers in ({}, {"Accept": "*/*"}, {"Accept": "application/json"}):
        status, _, body = _ask(port, "GET", "/", headers=headers)
        assert status == 200 and json.loads(body)["result"]["protocol"] == 1
    assert json.loads(_ask(port, "GET", "/any/path")[2])["result"]["protocol"] == 1
    browser = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    status, headers, _ = _ask(port, "GET", "/?x=1", headers=browser)
    assert status == 303 and headers["Location"] == "/app/?x=1"
    status, headers, page = _ask(port, "GET", "/app/")
    assert status == 200 and headers["Content-Type"].startswith("text/html") and b'src="main.js"' in page
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    status, headers, tile = _ask(port, "GET", "/app/tiles/5m.svg")
    assert status == 200 and headers["Content-Type"] == "image/svg+xml" and tile.startswith(b"<svg")
    assert _ask(port, "GET", "/app/main.js")[1]["Content-Type"].startswith("text/javascript")
    for missing in ("/app/nothing.js", "/app/../pyproject.toml", "/app/%2e%2e/__init__.py", "/app/draw_tiles.py"):
        assert _ask(port, "GET", missing)[0] == 404
    status, _, body = _ask(port, "POST", "/app/", body=json.dumps({"op": "version"}))  # POST works on any path
    assert status == 200 and json.loads(body)["result"]["protocol"] == 1


@pytest.mark.parametrize("accept, html", [
    (None, False), ("*/*", False), ("application/json", False), ("text/html", True),
    ("text/html,application/xhtml+xml,*/*;q=0.8", True), ("application/json, text/html;q=0.5", False),
    ("text/html;q=0", False), ("text/html;q=x", False),
])
def test_content_negotiation(accept, html):
    assert wants_html(accept) is html


def test_the_service_binds_the_loopback_unless_told_otherwise():
    server = make_http_server()
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()
    for argv, banner in ((["serve", "--http", "0"], r"^mjfast serve: listening on http://127\.0\.0\.1:(\d+)$"),
                         (["web", "--port", "0"], r"^mjfast web: the page is at http://127\.0\.0\.1:(\d+)/app/$")):
        proc = subprocess.Popen([sys.executable, "-m", "mjfast.cli", *argv], stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stderr.readline().strip()
            port = re.match(banner, line)
            assert port, line
            assert json.loads(_ask(int(port.group(1)), "GET", "/")[2])["result"]["protocol"] == 1
        finally:
            proc.terminate()
            proc.wait(timeout=WAIT)


@pytest.mark.parametrize("argv", [["serve", "--http", "{port}"], ["serve", "--http", "127.0.0.1:{port}"],
                                  ["web", "--port", "{port}"]])
def test_a_busy_port_is_one_line_naming_it(argv):
    """A port another socket listens on: a command error (status 2) naming the address, not an
    internal error (the failed bind closed a server not yet made: AttributeError)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        ran = subprocess.run([sys.executable, "-m", "mjfast.cli", *(arg.format(port=port) for arg in argv)],
                             capture_output=True, text=True, timeout=WAIT)  # a server that did start is killed
    assert (ran.returncode, ran.stdout) == (2, "")
    assert ran.stderr == f"mjfast: 127.0.0.1:{port} is in use: pick another port (0 picks any free port)\n"
