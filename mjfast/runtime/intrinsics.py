"""The intrinsics mjfast's kernels use: one instruction each where numba would write a loop,
and an array without its reference count.

- `popcount(x)`, `lowest_bit(x)`: one POPCNT / TZCNT instruction (LLVM's ctpop, cttz);
  lowest_bit's argument must be nonzero.
- `atomic_load(array)`: array[0] read afresh every time (acquire ordering), for a kernel that
  reads a flag another thread raises (the value graph's stop flag at a deadline).
- `prefetch(array, i)`: a hint to cache row i of an array (LLVM's prefetch): the value graph
  asks for a node's hash slots before it probes them.
- `borrowed(array)`: the same array without its reference count, for a batch kernel's inputs
  and outputs that its caller holds for the whole call: every row view of a counted array
  counts its parent up and down atomically, and on threads sharing the array those counts were
  15% of batch.regular_shanten. It builds numba's array structure (meminfo, parent: a numba
  internal); with MJFAST_NUMBA_EXTRAS=0 it returns the array as it is.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, register_jitable

from .extras import EXTRAS

__all__ = ["atomic_load", "borrowed", "lowest_bit", "popcount", "prefetch"]


@intrinsic
def _borrowed(typingctx, array):
    """`array` viewed without its reference count (a null meminfo: counting it is a no-op).
    Only for an array its caller keeps alive until the kernel returns, never one it returns."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        source = context.make_array(array)(context, builder, value=args[0])
        view = context.make_array(array)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


@register_jitable
def _counted(array):
    return array


borrowed = _borrowed if EXTRAS else _counted


@intrinsic
def popcount(typingctx, x):
    """Set bits of an integer: one POPCNT instruction (LLVM's ctpop), where a bit-twiddling
    version took a dozen."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a nonzero integer (LLVM's cttz): loops over the bits of
    a mask visit only those, where a loop over every position tested each."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return x(x), codegen


@intrinsic
def atomic_load(typingctx, array):
    """array[0] of an integer array, read with acquire ordering: a loop watching for another
    thread's store reads memory every time (a plain load may be read once, before the loop)."""
    if not (isinstance(array, types.Array) and isinstance(array.dtype, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(array)(context, builder, value=args[0]).data
        return builder.load_atomic(data, ordering="acquire", align=array.dtype.bitwidth // 8)

    return array.dtype(array), codegen


@intrinsic
def prefetch(typingctx, array, index):
    """A hint to bring row `index` of `array` into the cache (LLVM's prefetch, for reading):
    a loop that will probe several hash slots asks for them all first, so that their cache
    misses overlap instead of following one another. Never faults, whatever the index."""
    if not (isinstance(array, types.Array) and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        view = context.make_array(array)(context, builder, value=args[0])
        stride = builder.extract_value(view.strides, 0)
        offset = builder.mul(builder.sext(args[1], stride.type), stride)
        address = builder.add(builder.ptrtoint(view.data, stride.type), offset)
        pointer = builder.inttoptr(address, cgutils.voidptr_t)
        int32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, int32, int32, int32]), "llvm.prefetch")
        builder.call(function, [pointer, int32(0), int32(3), int32(1)])
        return context.get_dummy_value()

    return types.none(array, index), codegen
