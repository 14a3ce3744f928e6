"""Which kernels numba caches on disk, and how they load.

A kernel that Python calls must be cached, or every process compiles it again (seconds).
A kernel that only other kernels call must not be: its code is compiled into its callers'
cached libraries, and caching it as well costs every import a check of the cache folder
and the first-ever compile an object file per specialisation (mjfast.runtime.cache), unless it
is a shared core (`njit(shared=True)`), whose cached code other processes' callers link.
Cached kernels load without numba's compiler set-up, other packages' as numba loads them
(mjfast.runtime.cache).
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "mjfast"


def _is_njit(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return getattr(target, "id", None) == "njit" or getattr(target, "attr", None) == "njit"


def _kernels(tree: ast.Module) -> list[ast.FunctionDef]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
            and any(_is_njit(d) for d in node.decorator_list)]


def _option(kernel: ast.FunctionDef, name: str) -> bool:
    for decorator in kernel.decorator_list:
        if _is_njit(decorator) and isinstance(decorator, ast.Call):
            return any(k.arg == name and getattr(k.value, "value", False) is True for k in decorator.keywords)
    return False


def _cached(kernel: ast.FunctionDef) -> bool:
    return _option(kernel, "cache") or _option(kernel, "shared")


def _names_python_uses(tree: ast.Module) -> set[str]:
    """Every name read outside a kernel's body (bare or as an attribute)."""
    inside = {id(node) for kernel in _kernels(tree) for node in ast.walk(kernel)}
    used = set()
    for node in ast.walk(tree):
        if id(node) in inside or not isinstance(getattr(node, "ctx", None), ast.Load):
            continue
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Attribute):
            used.add(node.attr)
    return used


def _sources() -> list[Path]:
    return sorted(p for folder in ("mjfast", "tests", "bench", "tables") for p in (ROOT / folder).rglob("*.py"))


def test_kernels_are_cached_exactly_when_python_calls_them():
    trees = {path: ast.parse(path.read_text(), str(path)) for path in _sources()}
    python_uses = set().union(*(_names_python_uses(tree) for tree in trees.values()))
    wrong = []
    kernels = 0
    shared_cores = set()
    for path, tree in trees.items():
        if PACKAGE not in path.parents:
            continue
        for kernel in _kernels(tree):
            kernels += 1
            shared = _option(kernel, "shared")
            if _cached(kernel) != (shared or kernel.name in python_uses):
                state = ("cached but called only from kernels" if _cached(kernel)
                         else "called from Python but not cached")
                wrong.append(f"{path.relative_to(ROOT)}:{kernel.lineno} {kernel.name}: {state}")
            if shared:
                shared_cores.add(kernel.name)
    assert kernels > 100  # the walk found the package's kernels
    # the large kernels several libraries call, each emitted once (runtime/codegen.py)
    assert shared_cores == {"score_into", "discard_options", "all_forms", "discard_sweep", "knitted_floor",
                            "draw_sweep", "prepare_draws", "group_distances_and_masks"}
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_python_call_and_a_kernel_call():
    source = """
from numba import njit

@njit(cache=True)
def entry(x):
    return inner(x)

@njit
def inner(x):
    return core(x)

@njit(shared=True)
def core(x):
    return x

def api(x):
    return entry(x)
"""
    tree = ast.parse(source)
    assert {k.name: _cached(k) for k in _kernels(tree)} == {"entry": True, "inner": False, "core": True}
    assert [k.name for k in _kernels(tree) if _option(k, "shared")] == ["core"]
    uses = _names_python_uses(tree)
    assert "entry" in uses and "inner" not in uses and "core" not in uses


def test_numba_is_imported_by_mjfast_runtime_alone():
    """Every numba detail lives in mjfast.runtime (decorators, intrinsics, dispatch, the cache):
    a module that imported numba itself could load its kernels before the activation ran, or
    rely on an internal the guard there does not cover."""
    direct = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "runtime":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            modules = ([node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                       else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            direct += [f"{path.relative_to(ROOT)}:{node.lineno} {m}" for m in modules if m.split(".")[0] == "numba"]
    assert not direct, "\n".join(direct)


# After one call: whether numba's target refresh ran (it imports numba.np.linalg, which
# neither `import numba` nor loading compiled code does).
_REFRESHED = "import sys; print('numba.np.linalg' in sys.modules)"


def _run_twice(code: str, cwd: Path, env: "dict | None" = None) -> list[str]:
    """The output of `code` in two fresh processes, the first one filling numba's cache."""
    return [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True,
                           cwd=cwd, env=env).stdout.split() for _ in range(2)]


def test_cached_kernels_load_without_the_compiler_set_up():
    """A fresh process answers from cached kernels with numba's runtime started and nothing
    more (its target refresh is a quarter of a first query), and answers right."""
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import mjfast; "
            "best = mjfast.best_discards('123m456p789s1357sE')[0]; "
            "print(best.tile, best.valid_acceptance, mjfast.shanten('[EEE]123m456p78s99s')); " + _REFRESHED)
    first, second = _run_twice(code, ROOT)
    assert second == ["E", "23", "0", "False"]
    assert first[:3] == second[:3]


