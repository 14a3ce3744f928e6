"""The package's shape, as issues 58 and 67 set it: no function takes more than 12 parameters
(a kernel's inputs travel as records: advice.position.Position, the value engine's query, the
fan-aware ranking's figures), but for a public function's keyword-only options (best_discards'
seat_wind=, ruleset=, ...); and no module but the generated ones is over 500 lines."""

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


def _inputs(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The parameters that count: all of them, but a public function's keyword-only options."""
    public = not function.name.startswith("_")
    return _parameters(function) - (len(function.args.kwonlyargs) if public else 0)


def test_no_function_takes_more_than_12_parameters_but_a_public_one_s_options():
    wide = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _inputs(node) > MOST_PARAMETERS:
                wide.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({_inputs(node)})")
    assert len(_modules()) > 100  # the walk found the package
    assert not wide, wide


def test_no_module_is_over_500_lines():
    long = [f"{p.relative_to(PACKAGE)} ({n})" for p in _modules()
            if (n := len(p.read_text().splitlines())) > MOST_LINES]
    assert not long, long


def test_the_count_sees_every_kind_of_parameter():
    function = ast.parse("def f(a, /, b, *c, d, **e): pass").body[0]
    assert isinstance(function, ast.FunctionDef) and _parameters(function) == 5 and _inputs(function) == 4
    private = ast.parse("def _f(a, *, d): pass").body[0]
    assert isinstance(private, ast.FunctionDef) and _inputs(private) == 2
