"""The page's own Chinese glyphs, cut from Noto CJK: `python -m mjfast.web.make_font FOLDER`.

A browser without a CJK font draws every Chinese character as an empty box, so the page brings
the glyphs it needs (Noto CJK, SIL Open Font License 1.1, static/fonts/OFL.txt). This writes

    static/fonts/page-cjk.woff  Noto Sans CJK SC Regular cut down to the characters the page can
                                show (page_characters()); style.css loads it for those
                                characters only (CJK_RANGES), Latin text keeps the system's font;
                                a review's page (mjfast/review/page.py) holds it inline
    tile_glyphs.py              the outlines of the characters on the tiles (TILE_CHARACTERS)
                                in Noto Serif CJK TC Bold, which draw_tiles.py draws as shapes

FOLDER holds NotoSansCJK-Regular.ttc and NotoSerifCJK-Bold.ttc, as Debian's fonts-noto-cjk
installs them in /usr/share/fonts/opentype/noto/; the package can also be unpacked without
installing it: `apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb DIR`, then
FOLDER is DIR/usr/share/fonts/opentype/noto. Run it after changing the page's or a review page's
Chinese text or a fan's name (tests/web/test_web_assets.py fails until then), then `python -m
mjfast.web.draw_tiles` when tile_glyphs.py changed.

Needs fontTools (`pip install fonttools`), which mjfast does not need to run: only this script
and the tests that read the font use it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
STATIC = HERE / "static"
FONT = STATIC / "fonts" / "page-cjk.woff"
TILE_GLYPHS = HERE / "tile_glyphs.py"
REVIEW_PAGE = HERE.parent / "review" / "page.py"  # read as text: it imports this module

# The blocks whose characters a Latin font lacks: CJK punctuation, ideographs (extension A, the
# main block, compatibility forms), full-width forms. style.css's unicode-range says the same.
CJK_RANGES = ((0x3000, 0x303F), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))
CJK = re.compile("[" + "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in CJK_RANGES) + "]")
# Characters and honours: the numerals and 萬 of the characters, the winds, red and green dragons.
TILE_CHARACTERS = "一二三四五六七八九萬東南西北中發"

SANS, SERIF = "NotoSansCJK-Regular.ttc", "NotoSerifCJK-Bold.ttc"
SANS_FACE, SERIF_FACE = "Noto Sans CJK SC", "Noto Serif CJK TC Bold"


def page_characters() -> set[str]:
    """Every CJK character the page can show: those written in its files (index.html, the
    scripts' English and Chinese text, style.css) and the fans' Chinese names, which the
    service sends; and those of a review's page, which writes a win's fan names and whatever
    its module (REVIEW_PAGE) writes."""
    from ..fan.names import FANS

    found = set()
    for path in [*STATIC.iterdir(), REVIEW_PAGE]:
        if path.suffix in (".html", ".js", ".css") or path == REVIEW_PAGE:
            found |= set(CJK.findall(path.read_text(encoding="utf-8")))
    for fan in FANS:
        found |= set(CJK.findall(fan.name_cn))
    return found


def _face(collection: Path, name: str):
    """The font called `name` (its full name) in a .ttc collection."""
    from fontTools.ttLib import TTCollection

    fonts = TTCollection(str(collection), recalcTimestamp=False).fonts
    for font in fonts:
        if font["name"].getDebugName(4) == name:
            return font
    raise SystemExit(f"{collection} has no face {name!r}: {[f['name'].getDebugName(4) for f in fonts]}")


def _missing(font, characters) -> list[str]:
    cmap = font.getBestCmap()
    return sorted(c for c in characters if ord(c) not in cmap)


def make_subset(folder: Path, characters: "set[str]") -> bytes:
    """The WOFF of Noto Sans CJK SC Regular holding `characters` only."""
    from io import BytesIO

    from fontTools import subset

    font = _face(folder / SANS, SANS_FACE)
    missing = _missing(font, characters)
    if missing:
        raise SystemExit(f"{SANS_FACE} lacks {''.join(missing)}")
    options = subset.Options()
    # No OpenType layout features: the page writes Simplified Chinese horizontally, and the
    # regional (locl) and vertical forms would pull in glyphs it never shows (twice the size).
    options.layout_features = []
    options.desubroutinize = True  # compresses better than the shared subroutines it replaces
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # its copyright and licence stay in the file
    options.flavor = "woff"
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(characters)))
    subsetter.subset(font)
    out = BytesIO()
    font.flavor = "woff"
    font.save(out)
    return out.getvalue()


def tile_outlines(folder: Path) -> "dict[str, tuple[tuple[int, int, int, int], str]]":
    """Each tile character's bounding box and SVG path, in font units (1000 an em, y up)."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.svgPathPen import SVGPathPen

    font = _face(folder / SERIF, SERIF_FACE)
    missing = _missing(font, TILE_CHARACTERS)
    if missing:
        raise SystemExit(f"{SERIF_FACE} lacks {''.join(missing)}")
    glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
    outlines = {}
    for char in TILE_CHARACTERS:
        glyph = glyphs[cmap[ord(char)]]
        bounds = BoundsPen(glyphs)
        glyph.draw(bounds)
        path = SVGPathPen(glyphs, ntos=lambda v: str(round(v)))
        glyph.draw(path)
        outlines[char] = (tuple(round(v) for v in bounds.bounds), path.getCommands())
    return outlines


def tile_glyphs_source(outlines: dict) -> str:
    lines = ['"""The characters on the tiles as outlines, from Noto Serif CJK TC Bold (Copyright 2014-2021',
             "Adobe; SIL Open Font License 1.1, static/fonts/OFL.txt): written by `python -m",
             "mjfast.web.make_font`, drawn by draw_tiles.py. GLYPHS[character] = (its bounding box, its SVG",
             'path), in font units: 1000 an em, y upwards."""', "", "GLYPHS = {"]
    for char, (box, path) in outlines.items():
        lines.append(f'    "{char}": ({box!r}, (')
        lines += [f'        "{path[i:i + 96]}"' for i in range(0, len(path), 96)]
        lines.append("    )),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: "list[str] | None" = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit(__doc__)
    folder = Path(args[0])
    characters = page_characters()
    FONT.parent.mkdir(exist_ok=True)
    FONT.write_bytes(make_subset(folder, characters))
    print(f"wrote {FONT}: {len(characters)} characters, {FONT.stat().st_size} bytes")
    TILE_GLYPHS.write_text(tile_glyphs_source(tile_outlines(folder)), encoding="utf-8")
    print(f"wrote {TILE_GLYPHS}: {len(TILE_CHARACTERS)} characters (then: python -m mjfast.web.draw_tiles)")


if __name__ == "__main__":
    main()
