"""The model of a logged game, whatever its format: GameLog, its Actions, what a log that
cannot be read yields (BrokenGame, LogError, LogRefused), and what the formats' readers share
(a log file opened plain or gzipped and read up to a bound, a tile token checked). The text
format is logformat.py, Botzone's JSON botzone_log.py, Tziakcha's records tziakcha_log.py;
reading.py reads any of them."""

from __future__ import annotations

import gzip
import io
import os
from dataclasses import dataclass, field, replace
from functools import partial
from typing import NamedTuple, TextIO

from ..bounds import MAX_LOG_SIZE, SIZE_FLAG, size_text
from ..errors import GameError
from ..fan.ruleset import JUDGE, Ruleset, ruleset_of
from .state import DUPLICATE
from .tokens import TOKEN_ID

ACTIONS = ("Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu", "BuHua", "Invalid")
CLAIMS = ("Chi", "Peng", "Gang", "Hu")
# The largest fan total or score (either way) a log may write: far above any game's, and what
# the tables of `mjfast logs` hold (a fan total is an int16 column).
MAX_FIGURE = 32767


class LogError(GameError):
    """A line of a log that cannot be read or replayed: match id, line number, reason."""

    def __init__(self, match_id: str, line: int, reason: str):
        super().__init__(f"match {match_id}, line {line}: {reason}")
        self.match_id = match_id
        self.line = line
        self.reason = reason


class LogRefused(LogError):
    """A log file refused, past a bound of what mjfast reads (its size once decompressed, a
    line's length): `file` names it, `reason` names the bound, `line` is the line refused (0
    for a bound of the whole file). The games read before it stand."""

    def __init__(self, file: str, reason: str, line: int = 0):
        GameError.__init__(self, f"{file}: {reason}")
        self.file = self.match_id = file
        self.line = line
        self.reason = reason


def too_large(file: str, max_size: int) -> LogRefused:
    """The refusal of a file that holds more than `max_size` bytes once decompressed."""
    return LogRefused(file, f"holds more than {size_text(max_size)} once decompressed: refused "
                            f"({SIZE_FLAG} raises the bound)")


class Action(NamedTuple):
    """One `Player` line after the deal. tile: the tile id (for Chi the chow's middle tile;
    None for Invalid); ignored: the claims that lost to this one, as (player, action, tile)."""

    player: int
    kind: str
    tile: "int | None"
    ignored: tuple = ()


class Response(NamedTuple):
    """One bot's answer in a bots' entry: the text, Botzone's verdict (OK, TLE, MLE, OLE,
    NJ, RE...) and the time it took in ms (None when the log does not say)."""

    text: str
    verdict: str
    time: "float | None"


@dataclass(frozen=True)
class JudgeRecord:
    """What a Botzone JSON log holds besides the game itself.

    deal_entry: the position of the DEAL entry; points: the judge's figures, (actions applied,
    entry, tileCnt or None, canHu or None) for every judge entry from the deal on, in order
    (actions applied: how many of the game's actions the entry's figures follow; 0 = right
    after the deal); responses: {position of a bots' entry: four Responses}."""

    deal_entry: int
    points: tuple
    responses: dict

    def response(self, entry: int, player: int) -> "Response | None":
        """`player`'s answer in the bots' entry at position `entry`, if there is one."""
        answers = self.responses.get(entry)
        return answers[player] if answers is not None else None

    def answer(self, line: int, player: int) -> "Response | None":
        """`player`'s answer that made the action at `line`: in the bots' entry before that
        judge's entry (an offending answer's own line is that bots' entry)."""
        return self.response(line if line % 2 else line - 1, player)


