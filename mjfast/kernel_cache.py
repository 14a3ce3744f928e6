"""Keep numba's on-disk kernel cache consistent with the sources.

numba's `cache=True` checks only the file of the function it loads: a cached kernel keeps
the compiled code of the kernels it calls from other files even after those files change,
and then silently computes with the old code. Before any kernel loads, this compares a
fingerprint of every mjfast source (path, size, modification time) with the one the cache
was built from, and when they differ drops mjfast's cached kernels so that they are
compiled again. It covers numba's default cache location (the __pycache__ folders next to
the sources); NUMBA_CACHE_DIR users clear that folder themselves after changing sources.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
STAMP = PACKAGE / "__pycache__" / "kernel-sources.stamp"


def _fingerprint() -> str:
    digest = hashlib.sha1()
    for path in sorted(PACKAGE.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(PACKAGE)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def drop_stale_kernels() -> None:
    """Delete mjfast's cached kernels if any source changed since they were cached."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        current = _fingerprint()
        if STAMP.exists() and STAMP.read_text() == current:
            return
        for cached in PACKAGE.rglob("__pycache__/*.nb[ic]"):
            cached.unlink(missing_ok=True)
        STAMP.parent.mkdir(exist_ok=True)
        STAMP.write_text(current)
    except OSError:
        pass  # a read-only install: numba caches elsewhere, nothing of ours to clean
