"""numba's runtime as mjfast uses it: what its kernels ask of numba, one concern a module.

- decorators: `njit` (mjfast's options: `nrt=`, `shared=`, wrappers left out for kernels only
  other kernels call) and `jitable` (a rule both Python and kernels call).
- intrinsics: `popcount`, `lowest_bit`, `atomic_load`, `prefetch` (one instruction each) and `borrowed`
  (an array without its reference count).
- dispatch: `DirectKernel` (calls without numba's per-call type dispatch) and the dispatcher's
  extras: constants compile for their types, a kernel only kernels call refuses Python.
- codegen: link-only libraries (a kernel only kernels call is linked, not emitted).
- inlining: numba's IR inlining made linear in the callee's size.
- cache: the stamp that drops stale cached kernels, mjfast's kernels loaded without the
  compiler's set-up, a read-only install's shipped kernels loaded from a copy.
- notice: the line on stderr when a compile starts, and its progress.
- threads: the batch calls' rows on every core (a standard thread pool).
- lazy: a package's names imported on first use.
- extras: which numba internals mjfast uses (NUMBA_INTERNALS), all off with
  MJFAST_NUMBA_EXTRAS=0, and which kernels are mjfast's own.

Importing mjfast, or any of its modules, changes nothing of numba's: the one place that does
is activate.activate(), which runs when the first of mjfast's kernels is compiled or loaded
(and says there everything it changes). Nothing here imports numba at this package's import:
mjfast's face imports lazy.py without loading numba.

Measured on numba 0.68.1, 2 cores: with the extras `mjfast warmup` compiles every kernel in about
40 s and the first value answer compiles in about a minute on one core (docs/install.md); without
them the advice, shanten, waits and fan kernels took 219 s against 70 s with them when the
extras came, and a one-hand shanten takes 1.13 µs against 0.83 µs.
"""
