"""The kernel cache: the stamp that drops stale cached kernels, and how numba loads mjfast's.

- Kernels that Python calls are cached on disk (`cache=True`), those only other kernels call
  are not (their code is compiled into their callers'), except the shared cores
  (`njit(shared=True)`: the fan scorer, the forms, the discard and draw sweeps...): each is
  emitted once, in its own cached library, and its callers call it by name (codegen.py), so a
  process compiling another caller (the warm-up's other process, a later command) loads the
  core instead of compiling it again, and a cached caller loads the cores it calls first
  (a core missing from the cache makes the caller compile, never fail).
- Before any kernel loads, stale cached kernels are dropped (drop_stale_kernels: numba checks
  only the file of the function it loads, not the files of the kernels it calls).
- mjfast's own cached kernels load without numba's compiler set-up (install_loader: numba's
  Cache.load_overload), and a read-only install loads the kernels it ships from a copy in the
  user's cache (shipped_kernels_copy, install_copy_locator: numba's cache locators).

Nothing here imports numba until runtime.activate installs the loader and the locator.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path

from .codegen import SharedCoreMissing
from .extras import EXTRAS, own

PACKAGE = Path(__file__).resolve().parent.parent  # mjfast/

# Stale kernels. The fingerprint is of contents, not times: the modules that define kernels
# and every mjfast module they import (their constants are compiled in), found by reading the
# import lines. A change elsewhere (the game rules, the command line) keeps the cache, and so
# does a copy of the same sources with new modification times (an install). The contents are
# read only when some source's size or time changed since the last check, so the usual start
# costs a stat per file. It covers numba's default cache location (the __pycache__ folders
# next to the sources); NUMBA_CACHE_DIR users clear that folder themselves after changing
# sources.

STAMP = PACKAGE / "__pycache__" / "kernel-sources.stamp"
# What marks a module that defines kernels, and the import lines naming other mjfast modules.
_KERNEL_MARK = re.compile(r"^\s*@(njit|intrinsic)\b", re.M)
_IMPORT = re.compile(r"^\s*from\s+(\.+)([\w.]*)\s+import\s+([^\n(]+|\([^)]*\))", re.M)


def _times(sources: list[Path]) -> str:
    """Sizes and modification times of the sources: what changes when one is edited (or the
    extras are switched)."""
    digest = hashlib.sha1(f"extras={EXTRAS}\n".encode())
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
    digest = hashlib.sha1(f"extras={EXTRAS}\n".encode())  # kernels compiled with the extras or without
    for path in kernel_sources(sources):
        digest.update(f"{path.relative_to(PACKAGE)}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_kernels() -> "str | None":
    """Delete mjfast's cached kernels if a source they are compiled from changed since they
    were cached. The stamp holds two lines: the sources' times, then the kernels' contents.
    Returns the contents' fingerprint where it was worked out (the times had changed)."""
    contents = None
    if os.environ.get("NUMBA_CACHE_DIR"):
        return contents
    try:
        sources = sorted(PACKAGE.rglob("*.py"))
        times = _times(sources)
        stamp = STAMP.read_text().split("\n") if STAMP.exists() else []
        if stamp[:1] == [times]:
            return contents
        contents = _contents(sources)
        if stamp[1:2] != [contents]:
            for cached in PACKAGE.rglob("__pycache__/*.nb[ic]"):
                cached.unlink(missing_ok=True)
        STAMP.parent.mkdir(exist_ok=True)
        STAMP.write_text(f"{times}\n{contents}")
    except OSError:
        pass  # a read-only install: its kernels load from a copy (shipped_kernels_copy)
    return contents


# Loading mjfast's cached kernels without numba's compiler set-up. Before each load from its
# on-disk cache numba refreshes its CPU target; the first refresh of a process imports and
# registers every implementation numba has (about 0.35 s, a quarter of a fresh process's first
# query), which compiling needs and loading compiled code does not: that needs numba's
# runtime (NRT) started, nothing more. A cache miss compiles, and the compiler refreshes the
# target itself; other packages' kernels load as numba loads them. A numba whose loader lacks
# the methods below is left as it is.

