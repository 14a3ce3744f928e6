"""The build step that compiles mjfast's kernels into the package it builds.

`pip install .` and `pip wheel .` run setuptools' build_py; this subclass then runs
`mjfast.warmup` on the built copy of the package in child processes, so that numba writes
its cache (the `__pycache__/*.nbi` and `*.nbc` files beside the sources) into what is
installed or packed. An install from it answers its first query without compiling when
numba's version and the CPU are those of the build (docs/install.md says how to build for
another CPU). MJFAST_BUILD_KERNELS=0 skips the step; `all` adds the log analysis's kernels
(left out by default: they compile about as long as the discard advice); a list of
mjfast.warmup's call names separated by commas (`shanten,best_discards`) compiles only
theirs. A failed compile is reported and the package is built without kernels, which then
compile on first use as they always could. Editable installs (`pip install -e .`) compile
in place on first use instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from setuptools.command.build_py import build_py


class BuildPyWithKernels(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        # setuptools reuses its build folder: kernels an earlier build left there are not this build's
        for cached in (Path(self.build_lib) / "mjfast").rglob("__pycache__"):
            shutil.rmtree(cached, ignore_errors=True)
        which = os.environ.get("MJFAST_BUILD_KERNELS", "1").strip()
        if which == "0":
            return
        compile_kernels(Path(self.build_lib), None if which in ("", "1") else which.split(","))


def tell(message: str, terminal: str = "/dev/tty") -> None:
    """Say `message` to the user: on the terminal when there is one, since pip shows a build's
    own output only with -v (it would only spin for the compile's half minute), else on
    stderr (a CI log, `pip -v`'s)."""
    try:
        with open(terminal, "w") as out:
            out.write(f"\n{message}\n")
            return
    except OSError:  # no controlling terminal
        pass
    print(message, file=sys.stderr, flush=True)


def _warmup_module(build_lib: Path):
    """mjfast/warmup.py of the package being built, read on its own: importing the package
    here would set up its kernel cache in the build's own process."""
    spec = importlib.util.spec_from_file_location("_mjfast_warmup", build_lib / "mjfast" / "warmup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def warm_up_parts(warmup, only: "list[str] | None", cpus: int) -> "list[dict]":
    """The arguments of mjfast.warmup.warm_up for each compiling process: its groups, one
    process a core, without the log analysis (it compiles about as long as the advice) unless
    `only` is ["all"]; with another `only`, one process for the calls it names."""
    if only is not None and only != ["all"]:
        return [{"only": only}]
    return warmup.process_parts(cpus, logs=only == ["all"])


def compile_kernels(build_lib: Path, only: "list[str] | None" = None) -> bool:
    """Compile the kernels of the package copy under build_lib (all but the log analysis's;
    with `only`, those of the warm-up calls it names, or `["all"]` every one) into its own
    __pycache__ folders; True when it worked. What
    the compile leaves behind is numba's cache and mjfast's stamp of the sources."""
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    # before what the build environment puts on the path (pip's isolated build: numba is there)
    env["PYTHONPATH"] = os.pathsep.join([str(build_lib)] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["MJFAST_QUIET"] = "1"
    warmup = _warmup_module(build_lib)
    parts = warm_up_parts(warmup, only, os.cpu_count() or 1)
    started = time.perf_counter()
    tell(f"mjfast: compiling its kernels into the package in {len(parts)} process(es), about a minute on 2 cores "
         "(MJFAST_BUILD_KERNELS=0 skips this)")
    reason = None
    try:
        # mjfast's stamp of the sources first, so that no worker finds it missing and clears the cache
        subprocess.run([sys.executable, "-c", "from mjfast.runtime.cache import drop_stale_kernels; "
                        "drop_stale_kernels()"], cwd=build_lib, env=env, check=True, capture_output=True)
        reason = warmup.warm_up_in_processes(
            parts, env, cwd=build_lib,
            progress=lambda kernels, seconds: tell(f"mjfast: {kernels} kernels compiled in {seconds:.0f} s so far"))
    except (OSError, subprocess.CalledProcessError) as error:
        reason = str(error)
    if reason is not None:
        for cached in (build_lib / "mjfast").rglob("__pycache__"):
            shutil.rmtree(cached, ignore_errors=True)
        tell(f"mjfast: the kernels were not compiled into the package ({reason}); they will compile on first use")
        return False
    tell(f"mjfast: kernels compiled into the package in {time.perf_counter() - started:.0f} s")
    return True
