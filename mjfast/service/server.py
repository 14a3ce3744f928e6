"""The service's envelope and transports (stdlib only).

A request is one JSON object {"id": any, "op": "...", "v": 1 (optional), ...parameters};
the response echoes "id" and carries "result" or "error": {"code", "message"}. A request
that fails, whatever the reason, gets an error response and the service goes on. Error
messages are capped (cap_message): mjfast's messages quote the input, which may be huge.

- JSON lines: one request per line on stdin, one response per line on stdout, in order.
- HTTP: POST a request as the body to any path; the response is the body (status 200 with a
  result, 400 with a request error, 500 with an internal error). GET returns the version,
  except under /app/, where the player's page lives (mjfast.web), and for a browser asking
  for a page (Accept: text/html), which is sent there. HttpOptions bounds what a client may
  send, how long it may take to send it, how many connections are open at once and which
  browser origins may call (docs/protocol.md, "HTTP").
"""

from __future__ import annotations

import json
import math
import socket
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from ..bounds import too_deep
from .ops import OPS, PROTOCOL_VERSION, RequestError, json_type

ENVELOPE = ("id", "op", "v")
# Error messages longer than this keep their head and tail (where mjfast says what is wrong)
# and drop the middle, which is the echoed input: a 50 MB hand must not come back whole.
MAX_MESSAGE = 300
_HEAD, _TAIL = 220, 60


def cap_message(message: str) -> str:
    """`message`, or its first and last characters around a note of how many were cut."""
    if len(message) <= MAX_MESSAGE:
        return message
    cut = len(message) - _HEAD - _TAIL
    return f"{message[:_HEAD]}…[{cut} characters cut]…{message[-_TAIL:]}"


def _error(request_id, code: str, message: str) -> dict:
    return {"id": request_id, "error": {"code": code, "message": cap_message(message)}}


def handle(request) -> dict:
    """The response object for a decoded request."""
    from ..errors import ArgumentError, HandError

    if not isinstance(request, dict):
        return _error(None, "bad_request", f"a request is a JSON object, got {json_type(request)}")
    request_id = request.get("id")
    version = request.get("v")
    if version is not None and version != PROTOCOL_VERSION:
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
    except ArgumentError as exc:  # winds, flowers, a ruleset, a ranking... outside what the operation takes
        return _error(request_id, "bad_param", str(exc))
    except Exception as exc:  # a bug must not end the service: report it and go on
        return _error(request_id, "internal", f"{type(exc).__name__}: {exc}")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def handle_text(text: "str | bytes") -> dict:
    """The response object for a request given as JSON text. Only JSON: Python's reader also
    takes NaN and Infinity, and reads 1e999 as infinity, none of which a response could echo
    as JSON; they are bad_json here, as is JSON nested past bounds.MAX_DEPTH (Python's reader
    would recurse past its limit)."""
    deep = too_deep(text)
    if deep:
        return _error(None, "bad_json", deep)
    try:
        request = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
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
           "bad_hand": 400, "bad_log": 400, "internal": 500}
PAGE = "/app/"  # where the player's page and its files live


@dataclass(frozen=True)
class HttpOptions:
    """What the HTTP transport accepts. max_body: the largest request body in bytes (a real
    request, a hand and 34 visible counts, is under 1 KiB). timeout: the seconds a connection
    has to send each whole request (its headers and body), idle time before it included; then
    it is closed, so a slow or stalled client does not hold a thread for ever.
    max_connections: the connections open at once (each has its thread: some 200 KB idle,
    about 1 MB answering advise); when full, the connection that has waited longest for its
    request is closed to make room.
    allowed_origins: the browser origins ("https://example.org") whose pages may call the
    service; "*" allows any. The page the service itself serves needs none."""

    max_body: int = 64 * 1024
    timeout: float = 10.0
    max_connections: int = 512
    allowed_origins: tuple = ()


