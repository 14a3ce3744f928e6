"""Where mjfast's kernel modules take numba's decorators from: loading mjfast's cached
kernels without numba's compiler set-up.

Before each load from its on-disk cache numba refreshes its CPU target; the first refresh
of a process imports and registers every implementation numba has (about 0.35 s, a quarter
of a fresh process's first query), which compiling needs and loading compiled code does not:
that needs numba's runtime (NRT) started, nothing more. mjfast's own kernels load with just
that. A cache miss compiles, and the compiler refreshes the target itself; other packages'
kernels load as numba loads them. A numba whose loader is not the one this was written
against (the methods below missing) is left as it is.
"""

from numba import njit, prange
from numba.core.caching import Cache
from numba.core.runtime import rtsys

__all__ = ["njit", "prange"]  # the kernel modules' decorators, re-exported

_OWN = __package__ + "."


def _load_own_without_refresh(load_overload):
    def load(self, sig, target_context):
        if not getattr(self._py_func, "__module__", "").startswith(_OWN):
            return load_overload(self, sig, target_context)
        rtsys.initialize(target_context)  # once per process; what compiled code needs
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load.loads_own_without_refresh = True
    return load


if (not getattr(Cache.load_overload, "loads_own_without_refresh", False)
        and hasattr(Cache, "_guard_against_spurious_io_errors") and hasattr(Cache, "_load_overload")):
    Cache.load_overload = _load_own_without_refresh(Cache.load_overload)
