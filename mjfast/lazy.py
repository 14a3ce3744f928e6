"""Package attributes imported on first use, so that importing a package stays cheap."""

from __future__ import annotations

import sys
from importlib import import_module


def lazy_attributes(package: str, homes: dict[str, tuple[str, ...]]):
    """A module-level __getattr__ for `package` that imports the module of each name in
    `homes` ({submodule: names}) when the name is first read, and keeps the value as a
    package attribute (later reads skip the function)."""
    module_of = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str):
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
