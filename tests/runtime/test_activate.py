"""Importing mjfast changes nothing of numba's: every module of the package imported, numba's
classes, its cache locators and its compile listeners are as they were, and mjfast's
activation has not run; the first kernel compiled or loaded runs it (runtime/activate.py, the
one place), and then each extra is in place."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent('''
    import importlib, json, pkgutil, warnings
    from numba.core import caching, codegen, event, inline_closurecall

    def numba_state():
        impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
        return {"finalize": codegen.CPUCodeLibrary.finalize, "set_env": codegen.JITCPUCodegen.set_env,
                "inline_ir": inline_closurecall.InlineWorker.inline_ir,
                "inline_function": inline_closurecall.InlineWorker.inline_function,
                "load_overload": caching.Cache.load_overload, "locators": tuple(impl._locator_classes),
                "listeners": tuple(event._registered["numba:compile"])}

    def changed(before, after):
        return sorted(k for k in before if before[k] != after[k])

    before = numba_state()
    import mjfast
    modules = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the moved names' modules
        for info in pkgutil.walk_packages(mjfast.__path__, "mjfast."):
            if info.name != "mjfast.__main__":  # it runs the command
                importlib.import_module(info.name)
                modules += 1
    from mjfast.runtime import activate
    imported = numba_state()
    active_after_import = activate.ACTIVE
    answer = mjfast.shanten("123m456p789s1357s")
    used = numba_state()
    print(json.dumps({"modules": modules, "after_import": changed(before, imported),
                      "active_after_import": active_after_import, "after_use": changed(before, used),
                      "active_after_use": activate.ACTIVE, "answer": answer}))
''')


def test_importing_changes_nothing_of_numbas_until_a_kernel_compiles_or_loads():
    env = {k: v for k, v in os.environ.items() if k not in ("MJFAST_QUIET", "MJFAST_NUMBA_EXTRAS")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["modules"] > 100  # every module of the package, the kernels' among them
    assert found["after_import"] == [] and found["active_after_import"] is False
    assert found["answer"] == 1 and found["active_after_use"] is True
    # a writable tree: no shipped copy's locator; every other extra, and the compile notice
    assert found["after_use"] == ["finalize", "inline_function", "inline_ir", "listeners", "load_overload", "set_env"]
