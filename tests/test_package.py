"""The packages' public names (listed in __all__, shown by dir() before they load, imported by
`import *`; an unknown name is an AttributeError that names it), and what importing costs."""

import importlib
import importlib.util
import subprocess
import sys

import pytest


@pytest.mark.parametrize("package", ["mjfast", "mjfast.fan", "mjfast.logs", "mjfast.review"])
def test_public_names(package):
    module = importlib.import_module(package)
    assert len(module.__all__) == len(set(module.__all__)) >= 3
    assert set(module.__all__) <= set(dir(module))
    namespace = {}
    exec(f"from {package} import *", namespace)
    assert set(module.__all__) <= set(namespace)
    assert all(namespace[name] is getattr(module, name) for name in module.__all__)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'nothing_here'"):
        _ = module.nothing_here


def test_importing_the_packages_and_the_command_line_does_not_import_numba():
    # `mjfast --help` and code that only imports mjfast must not pay for numba (0.3-0.6 s)
    probe = ("import sys, mjfast, mjfast.fan, mjfast.logs, mjfast.review; from mjfast.cli import _parser; _parser(); "
             "print('numba' in sys.modules); mjfast.parse_hand('123m456p789s1357s'); print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.split() == ["False", "True"]  # parsing a string takes the kernel's fast path


def test_every_exception_mjfast_defines_is_a_mjfast_error():
    """One root: `except mjfast.MjfastError` catches whatever mjfast raises on purpose."""
    import ast
    import pkgutil

    import mjfast

    defined = []
    for info in pkgutil.walk_packages(mjfast.__path__, "mjfast."):
        source = importlib.util.find_spec(info.name).origin
        for node in ast.walk(ast.parse(open(source, encoding="utf-8").read())):
            if isinstance(node, ast.ClassDef):
                defined.append((info.name, node.name))
    found = []
    for module_name, name in defined:
        value = getattr(importlib.import_module(module_name), name, None)
        if isinstance(value, type) and issubclass(value, BaseException):
            found.append(value)
            assert issubclass(value, mjfast.MjfastError), f"{module_name}.{name}"
    assert {"HandError", "ArgumentError", "GameError", "LogError", "ProtocolError", "IllegalAction", "RequestError",
            "CommandError"} <= {cls.__name__ for cls in found}
    assert all(issubclass(cls, ValueError) for cls in (mjfast.HandError, mjfast.ArgumentError, mjfast.GameError))


def test_the_install_packs_every_package():
    """pyproject.toml lists the packages an install packs: a package missing from the list is
    missing from every wheel (its modules import only from a checkout)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    packages = re.search(r"^packages = \[(.*?)\]", (root / "pyproject.toml").read_text(), re.S | re.M).group(1)
    listed = set(re.findall(r'"(mjfast[\w.]*)"', packages))
    found = {".".join(path.parent.relative_to(root).parts) for path in (root / "mjfast").rglob("__init__.py")}
    assert "mjfast.commands" in found and "mjfast._tables" in listed
    assert found <= listed, sorted(found - listed)
