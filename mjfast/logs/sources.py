"""Which files to read, and their games cut into chunks: the unit of work sent to a worker.

A chunk holds the raw lines of a few dozen games with their line numbers, so that the
worker parses, replays and analyses them and reports a broken game by its file line; a JSON
log is a chunk of its own: a Botzone match (its text unparsed) or a Tziakcha session (its
hands' records, each replayed by the worker). The reading
streams: one chunk is read at a time, whatever the size of the file.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Iterator, NamedTuple

# The blocks are cut here and parsed by the worker (logformat.parse_block).
from ..errors import MjfastError
from ..game.botzone_log import JSON_SUFFIXES, is_botzone_json, read_text
from ..game.gamelog import open_log
from ..game.logformat import game_blocks
from ..game.reading import json_blocks

# In a folder, the files read as logs (explicit paths are read whatever their name): the
# text format's and Botzone's JSON match logs.
LOG_SUFFIXES = (".txt", ".log", ".txt.gz", ".log.gz") + JSON_SUFFIXES
GAMES_PER_CHUNK = 32
# What reading a file that is no text log (or a broken gzip) raises.
_UNREADABLE = (UnicodeDecodeError, EOFError, gzip.BadGzipFile)


class LogsError(MjfastError):
    """What stops a run, as one line: bad input (paths, options, a missing extra, a file that
    is no text log), an unreachable scheduler, a failed worker."""


class Chunk(NamedTuple):
    """`blocks`: the (line number, text) lines of consecutive games of `file`, or the games of
    a JSON log not parsed yet (reading.json_blocks: a Botzone match's one, a Tziakcha session's
    hands); `first`: the position of the first of them among all the games read."""

    file: str
    first: int
    blocks: list


def log_files(paths) -> list[Path]:
    """The files to read: each path that is a file, and the log files (LOG_SUFFIXES) under
    each folder, in name order."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.name.lower().endswith(LOG_SUFFIXES)
                           and not p.name.startswith("."))
            if not found:
                raise LogsError(f"no log files ({', '.join(LOG_SUFFIXES)}) in folder {path}")
            files.extend(found)
        elif path.exists():
            raise LogsError(f"{path} is neither a file nor a folder")
        else:
            raise LogsError(f"no such file or folder: {path}")
    if not files:
        raise LogsError("no log files given")
    return files


def check_ruleset(name: "str | None") -> None:
    """LogsError unless `name` is None or a preset of mjfast.fan.RULESETS (a run's --ruleset)."""
    from ..fan.ruleset import RULESETS

    if name is not None and name not in RULESETS:
        raise LogsError(f"--ruleset {name!r} is no preset; the presets are {', '.join(RULESETS)}")


def chunks(files, games_per_chunk: int = GAMES_PER_CHUNK) -> Iterator[Chunk]:
    """The games of every file in order, `games_per_chunk` at a time (a chunk never spans two
    files). Raises LogsError for a file that cannot be read as text."""
    first = 0
    for path in files:
        name = str(path)
        blocks: list = []
        try:
            if is_botzone_json(path):
                log = read_text(path)
                blocks = json_blocks(log.text, log.match_id)
                yield Chunk(name, first, blocks)
                first += len(blocks)
                continue
            for block in game_blocks(path):
                blocks.append(block)
                if len(blocks) == games_per_chunk:
                    yield Chunk(name, first, blocks)
                    first += len(blocks)
                    blocks = []
        except _UNREADABLE as exc:
            raise LogsError(f"{name} cannot be read as a text log after its game {first + len(blocks)}: "
                            f"{exc}") from None
        if blocks:
            yield Chunk(name, first, blocks)
            first += len(blocks)


def count_games(files) -> "int | None":
    """The games in the files, counted by their Match lines (a progress bar's total); None
    when a file cannot be read (reading it reports why)."""
    total = 0
    try:
        for path in files:
            if is_botzone_json(path):  # a Botzone match, or a Tziakcha session's hands
                log = read_text(path)
                total += len(json_blocks(log.text, log.match_id))
                continue
            with open_log(path) as f:
                total += sum(1 for line in f if line[:6].lower() == "match ")
    except _UNREADABLE:
        return None
    return total
