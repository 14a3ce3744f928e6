"""The service commands: mjfast serve (JSON lines or HTTP) and mjfast web (the page)."""

from __future__ import annotations

from .options import CommandError


def http_options(args):
    from ..service.server import HttpOptions

    if args.max_body < 0 or args.timeout <= 0 or args.max_connections < 1:
        raise CommandError("--max-body takes a number of bytes >= 0, --timeout a number of seconds > 0 and "
                           "--max-connections a number >= 1")
    return HttpOptions(max_body=args.max_body, timeout=args.timeout, max_connections=args.max_connections,
                       allowed_origins=tuple(args.allow_origin))


def serve(args) -> int:
    from ..service import server

    if args.http is None:
        return server.serve_lines()
    host, _, port = args.http.rpartition(":")
    if not port.isdigit() or int(port) > 65535:
        raise CommandError(f"--http takes HOST:PORT or PORT (port 0-65535), got {args.http!r}")
    host = host.strip("[]") or "127.0.0.1"
    return listening(lambda: server.serve_http(host, int(port), http_options(args)), host, int(port))


def web(args) -> int:
    from ..service.page_server import run

    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port takes 0-65535, got {args.port}")
    return listening(lambda: run(args.host, args.port, http_options(args), open_browser=args.open), args.host,
                     args.port)


def listening(serve, host: str, port: int) -> int:
    """serve(), with a busy port said in words, naming the address as a URL would."""
    import errno

    try:
        return serve()
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            raise CommandError(f"{where} is in use: pick another port (0 picks any free port)") from None
        raise
