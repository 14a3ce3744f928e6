"""The page's files: the tile images are what mjfast/web/draw_tiles.py draws and need no font,
the page's own font holds every Chinese character the page can show (mjfast/web/make_font.py),
every file the page loads exists and is served, and the package ships them all (pyproject.toml's
package data)."""

from __future__ import annotations

import re
import unicodedata
from fnmatch import fnmatch

import tomllib
from fontTools.ttLib import TTFont

from mjfast.fan import names as fan_names
from mjfast.fan.names import FanInfo
from mjfast.web import assets, draw_tiles, make_font
from mjfast.web.tile_glyphs import GLYPHS

from ..data import ROOT

STATIC = ROOT / "mjfast" / "web" / "static"


def test_the_tile_images_are_the_drawings_of_draw_tiles():
    drawn = draw_tiles.drawings()
    assert sorted(p.name for p in (STATIC / "tiles").iterdir()) == sorted(drawn)
    for name, text in drawn.items():
        drawn_now = (STATIC / "tiles" / name).read_text(encoding="utf-8")
        assert drawn_now == text, f"run python -m mjfast.web.draw_tiles ({name})"


def test_every_tile_face_is_shapes_that_need_no_font():
    for name, text in draw_tiles.drawings().items():
        assert "<text" not in text and "font" not in text, name  # nothing left to a font
    assert set(GLYPHS) == set(make_font.TILE_CHARACTERS)
    drawn = draw_tiles.drawings()
    for n, numeral in enumerate(draw_tiles.NUMERALS, 1):
        assert GLYPHS[numeral][1] in drawn[f"{n}m.svg"] and GLYPHS["萬"][1] in drawn[f"{n}m.svg"]
    for letter, (char, _) in draw_tiles.HONOURS.items():
        assert GLYPHS[char][1] in drawn[f"{letter}.svg"]


def _font_characters() -> set[str]:
    return {chr(c) for c in TTFont(str(make_font.FONT)).getBestCmap()}


def test_the_page_font_holds_every_chinese_character_the_page_can_show():
    shown = make_font.page_characters()
    # the collection finds the page's labels and the fan names the service sends
    assert set("牌理算番器中文") <= shown and set("花龙喜相逢单钓将明暗杠") <= shown
    assert _font_characters() == shown, "run python -m mjfast.web.make_font (its docstring says with what)"
    font = TTFont(str(make_font.FONT))
    assert "Adobe" in font["name"].getDebugName(0) and "Open Font License" in font["name"].getDebugName(13)
    assert "SIL OPEN FONT LICENSE Version 1.1" in (make_font.FONT.parent / "OFL.txt").read_text(encoding="utf-8")


def test_a_new_fan_name_is_a_character_the_font_must_hold(monkeypatch):
    assert "鬼" not in make_font.page_characters()
    monkeypatch.setattr(fan_names, "FANS", (*fan_names.FANS, FanInfo(82, "鬼手", "Ghost Hand", 8)))
    assert "鬼" in make_font.page_characters() and "鬼" not in _font_characters()


def test_every_wide_character_the_page_shows_is_one_the_page_font_is_loaded_for():
    """A character outside make_font.CJK_RANGES would not come from the page's font: where it
    needs a CJK font, the page would show a box."""
    texts = [p.read_text(encoding="utf-8") for p in STATIC.iterdir() if p.suffix in (".html", ".js", ".css")]
    texts += [fan.name_cn for fan in fan_names.FANS] + [make_font.REVIEW_PAGE.read_text(encoding="utf-8")]
    wide = {c for text in texts for c in text if unicodedata.east_asian_width(c) in "WF"}
    assert wide and wide <= make_font.page_characters()
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    declared = re.search(r"@font-face \{[^}]*unicode-range: ([^;]+);", css).group(1)
    assert declared == ", ".join(f"U+{lo:04X}-{hi:04X}" for lo, hi in make_font.CJK_RANGES)
    assert 'src: url("fonts/page-cjk.woff")' in css


def test_every_file_the_page_names_is_served():
    names = set()
    for path in STATIC.glob("*"):
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            names |= set(re.findall(r'(?:src|href)="([\w./-]+\.(?:js|css|svg))"', text))
            names |= set(re.findall(r'from "\./([\w.-]+\.js)"', text))
            names |= set(re.findall(r'url\("([\w./-]+)"\)', text))
    assert {"main.js", "style.css", "tiles/C.svg", "fonts/page-cjk.woff"} <= names
    for name in names:
        assert assets.asset(name) is not None, name
    assert assets.asset("index.html")[1] == "text/html; charset=utf-8"
    assert assets.asset("fonts/page-cjk.woff")[1] == "font/woff"


def test_the_package_ships_every_static_file():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "mjfast.web" in config["tool"]["setuptools"]["packages"]
    globs = config["tool"]["setuptools"]["package-data"]["mjfast.web"]
    for path in STATIC.rglob("*"):
        if path.is_file():
            relative = path.relative_to(STATIC.parent).as_posix()
            assert any(fnmatch(relative, g) for g in globs), relative
