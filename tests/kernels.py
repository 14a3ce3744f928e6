"""Python calls into kernels that only other kernels call. mjfast compiles those without the
wrappers Python calls through (mjfast.jit), so a test calls one through a kernel of its own,
compiled in the test process only: `from_python(draw_sweep)(table, hand, ...)`."""

from mjfast.jit import njit


def from_python(kernel):
    """A Python callable that runs `kernel` with the arguments it is given: a caller kernel for
    each number of arguments (numba cannot inline a call with *args)."""
    callers = {}

    def call(*args):
        caller = callers.get(len(args))
        if caller is None:
            names = ", ".join(f"a{i}" for i in range(len(args)))
            namespace = {"kernel": kernel, "__name__": __name__}
            exec(f"def caller({names}):\n    return kernel({names})\n", namespace)
            # not cached: compiled again in each test process
            caller = callers[len(args)] = njit(nrt=True, no_cpython_wrapper=False)(namespace["caller"])
        return caller(*args)

    call.__name__ = f"from_python_{kernel.py_func.__name__}"
    return call
