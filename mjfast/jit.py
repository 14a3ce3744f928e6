"""mjfast.jit, the one module of numba's details until mjfast.runtime split it a concern a
module: its names are kept here, and importing it warns once (DeprecationWarning) with their
new homes. docs/api.md says what is public and how long a moved name lasts."""

from .runtime.cache import drop_stale_kernels
from .runtime.decorators import jitable, njit
from .runtime.dispatch import DirectKernel
from .runtime.intrinsics import atomic_load, borrowed, lowest_bit, popcount
from .runtime.lazy import moved
from .runtime.threads import thread_count as worker_threads

__all__ = ["DirectKernel", "atomic_load", "borrowed", "drop_stale_kernels", "jitable", "lowest_bit", "njit", "popcount",
           "worker_threads"]

moved(__name__, "mjfast.runtime.decorators (njit, jitable), .intrinsics (popcount, lowest_bit, atomic_load, "
      "borrowed), .dispatch (DirectKernel), .threads (thread_count), .cache (drop_stale_kernels)", alias=False)
