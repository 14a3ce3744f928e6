"""The page's files (mjfast/web/static/), read from the installed package once and served as
they are: name -> (bytes, Content-Type). Only files found there are served, so a path can
never reach outside the folder."""

from __future__ import annotations

import base64
import hashlib
from importlib.resources import files

from ..review.page import REVIEW_SCRIPT, REVIEW_STYLES, font_style

TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
         ".woff": "font/woff"}


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# The page loads its own files only and talks to its own origin: anything else is refused. A
# review's page, which the page opens from what the service sends (review.js), inherits this
# policy: its one inline script and its styles are allowed by their hashes, nothing else inline,
# and its font (font_style: the page's own, inline) as a data: URL.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; font-src 'self' data:; "
                               f"style-src 'self' {' '.join(_hash(s) for s in (*REVIEW_STYLES, font_style()))}; "
                               f"script-src 'self' {_hash(REVIEW_SCRIPT)}; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # an upgraded mjfast serves new files under the same names: always ask again
    "Cache-Control": "no-cache",
}
_files: "dict[str, tuple[bytes, str]] | None" = None


def _read(folder, prefix: str, found: dict) -> None:
    for item in folder.iterdir():
        name = prefix + item.name
        if item.is_dir():
            _read(item, name + "/", found)
        else:
            kind = TYPES.get(name[name.rfind("."):])
            if kind is not None:
                found[name] = (item.read_bytes(), kind)


def asset(name: str) -> "tuple[bytes, str] | None":
    """The body and type of static/`name` ("index.html", "tiles/5m.svg"), or None."""
    global _files
    if _files is None:
        found: dict = {}
        _read(files(__package__) / "static", "", found)
        _files = found
    return _files.get(name)
