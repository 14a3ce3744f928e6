"""numba's IR inlining made linear, beside numba's inliner (numba.core.inline_closurecall).

At every call site of an inline="always" kernel numba runs the callee's front end again
(bytecode to IR, the callee's own inlining included), then deep-copies its blocks one at a
time, and each block's copy copies the scope that holds every variable of the callee: a call
site cost the callee's blocks times its variables, and inlining was a fifth of the compile.
The callee's IR depends on the callee only, so it is built once (_inline_from_built_ir), and
the blocks of one copy share one copy of the scope, as the callee's own blocks share it
(_inline_sharing_scopes): the same IR, built in a quarter less time for the advice's kernels.

Both apply only where the kernel inlined is one of mjfast's; numba compiles under one global
lock, so the scope's __deepcopy__, set for the length of such an inlining, is seen by no other
compile. runtime.activate installs this at the first compile or load of one of mjfast's
kernels.
"""

from __future__ import annotations

import copy

from .extras import own

_SCOPE_COPIES: list[dict] = []  # for each inlining in progress: id(scope) -> (scope, its copy)


def _inline_sharing_scopes(inline_ir, scope_class):
    def inline_ir_sharing(self, caller_ir, block, i, callee_ir, *args, **kws):
        if not own(getattr(getattr(callee_ir, "func_id", None), "func", None)):
            return inline_ir(self, caller_ir, block, i, callee_ir, *args, **kws)
        _SCOPE_COPIES.append({})
        scope_class.__deepcopy__ = _scope_deepcopy
        try:
            return inline_ir(self, caller_ir, block, i, callee_ir, *args, **kws)
        finally:
            _SCOPE_COPIES.pop()
            if not _SCOPE_COPIES:
                del scope_class.__deepcopy__

    inline_ir_sharing.linear = True
    return inline_ir_sharing


def _scope_deepcopy(self, memo):
    copies = _SCOPE_COPIES[-1]
    if id(self) in copies:
        duplicate = copies[id(self)][1]
        memo[id(self)] = duplicate
        return duplicate
    duplicate = type(self).__new__(type(self))
    memo[id(self)] = duplicate
    copies[id(self)] = (self, duplicate)  # the scope held, so that its id is not reused
    duplicate.__dict__.update(copy.deepcopy(self.__dict__, memo))
    return duplicate


def _inline_from_built_ir(inline_function):
    built = {}  # (kernel's Python function, the flags) -> its untyped IR (inline_ir changes only copies)

    def inline_function_once(self, caller_ir, block, i, function, arg_typs=None):
        if self.locals or not own(function):  # typed locals, or another package's kernel: numba's own path
            return inline_function(self, caller_ir, block, i, function, arg_typs)
        self.flags.enable_ssa = False  # what numba's front end run does to the caller's flags, built or not
        key = (function, self.flags.copy())  # the IR depends on the flags too (a parallel caller's differ)
        callee_ir = built.get(key)
        if callee_ir is None:
            callee_ir = built[key] = self.run_untyped_passes(function)
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)

    inline_function_once.linear = True
    return inline_function_once


def install_linear_inlining() -> None:
    """numba's InlineWorker made linear for mjfast's kernels (a numba without the methods it
    needs, or whose ir.Scope has a __deepcopy__ of its own, is left as it is)."""
    try:
        from numba.core import ir
        from numba.core.inline_closurecall import InlineWorker
    except ImportError:
        return
    worker = vars(InlineWorker)
    if not all(n in worker for n in ("inline_ir", "inline_function", "run_untyped_passes")) \
            or "__deepcopy__" in vars(ir.Scope):
        return
    if not getattr(InlineWorker.inline_ir, "linear", False):
        InlineWorker.inline_ir = _inline_sharing_scopes(  # type: ignore[method-assign]
            InlineWorker.inline_ir, ir.Scope)
        InlineWorker.inline_function = _inline_from_built_ir(  # type: ignore[method-assign]
            InlineWorker.inline_function)
