"""Reading logs of any format: read_games (Botzone's text format, its JSON match logs and
Tziakcha's session records, told apart by their first character and, for JSON, by its shape)
and check_games (every game replayed and re-scored)."""

from __future__ import annotations

import json
import os
from typing import Iterator

from ..bounds import too_deep
from .botzone_log import JSON_BLANK, BotzoneText, is_botzone_json, read_text
from .gamelog import BrokenGame, GameLog, LogError
from .logformat import game_blocks, parse_block
from .replay import GameCheck, Replay
from .tziakcha_log import TziakchaHand, is_tziakcha, session_hands


def json_blocks(text: str, name: str) -> "list[BotzoneText | TziakchaHand]":
    """The games of a JSON log's text, not parsed yet (each block's parse() gives its GameLog
    or raises LogError): the hands of a Tziakcha session (or record), else the one game of a
    Botzone match log. `name`: the log's name (its file's, without .json), the games' match
    ids where the log has none."""
    if text.lstrip(JSON_BLANK)[:1] == "{":  # an array is Botzone's log; an object may be either
        try:
            data = None if too_deep(text) else json.loads(text.lstrip(JSON_BLANK))
        except ValueError:
            data = None  # Botzone's reader says what is wrong with it
        if is_tziakcha(data):
            return list(session_hands(data, name))
    return [BotzoneText(name, text)]


def parsed(block) -> "GameLog | BrokenGame":
    """A block of json_blocks() read: its GameLog, or the BrokenGame that says why not."""
    try:
        return block.parse()
    except LogError as exc:
        return BrokenGame(exc.match_id, exc.line, exc.reason)


def read_games(source, max_size: "int | None" = None) -> Iterator["GameLog | BrokenGame"]:
    """Every game of a log: a path (plain or gzip), an open text file or an iterable of lines.

    Yields a GameLog for each block that reads, a BrokenGame for each that does not; the
    reading goes on after a broken block. A path to a JSON log yields the one game of a
    Botzone match log (botzone_log) or each hand of a Tziakcha session (tziakcha_log).
    A file is read up to `max_size` bytes once decompressed (default bounds.MAX_LOG_SIZE; a
    JSON log, read whole, up to bounds.json_max_size): past that, or at a line longer than
    bounds.MAX_LINE, LogRefused ends the reading."""
    if isinstance(source, (str, os.PathLike)):
        if is_botzone_json(source, max_size):
            log = read_text(source, max_size)
            for json_block in json_blocks(log.text, log.match_id):
                yield parsed(json_block)
            return
    for block in game_blocks(source, max_size):
        try:
            yield parse_block(block)
        except LogError as exc:
            yield BrokenGame(exc.match_id, exc.line, exc.reason)


def check_games(source, ruleset=None, max_size: "int | None" = None) -> Iterator["GameCheck | BrokenGame"]:
    """check() every game of a log (see read_games for `source` and `max_size`); a game that
    cannot be read or breaks a rule comes out as a BrokenGame and the rest goes on. `ruleset`
    (a Ruleset or a preset's name) re-scores the wins under other rules than the log's
    server's."""
    for game in read_games(source, max_size):
        if isinstance(game, BrokenGame):
            yield game
            continue
        try:
            yield Replay(game.scored_under(ruleset)).check()
        except LogError as exc:
            yield BrokenGame(exc.match_id, exc.line, exc.reason)
