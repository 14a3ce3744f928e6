"""Shared cores linked by name (mjfast/runtime/codegen.py): a shared core's code is emitted once,
its callers declare it by a name every process gives it, a cached caller loads the cores it
names first, and a core missing from the cache makes its caller compile again, never fail. A loaded
library's code for linking is parsed only when a compile links it.

Each run is a fresh process on a cache of the test's own (NUMBA_CACHE_DIR): the efficiency
ranking (discard_options, a shared core that calls two more, discard_sweep and draw_sweep)
and shanten (all_forms)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mjfast.runtime.codegen import STABLE_PREFIX, SharedCoreMissing, stable_name
from mjfast.runtime.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[2]

_RUN = """if True:
    import json
    import mjfast
    from mjfast.advice import plain
    from mjfast.runtime import activate, codegen
    ranked = [(o.tile, o.acceptance, round(o.next_acceptance, 9))
              for o in mjfast.best_discards("123m456p789s1357sE", ranking="efficiency")]
    steps = [mjfast.shanten(h) for h in ("123m456p789s1357s", "[555m1]46m123p456p99s", "19m19p19sESWNCFP")]
    caller = next(iter(plain.discards_of.overloads.values())).library
    parsed = caller._shared_module is not None
    names = [f.name for f in caller._get_module_for_linking().functions]
    print(json.dumps({
        "parsed before linked": parsed,
        "ranked": ranked, "shanten": steps,
        "compiled": activate.COMPILE_NOTICE.done if activate.COMPILE_NOTICE else 0,
        "registered": sorted(n for n in codegen._registered if "discard_options" in n or "all_forms" in n),
        "declared": sorted(n for n in names if n.startswith(codegen.STABLE_PREFIX)),
        "copies": sum(1 for n in names if "discard_options" in n and not n.startswith(codegen.STABLE_PREFIX)),
    }))
"""


def _run(cache: Path) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT), MJFAST_QUIET="")
    done = subprocess.run([sys.executable, "-c", _RUN], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_stable_name_drops_only_the_compile_number():
    one = "_ZN6mjfast3fan6kernel10score_intoB2v9B40c8tJTIeFIjxE5ArrayIsLi1E1C7mutable7alignedE"
    other = one.replace("B2v9", "B3v12")
    assert stable_name(one) == stable_name(other) == STABLE_PREFIX + one.replace("B2v9", "")
    assert issubclass(SharedCoreMissing, LookupError)


def test_a_core_is_called_by_name_loaded_before_its_callers_and_recompiled_when_missing(tmp_path):
    compiled = _run(tmp_path)
    assert compiled["compiled"] > 0
    if not EXTRAS:  # numba's public API alone: every library links its callees' code
        assert compiled["declared"] == [] and compiled["copies"] > 0
        return
    # the plain ranking's library names discard_options and holds no copy of its code
    assert compiled["declared"] and all("discard_options" in n for n in compiled["declared"])
    assert compiled["copies"] == 0
    assert len(compiled["registered"]) == 2  # discard_options and all_forms, by their stable names

    loaded = _run(tmp_path)  # the cores load before the kernels that call them: nothing compiles
    assert loaded["compiled"] == 0
    assert (loaded["ranked"], loaded["shanten"]) == (compiled["ranked"], compiled["shanten"])
    # a loaded library's code for linking is parsed only when asked for, and is the code saved
    assert compiled["parsed before linked"] and not loaded["parsed before linked"]
    assert (loaded["declared"], loaded["copies"]) == (compiled["declared"], compiled["copies"])

    for cached in tmp_path.rglob("*discard_options*"):  # a core gone from the cache
        cached.unlink()
    again = _run(tmp_path)  # its callers compile again, with it
    assert again["compiled"] > 0
    assert (again["ranked"], again["shanten"]) == (compiled["ranked"], compiled["shanten"])
    assert _run(tmp_path)["compiled"] == 0
