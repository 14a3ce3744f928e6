"""Reading logs of either format: read_games (Botzone's text format or its JSON match logs,
told by the first character) and check_games (every game replayed and re-scored)."""

from __future__ import annotations

import os
from typing import Iterator

from .botzone_log import is_botzone_json, read_botzone_games
from .gamelog import BrokenGame, GameLog, LogError
from .logformat import game_blocks, parse_block
from .replay import GameCheck, Replay


def read_games(source) -> Iterator["GameLog | BrokenGame"]:
    """Every game of a log: a path (plain or gzip), an open text file or an iterable of lines.

    Yields a GameLog for each block that reads, a BrokenGame for each that does not; the
    reading goes on after a broken block. A path to a Botzone JSON match log (botzone_log)
    yields its one game."""
    if isinstance(source, (str, os.PathLike)):
        if is_botzone_json(source):
            yield from read_botzone_games(source)
            return
    for block in game_blocks(source):
        try:
            yield parse_block(block)
        except LogError as exc:
            yield BrokenGame(exc.match_id, exc.line, exc.reason)


def check_games(source) -> Iterator["GameCheck | BrokenGame"]:
    """check() every game of a log (see read_games for `source`); a game that cannot be read
    or breaks a rule comes out as a BrokenGame and the rest goes on."""
    for game in read_games(source):
        if isinstance(game, BrokenGame):
            yield game
            continue
        try:
            yield Replay(game).check()
        except LogError as exc:
            yield BrokenGame(exc.match_id, exc.line, exc.reason)
