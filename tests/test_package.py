"""The packages' public names: listed in __all__, shown by dir() before they load, imported
by `import *`, and an unknown name is an AttributeError that names it."""

import importlib

import pytest


@pytest.mark.parametrize("package", ["mjfast", "mjfast.fan", "mjfast.logs"])
def test_public_names(package):
    module = importlib.import_module(package)
    assert len(module.__all__) == len(set(module.__all__)) >= 3
    assert set(module.__all__) <= set(dir(module))
    namespace = {}
    exec(f"from {package} import *", namespace)
    assert set(module.__all__) <= set(namespace)
    assert all(namespace[name] is getattr(module, name) for name in module.__all__)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'nothing_here'"):
        module.nothing_here
