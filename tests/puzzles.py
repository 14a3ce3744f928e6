"""The 927 expert best-discard puzzles of ChineseOfficialMahjongHelper as mjfast hands.

Each line of summerinsects_discard_puzzles.txt is `Q|A|M|shanten` (tests/data/vectors/
README.md): three abstract suits of question tiles, the accepted discards per suit, the
chows the app may show as melds, and whether the hand is ready (0) or one step away (1).
The app maps the abstract suits to a random permutation of m/p/s; fans do not depend on
which suit is which (绿一色 aside, which these hands never reach), so suits 1/2/3 become
m/p/s here. Hands are filled to 14 tiles as the app's generator does, with neutral tiles:

* 12 tiles: a pair far from the tiles — 白 (P) when ready (the generator uses an honour
  for a concealed ready hand), else the terminal (1 or 9 of a suit) farthest from every
  held tile of its suit;
* 11 tiles: an exposed 中 pung (a dragon pung meld);
* 9 tiles: the 中 pung and a pair as for 12 tiles;
* the chows the app may show as melds (field M, given by their middle tile) are shown as
  chow melds, as the app displays them, when the question holds their tiles (at most three;
  a pair for a melded ready hand is then a terminal pair, not 白).

`concealed=True` keeps those chows in the hand instead (see the closing figures).
"""

from __future__ import annotations

from dataclasses import dataclass

from .data import VECTORS

SUITS = "mps"


@dataclass(frozen=True)
class Puzzle:
    line: int
    hand: str  # compact notation, 14 tiles counting the meld
    accepted: frozenset[str]  # tile names
    ready: bool


def _suit_tiles(field: str, suit: str) -> list[str]:
    return [] if field == "0" else [f"{d}{suit}" for d in field]


def _far_terminal_pair(held: list[str]) -> str:
    """The terminal (for a pair) of a suit farthest from that suit's held tiles (an empty suit
    is farthest; ties go to bamboo, then to 9)."""
    best = None
    for suit in SUITS:
        ranks = [int(t[0]) for t in held if t[1] == suit]
        for rank in (9, 1):
            distance = min((abs(rank - r) for r in ranks), default=10)
            if f"{rank}{suit}" in held:
                continue
            key = (distance, suit == "s", rank)
            if best is None or key > best[0]:
                best = (key, f"{rank}{suit}")
    return best[1]


def _shown_chows(field_melds: str, tiles: list[str]) -> list[str]:
    """Take the chows of field M (middle tiles per suit) out of `tiles` as meld strings."""
    melds = []
    for field, suit in zip(field_melds.split(","), SUITS):
        for middle in _suit_tiles(field, suit):
            rank = int(middle[0])
            chow = [f"{rank - 1}{suit}", middle, f"{rank + 1}{suit}"]
            if len(melds) < 3 and all(tiles.count(c) >= 1 for c in chow):
                for c in chow:
                    tiles.remove(c)
                melds.append(f"[{rank - 1}{rank}{rank + 1}{suit}1]")
    return melds


def load_puzzles(concealed: bool = False) -> list[Puzzle]:
    puzzles = []
    with open(VECTORS / "summerinsects_discard_puzzles.txt", encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            question, answers, shown, shanten = line.split("|")
            tiles = [t for field, suit in zip(question.split(","), SUITS) for t in _suit_tiles(field, suit)]
            accepted = frozenset(t for field, suit in zip(answers.split(","), SUITS) for t in _suit_tiles(field, suit))
            ready = shanten == "0"
            n_question = len(tiles)
            melds = [] if concealed else _shown_chows(shown, tiles)
            if n_question in (9, 11):
                melds.append("[CCC1]")
            if n_question in (9, 12):
                tiles += ["P", "P"] if ready and not melds else [_far_terminal_pair(tiles)] * 2
            puzzles.append(Puzzle(number, "".join(melds) + "".join(tiles), accepted, ready))
    return puzzles


def agreement(puzzles, choose) -> tuple[dict, list]:
    """How many puzzles `choose(hand) -> tile name` answers as the experts do, by kind, and
    the puzzles that disagree (puzzle, our choice)."""
    tally = {"ready": [0, 0], "one_step": [0, 0]}
    wrong = []
    for p in puzzles:
        kind = "ready" if p.ready else "one_step"
        choice = choose(p.hand)
        tally[kind][1] += 1
        if choice in p.accepted:
            tally[kind][0] += 1
        else:
            wrong.append((p, choice))
    return tally, wrong


