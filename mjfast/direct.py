"""Calling a compiled kernel without numba's per-call type dispatch.

A numba dispatcher works out the type of every argument on every call to pick the compiled
version: for a one-hand query with five array arguments that costs more than the answer.
The per-hand API always passes the same types (it converts everything first: C-contiguous,
writeable uint8 hands, the int32 table, the int64 scratch), so after the first call it can
call the compiled version straight through its entry point. The first call goes through the
dispatcher (compiling or loading from the cache) and looks the entry point up by the types it
was given; a later call with other types would be misread by that entry point, which is why
only callers that convert their arguments use this.
"""

from __future__ import annotations

from numba import typeof


class DirectKernel:
    """`call(*args)` runs the kernel, through the compiled entry point for the argument types
    of the first call once that call has compiled or loaded it."""

    __slots__ = ("dispatcher", "call")

    def __init__(self, dispatcher) -> None:
        self.dispatcher = dispatcher
        self.call = self._first_call

    def _first_call(self, *args):
        result = self.dispatcher(*args)
        overload = self.dispatcher.overloads.get(tuple(typeof(a) for a in args))
        entry = getattr(overload, "entry_point", None)  # numba internals: keep working without
        if entry is not None:
            self.call = entry
        return result
