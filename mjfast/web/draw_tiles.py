"""Draws the page's tile images, static/tiles/NAME.svg (NAME: 1m-9m 1p-9p 1s-9s E S W N C F P,
and back): `python -m mjfast.web.draw_tiles`. tests/web/test_web_assets.py checks that the
committed files are what this draws.

Every face is shapes, so it reads with no font on the machine: dots and bamboo drawn here,
the Chinese of characters and honours as the outlines make_font.py took from Noto Serif CJK
(tile_glyphs.py).
"""

from __future__ import annotations

from pathlib import Path

from .tile_glyphs import GLYPHS

WIDTH, HEIGHT = 60, 80
FACE_BOTTOM = 75  # below it, the tile's green back shows as its thickness
INK, RED, GREEN, BLUE = "#1b1b1b", "#c0392b", "#1e7b45", "#1f4e8c"
NUMERALS = "一二三四五六七八九"
HONOURS = {"E": ("東", INK), "S": ("南", INK), "W": ("西", INK), "N": ("北", INK), "C": ("中", RED), "F": ("發", GREEN)}

# Dot centres and colours for 1-9 dots, (x, y, colour); every dot of a tile has one radius.
DOTS = {
    2: (12, [(30, 20, GREEN), (30, 56, BLUE)]),
    3: (10, [(15, 16, BLUE), (30, 38, RED), (45, 60, GREEN)]),
    4: (11, [(18, 20, BLUE), (42, 20, GREEN), (18, 56, GREEN), (42, 56, BLUE)]),
    5: (9.5, [(17, 17, BLUE), (43, 17, GREEN), (30, 38, RED), (17, 59, GREEN), (43, 59, BLUE)]),
    6: (9, [(18, 14, GREEN), (42, 14, GREEN), (18, 38, RED), (42, 38, RED), (18, 61, RED), (42, 61, RED)]),
    7: (7.5, [(13, 11, GREEN), (30, 19, GREEN), (47, 27, GREEN), (18, 46, RED), (42, 46, RED), (18, 64, RED),
              (42, 64, RED)]),
    8: (7.8, [(18, y, BLUE) for y in (11, 28, 45, 62)] + [(42, y, BLUE) for y in (11, 28, 45, 62)]),
    9: (7.8, [(x, y, colour) for y, colour in ((14, BLUE), (38, RED), (61, GREEN)) for x in (13, 30, 47)]),
}
# Bamboo sticks for 2-9 bamboo: (rows, [(x, row, colour)]); 1 bamboo is drawn on its own.
STICKS: "dict[int, tuple[int, list]]" = {
    2: (2, [(30, 0, GREEN), (30, 1, GREEN)]),
    3: (2, [(30, 0, GREEN), (18, 1, GREEN), (42, 1, GREEN)]),
    4: (2, [(20, 0, GREEN), (40, 0, BLUE), (20, 1, BLUE), (40, 1, GREEN)]),
    5: (2, [(14, 0, GREEN), (46, 0, BLUE), (30, 0.5, RED), (14, 1, BLUE), (46, 1, GREEN)]),
    6: (2, [(x, r, GREEN if r == 0 else BLUE) for r in (0, 1) for x in (15, 30, 45)]),
    7: (3, [(30, 0, RED)] + [(x, r, GREEN) for r in (1, 2) for x in (15, 30, 45)]),
    8: (2, [(x, r, GREEN if x in (12, 48) else BLUE) for r in (0, 1) for x in (12, 24, 36, 48)]),
    9: (3, [(x, r, RED if x == 30 else GREEN if r != 1 else BLUE) for r in (0, 1, 2) for x in (15, 30, 45)]),
}


def _tile(title: str, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
            f'height="{HEIGHT}" role="img"><title>{title}</title>'
            f'<rect x="0.5" y="0.5" width="59" height="79" rx="8" fill="#2f7d5b" stroke="#1d5a40"/>'
            f'<rect x="1.5" y="1" width="57" height="{FACE_BOTTOM - 1}" rx="7" fill="#fbf7ec" stroke="#cfc6b0"/>'
            f'{body}</svg>\n')


