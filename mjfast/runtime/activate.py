"""The one place where mjfast changes anything of numba's, and when.

Importing mjfast, or any module of it, changes nothing of numba's: kernels are made (numba
dispatchers, with mjfast's options) and nothing else happens. The first time one of mjfast's
kernels is compiled or loaded from the cache, in whatever thread, activate() runs once and
does, in this order:

1. drops mjfast's stale cached kernels (cache.drop_stale_kernels: mjfast's own files);
2. with the extras (MJFAST_NUMBA_EXTRAS, extras.py), changes these numba classes, each for
   mjfast's own kernels only: a read-only install's cache locator first (numba's
   _CacheImpl._locator_classes, cache.install_copy_locator), then Cache.load_overload
   (cache.install_loader), CPUCodeLibrary.finalize, serialize_using_object_code and _unserialize
   and JITCPUCodegen.set_env (codegen.install_linking), InlineWorker.inline_ir and
   inline_function (inlining.install_linear_inlining);
3. sets up the disk cache of the cached kernels made so far (after the locator, so that each
   finds its folder; later ones set theirs up as they are made);
4. registers the compile notice with numba's event API (notice.py; not with MJFAST_QUIET).

Without the extras, step 2 is skipped and the cached kernels set up their caches as numba
does, when they are made.
"""

from __future__ import annotations

import threading
from pathlib import Path

from . import cache, codegen, inlining, notice
from .extras import EXTRAS

_lock = threading.Lock()
ACTIVE = False
SHIPPED_COPY: "Path | None" = None  # the copy a read-only install loads its kernels from, once active
COMPILE_NOTICE: "notice.CompileNotice | None" = None
_waiting: list = []  # mjfast's dispatchers made before activation, each with whether it caches


def watch(dispatcher, cached: bool) -> None:
    """Have one of mjfast's new kernels run activate() before its first compile or load (its
    documented `compile`, wrapped on this dispatcher alone until activation), and set up its
    disk cache then when `cached`."""
    if ACTIVE:
        if cached:
            dispatcher.enable_caching()
        return
    compile_ = dispatcher.compile

    def compile_after_activation(sig):
        activate()
        return compile_(sig)

    dispatcher.compile = compile_after_activation
    _waiting.append((dispatcher, cached))


def activate() -> None:
    """Make the changes listed in the module doc, once per process."""
    global ACTIVE, SHIPPED_COPY, COMPILE_NOTICE
    with _lock:
        if ACTIVE:
            return
        contents = cache.drop_stale_kernels()
        if EXTRAS:
            SHIPPED_COPY = cache.shipped_kernels_copy(contents)
            if SHIPPED_COPY is not None:
                cache.install_copy_locator(SHIPPED_COPY)
            cache.install_loader()
            codegen.install_linking()
            inlining.install_linear_inlining()
        for dispatcher, cached in _waiting:
            del dispatcher.compile  # the class's method again
            if cached:
                dispatcher.enable_caching()
        _waiting.clear()
        COMPILE_NOTICE = notice.install_compile_notice()
        ACTIVE = True