def _load_own_without_refresh(load_overload, initialize_runtime):
    def load(self, sig, target_context):
        if not own(self._py_func):
            return load_overload(self, sig, target_context)
        initialize_runtime(target_context)  # once per process; what compiled code needs
        try:
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
        except SharedCoreMissing:  # a shared core it calls is not in the cache: compiled afresh instead
            return None

    load.loads_own_without_refresh = True
    return load


def install_loader() -> None:
    """numba's Cache.load_overload, loading mjfast's kernels without the compiler's set-up."""
    try:
        from numba.core.caching import Cache
        from numba.core.runtime import rtsys
    except ImportError:
        return
    if (not getattr(Cache.load_overload, "loads_own_without_refresh", False)
            and hasattr(Cache, "_guard_against_spurious_io_errors") and hasattr(Cache, "_load_overload")
            and hasattr(rtsys, "initialize")):
        Cache.load_overload = _load_own_without_refresh(  # type: ignore[method-assign]
            Cache.load_overload, rtsys.initialize)


# Read-only installs (a system-wide site-packages, an image run by another user). numba caches
# beside the sources only where it can write; elsewhere it would compile every kernel again
# into its user-wide cache. So mjfast copies the kernels it ships, once, into a folder of the
# user's cache named after the sources' contents, and has numba load (and save) its kernels
# there. A copy is made only when the shipped kernels are those of these sources.

def user_cache() -> Path:
    """mjfast's folder in the user's cache (XDG_CACHE_HOME, else ~/.cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mjfast"


def shipped_kernels_copy(contents: "str | None" = None) -> "Path | None":
    """The folder holding the copy of the shipped kernels of a read-only install, made if
    missing; None where numba can cache beside the sources, NUMBA_CACHE_DIR is set, nothing
    was shipped for these sources (`contents`: their fingerprint, if known), or no copy can
    be made."""
    own = PACKAGE / "__pycache__"
    if os.environ.get("NUMBA_CACHE_DIR") or os.access(own if own.is_dir() else PACKAGE, os.W_OK):
        return None
    try:
        shipped_for = STAMP.read_text().split("\n")[1]
        if shipped_for != (contents or _contents(sorted(PACKAGE.rglob("*.py")))):
            return None
        copy = user_cache() / f"kernels-{shipped_for[:20]}"
        if not copy.is_dir():
            copy.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(dir=copy.parent, prefix=".copying-"))
            for cached in PACKAGE.rglob("__pycache__/*.nb[ic]"):
                target = staging / cached.parent.relative_to(PACKAGE)
                target.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(cached, target / cached.name)
            try:
                staging.rename(copy)  # whole or not at all: another process may be loading from it
            except OSError:  # another process made it first
                shutil.rmtree(staging, ignore_errors=True)
        return copy
    except (OSError, IndexError):
        return None


def install_copy_locator(copy: Path) -> None:
    """numba caches mjfast's kernels under `copy`, in the folders they have in the package
    (numba's cache locators; a numba without them compiles)."""
    try:
        from numba.core import caching
    except ImportError:
        return
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    mixin = getattr(caching, "_SourceFileBackedLocatorMixin", None)
    locator = getattr(caching, "_CacheLocator", None)
    if impl is None or mixin is None or locator is None or not isinstance(getattr(impl, "_locator_classes", None),
                                                                         list):
        return

    class ShippedCopyLocator(mixin, locator):  # type: ignore[valid-type,misc]  # numba's classes, found at run time
        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(copy / Path(py_file).resolve().parent.relative_to(PACKAGE) / "__pycache__")

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            if not Path(py_file).resolve().is_relative_to(PACKAGE):
                return None
            return super().from_function(py_func, py_file)

    impl._locator_classes.insert(0, ShippedCopyLocator)
