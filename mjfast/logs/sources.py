"""Which files to read, and their games cut into chunks: the unit of work sent to a worker.

A chunk holds the raw lines of a few dozen games with their line numbers, so that the
worker parses, replays and analyses them and reports a broken game by its file line; a JSON
log is a chunk of its own: a Botzone match (its text unparsed) or a Tziakcha session (its
hands' records, each replayed by the worker). The reading streams: one chunk is read at a
time, whatever the size of the file. A file that cannot be read (no permission, not text, a
broken gzip, past a bound of mjfast.game's readers) ends its last chunk with the reason, and the
run goes on with the next file.
"""

from __future__ import annotations

import gzip
import os
import zlib
from pathlib import Path
from typing import Iterator, NamedTuple

# The blocks are cut here and parsed by the worker (logformat.parse_block).
from ..errors import MjfastError
from ..game.botzone_log import JSON_SUFFIXES, is_botzone_json, read_text
from ..game.gamelog import LogRefused
from ..game.logformat import game_blocks, numbered_lines
from ..game.reading import json_blocks

# In a folder, the files read as logs (explicit paths are read whatever their name): the
# text format's and Botzone's JSON match logs.
LOG_SUFFIXES = (".txt", ".log", ".txt.gz", ".log.gz") + JSON_SUFFIXES
GAMES_PER_CHUNK = 32
# What reading a file that cannot be read as a text log raises: no permission, an I/O error,
# bytes that are not UTF-8, a gzip stream that is broken or cut short, a file past a bound.
UNREADABLE = (OSError, UnicodeDecodeError, EOFError, zlib.error, LogRefused)


def unreadable(path, exc: Exception, games: int) -> str:
    """Why a file cannot be read, and how far it was: the summary's line for it."""
    if isinstance(exc, LogRefused):
        why = exc.reason
    elif isinstance(exc, UnicodeDecodeError):
        why = f"not text (UTF-8): {exc.reason} at byte {exc.start}"
    elif isinstance(exc, (EOFError, zlib.error, gzip.BadGzipFile)):
        why = f"a broken gzip stream: {exc}"
    else:  # an OSError: no permission, an I/O error
        why = getattr(exc, "strerror", None) or str(exc)
    return f"{why} (after {games} game(s) read from it)" if games else why


class LogsError(MjfastError):
    """What stops a run, as one line: bad input (paths, options, a missing extra, a file that
    is no text log), an unreachable scheduler, a failed worker."""


class Chunk(NamedTuple):
    """`blocks`: the (line number, text) lines of consecutive games of `file`, or the games of
    a JSON log not parsed yet (reading.json_blocks: a Botzone match's one, a Tziakcha session's
    hands); `first`: the position of the first of them among all the games read; `number`: the
    chunk's own position among the run's chunks; `unreadable`: why the file could not be read
    past these games ("" when it could)."""

    file: str
    first: int
    blocks: list
    number: int = 0
    unreadable: str = ""


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


def chunks(files, games_per_chunk: int = GAMES_PER_CHUNK, max_size: "int | None" = None) -> Iterator[Chunk]:
    """The games of every file in order, `games_per_chunk` at a time (a chunk never spans two
    files), each file read up to `max_size` bytes (mjfast.game.read_games); a file that cannot
    be read ends with a chunk saying why (Chunk.unreadable)."""
    first = number = 0
    for path in files:
        name = str(path)
        blocks: list = []
        in_file = 0  # games of this file in the chunks already yielded
        problem = ""
        try:
            if is_botzone_json(path, max_size):
                log = read_text(path, max_size)
                blocks = json_blocks(log.text, log.match_id)
            else:
                for block in game_blocks(path, max_size):
                    blocks.append(block)
                    if len(blocks) == games_per_chunk:
                        yield Chunk(name, first, blocks, number)
                        first, number, in_file = first + len(blocks), number + 1, in_file + len(blocks)
                        blocks = []
        except UNREADABLE as exc:
            problem = unreadable(path, exc, in_file + len(blocks))
        if blocks or problem:
            yield Chunk(name, first, blocks, number, problem)
            first, number = first + len(blocks), number + 1


def count_games(files, max_size: "int | None" = None) -> int:
    """The games in the files that read, counted by their Match lines (a progress bar's total;
    reading a file that does not read says why)."""
    total = 0
    for path in files:
        try:
            if is_botzone_json(path, max_size):  # a Botzone match, or a Tziakcha session's hands
                log = read_text(path, max_size)
                total += len(json_blocks(log.text, log.match_id))
                continue
            total += sum(1 for _, line in numbered_lines(path, max_size) if line[:6].lower() == "match ")
        except UNREADABLE:
            continue
    return total