def test_other_packages_kernels_load_as_numba_loads_them(tmp_path):
    (tmp_path / "other_kernels.py").write_text("from numba import njit\n\n\n@njit(cache=True)\n"
                                               "def twice(x):\n    return 2 * x\n")
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import mjfast, other_kernels; "
            "print(other_kernels.twice(21)); " + _REFRESHED)
    in_tree = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}  # the cache beside its module
    first, second = _run_twice(code, tmp_path, in_tree)
    assert first == second == ["42", "True"]
    assert list((tmp_path / "__pycache__").glob("other_kernels.twice-*.nbi"))  # the second run loaded it


def test_stale_kernels_are_dropped_by_content_of_what_kernels_compile(tmp_path, monkeypatch):
    """The cache is dropped when a module the kernels are compiled from changes (a kernel
    module, or a module it imports constants from), and only then: an edit elsewhere or new
    modification times (an install copying the same files) keep it."""
    from mjfast.runtime import cache as kernel_cache

    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__pycache__").mkdir()
    (package / "kernels.py").write_text("from .sub.consts import LIMIT\n\n@njit(cache=True)\ndef k(x):\n"
                                        "    return min(x, LIMIT)\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "consts.py").write_text("LIMIT = 3\n")
    (package / "rules.py").write_text("def rule():\n    return 1\n")
    cached = package / "__pycache__" / "kernels.k-4.py311.nbi"
    monkeypatch.setattr(kernel_cache, "PACKAGE", package)
    monkeypatch.setattr(kernel_cache, "STAMP", package / "__pycache__" / "kernel-sources.stamp")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert [p.name for p in kernel_cache.kernel_sources(sorted(package.rglob("*.py")))] == ["kernels.py", "consts.py"]

    def kept_after(change) -> bool:
        cached.write_text("compiled")
        kernel_cache.drop_stale_kernels()
        assert cached.exists()  # the sources match the stamp
        change()
        kernel_cache.drop_stale_kernels()
        return cached.exists()

    kernel_cache.drop_stale_kernels()  # the first stamp
    assert kept_after(lambda: (package / "rules.py").write_text("def rule():\n    return 2\n"))
    assert kept_after(lambda: [os.utime(p, (1, 1)) for p in package.rglob("*.py")])
    assert not kept_after(lambda: (package / "sub" / "consts.py").write_text("LIMIT = 4\n"))
    assert not kept_after(lambda: (package / "kernels.py").write_text("@njit(cache=True)\ndef k(x):\n    return x\n"))


def _listening(notice):
    """numba's compile events passed to `notice` (a CompileNotice) while the context lasts."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, e):
            notice.on_start(e)

        def on_end(self, e):
            notice.on_end(e)

    return event.install_listener("numba:compile", Listener())


def _probes(name: str, source: str) -> tuple:
    """(a module named under mjfast, one of another package), each with `source` run in it."""
    import types

    ours, theirs = types.ModuleType(f"mjfast._{name}_probe"), types.ModuleType(f"elsewhere_{name}_probe")
    exec(source, ours.__dict__)
    exec(source, theirs.__dict__)
    return ours, theirs


def test_a_compile_says_so_on_stderr_once_and_a_loaded_kernel_says_nothing():
    """The notice speaks at the first compile of one of mjfast's kernels (a kernel of a module
    named under mjfast, compiled afresh here), not at a second call, not for another package
    nor for a function without a module."""
    import io

    from mjfast.runtime.notice import CompileNotice

    stream = io.StringIO()
    notice = CompileNotice(stream)
    # uncached, yet called from Python: it keeps numba's wrapper
    source = ("from mjfast.runtime.decorators import njit\n\n@njit(no_cpython_wrapper=False)\n"
              "def twice(x):\n    return 2 * x\n")
    ours, theirs = _probes("compile", source)
    nowhere = {"__name__": None}
    exec(source.replace("twice", "thrice").replace("2 *", "3 *"), nowhere)
    with _listening(notice):
        assert theirs.twice(2) == 4
        assert nowhere["thrice"](2) == 6
        assert stream.getvalue() == ""  # another package's kernel, a kernel of no module
        assert ours.twice(21) == 42
        first = stream.getvalue()
        assert ours.twice(4) == 8  # compiled already
    assert first.startswith("mjfast: compiling its numba kernels") and first.count("\n") == 1
    assert stream.getvalue() == first and notice.done == 1


def test_a_quiet_notice_keeps_its_tally_of_kernels_compiled(tmp_path):
    """With MJFAST_PROGRESS's file (a warm-up's child, quiet), each of mjfast's kernels compiled
    appends one byte to it and nothing is said; another package's kernel adds nothing."""
    import io

    from mjfast.runtime.notice import CompileNotice

    stream, tally = io.StringIO(), tmp_path / "tally"
    notice = CompileNotice(stream, quiet=True, tally=str(tally))
    source = ("from mjfast.runtime.decorators import njit\n\n@njit(no_cpython_wrapper=False)\n"
              "def half(x):\n    return x // 2\n\n@njit(no_cpython_wrapper=False)\ndef quarter(x):\n"
              "    return half(half(x))\n")
    ours, theirs = _probes("tally", source)
    with _listening(notice):
        assert theirs.quarter(8) == 2
        assert not tally.exists()
        assert ours.quarter(8) == 2  # half compiles inside quarter: one kernel as Python called it
        assert ours.half(8) == 4  # compiled already for these types
    assert tally.read_bytes() == b"." and stream.getvalue() == "" and notice.done == 1


