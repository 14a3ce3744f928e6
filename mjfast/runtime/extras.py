"""The numba internals mjfast uses, and which kernels they apply to.

Everything in mjfast.runtime that reaches past numba's public API (numba.njit and its
documented options, numba.extending, numba.core.event, a dispatcher's call and compile) is
one of NUMBA_INTERNALS, each for speed or compile time, each guarded (a numba without it still
runs mjfast: slower, never wrong), each applied to mjfast's own kernels only (OWN_KERNELS:
another package's kernels compile in the same process exactly as without mjfast,
tests/runtime/test_numba_neighbour.py), and all of them off with MJFAST_NUMBA_EXTRAS=0: mjfast then
asks numba's public API only (its compile is slower, its answers the same; .ci/run runs the
kernel tests so). Checked on the numba versions of NUMBA_CHECKED_ON.

This module imports nothing: the decorators, the cache and the activation read it.
"""

from __future__ import annotations

import os

EXTRAS = os.environ.get("MJFAST_NUMBA_EXTRAS", "1").strip() != "0"
NUMBA_CHECKED_ON = ("0.68.1",)
# Each internal, the module of mjfast.runtime that uses it, and what for.
NUMBA_INTERNALS = {
    "_nrt": "decorators: the private njit option: kernels that allocate nothing compile without reference "
            "counting",
    "no_cpython_wrapper": "decorators: njit options no_cpython_wrapper / no_cfunc_wrapper: kernels only kernels "
                          "call compile without the wrappers Python calls them through",
    "get_call_template": "dispatch: a dispatcher's typing hook: another kernel's constant arguments compile one "
                         "copy, not one a value",
    "add_overload": "dispatch: a dispatcher's add_overload / _compile_for_args: a kernel without wrappers refuses "
                    "a Python call",
    "entry_point": "dispatch: a compiled overload's entry point: DirectKernel calls it without the dispatcher",
    "enable_caching": "decorators: a cached kernel's disk cache is set up at activation, after the shipped copy's "
                      "locator (cache.py)",
    "CPUCodeLibrary.finalize": "codegen: a library only other kernels link is linked, not optimised and emitted "
                               "(JITCPUCodegen.set_env skips its environment); a shared core is linked by name, "
                               "not by its code",
    "CPUCodeLibrary._unserialize": "codegen: a cached kernel's shared cores load before it, and a shared core's "
                                   "names are registered with LLVM's symbol table; its code for linking is parsed "
                                   "only when a compile links it",
    "CPUCodeLibrary.serialize_using_object_code": "codegen: a cached kernel's defined names and shared cores are "
                                                  "saved beside its code, so that loading it parses none",
    "InlineWorker.inline_ir": "inlining: an inline='always' kernel's IR is built once and copied with one copy of "
                              "its scope (ir.Scope.__deepcopy__ during mjfast's inlining only)",
    "Cache.load_overload": "cache: mjfast's cached kernels load without the compiler's target set-up",
    "_CacheImpl._locator_classes": "cache: a read-only install's kernels load from their copy in the user's cache",
    "array struct": "intrinsics: numba's array structure (meminfo, parent): borrowed() views an array uncounted",
}

# The Python functions compiled by runtime.decorators.njit: the kernels the extras apply to.
OWN_KERNELS: set = set()


def own(function) -> bool:
    """Whether `function` is one of mjfast's kernels (the extras leave every other alone)."""
    return function in OWN_KERNELS
