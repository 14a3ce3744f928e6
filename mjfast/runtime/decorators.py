"""The kernels' decorators: `njit` (numba's nopython mode with mjfast's options) and `jitable`.

- `njit(...)`: `nrt=False` compiles a kernel without reference counting (numba's private
  `_nrt` option, where this numba has it): for kernels that allocate nothing, every array
  they see belongs to their caller for the whole call. A kernel that allocates says
  `nrt=True`, or it would inherit its caller's.
- A kernel that another kernel calls with an integer or boolean constant compiles for its
  type, not its value (dispatch.typed_calls).
- A kernel that only other kernels call (one not cached, unless it says
  `no_cpython_wrapper=False`) compiles without the wrappers that let Python or C call it
  (numba's `no_cpython_wrapper`, `no_cfunc_wrapper`): every separately compiled kernel's
  code holds those of all the kernels it calls, and leaving them out took a fifth to a
  quarter of the compile's CPU time. Calling such a kernel from Python raises TypeError
  (dispatch.kernels_only), and its library is only linked (codegen.py).
- `cache=True`: a kernel that Python calls is cached on disk; `shared=True`: a shared core,
  cached although only other kernels call it (cache.py), emitted once and called from the
  other libraries by name (codegen.py). The cache is set up when mjfast's
  first kernel compiles or loads (activate.py), as everything else mjfast asks of numba.
- Inlining (`@njit(inline="always")`, numba's IR inlining) where it measurably pays: the
  lookup table's readers, the regular form's DP steps (store_row, merge_slot...) and the batch
  loops' row helpers (the batch loops run 8-15% faster, batch.discards 7% with the DP steps),
  and a kernel with one caller whose own compile would repeat its callees' (every separately
  compiled kernel optimises and emits again all the code it calls: the value graph's and the
  fan-aware pass's steps). Elsewhere it lengthened the first compile by half and sped nothing
  (inlining.py makes numba's inliner linear in the callee's size).
"""

from __future__ import annotations

from numba import njit as _numba_njit
from numba.extending import register_jitable

from . import activate
from .codegen import SHARED
from .dispatch import kernels_only, typed_calls
from .extras import EXTRAS, OWN_KERNELS

__all__ = ["jitable", "njit"]


def _has_option(name: str) -> bool:
    try:
        from numba.core.options import DefaultOptions
    except ImportError:
        return False
    return hasattr(DefaultOptions, name)


NRT_OPTION = EXTRAS and _has_option("_nrt")
WRAPPER_OPTIONS = EXTRAS and _has_option("no_cpython_wrapper") and _has_option("no_cfunc_wrapper")


def njit(function=None, *, nrt: "bool | None" = None, shared: bool = False, **options):
    """numba.njit with mjfast's options (see the module doc); `@njit` or `@njit(...)`.
    `shared=True`: a shared core, cached although only other kernels call it."""
    cached = bool(options.pop("cache", False)) or shared
    if nrt is not None and NRT_OPTION:
        options["_nrt"] = nrt
    only_kernels = not cached and WRAPPER_OPTIONS and options.get("no_cpython_wrapper", True)
    if only_kernels:
        options.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)

    def compiled(function):
        OWN_KERNELS.add(function)
        if shared:
            SHARED.add(function.__qualname__)
        # with the extras the cache is set up at activation, after a read-only install's locator
        dispatcher = _numba_njit(function, cache=cached and not EXTRAS, **options)
        activate.watch(dispatcher, cached and EXTRAS)
        if not EXTRAS:
            return dispatcher
        dispatcher = typed_calls(dispatcher)
        return kernels_only(dispatcher) if only_kernels else dispatcher

    return compiled(function) if function is not None else compiled


def jitable(function):
    """A plain Python function that kernels may call too: numba compiles it into the kernels
    that call it (register_jitable), Python calls it as it is, without a compile. For the few
    rules both layers state (the settlement), so that each is written once."""
    return register_jitable(function)