def test_a_warm_up_in_processes_reports_the_kernels_its_children_compile(tmp_path, monkeypatch):
    """mjfast warmup and the build tell the kernels compiled so far, summed over their child
    processes, every PROGRESS_EVERY seconds (here: a child compiling shanten's kernels into a
    cache of the test's own)."""
    import mjfast.warmup as warmup

    monkeypatch.setattr(warmup, "PROGRESS_EVERY", 1.0)
    told = []
    env = dict(warmup.child_env(), NUMBA_CACHE_DIR=str(tmp_path))
    failure = warmup.warm_up_in_processes([{"only": ["shanten"]}, {"only": ["fan.score"]}], env,
                                          progress=lambda kernels, seconds: told.append((kernels, seconds)))
    assert failure is None
    assert len(told) >= 2 and told == sorted(told) and told[-1][0] >= 2  # counts only grow
    assert warmup.warm_up_in_processes([{"only": ["no such call"]}], env) is not None  # a child's failure


def test_a_kernel_only_kernels_call_raises_when_python_calls_it():
    """An uncached kernel compiles without the wrapper Python calls it through (mjfast.runtime.dispatch):
    a Python call raises TypeError instead of jumping to the missing wrapper, before and
    after a kernel that calls it has compiled it."""
    import types

    probe = types.ModuleType("mjfast._wrapper_probe")
    exec("from mjfast.runtime.decorators import njit\n\n@njit\ndef inner(x):\n    return 2 * x\n\n"
         "@njit(no_cpython_wrapper=False)\ndef outer(x):\n    return inner(x) + 1\n", probe.__dict__)
    with pytest.raises(TypeError, match="inner is a kernel only other kernels call"):
        probe.inner(3)
    assert probe.outer(3) == 7 and probe.outer(2.5) == 6.0
    with pytest.raises(TypeError, match="only other kernels call"):
        probe.inner(3)
    assert len(probe.inner.overloads) == 2  # compiled for the caller, once per argument type


def test_a_kernel_only_kernels_call_has_no_machine_code_of_its_own():
    """Such a kernel's library is only linked (mjfast.runtime.codegen's link-only libraries): no machine code
    of its own, while its caller, which holds that code, has machine code and answers."""
    import types

    probe = types.ModuleType("mjfast._link_probe")
    exec("from mjfast.runtime.decorators import njit\n\n@njit\ndef halve(x):\n    return x // 2\n\n"
         "@njit(no_cpython_wrapper=False)\ndef quarter(x):\n    return halve(halve(x))\n", probe.__dict__)
    assert probe.quarter(40) == 10
    (inner,) = probe.halve.overloads.values()
    (outer,) = probe.quarter.overloads.values()
    assert inner.library.get_pointer_to_function(inner.fndesc.mangled_name) == 0
    assert outer.library.get_pointer_to_function(outer.fndesc.mangled_name) != 0


def test_a_kernel_called_with_constants_compiles_once_for_their_types():
    """mjfast.runtime's kernels compile for the type of an integer or boolean constant a caller
    passes, not for each value (numba alone compiles one copy per constant)."""
    from mjfast.runtime.decorators import njit

    @njit
    def step(x, k, flag):
        return x + k if flag else x - k

    @njit(no_cpython_wrapper=False)  # uncached, called from Python
    def caller(x):
        return step(x, 3, True) + step(x, 13, True) + step(x, 1, False)

    assert caller(10) == 13 + 23 + 9
    assert [tuple(str(t) for t in s) for s in step.signatures] == [("int64", "int64", "bool")]
