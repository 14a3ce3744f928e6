"""No import cycle in the package: every import of every module counts, at the top, inside a
function (imported when it runs) or under TYPE_CHECKING (read by the type checker), since each
ties the two modules' designs together as much as the others do."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def modules(folder: Path) -> dict[str, Path]:
    """{dotted name: file} of every module of the package at `folder`."""
    found = {}
    for path in folder.rglob("*.py"):
        parts = list(path.relative_to(folder.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict) -> set[str]:
    """The package's modules that module `name` imports: `import a.b`, `from a import b` (module
    b, else module a), relative imports resolved."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:
                    found.add(sub)
                elif base in known:
                    found.add(base)
    found.discard(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def graph_of(folder: Path) -> dict[str, set[str]]:
    known = modules(folder)
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_package_has_no_import_cycle():
    graph = graph_of(ROOT / "mjfast")
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300  # the walk found the package and its imports
    assert graph["mjfast.logs.cli"] >= {"mjfast.commands.options"}  # a function's import counts
    assert cycles(graph) == []


def test_the_walk_sees_a_cycle_through_a_function_and_type_checking(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from .sub import b\n")
    (package / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\n"
                                          "if TYPE_CHECKING:\n    from ..c import C\n")
    (package / "c.py").write_text("from pkg import a\n")
    (package / "d.py").write_text("from .a import f\n")
    graph = graph_of(package)
    assert graph["pkg.a"] == {"pkg.sub.b"} and graph["pkg.sub.b"] == {"pkg.c"} and graph["pkg.c"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
