"""The HTTP transport as a browser and a careless or hostile client meet it: the page and the
version on GET, a capped body (413), capped error messages, slow clients timed out, no
cross-origin calls unless allowed, the loopback unless told otherwise. No browser here (see
test_web.py); every socket has a timeout."""

from __future__ import annotations

import http.client
import io
import json
import re
import socket
import subprocess
import sys
import threading

import pytest

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


def test_a_silent_client_is_disconnected(serve):
    port = serve(HttpOptions(timeout=0.5))
    # half a request, then nothing: the server closes the connection instead of waiting forever
    assert _raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{\"op\"") == b""
    assert _raw(port, b"GET / HTTP/1.1\r\nHost: x") == b""
    # an idle kept-alive connection is closed too, after answering its request
    answer = _raw(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200") and b'"protocol":1' in answer


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
