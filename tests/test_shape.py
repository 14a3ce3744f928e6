"""The package's shape, as issues 58 and 67 set it: no function outside mjfast/advice/, nor in
its value engine (mjfast/advice/value/), takes more than 12 parameters (a kernel's inputs
travel as records), and no module but the generated ones is over 500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mjfast"
MOST_PARAMETERS = 12
MOST_LINES = 500


def _modules():
    return sorted(p for p in PACKAGE.rglob("*.py") if "_tables" not in p.parts)


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = function.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)


def _exempt(path: Path) -> bool:
    """advice/'s rankings outside the value engine (their kernels' records are still to come)."""
    parts = path.relative_to(PACKAGE).parts
    return parts[0] == "advice" and parts[1] != "value"


def test_no_function_outside_advice_nor_in_the_value_engine_takes_more_than_12_parameters():
    wide = []
    for path in _modules():
        if _exempt(path):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _parameters(node) > MOST_PARAMETERS:
                wide.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({_parameters(node)})")
    assert len(_modules()) > 100  # the walk found the package
    assert not _exempt(PACKAGE / "advice" / "value" / "entry.py") and _exempt(PACKAGE / "advice" / "options.py")
    assert not wide, wide


def test_no_module_is_over_500_lines():
    long = [f"{p.relative_to(PACKAGE)} ({n})" for p in _modules()
            if (n := len(p.read_text().splitlines())) > MOST_LINES]
    assert not long, long


def test_the_count_sees_every_kind_of_parameter():
    function = ast.parse("def f(a, /, b, *c, d, **e): pass").body[0]
    assert isinstance(function, ast.FunctionDef) and _parameters(function) == 5
