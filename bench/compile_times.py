"""The first compile of mjfast's kernels, per warm-up call and per kernel (issue "first answer
in seconds"): run in a fresh process with an empty cache, on one core.

    NUMBA_CACHE_DIR=$(mktemp -d) python bench/compile_times.py [warm-up call names...]

numba's event API reports every compile; a kernel's time includes the kernels it calls that
compile inside it. Prints the total, the time of each mjfast.warmup call (all but the log
analysis unless named), and the ten kernels that took longest to compile as Python first
called them.
"""

from __future__ import annotations

import sys
import time

from numba.core import event

_open: list = []  # (kernel, start) of the compiles under way, innermost last
entry_seconds: dict = {}
compiles = 0


class _Timer(event.Listener):
    def on_start(self, e):
        function = getattr(e.data.get("dispatcher"), "py_func", None)
        _open.append((f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', '?')}",
                      time.perf_counter()))

    def on_end(self, e):
        global compiles
        name, start = _open.pop()
        compiles += 1
        if not _open:
            entry_seconds[name] = entry_seconds.get(name, 0.0) + time.perf_counter() - start


def main(names: list[str]) -> None:
    event.register("numba:compile", _Timer())
    import mjfast.warmup as warmup

    started, cpu = time.perf_counter(), time.process_time()
    names = names or [n for n in warmup.call_names() if n not in warmup.LOG_ANALYSIS]
    per_call = {}
    for name in names:
        start = time.perf_counter()
        warmup.warm_up(only=[name])
        per_call[name] = time.perf_counter() - start
    print(f"{time.perf_counter() - started:.1f} s ({time.process_time() - cpu:.1f} s CPU), {compiles} compiles")
    for name, seconds in per_call.items():
        print(f"  {seconds:6.1f} s  {name}")
    print("the kernels Python called, by their compile time (their callees included):")
    for name, seconds in sorted(entry_seconds.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {seconds:6.1f} s  {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
