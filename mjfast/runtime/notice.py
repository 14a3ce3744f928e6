"""The compile notice: the first time a process compiles one of mjfast's kernels (nothing was
cached), one line on stderr says what is happening and how to avoid it, then the progress
(MJFAST_QUIET=1 silences it). Nothing goes to stdout. runtime.activate registers it with
numba's event API at the first compile or load of one of mjfast's kernels.
"""

from __future__ import annotations

import os
import sys
import time

_PACKAGE = __name__.split(".")[0]  # "mjfast": a kernel of a module under it is mjfast's


class CompileNotice:
    """Tells the user, on stderr, that mjfast's kernels are being compiled (see the module doc):
    one line at the first compile of a process, then a line every PROGRESS_EVERY seconds with
    the kernels compiled so far. Compiles of other packages' kernels, and kernels loaded from
    the cache, say nothing."""

    PROGRESS_EVERY = 15.0

    def __init__(self, stream=None):
        self.stream = stream
        self.depth = 0  # compiles under way: a kernel's callees compile inside it
        self.done = 0
        self.started = self.shown = None

    def _out(self):
        return self.stream or sys.stderr

    @staticmethod
    def _ours(event) -> bool:
        """Whether the compile is of one of mjfast's kernels (a function made by exec or
        numba itself may have no module: None)."""
        function = getattr(event.data.get("dispatcher"), "py_func", None)
        return (getattr(function, "__module__", None) or "").split(".")[0] == _PACKAGE

    def on_start(self, event) -> None:
        if not self._ours(event):
            return
        self.depth += 1
        if self.started is None:
            self.started = self.shown = time.perf_counter()
            print("mjfast: compiling its numba kernels for their first use (cached on disk afterwards; the first "
                  "advice waits about 70 s on 2 cores, and `mjfast warmup` compiles all of them in about as long)",
                  file=self._out(), flush=True)

    def on_end(self, event) -> None:
        if not self._ours(event) or self.depth == 0:
            return
        self.depth -= 1
        if self.depth:
            return
        self.done += 1
        now = time.perf_counter()
        if now - self.shown >= self.PROGRESS_EVERY:
            self.shown = now
            print(f"mjfast: {self.done} kernel(s) compiled in {now - self.started:.0f} s so far", file=self._out(),
                  flush=True)


def install_compile_notice() -> "CompileNotice | None":
    """A CompileNotice listening to numba's compile events (none with MJFAST_QUIET set, or on a
    numba without its event API)."""
    if os.environ.get("MJFAST_QUIET"):
        return None
    try:
        from numba.core import event
    except ImportError:
        return None
    notice = CompileNotice()

    class _Listener(event.Listener):
        def on_start(self, e):
            notice.on_start(e)

        def on_end(self, e):
            notice.on_end(e)

    try:
        event.register("numba:compile", _Listener())
    except (AttributeError, TypeError, ValueError):  # a numba without its event API: no notice
        return None
    return notice
