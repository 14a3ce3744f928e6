"""How the commands write to a terminal: colours when wanted, tile names or glyphs, column
widths, and the lines of the hand commands (a discard option, a wait, the value figures)."""

from __future__ import annotations

import os
import sys

FORM_LABELS = {"regular": "regular", "seven_pairs": "seven pairs", "thirteen_orphans": "thirteen orphans",
               "honors_knitted": "honours and knitted", "knitted_straight": "knitted straight"}


RANKED_BY = {"expected-score": "expected score", "win-probability": "win probability"}


class Style:
    """ANSI colours when wanted, nothing otherwise; tile names or Unicode glyphs."""

    CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}
    # U+1F000.. : winds E S W N, dragons 中 发 白, then 1-9 characters, bamboo, dots
    GLYPH_START = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
    HONOR_GLYPHS = {letter: chr(0x1F000 + i) for i, letter in enumerate("ESWNCFP")}

    def __init__(self, colour: bool, glyphs: bool):
        self.colour, self.glyphs = colour, glyphs

    def __call__(self, text: str, *styles: str) -> str:
        if not self.colour or not styles:
            return text
        return f"\033[{';'.join(self.CODES[s] for s in styles)}m{text}\033[0m"

    def tile(self, name: str) -> str:
        if not self.glyphs:
            return name
        if name in self.HONOR_GLYPHS:
            return self.HONOR_GLYPHS[name] + " "  # a space: glyph widths differ between terminals
        return chr(self.GLYPH_START[name[1]] + int(name[0]) - 1) + " "

    def tiles(self, names) -> str:
        return ("" if self.glyphs else " ").join(self.tile(n) for n in names)


def wants_colour(args) -> bool:
    """--color and --no-color first, then NO_COLOR (https://no-color.org), then the terminal."""
    if args.color or args.no_color:
        return args.color and not args.no_color
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def style_of(args) -> Style:
    return Style(wants_colour(args), args.unicode)


def columns(text: str) -> int:
    """Columns `text` takes in a terminal (CJK characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - columns(text))


def hand_tiles(hand) -> list:
    """Tile names of a hand for glyph display: melds in brackets, then standing tiles."""
    from ..tiles import TILE_NAMES

    names = []
    for m in hand.melds:
        names += ["["] + [TILE_NAMES[t] for t in m.tiles] + ["]"]
    names += [TILE_NAMES[t] for t in range(34) for _ in range(int(hand.counts[t]))]
    return names


def shanten_words(shanten: int) -> str:
    return {-1: "a win", 0: "ready"}.get(shanten, f"{shanten}-shanten")


def value_text(option: dict, style: Style) -> str:
    """An option's value figures and shanten."""
    win = style(f"{100 * option['win_probability']:5.1f}%", "green" if option["win_probability"] else "red")
    text = f"{win} {option['expected_score']:6.2f}  {shanten_words(option['shanten']):9s}"
    if "deal_in" in option:
        danger = f" {100 * option['deal_in']:4.1f}% -{option['deal_in_cost']:.2f}"
        text += style(danger, "red" if option["deal_in"] >= 0.05 else "dim")
    return text


def option_line(option: dict, style: Style, value: str = "") -> str:
    """One discard: tile, its value figures if given, acceptance (copies, kinds), how much of it
    can reach 8 fans, then the waits with their fans (ready) or next-step acceptance and the
    useful tiles."""
    tile = style(pad(style.tile(option["tile"]), 3), "bold", "cyan") + (f" {value}" if value else "")
    kinds = option["useful_kinds"]
    figures = f"{option['acceptance']:3d} tiles {kinds:2d} kind{'s' if kinds != 1 else ' '}"
    if "valid_acceptance" in option:
        valid = option["valid_acceptance"]
        figures += "  " + style(f"{valid:3d} reach 8 fans", "green" if valid else "red")
    if option["shanten"] == 0:
        waits = [wait_text(w, style) for w in option.get("waits", ())] or [style.tile(t) for t in option["useful"]]
        return f"  {tile} {figures}   waits {', '.join(waits)}"
    # next acceptance is worked out only where it ranks (0.0 elsewhere): leave those blank
    following = f"next {option['next_acceptance']:6.2f}" if option["next_acceptance"] else " " * 11
    return f"  {tile} {figures}   {style(following, 'dim')}   {style.tiles(option['useful'])}"


def wait_text(wait: dict, style: Style) -> str:
    """A wait and its fans on a discard, then self-drawn: green when the discard win reaches 8."""
    ok = wait["fans"] >= 8
    fans = f"{wait['fans']} fans, {wait['fans_self_drawn']} self-drawn"
    return f"{style.tile(wait['tile'])} {style(fans, 'green' if ok else 'red')}"
