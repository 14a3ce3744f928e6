"""Kernels compiled into the package at build time (build_kernels.py).

A wheel built with the shanten kernels compiled in is installed into a fresh folder; a fresh
process that imports it from there answers its first shanten query without one compile (the
compiles are counted through numba's event API, not timed). The same install on another
CPU, as numba names it, compiles and answers the same; an install whose kernel sources were
changed drops the kernels it shipped rather than serve them. A read-only install (on a
read-only file system: a bind mount in a user namespace, as root can write anywhere) loads
what it ships from its copy in the user's cache, without compiling.
"""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A fresh process: count the compiles of mjfast's kernels while answering one query.
PROBE = """
import json, sys
from numba.core import event
compiles = []
class Count(event.Listener):
    def on_start(self, e):
        f = getattr(e.data.get("dispatcher"), "py_func", None)
        if getattr(f, "__module__", "").startswith("mjfast"):
            compiles.append(f.__qualname__)
    def on_end(self, e):
        pass
event.register("numba:compile", Count())
import os
import mjfast, mjfast.runtime.activate
print(json.dumps({"file": mjfast.__file__, "shanten": mjfast.shanten("123m456p789s1357s"), "compiles": compiles,
                  "writable": os.access(os.path.dirname(mjfast.__file__), os.W_OK),
                  "copy": str(mjfast.runtime.activate.SHIPPED_COPY)}))
"""


def _child_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH", "NUMBA_CPU_NAME",
                                                           "NUMBA_CPU_FEATURES")}
    env.update(extra)
    return env


def _probe(site: Path, read_only: bool = False, **extra) -> dict:
    """PROBE's answer in a fresh process importing mjfast from `site` (with the package's
    folder read-only if asked)."""
    import json

    command = [sys.executable, "-c", PROBE]
    if read_only and os.geteuid() == 0:
        command = ["unshare", "-rm", "sh", "-c", 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && '
                   'exec "$@"', "sh", str(site / "mjfast"), *command]
    done = subprocess.run(command, cwd=site, env=_child_env(PYTHONPATH=str(site), **extra),
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                           str(out), str(ROOT)], env=_child_env(MJFAST_BUILD_KERNELS="shanten"),
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("mjfast-*.whl")
    return built


def _install(wheel: Path, site: Path) -> Path:
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
                           str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return site


def test_the_warm_up_and_the_build_compile_every_call_once():
    """mjfast warmup's processes cover every warm-up call once; the build's leave out the log
    analysis unless asked for all."""
    sys.path.insert(0, str(ROOT))
    try:
        from build_kernels import _warmup_module, warm_up_parts
    finally:
        sys.path.remove(str(ROOT))
    import mjfast.warmup as warmup

    names = set(warmup.call_names())
    assert set(warmup.LOG_ANALYSIS) <= names and set(warmup.ADVICE) <= names

    def covered(parts):
        found = []
        for part in parts:
            found += sorted(part["only"]) if "only" in part else sorted(names - set(part["skip"]))
        return found

    built = _warmup_module(ROOT)  # as the build reads it
    for cpus in (1, 2, 4):
        assert sorted(covered(warmup.process_parts(cpus))) == sorted(names)  # each call once, in one process
        assert sorted(covered(warm_up_parts(built, None, cpus))) == sorted(names - set(warmup.LOG_ANALYSIS))
        assert sorted(covered(warm_up_parts(built, ["all"], cpus))) == sorted(names)
    assert [len(warmup.process_parts(cpus)) for cpus in (1, 2, 4)] == [1, 2, 3]
    assert warmup.call_names()[-1] in warmup.LOG_ANALYSIS  # on two cores it follows the rest in one process
    assert warm_up_parts(built, ["shanten"], 2) == [{"only": ["shanten"]}]


