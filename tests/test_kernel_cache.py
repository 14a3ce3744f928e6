"""Which kernels numba caches on disk.

A kernel that Python calls must be cached, or every process compiles it again (seconds).
A kernel that only other kernels call must not be: its code is compiled into its callers'
cached libraries, and caching it as well costs every import a check of the cache folder
and the first-ever compile an object file per specialisation (see mjfast.kernel_cache).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mjfast"


def _is_njit(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return getattr(target, "id", None) == "njit" or getattr(target, "attr", None) == "njit"


def _kernels(tree: ast.Module) -> list[ast.FunctionDef]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
            and any(_is_njit(d) for d in node.decorator_list)]


def _cached(kernel: ast.FunctionDef) -> bool:
    for decorator in kernel.decorator_list:
        if _is_njit(decorator) and isinstance(decorator, ast.Call):
            return any(k.arg == "cache" and getattr(k.value, "value", False) is True for k in decorator.keywords)
    return False


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
    return sorted(p for folder in ("mjfast", "tests", "bench") for p in (ROOT / folder).rglob("*.py"))


def test_kernels_are_cached_exactly_when_python_calls_them():
    trees = {path: ast.parse(path.read_text(), str(path)) for path in _sources()}
    python_uses = set().union(*(_names_python_uses(tree) for tree in trees.values()))
    wrong = []
    kernels = 0
    for path, tree in trees.items():
        if PACKAGE not in path.parents:
            continue
        for kernel in _kernels(tree):
            kernels += 1
            if _cached(kernel) != (kernel.name in python_uses):
                state = "cached but called only from kernels" if _cached(kernel) else "called from Python but not cached"
                wrong.append(f"{path.relative_to(ROOT)}:{kernel.lineno} {kernel.name}: {state}")
    assert kernels > 100  # the walk found the package's kernels
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_python_call_and_a_kernel_call():
    source = """
from numba import njit

@njit(cache=True)
def entry(x):
    return inner(x)

@njit
def inner(x):
    return x

def api(x):
    return entry(x)
"""
    tree = ast.parse(source)
    assert {k.name: _cached(k) for k in _kernels(tree)} == {"entry": True, "inner": False}
    uses = _names_python_uses(tree)
    assert "entry" in uses and "inner" not in uses
