"""The service's envelope and transports (stdlib only).

A request is one JSON object {"id": any, "op": "...", "v": 1 (optional), ...parameters};
the response echoes "id" and carries "result" or "error": {"code", "message"}. A request
that fails, whatever the reason, gets an error response and the service goes on.

- JSON lines: one request per line on stdin, one response per line on stdout, in order.
- HTTP: POST a request as the body to any path; the response is the body (status 200 with a
  result, 400 with a request error, 500 with an internal error). GET returns the version.
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .ops import OPS, PROTOCOL_VERSION, RequestError, json_type

ENVELOPE = ("id", "op", "v")


def _error(request_id, code: str, message: str) -> dict:
    return {"id": request_id, "error": {"code": code, "message": message}}


def handle(request) -> dict:
    """The response object for a decoded request."""
    from ..errors import HandError

    if not isinstance(request, dict):
        return _error(None, "bad_request", f"a request is a JSON object, got {json_type(request)}")
    request_id = request.get("id")
    version = request.get("v", PROTOCOL_VERSION)
    if version != PROTOCOL_VERSION:
        return _error(request_id, "unsupported_version", f"this service speaks protocol version {PROTOCOL_VERSION}, "
                                                         f"the request asks for {version!r}")
    op = request.get("op")
    if not isinstance(op, str):
        return _error(request_id, "bad_request", "a request needs \"op\", the name of an operation")
    run = OPS.get(op)
    if run is None:
        return _error(request_id, "unknown_op", f"unknown operation {op!r}; known: {', '.join(sorted(OPS))}")
    params = {key: value for key, value in request.items() if key not in ENVELOPE}
    try:
        return {"id": request_id, "result": run(params)}
    except RequestError as exc:
        return _error(request_id, exc.code, str(exc))
    except HandError as exc:
        return _error(request_id, "bad_hand", str(exc))
    except Exception as exc:  # a bug must not end the service: report it and go on
        return _error(request_id, "internal", f"{type(exc).__name__}: {exc}")


def handle_text(text: "str | bytes") -> dict:
    """The response object for a request given as JSON text."""
    try:
        request = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        return _error(None, "bad_json", f"not JSON: {exc}")
    return handle(request)


def _dump(response: dict) -> str:
    return json.dumps(response, ensure_ascii=False, separators=(",", ":"))


def serve_lines(stdin=None, stdout=None) -> int:
    """Answer JSON lines until the input ends."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    for line in stdin:
        if line.strip():
            stdout.write(_dump(handle_text(line)) + "\n")
            stdout.flush()
    return 0


_STATUS = {"bad_json": 400, "bad_request": 400, "unsupported_version": 400, "unknown_op": 400, "bad_param": 400,
           "bad_hand": 400, "internal": 500}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a bot reuses one connection
    # headers and body leave in two writes: without TCP_NODELAY the second waits for the
    # client's delayed ACK, some 40 ms per request
    disable_nagle_algorithm = True

    def _send(self, status: int, response: dict) -> None:
        body = _dump(response).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._send(411, _error(None, "bad_request", "a request needs a Content-Length"))
            self.close_connection = True
            return
        response = handle_text(self.rfile.read(length))
        error = response.get("error")
        self._send(_STATUS.get(error["code"], 400) if error else 200, response)

    def do_GET(self) -> None:
        self._send(200, handle({"op": "version"}))

    def log_message(self, format, *args) -> None:
        pass  # a request log line per request would cost more than the request


def make_http_server(host: str, port: int) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer((host, port), _Handler)
    server.daemon_threads = True
    return server


def serve_http(host: str, port: int) -> int:
    """Serve HTTP until interrupted; says where on stderr (port 0 picks a free port)."""
    server = make_http_server(host, port)
    bound_host, bound_port = server.server_address[:2]
    print(f"mjfast serve: listening on http://{bound_host}:{bound_port}", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