def _glyph(char: str, x: float, y: float, size: float, colour: str) -> str:
    """`char` `size` units to the em, its outline's box centred on (x, y)."""
    (left, bottom, right, top), path = GLYPHS[char]
    scale = size / 1000
    dx, dy = x - scale * (left + right) / 2, y + scale * (bottom + top) / 2
    return f'<path transform="translate({dx:.2f} {dy:.2f}) scale({scale:g} {-scale:g})" fill="{colour}" d="{path}"/>'


def _dot(x: float, y: float, r: float, colour: str) -> str:
    return (f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.62:.2f}" fill="none" stroke="#fbf7ec" stroke-width="{r * 0.18:.2f}"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.22:.2f}" fill="#fbf7ec"/>')


def _stick(x: float, top: float, height: float, colour: str, width: float = 7) -> str:
    left = x - width / 2
    nodes = "".join(f'<rect x="{left - 0.8}" y="{top + height * f - 1:.2f}" width="{width + 1.6}" height="2" '
                    f'rx="1" fill="{colour}"/>' for f in (0.0, 0.5, 1.0))
    return (f'<rect x="{left}" y="{top}" width="{width}" height="{height}" rx="{width / 2}" fill="{colour}"/>'
            f'<line x1="{x}" y1="{top + 3}" x2="{x}" y2="{top + height - 3:.2f}" stroke="#fbf7ec" stroke-width="1.2"/>'
            f'{nodes}')


def characters(n: int) -> str:
    return _tile(f"{n}m", _glyph(NUMERALS[n - 1], 30, 24, 27, INK) + _glyph("萬", 30, 55, 31, RED))


def dots(n: int) -> str:
    if n == 1:
        body = (_dot(30, 38, 22, GREEN) + f'<circle cx="30" cy="38" r="9" fill="{RED}"/>'
                + '<circle cx="30" cy="38" r="3.5" fill="#fbf7ec"/>')
    else:
        r, where = DOTS[n]
        body = "".join(_dot(x, y, r, colour) for x, y, colour in where)
    return _tile(f"{n}p", body)


def bamboo(n: int) -> str:
    if n == 1:  # one tall stick, red-ringed, so that it stands apart from 2 bamboo
        body = _stick(30, 8, 60, GREEN, 12) + f'<circle cx="30" cy="38" r="7" fill="{RED}"/>'
    else:
        rows, where = STICKS[n]
        height = 30 if rows == 2 else 19.5
        gap = (FACE_BOTTOM - 8 - rows * height) / (rows - 1)
        width = 6 if n == 8 else 7
        body = "".join(_stick(x, 5 + r * (height + gap), height, colour, width) for x, r, colour in where)
    return _tile(f"{n}s", body)


def honour(letter: str) -> str:
    if letter == "P":  # white dragon: a blue frame, as on most sets
        body = f'<rect x="13" y="14" width="34" height="48" rx="3" fill="none" stroke="{BLUE}" stroke-width="4"/>'
    else:
        glyph, colour = HONOURS[letter]
        body = _glyph(glyph, 30, 38, 40, colour)
    return _tile(letter, body)


def back() -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
            f'height="{HEIGHT}" role="img"><title>back</title>'
            f'<rect x="0.5" y="0.5" width="59" height="79" rx="8" fill="#2f7d5b" stroke="#1d5a40"/>'
            f'<rect x="6" y="6" width="48" height="64" rx="5" fill="none" stroke="#5fae88" stroke-width="2"/></svg>\n')


def drawings() -> dict[str, str]:
    """Every tile's SVG text by file name."""
    tiles = {}
    for n in range(1, 10):
        tiles[f"{n}m.svg"], tiles[f"{n}p.svg"], tiles[f"{n}s.svg"] = characters(n), dots(n), bamboo(n)
    for letter in "ESWNCFP":
        tiles[f"{letter}.svg"] = honour(letter)
    tiles["back.svg"] = back()
    return tiles


def main() -> None:
    folder = Path(__file__).parent / "static" / "tiles"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in drawings().items():
        (folder / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(drawings())} tiles to {folder}")


if __name__ == "__main__":
    main()
