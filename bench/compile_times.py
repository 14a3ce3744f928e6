"""The compile profile of mjfast's kernels: run in a fresh process with an empty cache.

    NUMBA_CACHE_DIR=$(mktemp -d) python bench/compile_times.py [--top N] [warm-up call names...]
    NUMBA_CACHE_DIR=$(mktemp -d) taskset -c 0 python bench/compile_times.py best_discards   # one core

Runs mjfast.warmup's calls (all but the log analysis unless named) one after another and
prints, from numba's event API and its code libraries:

- the total and each call's time;
- each kernel's own compile (its typing, lowering and LLVM work, the kernels it calls that
  compile inside it left out), the LLVM part of it, and how many times it compiled (more
  than once: a twin specialisation, one per argument type);
- each code library numba emitted (a kernel's machine code, with the code it links in from
  the kernels it calls): the seconds of its module passes and code generation, and the IR
  instructions they went over (linked code, optimised and emitted again in each library that
  links it, counts in each; a shared core linked by name counts once, in its own library).

The libraries' sizes are read before each finalize is timed; reading them lengthens the run,
not the figures.
"""

from __future__ import annotations

import argparse
import collections
import time

from numba.core import codegen, event

TOP = 15


class Profile:
    def __init__(self):
        self.stack: list = []  # [kernel, start, seconds of compiles inside it, LLVM seconds] under way
        self.own = collections.Counter()
        self.llvm = collections.Counter()
        self.compiles = collections.Counter()
        self.libraries: list = []  # (name, seconds of module passes and code generation, instructions)

    def start(self, data) -> None:
        function = getattr(data.get("dispatcher"), "py_func", None)
        self.stack.append([f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', '?')}",
                           time.perf_counter(), 0.0])

    def end(self) -> None:
        name, started, inside = self.stack.pop()
        seconds = time.perf_counter() - started
        self.own[name] += seconds - inside
        self.compiles[name] += 1
        if self.stack:
            self.stack[-1][2] += seconds

    def in_llvm(self, seconds: float) -> None:
        if self.stack:
            self.llvm[self.stack[-1][0]] += seconds


def _instructions(module) -> int:
    return sum(1 for f in module.functions if not f.is_declaration for b in f.blocks for _ in b.instructions)


def install(profile: Profile) -> None:
    class Compiles(event.Listener):
        def on_start(self, e):
            profile.start(e.data)

        def on_end(self, e):
            profile.end()

    class Llvm(event.Listener):
        def on_start(self, e):
            self.started = time.perf_counter()

        def on_end(self, e):
            profile.in_llvm(time.perf_counter() - self.started)

    event.register("numba:compile", Compiles())
    event.register("numba:llvm_lock", Llvm())
    optimise = codegen.CPUCodeLibrary._optimize_final_module
    emit = codegen.CPUCodeLibrary._finalize_final_module

    def timed_optimise(self):
        size = _instructions(self._final_module)
        started = time.perf_counter()
        optimise(self)
        self._profile_optimised = (size, time.perf_counter() - started)

    def timed_emit(self):
        started = time.perf_counter()
        emit(self)
        size, seconds = getattr(self, "_profile_optimised", (0, 0.0))
        if size:  # a library loaded from the cache is emitted without being optimised
            profile.libraries.append((self.name, seconds + time.perf_counter() - started, size))

    codegen.CPUCodeLibrary._optimize_final_module = timed_optimise  # type: ignore[method-assign]
    codegen.CPUCodeLibrary._finalize_final_module = timed_emit  # type: ignore[method-assign]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("calls", nargs="*", help="mjfast.warmup's call names (default: all but the log analysis)")
    parser.add_argument("--top", type=int, default=TOP, help="rows of each table")
    args = parser.parse_args(argv)
    profile = Profile()
    install(profile)
    import mjfast.warmup as warmup

    started, cpu = time.perf_counter(), time.process_time()
    names = args.calls or [n for n in warmup.call_names() if n not in warmup.LOG_ANALYSIS]
    per_call = {}
    for name in names:
        start = time.perf_counter()
        warmup.warm_up(only=[name])
        per_call[name] = time.perf_counter() - start
    wall = time.perf_counter() - started
    ours = {k: v for k, v in profile.own.items() if k.startswith("mjfast.")}
    print(f"{wall:.1f} s ({time.process_time() - cpu:.1f} s CPU), {sum(profile.compiles.values())} compiles of "
          f"{len(profile.compiles)} functions ({len(ours)} of mjfast's); LLVM {sum(profile.llvm.values()):.1f} s, "
          f"of which the libraries' module passes and code generation {sum(r[1] for r in profile.libraries):.1f} s")
    for name, seconds in per_call.items():
        print(f"  {seconds:6.1f} s  {name}")
    twins = {k: n for k, n in profile.compiles.items() if n > 1}
    print(f"kernels by their own compile (seconds own, of which LLVM; compiles), {len(twins)} compiled more than once:")
    for name, seconds in profile.own.most_common(args.top):
        print(f"  {seconds:6.2f} s  {profile.llvm[name]:5.2f} s  x{profile.compiles[name]:<3d} {name}")
    print(f"libraries emitted, by the time of their module passes and code generation "
          f"({sum(r[2] for r in profile.libraries)} instructions in all):")
    for name, seconds, size in sorted(profile.libraries, key=lambda r: -r[1])[:args.top]:
        print(f"  {seconds:6.2f} s  {size:7d} instructions  {name}")

if __name__ == "__main__":
    main()