@dataclass(frozen=True)
class GameLog:
    """One game as the log writes it.

    deals: four tuples of tile ids (13 tiles, then any flowers shown at the deal); actions:
    the Player lines after the deal; fan_total and fans ((Chinese name, count), as written)
    from the Fan line, or None; drawn: a Huang line; scores: the Score line. `line` is the
    Match line's number in its file and `action_lines` those of the actions (not compared:
    the same game reads the same wherever it stands in a file). `judge`: for a game read from
    Botzone's JSON log, what only that log holds (JudgeRecord, above: the judge's
    figures at every step, the bots' answers); None for the other formats, and not compared
    either. `names`: the four players' names, as a Botzone JSON log or a Tziakcha record gives
    them ("" where the log names none; not compared). `ruleset`: the rules its win was scored
    under by the log's server (the judge's for Botzone's logs, Tziakcha's for Tziakcha's), which
    the replay re-scores it by."""

    match_id: str
    prevalent_wind: int
    deals: tuple
    actions: tuple
    fan_total: "int | None" = None
    fans: tuple = ()
    drawn: bool = False
    scores: "tuple | None" = None
    wall: str = DUPLICATE
    line: int = field(default=0, compare=False)
    action_lines: tuple = field(default=(), compare=False)
    judge: "JudgeRecord | None" = field(default=None, compare=False)
    names: tuple = field(default=("",) * 4, compare=False)
    ruleset: Ruleset = JUDGE

    def scored_under(self, ruleset) -> "GameLog":
        """The game with its wins scored under `ruleset` (a Ruleset or a preset's name) instead
        of its server's rules; the game itself for None."""
        return self if ruleset is None else replace(self, ruleset=ruleset_of(ruleset))


@dataclass(frozen=True)
class BrokenGame:
    """A game that could not be read or replayed: where and why."""

    match_id: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"match {self.match_id}, line {self.line}: {self.reason}"


class _Counted(io.RawIOBase):
    """The bytes of a binary stream (a file, a gzip stream's decompressed bytes), counted: once
    more than `left` have come, reading raises `refusal`. A gzip stream decompresses no more
    than each read asks, so a bomb is stopped a buffer past the bound."""

    def __init__(self, source, left: int, refusal):
        self.source, self.left, self.refusal = source, left, refusal

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self.source.readinto(buffer)
        self.left -= n
        if self.left < 0:
            raise self.refusal()
        return n

    def close(self) -> None:
        self.source.close()
        super().close()


def open_log(path, max_size: "int | None" = None, refusal=None) -> TextIO:
    """A log file opened as text, gzipped or plain (told by its first bytes, not its name),
    read up to `max_size` bytes once decompressed (open_log_bytes)."""
    return io.TextIOWrapper(open_log_bytes(path, max_size, refusal), encoding="utf-8")


def open_log_bytes(path, max_size: "int | None" = None, refusal=None) -> io.BufferedReader:
    """A log file's bytes, decompressed if it is gzipped (told by its first bytes), read up to
    `max_size` bytes (default MAX_LOG_SIZE): a plain file larger than that is refused at once,
    a gzip stream when it has given that much; either raises `refusal()` (default: LogRefused
    naming the file, the bound and SIZE_FLAG)."""
    path = os.fspath(path)
    max_size = MAX_LOG_SIZE if max_size is None else max_size
    refusal = refusal or partial(too_large, path, max_size)
    with open(path, "rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
        size = os.fstat(probe.fileno()).st_size
    if not gzipped and size > max_size:
        raise refusal()
    source = gzip.GzipFile(path) if gzipped else open(path, "rb", buffering=0)
    return io.BufferedReader(_Counted(source, max_size, refusal))


def check_figure(value: int, what: str, match_id: str, line: int) -> int:
    """A fan total or a score of a log, or LogError when it is out of MAX_FIGURE's range."""
    if not -MAX_FIGURE <= value <= MAX_FIGURE:
        raise LogError(match_id, line, f"{what} {value} is out of range (at most {MAX_FIGURE} either way)")
    return value


def read_tile(word: str, match_id: str, line: int) -> int:
    """The tile id of a Botzone token (any case), or LogError naming the match and line."""
    tile = TOKEN_ID.get(word)
    if tile is None:
        tile = TOKEN_ID.get(word.upper())  # tokens in any case, the common case first
        if tile is None:
            raise LogError(match_id, line, f"{word!r} is not a tile")
    return tile