def test_the_build_speaks_to_the_terminal_past_pip_else_on_stderr(tmp_path, capsys):
    """pip shows a build's own output only with -v: the build's lines go to the terminal when
    the build has one, and to stderr when it has none (a CI log)."""
    sys.path.insert(0, str(ROOT))
    try:
        from build_kernels import tell
    finally:
        sys.path.remove(str(ROOT))
    terminal = tmp_path / "tty"
    terminal.write_text("")
    tell("mjfast: compiling", terminal=str(terminal))
    assert terminal.read_text() == "\nmjfast: compiling\n" and capsys.readouterr().err == ""
    tell("mjfast: compiled", terminal=str(tmp_path / "no" / "tty"))
    assert capsys.readouterr().err == "mjfast: compiled\n"


def test_the_wheel_carries_compiled_kernels(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".nbi") for n in names) and any(n.endswith(".nbc") for n in names)
    assert not any(n.endswith(".pyc") for n in names)


def test_an_install_from_the_wheel_answers_without_compiling(wheel, tmp_path):
    site = _install(wheel, tmp_path / "site")
    first = _probe(site)
    assert Path(first["file"]).is_relative_to(site)
    assert first["shanten"] == 1
    assert first["compiles"] == []


def _read_only_install(wheel: Path, site: Path) -> Path:
    site = _install(wheel, site)
    if os.geteuid() != 0:  # root writes anywhere: _probe mounts the package read-only instead
        for path in sorted((site / "mjfast").rglob("*"), reverse=True) + [site / "mjfast"]:
            path.chmod(path.stat().st_mode & ~0o222)
    return site


def test_a_read_only_install_loads_the_kernels_it_ships_from_a_copy(wheel, tmp_path):
    site = _read_only_install(wheel, tmp_path / "site")
    home = tmp_path / "home"
    first = _probe(site, read_only=True, HOME=str(home), XDG_CACHE_HOME="")
    assert first["writable"] is False
    assert first["shanten"] == 1
    assert first["compiles"] == []
    copy = Path(first["copy"])
    assert copy.is_relative_to(home / ".cache" / "mjfast")
    assert sorted(p.name for p in copy.rglob("*.nbi")) == sorted(p.name for p in site.rglob("__pycache__/*.nbi"))
    again = _probe(site, read_only=True, HOME=str(home), XDG_CACHE_HOME="")
    assert again["compiles"] == [] and again["copy"] == first["copy"]
    # a kernel it did not ship compiles, and is cached in the copy for the next process
    other = _probe(site, read_only=True, HOME=str(home), XDG_CACHE_HOME="", NUMBA_CPU_NAME="generic")
    assert other["shanten"] == 1 and other["compiles"]
    assert _probe(site, read_only=True, HOME=str(home), XDG_CACHE_HOME="", NUMBA_CPU_NAME="generic")["compiles"] == []


def test_another_cpu_compiles_and_answers_the_same(wheel, tmp_path):
    site = _install(wheel, tmp_path / "site")
    other = _probe(site, NUMBA_CPU_NAME="generic")
    assert other["shanten"] == 1
    assert other["compiles"], "a cache built for this CPU was served to another"


def test_a_changed_kernel_source_drops_the_shipped_kernels(wheel, tmp_path):
    site = _install(wheel, tmp_path / "site")
    package = site / "mjfast"
    shipped = {p.name for p in package.rglob("__pycache__/*.nbi")}
    assert shipped
    source = package / "efficiency" / "group_dp.py"  # a module the shanten kernels are compiled from
    source.write_text(source.read_text() + "\n# changed\n")
    changed = _probe(site)
    assert changed["shanten"] == 1
    assert changed["compiles"], "kernels compiled from a changed source were served"


def test_a_warm_up_runs_the_calls_named_in_their_order_and_refuses_an_unknown_one():
    import mjfast
    import mjfast.warmup as warmup

    assert warmup.warm_up(only=["shanten", "fan.score"]) == ["shanten", "fan.score"]
    assert warmup.warm_up(only=["fan.score", "shanten"], skip=("shanten",)) == ["fan.score"]
    assert "hand_value" in warmup.call_names() and "best_discards (fan-aware)" in warmup.call_names()
    with pytest.raises(mjfast.ArgumentError, match="no warm-up call named nothing"):
        warmup.warm_up(only=["nothing"])
