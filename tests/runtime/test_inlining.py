"""mjfast.runtime.inlining's linear IR inlining: an inline="always" kernel's IR is built once however many
call sites inline it, and the inlined copies compute what the Python functions do."""

from collections import Counter

import numpy as np
from numba.core.inline_closurecall import InlineWorker

from mjfast.runtime.decorators import njit


@njit(inline="always")
def _scaled(x, k):
    total = 0
    for i in range(k):  # a loop: the callee has blocks of its own to copy
        total += x * (i + 1)
    return total


@njit(inline="always")
def _twice_scaled(x, k):  # inlines _scaled in turn
    total = _scaled(x, k)
    return total + _scaled(total, 2)


@njit(no_cpython_wrapper=False)  # called from Python, not cached
def _many_sites(values):
    total = 0  # the callees' own local of that name must not clash with this one
    for v in values:
        total += _scaled(v, 3) + _twice_scaled(v, 2) - _scaled(v, 1) + _twice_scaled(v + 1, 1)
    return total


def test_inlined_copies_compute_what_python_does(monkeypatch):
    built = Counter()
    front_end = InlineWorker.run_untyped_passes

    def counted(self, func, *args, **kws):
        built[func.__name__] += 1
        return front_end(self, func, *args, **kws)

    monkeypatch.setattr(InlineWorker, "run_untyped_passes", counted)
    values = np.array([1, -2, 7, 0], np.int64)

    def scaled(x, k):
        return x * k * (k + 1) // 2

    def twice_scaled(x, k):
        return scaled(x, k) + scaled(scaled(x, k), 2)

    expected = sum(scaled(v, 3) + twice_scaled(v, 2) - scaled(v, 1) + twice_scaled(v + 1, 1) for v in values.tolist())
    assert _many_sites(values) == expected
    # six call sites, four of _scaled's in the caller and the inlined _twice_scaled: one front end each
    assert built["_scaled"] == 1 and built["_twice_scaled"] == 1
