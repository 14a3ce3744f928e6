"""Package attributes imported on first use, so that importing a package stays cheap."""

from __future__ import annotations

import sys
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
