"""mjfast in another package's process: importing it and compiling its kernels leaves numba
compiling everyone else's kernels as it would without mjfast (mjfast.runtime's extras apply to
mjfast's own kernels only, runtime.extras.NUMBA_INTERNALS), and MJFAST_NUMBA_EXTRAS=0 turns them off."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Another package's kernels: an inline="always" callee inlined at several call sites (numba's
# inliner, which mjfast.runtime.inlining makes linear for its own kernels), and a plain callee.
FOREIGN = textwrap.dedent('''
    import numba
    import numpy as np


    @numba.njit(inline="always")
    def scaled(x, k):
        total = 0
        for i in range(k):
            total += x * (i + 1)
        return total


    @numba.njit
    def plain(x):
        return x * 3 - 1


    @numba.njit
    def caller(values):
        total = 0
        for v in values:
            total += scaled(v, 3) + scaled(v, 2) - plain(v)
        return total
''')

DUMP = textwrap.dedent('''
    import json, sys
    import numpy as np
    if sys.argv[1] == "with mjfast":
        import mjfast
        from numba.core import ir
        mjfast.shanten("123m456p789s1357s")  # loads mjfast's kernels
        from tests.runtime.test_inlining import _many_sites
        _many_sites(np.arange(4, dtype=np.int64))  # compiles an mjfast kernel that inlines
        assert "__deepcopy__" not in vars(ir.Scope)  # set only while mjfast's kernels inline
    import foreign
    values = np.arange(5, dtype=np.int64)
    result = int(foreign.caller(values))
    signature = foreign.caller.signatures[0]
    print(json.dumps({"result": result, "llvm": foreign.caller.inspect_llvm(signature),
                      "asm": foreign.caller.inspect_asm(signature)}))
''')


def _compile_foreign(tmp_path: Path, mode: str, extras: str = "1") -> dict:
    (tmp_path / "foreign.py").write_text(FOREIGN)
    cache = tmp_path / f"cache-{mode.replace(' ', '-')}-{extras}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]), NUMBA_CACHE_DIR=str(cache),
               MJFAST_NUMBA_EXTRAS=extras, MJFAST_QUIET="1")
    done = subprocess.run([sys.executable, "-c", DUMP, mode], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _unnumbered(code: str) -> str:
    """Code with its names replaced by their order of first appearance, and its spacing made
    single: numba numbers functions, blocks and variables by how many the process made before
    them ("B2v1" / "B3v70", "%B232.endif" / "%B743091.endif"), which says nothing of the code."""
    names: dict[str, str] = {}

    def canonical(match: re.Match) -> str:
        return names.setdefault(match.group(0), f"{match.group(0)[0]}n{len(names)}")

    code = re.sub(r"[%@](?:\"[^\"]*\"|[\w.$-]+)", canonical, code)
    code = re.sub(r"^([\w.$-]+):", lambda m: canonical(re.match(r".*", "%" + m.group(1))) + ":", code, flags=re.M)
    code = re.sub(r"B\d+v\d+", "Bv", code)  # a mangled name inside a string
    code = re.sub(r"\[\d+ x i8\]", "[n x i8]", code)  # strings that hold a name: their lengths
    code = re.sub(r"(\.size\s+(?:\"[^\"]*\"|\S+),\s*)\d+", r"\1n", code)
    return re.sub(r"[ \t]+", " ", code)


def test_another_packages_kernels_compile_the_same_beside_mjfast(tmp_path):
    alone = _compile_foreign(tmp_path, "alone")
    beside = _compile_foreign(tmp_path, "with mjfast")
    assert alone["result"] == beside["result"] == sum(6 * v + 3 * v - (3 * v - 1) for v in range(5))
    assert "foreign6caller" in alone["llvm"]  # the dump is the caller's, its callees inlined in it
    assert _unnumbered(beside["llvm"]) == _unnumbered(alone["llvm"])
    assert _unnumbered(beside["asm"]) == _unnumbered(alone["asm"])


def test_mjfast_runs_on_numbas_public_api_alone():
    """MJFAST_NUMBA_EXTRAS=0: no numba class is touched, mjfast's kernels compile without the
    extras and answer as with them."""
    code = textwrap.dedent('''
        import json
        from numba.core import caching, codegen, inline_closurecall
        before = {"finalize": codegen.CPUCodeLibrary.finalize, "set_env": codegen.JITCPUCodegen.set_env,
                  "inline_ir": inline_closurecall.InlineWorker.inline_ir,
                  "inline_function": inline_closurecall.InlineWorker.inline_function,
                  "load_overload": caching.Cache.load_overload}
        import mjfast, mjfast.runtime.extras
        from mjfast.efficiency.batch import shanten as batch_shanten
        import numpy as np
        hand = mjfast.parse_hand("123m456p789s1357s")
        answers = {"shanten": mjfast.shanten(hand), "waits": mjfast.waits("123m456p789s135sE"),
                   "batch": batch_shanten(np.array(hand.counts)[None, :]).tolist()}  # compiled: mjfast active
        after = {"finalize": codegen.CPUCodeLibrary.finalize, "set_env": codegen.JITCPUCodegen.set_env,
                 "inline_ir": inline_closurecall.InlineWorker.inline_ir,
                 "inline_function": inline_closurecall.InlineWorker.inline_function,
                 "load_overload": caching.Cache.load_overload}
        untouched = [k for k in before if before[k] is after[k]]
        print(json.dumps({"extras": mjfast.runtime.extras.EXTRAS, "untouched": untouched, **answers}))
    ''')
    env = dict(os.environ, MJFAST_NUMBA_EXTRAS="0", MJFAST_QUIET="1", PYTHONPATH=str(ROOT))
    env.pop("NUMBA_CACHE_DIR", None)
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        env["NUMBA_CACHE_DIR"] = cache
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=1200)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["extras"] is False
    assert sorted(found["untouched"]) == ["finalize", "inline_function", "inline_ir", "load_overload", "set_env"]
    assert found["shanten"] == 1 and found["waits"] == [] and found["batch"] == [1]
