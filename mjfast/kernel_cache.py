"""Keep numba's on-disk kernel cache consistent with the sources.

numba's `cache=True` checks only the file of the function it loads: a cached kernel keeps
the compiled code of the kernels it calls from other files even after those files change,
and then silently computes with the old code. Before any kernel loads, this compares a
fingerprint of the sources the kernels are compiled from with the one the cache was built
from, and when they differ drops mjfast's cached kernels so that they are compiled again.

The fingerprint is of contents, not times: the modules that define kernels and every mjfast
module they import (their constants are compiled in), found by reading the import lines. A
change elsewhere (the game rules, the command line) keeps the cache, and so does a copy of
the same sources with new modification times (an install). The contents are read only when
some source's size or time changed since the last check, so the usual start costs a stat per
file. It covers numba's default cache location (the __pycache__ folders next to the
sources); NUMBA_CACHE_DIR users clear that folder themselves after changing sources.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
STAMP = PACKAGE / "__pycache__" / "kernel-sources.stamp"
# What marks a module that defines kernels, and the import lines naming other mjfast modules.
_KERNEL_MARK = re.compile(r"^\s*@(njit|intrinsic)\b", re.M)
_IMPORT = re.compile(r"^\s*from\s+(\.+)([\w.]*)\s+import\s+([^\n(]+|\([^)]*\))", re.M)


def _times(sources: list[Path]) -> str:
    """Sizes and modification times of the sources: what changes when one is edited."""
    digest = hashlib.sha1()
    for path in sources:
        stat = path.stat()
        digest.update(f"{path.relative_to(PACKAGE)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _module_path(base: Path, dotted: str) -> "Path | None":
    target = base.joinpath(*dotted.split(".")) if dotted else base
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(path: Path, text: str) -> set[Path]:
    """The mjfast modules a module imports with `from .x import ...` (relative imports are
    the package's style; `from . import x` names modules too)."""
    found = set()
    for dots, dotted, names in _IMPORT.findall(text):
        base = path.parent
        for _ in range(len(dots) - 1):
            base = base.parent
        module = _module_path(base, dotted)
        if module is not None:
            found.add(module)
        for name in re.findall(r"\w+", names):
            sub = _module_path(base, f"{dotted}.{name}" if dotted else name)
            if sub is not None:
                found.add(sub)
    return found


def kernel_sources(sources: list[Path]) -> list[Path]:
    """The modules that define kernels and, transitively, every mjfast module they import."""
    texts = {path: path.read_text(encoding="utf-8") for path in sources}
    todo = [path for path, text in texts.items() if _KERNEL_MARK.search(text)]
    seen = set(todo)
    while todo:
        path = todo.pop()
        for module in _imports(path, texts[path]):
            if module in texts and module not in seen:
                seen.add(module)
                todo.append(module)
    return sorted(seen)


def _contents(sources: list[Path]) -> str:
    digest = hashlib.sha1()
    for path in kernel_sources(sources):
        digest.update(f"{path.relative_to(PACKAGE)}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_kernels() -> None:
    """Delete mjfast's cached kernels if a source they are compiled from changed since they
    were cached. The stamp holds two lines: the sources' times, then the kernels' contents."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        sources = sorted(PACKAGE.rglob("*.py"))
        times = _times(sources)
        stamp = STAMP.read_text().split("\n") if STAMP.exists() else []
        if stamp[:1] == [times]:
            return
        contents = _contents(sources)
        if stamp[1:2] != [contents]:
            for cached in PACKAGE.rglob("__pycache__/*.nb[ic]"):
                cached.unlink(missing_ok=True)
        STAMP.parent.mkdir(exist_ok=True)
        STAMP.write_text(f"{times}\n{contents}")
    except OSError:
        pass  # a read-only install: numba caches elsewhere, nothing of ours to clean
