"""The compile notice: the first time a process compiles one of mjfast's kernels (nothing was
cached), one line on stderr says what is happening and how to avoid it, then the progress
(MJFAST_QUIET=1 silences it). Nothing goes to stdout. With MJFAST_PROGRESS naming a file, each
kernel compiled also appends one byte to it, quiet or not: a parent compiling in several
processes (mjfast.warmup.warm_up_in_processes) counts them there. runtime.activate registers
the notice with numba's event API at the first compile or load of one of mjfast's kernels.
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

    def __init__(self, stream=None, quiet: bool = False, tally: "str | None" = None):
        self.stream = stream
        self.quiet = quiet  # no lines on stderr
        self.tally = tally  # the file that gets a byte a kernel compiled
        self.depth = 0  # compiles under way: a kernel's callees compile inside it
        self.done = 0
        self.started: "float | None" = None
        self.shown = 0.0

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
            if self.quiet:
                return
            print("mjfast: compiling its numba kernels for their first use (cached on disk afterwards; the first "
                  "advice waits about a minute, and `mjfast warmup` compiles all of them in about 40 s on 2 cores)",
                  file=self._out(), flush=True)

    def on_end(self, event) -> None:
        if not self._ours(event) or self.depth == 0:
            return
        self.depth -= 1
        if self.depth:
            return
        self.done += 1
        if self.tally:
            try:
                with open(self.tally, "ab") as tally:
                    tally.write(b".")
            except OSError:
                self.tally = None  # the parent's count is only a progress line: not worth failing for
        now = time.perf_counter()
        if not self.quiet and now - self.shown >= self.PROGRESS_EVERY:
            self.shown = now
            print(f"mjfast: {self.done} kernel(s) compiled in {now - self.started:.0f} s so far", file=self._out(),
                  flush=True)


def install_compile_notice() -> "CompileNotice | None":
    """A CompileNotice listening to numba's compile events (none with MJFAST_QUIET set and no
    MJFAST_PROGRESS, or on a numba without its event API)."""
    quiet, tally = bool(os.environ.get("MJFAST_QUIET")), os.environ.get("MJFAST_PROGRESS") or None
    if quiet and not tally:
        return None
    try:
        from numba.core import event
    except ImportError:
        return None
    notice = CompileNotice(quiet=quiet, tally=tally)

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
