"""The page's files: the tile images are what mjfast/web/draw_tiles.py draws, every file the
page loads exists and is served, and the package ships them all (pyproject.toml's package
data)."""

from __future__ import annotations

import re
from fnmatch import fnmatch

import tomllib

from mjfast.web import assets, draw_tiles

from ..data import ROOT

STATIC = ROOT / "mjfast" / "web" / "static"


def test_the_tile_images_are_the_drawings_of_draw_tiles():
    drawn = draw_tiles.drawings()
    assert sorted(p.name for p in (STATIC / "tiles").iterdir()) == sorted(drawn)
    for name, text in drawn.items():
        drawn_now = (STATIC / "tiles" / name).read_text(encoding="utf-8")
        assert drawn_now == text, f"run python -m mjfast.web.draw_tiles ({name})"


def test_every_file_the_page_names_is_served():
    names = set()
    for path in STATIC.glob("*"):
        if path.suffix in (".html", ".js"):
            text = path.read_text(encoding="utf-8")
            names |= set(re.findall(r'(?:src|href)="([\w./-]+\.(?:js|css|svg))"', text))
            names |= set(re.findall(r'from "\./([\w.-]+\.js)"', text))
    assert {"main.js", "style.css", "tiles/C.svg"} <= names
    for name in names:
        assert assets.asset(name) is not None, name
    assert assets.asset("index.html")[1] == "text/html; charset=utf-8"


def test_the_package_ships_every_static_file():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "mjfast.web" in config["tool"]["setuptools"]["packages"]
    globs = config["tool"]["setuptools"]["package-data"]["mjfast.web"]
    for path in STATIC.rglob("*"):
        if path.is_file():
            relative = path.relative_to(STATIC.parent).as_posix()
            assert any(fnmatch(relative, g) for g in globs), relative
