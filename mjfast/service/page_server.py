"""`mjfast web`: the HTTP service with the page, on the loopback unless told otherwise.

It says where the page is on stderr, opens a browser tab only when asked, and loads the
kernels of the page's requests in the background while the person types a hand (from
numba's cache: about a second; compiled on a fresh install: minutes, once).
"""

from __future__ import annotations

import sys
import threading

from . import server


def _load_kernels() -> None:
    from .ops import op_advise, op_score

    op_advise({"hand": "123m456p789s1357sE"})
    op_score({"hand": "123m456p789s123sEE"})


def run(host: str, port: int, options: server.HttpOptions, open_browser: bool = False) -> int:
    def ready(url: str) -> None:
        page = url + server.PAGE
        print(f"mjfast web: the page is at {page}", file=sys.stderr, flush=True)
        threading.Thread(target=_load_kernels, daemon=True).start()
        if open_browser:
            import webbrowser

            webbrowser.open(page)

    return server.serve_http(host, port, options, announce=ready)