def wants_html(accept: "str | None") -> bool:
    """Whether an Accept header asks for a page: it names text/html, and ranks it at least as
    high as JSON. Programs send no Accept, */* or application/json; browsers put text/html first."""
    ranks = {}
    for item in (accept or "").split(","):
        kind, *params = (part.strip() for part in item.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        ranks[kind.lower()] = quality
    html = ranks.get("text/html", 0.0)
    return html > 0 and html >= ranks.get("application/json", 0.0)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a bot reuses one connection
    # headers and body leave in two writes: without TCP_NODELAY the second waits for the
    # client's delayed ACK, some 40 ms per request
    disable_nagle_algorithm = True
    _cors: dict = {}  # CORS headers of the answer, set by _origin_allowed
    server: "_Server"

    def setup(self) -> None:
        self.options: HttpOptions = self.server.options
        self.timeout = self.options.timeout  # type: ignore[misc]  # StreamRequestHandler puts it on the socket
        self.requests_read = 0
        super().setup()

    def handle_one_request(self) -> None:
        # the next request, headers and body, must be in before the timeout (_Connections); the
        # first one's deadline runs from the connection's admission, not from when this thread
        # started (later under load), so the longest waiting is the first admitted
        if self.requests_read:
            self.server.connections.wait(self.connection, time.monotonic() + self.options.timeout)
        self.requests_read += 1
        super().handle_one_request()

    def _working(self) -> None:
        """The request is in: no deadline while it is answered."""
        self.server.connections.work(self.connection)

    def _send_bytes(self, status: int, body: bytes, content_type: str, headers: "dict | None" = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        headers = {**self._cors, **(headers or {})}
        if "Vary" in self._cors and headers["Vary"] != "Origin":  # both negotiated: name both
            headers["Vary"] = "Origin, " + headers["Vary"]
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _send(self, status: int, response: dict) -> None:
        self._send_bytes(status, _dump(response).encode(), "application/json; charset=utf-8")

    def _refuse(self, status: int, code: str, message: str) -> None:
        """An error before the body is read: the connection cannot be reused after it."""
        self.close_connection = True
        self._send_bytes(status, _dump(_error(None, code, message)).encode(), "application/json; charset=utf-8",
                         {"Connection": "close"})

    def _origin_allowed(self) -> bool:
        """Whether the request may go on, and self._cors: the CORS headers its answer carries.

        No Origin header (programs, and a browser's own same-origin loads) and the service's
        own origin need nothing; an allowed origin is named back; any other is refused."""
        self._cors = {}
        origin = self.headers.get("Origin")
        if origin is None or origin == f"http://{self.headers.get('Host', '')}":
            return True
        allowed = self.options.allowed_origins
        if origin in allowed or "*" in allowed:
            self._cors = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
            return True
        self._refuse(403, "forbidden_origin", f"pages from {origin} may not call this service "
                                              f"(it allows {', '.join(allowed) or 'no other origin'})")
        return False

    def do_POST(self) -> None:
        if not self._origin_allowed():
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            length = -1
        if length < 0:
            self._refuse(411, "bad_request", "a request needs a Content-Length")
            return
        if length > self.options.max_body:
            self._refuse(413, "too_large", f"the body has {length} bytes; this service takes at most "
                                           f"{self.options.max_body}")
            return
        body = self.rfile.read(length)
        if len(body) < length:  # the client went away, or was closed at its deadline
            self.close_connection = True
            return
        self._working()
        response = handle_text(body)
        error = response.get("error")
        self._send(_STATUS.get(error["code"], 400) if error else 200, response)

    def do_OPTIONS(self) -> None:
        """A browser's preflight before a cross-origin POST: allowed origins get a yes."""
        self._working()
        if self._origin_allowed():
            self._send_bytes(204, b"", "text/plain", {"Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                                                      "Access-Control-Allow-Headers": "Content-Type",
                                                      "Access-Control-Max-Age": "600"})

    def do_GET(self) -> None:
        self._working()
        if not self._origin_allowed():
            return
        target = urlsplit(self.path)
        if target.path + "/" == PAGE or (target.path == "/" and wants_html(self.headers.get("Accept"))):
            query = f"?{target.query}" if target.query else ""
            self._send_bytes(303, b"", "text/plain", {"Location": PAGE + query, "Vary": "Accept"})
        elif target.path.startswith(PAGE):
            self._send_asset(target.path[len(PAGE):])
        else:
            self._send_bytes(200, _dump(handle({"op": "version"})).encode(), "application/json; charset=utf-8",
                             {"Vary": "Accept"})

    def _send_asset(self, name: str) -> None:
        from ..web.assets import PAGE_HEADERS, asset

        found = asset(name or "index.html")
        if found is None:
            self._send_bytes(404, f"no such file: {PAGE}{name}\n".encode(), "text/plain; charset=utf-8")
        else:
            body, content_type = found
            self._send_bytes(200, body, content_type, PAGE_HEADERS)

    def log_message(self, format, *args) -> None:
        pass  # a request log line per request would cost more than the request


class _Connections:
    """The open connections and, for each, when its request must be in (while it waits for a
    request or sends one), or None while its request is answered. At most `limit`: when full,
    the connection that has waited longest is closed to make room for a new one."""

    def __init__(self, limit: int):
        self.limit = limit
        self.deadlines: dict = {}  # socket -> monotonic deadline, or None while answered
        self.lock = threading.Lock()

    def admit(self, sock, deadline: float) -> bool:
        """Count a new connection in; False when every open one is being answered (no room)."""
        with self.lock:
            if len(self.deadlines) >= self.limit:
                waiting = [(d, s) for s, d in self.deadlines.items() if d is not None]
                if not waiting:
                    return False
                self._close(min(waiting, key=lambda item: item[0])[1])
            self.deadlines[sock] = deadline
            return True

    def wait(self, sock, deadline: float) -> None:
        with self.lock:
            if sock in self.deadlines:
                self.deadlines[sock] = deadline

    def work(self, sock) -> None:
        with self.lock:
            if sock in self.deadlines:
                self.deadlines[sock] = None

    def drop(self, sock) -> None:
        with self.lock:
            self.deadlines.pop(sock, None)

    def expire(self, now: float) -> None:
        """Close the connections past their deadline: their threads' reads end at once."""
        with self.lock:
            for sock in [s for s, d in self.deadlines.items() if d is not None and d < now]:
                self._close(sock)

    def _close(self, sock) -> None:
        del self.deadlines[sock]
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # closed already


class _Refused:
    """Connections answered 503 busy, closed once their client has had time to send its request
    and read the answer: closed at once, with the request unread, a connection is reset, and a
    client still sending sees a broken pipe instead of the answer. The serving thread drains
    them without blocking (service_actions); at most LIMIT wait, each at most LINGER seconds."""

    LIMIT = 256
    LINGER = 2.0

    def __init__(self):
        self.waiting: list = []  # (socket, deadline)

    def add(self, sock, now: float) -> bool:
        """Keep `sock` (its answer sent, its sending side shut) until its client is done; False
        when too many wait already (the caller closes it at once)."""
        if len(self.waiting) >= self.LIMIT:
            return False
        sock.setblocking(False)
        self.waiting.append((sock, now + self.LINGER))
        return True

    def drain(self, now: float) -> list:
        """The sockets to close now: their client closed, or their time is up (the others'
        input is read and dropped)."""
        done, still = [], []
        for sock, deadline in self.waiting:
            if deadline < now or _drained(sock):
                done.append(sock)
            else:
                still.append((sock, deadline))
        self.waiting = still
        return done


def _drained(sock) -> bool:
    """Read and drop what `sock` (non-blocking) has received; True once its client closed."""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # connections waiting to be accepted: socketserver's 5 resets clients that open many at once
    request_queue_size = 128

    def __init__(self, address, options: HttpOptions):
        # set before binding: a failed bind (a busy port) calls server_close, which drains these
        self.options = options
        self.connections = _Connections(options.max_connections)
        self.refused = _Refused()
        super().__init__(address, _Handler)

    def process_request(self, request, client_address) -> None:
        if self.connections.admit(request, time.monotonic() + self.options.timeout):
            super().process_request(request, client_address)  # its own thread
            return
        body = _dump(_error(None, "busy", f"all {self.options.max_connections} connections are being answered; "
                                          "try again")).encode()
        head = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n").encode()
        try:
            request.settimeout(1.0)
            request.sendall(head + body)
            request.shutdown(socket.SHUT_WR)
        except OSError:
            self.shutdown_request(request)
            return
        if not self.refused.add(request, time.monotonic()):
            self.shutdown_request(request)

    def shutdown_request(self, request) -> None:
        self.connections.drop(request)
        super().shutdown_request(request)

    def service_actions(self) -> None:
        # the serving loop comes here between connections, and every half second when idle
        now = time.monotonic()
        self.connections.expire(now)
        for sock in self.refused.drain(now):
            self.close_request(sock)

    def server_close(self) -> None:
        for sock in self.refused.drain(float("inf")):
            self.close_request(sock)
        super().server_close()

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], OSError):
            return  # the client went away, stopped reading, or was closed at its deadline: nothing to report
        super().handle_error(request, client_address)


def make_http_server(host: str = "127.0.0.1", port: int = 0,
                     options: HttpOptions = HttpOptions()) -> ThreadingHTTPServer:
    return _Server((host, port), options)


def server_url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    host = host.decode() if isinstance(host, bytes) else host
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


LOOPBACK = ("127.0.0.1", "::1", "localhost")


def serve_http(host: str, port: int, options: HttpOptions = HttpOptions(), announce=None) -> int:
    """Serve HTTP until interrupted. announce(url) says where, on stderr by default ("mjfast
    serve: listening on http://127.0.0.1:PORT"; port 0 picks a free port)."""
    server = make_http_server(host, port, options)
    url = server_url(server)
    if announce is None:
        print(f"mjfast serve: listening on {url}", file=sys.stderr, flush=True)
    else:
        announce(url)
    if host not in LOOPBACK and not host.startswith("127."):
        print(f"mjfast: {host} is not the loopback: other machines that reach this one can use the service",
              file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
