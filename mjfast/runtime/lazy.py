"""Names loaded on first use: a package's attributes imported when first read, so that
importing the package stays cheap, and modules that moved, kept importable under their old
name with a warning (docs/api.md)."""

from __future__ import annotations

import sys
import warnings
from importlib import import_module


def lazy_attributes(package: str, homes: dict[str, tuple[str, ...]]):
    """(__getattr__, __dir__) for the module level of `package`: __getattr__ imports the
    module of each name in `homes` ({module: names}; a submodule of `package`, or a whole
    name "mjfast.x") when the name is first read and keeps the value as a package attribute
    (later reads skip it); a name listed under a module of its own name is that module.
    __dir__ lists those names beside the package's own."""
    module_of = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str):
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        home = import_module(module if module.startswith("mjfast.") else f".{module}", package)
        value = home if module.rpartition(".")[2] == name else getattr(home, name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(module_of))

    return __getattr__, __dir__


def moved(old: str, new: str, alias: bool = True):
    """Warn (DeprecationWarning, at the importer's line) that module `old` is now `new`, and
    return `new`, imported. A module's code runs once a process, so each old name warns once.
    `alias`: `new` is one module, which the old name's importers receive instead (the caller
    makes it sys.modules[old]); else `new` only names the new places in the warning."""
    warnings.warn(f"{old} has moved: import {new} instead ({old} will be removed; docs/api.md)", DeprecationWarning,
                  stacklevel=3)
    return import_module(new) if alias else None
