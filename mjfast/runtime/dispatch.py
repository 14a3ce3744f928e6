"""A dispatcher's extras, beside the numba internals they need: another kernel's constant
arguments compile for their types (get_call_template), a kernel only kernels call refuses a
Python call (add_overload, _compile_for_args), and DirectKernel calls a kernel through its
compiled entry point (entry_point). runtime.decorators applies the first two to mjfast's
kernels as it makes them; each leaves a numba without its hook as it is (slower, never wrong).
"""

from __future__ import annotations

from numba import typeof, types

from .codegen import LINK_ONLY
from .extras import EXTRAS

_CONSTANTS = (types.IntegerLiteral, types.BooleanLiteral)


def _unliteral(argument):
    """An integer or boolean constant's type, or a tuple's with such constants among its
    members (`f(x, (u, 1))`), without the constants; any other type as it is."""
    if isinstance(argument, _CONSTANTS):
        return types.unliteral(argument)
    if isinstance(argument, types.BaseTuple) and any(isinstance(t, _CONSTANTS) for t in argument) \
            and all(isinstance(t, _CONSTANTS) or not isinstance(t, types.Literal) for t in argument):
        return types.unliteral(argument)
    return argument


def typed_calls(dispatcher):
    """Another kernel's call compiles this one for the types of its integer and boolean
    arguments (and of tuples holding such constants), never for their values. Left alone,
    numba compiles a separate copy of a kernel for every constant a caller passes it
    (`f(x, 3)`, `f(x, 13)`, `f(x, True)`, `f(x, (u, 1))`), and of everything that kernel
    calls in turn: the copies were over half of the first compile (the integers' a quarter,
    then the booleans' 30% of the rest), and the calls with them were at most a few per cent
    faster. Where the dispatcher's typing hook is missing the
    copies stay (a slower first compile, the same answers)."""
    resolve = getattr(dispatcher, "get_call_template", None)
    if resolve is None:
        return dispatcher

    def for_types(args, kws):
        return resolve(tuple(_unliteral(a) for a in args), {k: _unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = for_types
    return dispatcher


def kernels_only(dispatcher):
    """A kernel compiled without the wrapper Python calls it through: a call from Python raises
    TypeError (numba would jump to the missing wrapper and crash). Its compiled versions stay
    known to the kernels that call it, not to the dispatch of Python calls, so every Python
    call comes to _compile_for_args. Its library is only linked (codegen.LINK_ONLY). Where the
    dispatcher lacks these hooks, its wrappers are kept."""
    if not (hasattr(dispatcher, "add_overload") and hasattr(dispatcher, "_compile_for_args")):
        return dispatcher
    name = getattr(dispatcher.py_func, "__qualname__", "?")
    LINK_ONLY.add(name)

    def add_overload(cres):
        dispatcher.overloads[tuple(cres.signature.args)] = cres

    def python_call(*args, **kws):
        raise TypeError(f"{name} is a kernel only other kernels call; compile a caller with cache=True to call it "
                        "from Python")

    dispatcher.add_overload = add_overload
    dispatcher._compile_for_args = python_call
    return dispatcher


class DirectKernel:
    """`call(*args)` runs the kernel, through the compiled entry point for the argument types
    of the first call once that call has compiled or loaded it.

    A numba dispatcher works out the type of every argument on every call to pick the compiled
    version: for a one-hand query with five array arguments that costs more than the answer.
    Only callers that pass the same types on every call (they convert everything first:
    C-contiguous writeable uint8 hands, the int32 table, the int64 scratch) may use this: a
    later call with other types would be misread by that entry point."""

    __slots__ = ("dispatcher", "call")

    def __init__(self, dispatcher) -> None:
        self.dispatcher = dispatcher
        self.call = self._first_call

    @property
    def bound(self) -> bool:
        """Whether calls now go straight to the compiled entry point (`call` may then be kept)."""
        return self.call != self._first_call

    def _first_call(self, *args):
        result = self.dispatcher(*args)
        if not EXTRAS:
            self.call = self.dispatcher
            return result
        overload = self.dispatcher.overloads.get(tuple(typeof(a) for a in args))
        entry = getattr(overload, "entry_point", None)  # a numba internal: without it, dispatch stays
        if entry is not None:
            self.call = entry
        return result
