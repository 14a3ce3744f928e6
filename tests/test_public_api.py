"""Public names are a promise (docs/api.md): every name and module path that README.md and
docs/ show, and every one the README showed at cdcbfd8, imports; a module that moved warns
once, with a DeprecationWarning naming its new place, and then works as before."""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What the README showed at cdcbfd8 (the last README before the modules moved into efficiency/
# and runtime/), as shown_names() reads it: `git show cdcbfd8:README.md`.
SHOWN_AT_CDCBFD8 = (
    "from mjfast.fan import score", "from mjfast.fan import settle", "from mjfast.fan import winning_tiles",
    "import mjfast", "import mjfast.batch", "mjfast.HandError", "mjfast.acceptance", "mjfast.api", "mjfast.batch",
    "mjfast.batch.shanten", "mjfast.best_discards", "mjfast.claim_options", "mjfast.cli", "mjfast.compact_kernel",
    "mjfast.errors", "mjfast.hand", "mjfast.jit", "mjfast.lazy", "mjfast.parse_hand", "mjfast.shanten",
    "mjfast.shanten_by_form", "mjfast.threads", "mjfast.tile_ids", "mjfast.tileprops", "mjfast.tiles",
    "mjfast.useful_by_form", "mjfast.useful_tiles", "mjfast.waits", "mjfast.warmup",
)
# Modules that moved: the old name imports, warns once and names the new place.
MOVED = {"mjfast.api": "mjfast.efficiency.api", "mjfast.jit": "mjfast.runtime", "mjfast.lazy": "mjfast.runtime.lazy",
         "mjfast.threads": "mjfast.runtime.threads", "mjfast.advice.budget": "mjfast.advice.value.budget",
         "mjfast.advice.graph": "mjfast.advice.value.graph"}

_CODE = re.compile(r"\bimport (mjfast[\w.]*)|\bfrom (mjfast[\w.]*) import ([\w, ]+)|\b(mjfast(?:\.\w+)+)"
                   r"|\b(mjfast(?:/\w+)+)\.py\b")
_FOLDER = re.compile(r"^( *)(\w+)/ ")


def _layout(text: str) -> set[str]:
    """The modules a Layout section's tree lists under mjfast/ (name.py under its folder)."""
    found: set[str] = set()
    block = re.search(r"^## Layout\s*\n+```\n(.*?)```", text, re.S | re.M)
    if block is None:
        return found
    package = None
    for line in block.group(1).splitlines():
        folder = _FOLDER.match(line)
        if folder is not None:
            top = not folder.group(1)
            if top:
                package = "mjfast" if folder.group(2) == "mjfast" else None
            elif package is not None:
                package = f"mjfast.{folder.group(2)}"
            line = line[folder.end():]
        for name in re.findall(r"\b(\w+)\.py\b", line) if package is not None else ():
            if name not in ("__init__", "__main__"):  # the package itself; python -m's, which runs the command
                found.add(f"{package}.{name}")
    return found


def shown_names(text: str) -> set[str]:
    """Each import statement and dotted name (`mjfast.x.y`), each module path (mjfast/x/y.py)
    and each module of the Layout tree that a Markdown text shows: `import m`, `from m import
    n` (one entry a name) or a dotted name to resolve."""
    found = _layout(text)
    for module, source, names, dotted, path in _CODE.findall(text):
        if module:
            found.add(f"import {module}")
        elif source:
            found.update(f"from {source} import {name.strip()}" for name in names.split(",") if name.strip())
        elif dotted:
            found.add(dotted)
        else:
            found.add(path.replace("/", "."))
    return found


def documented() -> set[str]:
    names = shown_names((ROOT / "README.md").read_text(encoding="utf-8"))
    for page in sorted((ROOT / "docs").glob("*.md")):
        names |= shown_names(page.read_text(encoding="utf-8"))
    return names


# Resolves each name in a fresh interpreter, recording the warnings its first resolution and a
# second one raise.
_RESOLVE = '''
import importlib, json, sys, warnings

def resolve(name):
    if name.startswith("import "):
        return importlib.import_module(name[7:])
    if name.startswith("from "):
        module, _, attribute = name[5:].partition(" import ")
        return getattr(importlib.import_module(module), attribute)
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[k:]:
            value = getattr(value, attribute)
        return value

found = {}
for name in json.loads(sys.argv[1]):
    record = found[name] = {"error": None, "warned": []}
    for round in ("first", "again"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                resolve(name)
            except Exception as exc:
                record["error"] = f"{type(exc).__name__}: {exc}"
        record["warned"] += [f"{round} {w.category.__name__}: {w.message}" for w in caught]
print(json.dumps(found))
'''


def _resolved(names) -> dict:
    done = subprocess.run([sys.executable, "-c", _RESOLVE, json.dumps(sorted(names))], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_reader_finds_imports_dotted_names_paths_and_the_layout():
    text = ("```python\nimport mjfast.batch\nfrom mjfast.fan import score, settle\n```\n"
            "See `mjfast.game.state.WALLS` and mjfast/runtime/threads.py; mjfast.fan's rules.\n\n## Layout\n\n```\n"
            "mjfast/      the face: tiles.py (notation)\n             hand.py  __main__.py\n"
            "  runtime/     lazy.py (names)\n"
            "tables/      build.py\n```\n")
    assert shown_names(text) == {"import mjfast.batch", "from mjfast.fan import score", "from mjfast.fan import settle",
                                 "mjfast.game.state.WALLS", "mjfast.runtime.threads", "mjfast.fan", "mjfast.tiles",
                                 "mjfast.hand", "mjfast.runtime.lazy"}


def test_every_name_the_readme_and_docs_show_and_showed_works():
    names = documented() | set(MOVED)
    assert {"import mjfast", "mjfast.best_discards", "mjfast.batch.shanten", "from mjfast.fan import score"} <= names
    assert len(names) > 60
    names |= set(SHOWN_AT_CDCBFD8)
    found = _resolved(names)
    broken = {name: r["error"] for name, r in found.items() if r["error"]}
    assert not broken, broken
    for name, record in found.items():
        # a name warns only through a moved module, once, and never on its second resolution
        assert not [w for w in record["warned"] if w.startswith("again")], (name, record)
        for warning in record["warned"]:
            assert warning.startswith("first DeprecationWarning: mjfast.") and "has moved" in warning, (name, warning)


def test_a_moved_module_warns_once_naming_its_new_place_and_works():
    for old, new in MOVED.items():
        code = (f"import warnings, json\nwarnings.simplefilter('always')\n"
                f"with warnings.catch_warnings(record=True) as caught:\n"
                f"    import {old}\n    import {old}\n    from {old} import *\n"
                f"import {new}\n"
                f"print(json.dumps({{'warnings': [f'{{w.category.__name__}}: {{w.message}}' for w in caught],"
                f" 'same': {old} is {new}}}))")
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        found = json.loads(done.stdout)
        assert len(found["warnings"]) == 1, (old, found["warnings"])
        assert found["warnings"][0].startswith(f"DeprecationWarning: {old} has moved: import {new}"), found
        assert found["same"] or old == "mjfast.jit", old  # the module itself, under its old name
    assert "mjfast.batch" not in MOVED  # the README's batch module is public, not moved
