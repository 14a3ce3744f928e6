"""A long run that survives being killed: what it has done is kept, so that the same command
run again finishes the work without redoing it, and every file is written whole or not at all.

OUT/partial/ holds manifest.json, what the run is (the command, mjfast's version, each input
file's path, size and time of change, the options that change the output), and one file per
unit of work done (a chunk of games for `mjfast logs`, a game for `mjfast review`). A run
started with the same manifest takes the units found there and does the others; a run with
another manifest (other arguments, changed inputs) starts afresh. Each file, kept unit or
output, is written to a temporary name beside it and renamed into place once complete, so a
kill leaves either the old file, the new one, or a temporary that the next run removes. When
the run is over and its outputs are in place, OUT/partial/ goes.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

PARTIAL = "partial"
_TEMPORARY = ".mjfast-tmp"  # the suffix of a file being written


def fingerprint(files) -> list:
    """Each input file's path, size and time of change: what the run read."""
    found = []
    for path in files:
        try:
            stat = os.stat(path)
            found.append([str(path), stat.st_size, stat.st_mtime_ns])
        except OSError as exc:  # named in the run's summary as unreadable; here it is only a fact
            found.append([str(path), None, type(exc).__name__])
    return found


@contextmanager
def atomic(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write to; renamed to `path` (after its bytes are on
    disk) when the block ends without an exception, removed otherwise."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}{_TEMPORARY}")
    try:
        yield temporary
        with open(temporary, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()


def write_atomically(path: Path, data: "bytes | str") -> None:
    with atomic(path) as temporary:
        Path(temporary).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def remove_temporaries(folder: Path) -> None:
    """The temporaries a killed run left in `folder`."""
    for path in Path(folder).glob(f".*{_TEMPORARY}"):
        path.unlink()


class Progress:
    """The units of work a run has done, kept in OUT/partial/ (see the module doc). A run that
    resumes says so on stderr, with the units it finds done (`kept`), e.g. "mjfast logs:
    resuming the unfinished run in OUT: 12 chunk(s) done"."""

    def __init__(self, out: Path, manifest: dict, unit: str):
        self.folder = Path(out) / PARTIAL
        remove_temporaries(out)
        kept = self.folder / "manifest.json"
        try:
            same = json.loads(kept.read_text(encoding="utf-8")) == manifest
        except (OSError, ValueError):
            same = False
        if not same:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder.mkdir(parents=True)
            write_atomically(kept, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
        remove_temporaries(self.folder)
        self.kept = sum(1 for path in self.folder.iterdir() if path.name != kept.name)
        if self.kept:
            print(f"{manifest['command']}: resuming the unfinished run in {out}: {self.kept} {unit}(s) done",
                  file=sys.stderr, flush=True)

    def done(self, name: str) -> "bytes | None":
        """What unit `name` wrote when it was done, or None when it is still to do."""
        try:
            return (self.folder / name).read_bytes()
        except FileNotFoundError:
            return None

    def keep(self, name: str, data: bytes) -> None:
        write_atomically(self.folder / name, data)

    def finish(self) -> None:
        """The run is over and its outputs are in place."""
        shutil.rmtree(self.folder)
