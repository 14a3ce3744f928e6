"""Everything mjfast asks of numba, in one module: the kernels' decorators and options, the bit
intrinsics, calls without numba's dispatch, and the cache policy. Every use of a numba
internal is here, listed in NUMBA_INTERNALS, each guarded (a numba without it still runs
mjfast: slower, never wrong), each applied to mjfast's own kernels only (those compiled by
njit below: another package's kernels compile in the same process exactly as without mjfast,
tests/test_numba_neighbour.py), and all of them off with MJFAST_NUMBA_EXTRAS=0: mjfast then
asks numba's public API only (its compile is slower, its answers the same). Measured on
numba 0.68.1, 2 cores: the advice, shanten, waits and fan kernels compile in 70 s with the
extras and 219 s without; a one-hand shanten takes 0.83 µs with them, 1.13 µs without.

- `njit(...)` compiles a kernel (numba's nopython mode) with mjfast's options; `nrt=False`
  compiles it without reference counting (numba's private `_nrt` option, where this numba
  has it): for kernels that allocate nothing, every array they see belongs to their caller
  for the whole call. A kernel that allocates says `nrt=True`, or it would inherit its
  caller's. `worker_threads()`: the threads batch calls run on (mjfast/threads.py).
- A kernel that another kernel calls with an integer or boolean constant compiles for its
  type, not its value (_typed_calls).
- A kernel that only other kernels call (one not cached, below, unless it says
  `no_cpython_wrapper=False`) compiles without the wrappers that let Python or C call it
  (numba's `no_cpython_wrapper`, `no_cfunc_wrapper`): every separately compiled kernel's
  code holds those of all the kernels it calls, and leaving them out took a fifth to a
  quarter of the compile's CPU time. Calling such a kernel from Python raises TypeError
  (_kernels_only). Nor is such a kernel's own code optimised or turned into machine code:
  its callers link and optimise it with their own, and that work done twice was a fifth of
  the rest (_link_only_finalize).
- Inlining (`@njit(inline="always")`, numba's IR inlining) where it measurably pays: the
  lookup table's readers, the regular form's DP steps (store_row, merge_slot...) and the batch
  loops' row helpers (the batch loops run 8-15% faster, batch.discards 7% with the DP steps),
  and a kernel with one caller whose own compile would repeat its callees' (every separately
  compiled kernel optimises and emits again all the code it calls: the value graph's and the
  fan-aware pass's steps). Elsewhere it lengthened the first compile by half and sped nothing.
  numba's inliner is made linear in the callee's size: its IR is built once, not at every
  call site, and copied without a copy of its scope per block (_install_linear_inlining).
- `borrowed(array)`: the same array without its reference count, for a batch kernel's inputs
  and outputs that its caller holds for the whole call: every row view of a counted array
  counts its parent up and down atomically, and on threads sharing the array those counts
  were 15% of batch.regular_shanten (numba's prange passed such arrays uncounted).
- `popcount(x)`, `lowest_bit(x)`: one POPCNT / TZCNT instruction (LLVM's ctpop, cttz);
  lowest_bit's argument must be nonzero. `atomic_load(array)`: array[0] read afresh every
  time (acquire ordering), for a kernel that reads a flag another thread raises (the value
  graph's stop flag at a deadline). `prefetch(array, i)`: a hint to cache row i of an
  array (LLVM's prefetch): the value graph asks for a node's hash slots before it probes them.
- `DirectKernel`: after its first call, a kernel called straight through its compiled entry
  point, without numba's per-call type dispatch (a one-hand query costs less than that).
- The cache: kernels that Python calls are cached on disk (`cache=True`), those only other
  kernels call are not (their code is compiled into their callers'), except the shared cores
  (`njit(shared=True)`: fan.kernel.score_into, discards.discard_options): a cached kernel
  keeps its code for callers to link, so a process compiling another caller (the warm-up's
  other process, a later command) loads the core instead of compiling it again. Before any kernel
  loads, stale cached kernels are dropped (drop_stale_kernels: numba checks only the file of
  the function it loads, not the files of the kernels it calls). mjfast's own cached kernels
  load without numba's compiler set-up (_load_own_without_refresh). A read-only install
  loads the kernels it ships from a copy in the user's cache (shipped_kernels_copy).
- A compile says so: the first time a process compiles one of mjfast's kernels (nothing was
  cached), one line on stderr says what is happening and how to avoid it, then the progress
  (CompileNotice; MJFAST_QUIET=1 silences it). Nothing goes to stdout.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from llvmlite import ir
from numba import config, typeof, types
from numba import njit as _numba_njit
from numba.core import cgutils
from numba.extending import intrinsic, register_jitable

__all__ = ["DirectKernel", "atomic_load", "borrowed", "drop_stale_kernels", "jitable", "lowest_bit", "njit", "popcount",
           "prefetch",
           "worker_threads"]

PACKAGE = Path(__file__).resolve().parent

# Everything below that reaches past numba's public API (numba.njit and its documented options,
# numba.extending, numba.core.event, the dispatcher's call) is one of these, each for speed or
# compile time, each applied to mjfast's own kernels only, each off with MJFAST_NUMBA_EXTRAS=0
# (then mjfast compiles and runs on numba's public API alone: slower to compile, the same answers;
# .ci/run runs the kernel tests so). Checked on the numba versions of NUMBA_CHECKED_ON.
EXTRAS = os.environ.get("MJFAST_NUMBA_EXTRAS", "1").strip() != "0"
NUMBA_CHECKED_ON = ("0.68.1",)
NUMBA_INTERNALS = {
    "_nrt": "the private njit option: kernels that allocate nothing compile without reference counting",
    "no_cpython_wrapper": "njit options no_cpython_wrapper / no_cfunc_wrapper: kernels only kernels call "
                          "compile without the wrappers Python calls them through",
    "get_call_template": "a dispatcher's typing hook: another kernel's constant arguments compile one copy, "
                         "not one a value (_typed_calls)",
    "add_overload": "a dispatcher's add_overload / _compile_for_args: a kernel without wrappers refuses a "
                    "Python call (_kernels_only)",
    "CPUCodeLibrary.finalize": "numba.core.codegen: a library only other kernels link is linked, not optimised "
                               "and emitted (_link_only_finalize; JITCPUCodegen.set_env skips its environment)",
    "InlineWorker.inline_ir": "numba.core.inline_closurecall: an inline='always' kernel's IR is built once and "
                              "copied with one copy of its scope (_install_linear_inlining; ir.Scope.__deepcopy__ "
                              "during mjfast's inlining only)",
    "Cache.load_overload": "numba.core.caching: mjfast's cached kernels load without the compiler's target set-up",
    "_CacheImpl._locator_classes": "numba.core.caching: a read-only install's kernels load from their copy in the "
                                   "user's cache",
    "entry_point": "a compiled overload's entry point: DirectKernel calls it without the dispatcher",
    "array struct": "numba's array structure (meminfo, parent): borrowed() views an array uncounted",
}


# --- decorators ------------------------------------------------------------------------------

def _has_option(name: str) -> bool:
    try:
        from numba.core.options import DefaultOptions
    except ImportError:
        return False
    return hasattr(DefaultOptions, name)


# The Python functions compiled by njit below: the kernels the extras apply to.
OWN_KERNELS: set = set()
NRT_OPTION = EXTRAS and _has_option("_nrt")
WRAPPER_OPTIONS = EXTRAS and _has_option("no_cpython_wrapper") and _has_option("no_cfunc_wrapper")


def njit(function=None, *, nrt: "bool | None" = None, shared: bool = False, **options):
    """numba.njit with mjfast's options (see the module doc); `@njit` or `@njit(...)`.
    `shared=True`: a shared core, cached although only other kernels call it."""
    if shared:
        options["cache"] = True
    if nrt is not None and NRT_OPTION:
        options["_nrt"] = nrt
    kernels_only = not options.get("cache") and WRAPPER_OPTIONS and options.get("no_cpython_wrapper", True)
    if kernels_only:
        options.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)

    def compiled(function):
        OWN_KERNELS.add(function)
        dispatcher = _numba_njit(function, **options)
        if not EXTRAS:
            return dispatcher
        dispatcher = _typed_calls(dispatcher)
        return _kernels_only(dispatcher) if kernels_only else dispatcher

    return compiled(function) if function is not None else compiled


def jitable(function):
    """A plain Python function that kernels may call too: numba compiles it into the kernels
    that call it (register_jitable), Python calls it as it is, without a compile. For the few
    rules both layers state (the settlement), so that each is written once."""
    return register_jitable(function)


def worker_threads() -> int:
    """numba's thread count: one a core, or NUMBA_NUM_THREADS (read at numba's import)."""
    return max(1, int(getattr(config, "NUMBA_NUM_THREADS", os.cpu_count() or 1)))


def _unliteral(argument):
    return types.unliteral(argument) if isinstance(argument, (types.IntegerLiteral, types.BooleanLiteral)) else argument


def _typed_calls(dispatcher):
    """Another kernel's call compiles this one for the types of its integer and boolean
    arguments, never for their values. Left alone, numba compiles a separate copy of a kernel
    for every constant a caller passes it (`f(x, 3)`, `f(x, 13)`, `f(x, True)`), and of
    everything that kernel calls in turn: the copies were over half of the first compile
    (the integers' a quarter, then the booleans' 30% of the rest), and the calls with them
    were at most a few per cent faster. Where the dispatcher's typing hook is missing the
    copies stay (a slower first compile, the same answers)."""
    resolve = getattr(dispatcher, "get_call_template", None)
    if resolve is None:
        return dispatcher

    def for_types(args, kws):
        return resolve(tuple(_unliteral(a) for a in args), {k: _unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = for_types
    return dispatcher


def _kernels_only(dispatcher):
    """A kernel compiled without the wrapper Python calls it through: a call from Python raises
    TypeError (numba would jump to the missing wrapper and crash). Its compiled versions stay
    known to the kernels that call it, not to the dispatch of Python calls, so every Python
    call comes to _compile_for_args. Where the dispatcher lacks these hooks, its wrappers
    are kept."""
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


# Link-only libraries. numba finalises every kernel it compiles: it links in the code of the
# kernels it calls, optimises the whole module and emits machine code. A kernel only other
# kernels call is never run on its own, and each caller optimises and emits again all the code
# it links in, so for those kernels (by qualified name, numba's library name) finalising only
# links; their callers do the rest. A library holding a Python or C wrapper (a kernel of the
# same name that Python calls) finalises in full.

LINK_ONLY: set[str] = set()
_WRAPPER_PREFIXES = ("_ZN7cpython", "cfunc.")


_OWN_SYMBOL = "_ZN6mjfast"  # how numba's mangled names of mjfast's functions begin
_OWN_ENVIRONMENT = "_ZN08NumbaEnv6mjfast"  # and of their environments


def _link_only_finalize(finalize):
    def finalize_library(self):
        functions = list(self._final_module.functions)
        if self.name not in LINK_ONLY or any(f.name.startswith(_WRAPPER_PREFIXES) for f in functions) \
                or not any(f.name.startswith(_OWN_SYMBOL) and not f.is_declaration for f in functions):
            return finalize(self)  # not one of mjfast's link-only kernels (another package's may share its name)
        self._raise_if_finalized()
        seen = set()
        for library in self._linking_libraries:
            if library not in seen:
                seen.add(library)
                self._reload_init.update(library._reload_init)
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._finalized = True

    finalize_library.links_only = True
    return finalize_library


def _set_env_if_emitted(set_env):
    """numba points a compiled kernel's environment global at its environment object; a
    link-only library has no machine code, so no such global to set (its callers' copies are
    set by their own compile)."""
    def set_env_if_emitted(self, env_name, env):
        if not env_name.startswith(_OWN_ENVIRONMENT) or self._engine.is_symbol_defined(env_name):
            set_env(self, env_name, env)

    set_env_if_emitted.links_only = True
    return set_env_if_emitted


def _install_link_only() -> None:
    try:
        from numba.core.codegen import CPUCodeLibrary, JITCPUCodegen
    except ImportError:
        return
    if not all(hasattr(CPUCodeLibrary, n) for n in ("finalize", "_get_module_for_linking", "_raise_if_finalized")) \
            or not hasattr(JITCPUCodegen, "set_env"):
        return
    if not getattr(CPUCodeLibrary.finalize, "links_only", False):
        CPUCodeLibrary.finalize = _link_only_finalize(CPUCodeLibrary.finalize)  # type: ignore[method-assign]
    if not getattr(JITCPUCodegen.set_env, "links_only", False):
        JITCPUCodegen.set_env = _set_env_if_emitted(JITCPUCodegen.set_env)  # type: ignore[method-assign]


# numba's IR inlining, made linear. At every call site of an inline="always" kernel numba runs
# the callee's front end again (bytecode to IR, the callee's own inlining included), then
# deep-copies its blocks one at a time, and each block's copy copies the scope that holds
# every variable of the callee: a call site cost the callee's blocks times its variables, and
# inlining was a fifth of the compile. The callee's IR depends on the callee only, so it is
# built once (_inline_from_built_ir), and the blocks of one copy share one copy of the scope,
# as the callee's own blocks share it (_inline_sharing_scopes): the same IR, built in a
# quarter less time for the advice's kernels.

# Both apply only where the kernel inlined is one of mjfast's; numba compiles under one global
# lock, so the scope's __deepcopy__, set for the length of such an inlining, is seen by no other
# compile.

_SCOPE_COPIES: list[dict] = []  # for each inlining in progress: id(scope) -> (scope, its copy)


def _own(function) -> bool:
    return function in OWN_KERNELS


def _inline_sharing_scopes(inline_ir, scope_class):
    def inline_ir_sharing(self, caller_ir, block, i, callee_ir, *args, **kws):
        if not _own(getattr(getattr(callee_ir, "func_id", None), "func", None)):
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
        if self.locals or not _own(function):  # typed locals, or another package's kernel: numba's own path
            return inline_function(self, caller_ir, block, i, function, arg_typs)
        self.flags.enable_ssa = False  # what numba's front end run does to the caller's flags, built or not
        key = (function, self.flags.copy())  # the IR depends on the flags too (a parallel caller's differ)
        callee_ir = built.get(key)
        if callee_ir is None:
            callee_ir = built[key] = self.run_untyped_passes(function)
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)

    inline_function_once.linear = True
    return inline_function_once


def _install_linear_inlining() -> None:
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


# --- arrays without reference counts -----------------------------------------------------------

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


# --- bit intrinsics --------------------------------------------------------------------------

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


# --- calls without the dispatcher ------------------------------------------------------------

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


# --- the cache -------------------------------------------------------------------------------
# Stale kernels. The fingerprint is of contents, not times: the modules that define kernels
# and every mjfast module they import (their constants are compiled in), found by reading the
# import lines. A change elsewhere (the game rules, the command line) keeps the cache, and so
# does a copy of the same sources with new modification times (an install). The contents are
# read only when some source's size or time changed since the last check, so the usual start
# costs a stat per file. It covers numba's default cache location (the __pycache__ folders
# next to the sources); NUMBA_CACHE_DIR users clear that folder themselves after changing
# sources.

STAMP = PACKAGE / "__pycache__" / "kernel-sources.stamp"
# What marks a module that defines kernels, and the import lines naming other mjfast modules.
_KERNEL_MARK = re.compile(r"^\s*@(njit|intrinsic)\b", re.M)
_IMPORT = re.compile(r"^\s*from\s+(\.+)([\w.]*)\s+import\s+([^\n(]+|\([^)]*\))", re.M)


def _times(sources: list[Path]) -> str:
    """Sizes and modification times of the sources: what changes when one is edited (or the
    extras are switched)."""
    digest = hashlib.sha1(f"extras={EXTRAS}\n".encode())
    for path in sources:
        stat = path.stat()
        digest.update(f"{path.relative_to(PACKAGE)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _module_path(base: Path, dotted: str) -> "Path | None":
    target = base.joinpath(*dotted.split(".")) if dotted else base
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(path: Path, text: str) -> set[Path]:
    """The mjfast modules a module imports with `from .x import ...` (relative imports are
    the package's style; `from . import x` names modules too)."""
    found = set()
    for dots, dotted, names in _IMPORT.findall(text):
        base = path.parent
        for _ in range(len(dots) - 1):
            base = base.parent
        module = _module_path(base, dotted)
        if module is not None:
            found.add(module)
        for name in re.findall(r"\w+", names):
            sub = _module_path(base, f"{dotted}.{name}" if dotted else name)
            if sub is not None:
                found.add(sub)
    return found


def kernel_sources(sources: list[Path]) -> list[Path]:
    """The modules that define kernels and, transitively, every mjfast module they import."""
    texts = {path: path.read_text(encoding="utf-8") for path in sources}
    todo = [path for path, text in texts.items() if _KERNEL_MARK.search(text)]
    seen = set(todo)
    while todo:
        path = todo.pop()
        for module in _imports(path, texts[path]):
            if module in texts and module not in seen:
                seen.add(module)
                todo.append(module)
    return sorted(seen)


def _contents(sources: list[Path]) -> str:
    digest = hashlib.sha1(f"extras={EXTRAS}\n".encode())  # kernels compiled with the extras or without
    for path in kernel_sources(sources):
        digest.update(f"{path.relative_to(PACKAGE)}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_kernels() -> "str | None":
    """Delete mjfast's cached kernels if a source they are compiled from changed since they
    were cached. The stamp holds two lines: the sources' times, then the kernels' contents.
    Returns the contents' fingerprint where it was worked out (the times had changed)."""
    contents = None
    if os.environ.get("NUMBA_CACHE_DIR"):
        return contents
    try:
        sources = sorted(PACKAGE.rglob("*.py"))
        times = _times(sources)
        stamp = STAMP.read_text().split("\n") if STAMP.exists() else []
        if stamp[:1] == [times]:
            return contents
        contents = _contents(sources)
        if stamp[1:2] != [contents]:
            for cached in PACKAGE.rglob("__pycache__/*.nb[ic]"):
                cached.unlink(missing_ok=True)
        STAMP.parent.mkdir(exist_ok=True)
        STAMP.write_text(f"{times}\n{contents}")
    except OSError:
        pass  # a read-only install: its kernels load from a copy (shipped_kernels_copy)
    return contents


# Loading mjfast's cached kernels without numba's compiler set-up. Before each load from its
# on-disk cache numba refreshes its CPU target; the first refresh of a process imports and
# registers every implementation numba has (about 0.35 s, a quarter of a fresh process's first
# query), which compiling needs and loading compiled code does not: that needs numba's
# runtime (NRT) started, nothing more. A cache miss compiles, and the compiler refreshes the
# target itself; other packages' kernels load as numba loads them. A numba whose loader lacks
# the methods below is left as it is.

def _load_own_without_refresh(load_overload, initialize_runtime):
    def load(self, sig, target_context):
        if not _own(self._py_func):
            return load_overload(self, sig, target_context)
        initialize_runtime(target_context)  # once per process; what compiled code needs
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load.loads_own_without_refresh = True
    return load


def _install_loader() -> None:
    try:
        from numba.core.caching import Cache
        from numba.core.runtime import rtsys
    except ImportError:
        return
    if (not getattr(Cache.load_overload, "loads_own_without_refresh", False)
            and hasattr(Cache, "_guard_against_spurious_io_errors") and hasattr(Cache, "_load_overload")
            and hasattr(rtsys, "initialize")):
        Cache.load_overload = _load_own_without_refresh(  # type: ignore[method-assign]
            Cache.load_overload, rtsys.initialize)


class CompileNotice:
    """Tells the user, on stderr, that mjfast's kernels are being compiled (see the module doc):
    one line at the first compile of a process, then a line every PROGRESS_EVERY seconds with
    the kernels compiled so far. Compiles of other packages' kernels, and kernels loaded from
    the cache, say nothing."""

    PROGRESS_EVERY = 15.0

    def __init__(self, stream=None):
        self.stream = stream
        self.depth = 0  # compiles under way: a kernel's callees compile inside it
        self.done = 0
        self.started = self.shown = None

    def _out(self):
        return self.stream or sys.stderr

    @staticmethod
    def _ours(event) -> bool:
        """Whether the compile is of one of mjfast's kernels (a function made by exec or
        numba itself may have no module: None)."""
        function = getattr(event.data.get("dispatcher"), "py_func", None)
        return (getattr(function, "__module__", None) or "").split(".")[0] == __package__

    def on_start(self, event) -> None:
        if not self._ours(event):
            return
        self.depth += 1
        if self.started is None:
            self.started = self.shown = time.perf_counter()
            print("mjfast: compiling its numba kernels for their first use (cached on disk afterwards; the first "
                  "advice waits about 70 s on 2 cores, and `mjfast warmup` compiles all of them in about as long)",
                  file=self._out(), flush=True)

    def on_end(self, event) -> None:
        if not self._ours(event) or self.depth == 0:
            return
        self.depth -= 1
        if self.depth:
            return
        self.done += 1
        now = time.perf_counter()
        if now - self.shown >= self.PROGRESS_EVERY:
            self.shown = now
            print(f"mjfast: {self.done} kernel(s) compiled in {now - self.started:.0f} s so far", file=self._out(),
                  flush=True)


def _install_compile_notice() -> "CompileNotice | None":
    if os.environ.get("MJFAST_QUIET"):
        return None
    try:
        from numba.core import event
    except ImportError:
        return None
    notice = CompileNotice()

    class _Listener(event.Listener):
        def on_start(self, e):
            notice.on_start(e)

        def on_end(self, e):
            notice.on_end(e)

    try:
        event.register("numba:compile", _Listener())
    except (AttributeError, TypeError, ValueError):  # a numba without its event API: no notice
        return None
    return notice


# Read-only installs (a system-wide site-packages, an image run by another user). numba caches
# beside the sources only where it can write; elsewhere it would compile every kernel again
# into its user-wide cache. So mjfast copies the kernels it ships, once, into a folder of the
# user's cache named after the sources' contents, and has numba load (and save) its kernels
# there. A copy is made only when the shipped kernels are those of these sources.

def user_cache() -> Path:
    """mjfast's folder in the user's cache (XDG_CACHE_HOME, else ~/.cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mjfast"


def shipped_kernels_copy(contents: "str | None" = None) -> "Path | None":
    """The folder holding the copy of the shipped kernels of a read-only install, made if
    missing; None where numba can cache beside the sources, NUMBA_CACHE_DIR is set, nothing
    was shipped for these sources (`contents`: their fingerprint, if known), or no copy can
    be made."""
    own = PACKAGE / "__pycache__"
    if os.environ.get("NUMBA_CACHE_DIR") or os.access(own if own.is_dir() else PACKAGE, os.W_OK):
        return None
    try:
        shipped_for = STAMP.read_text().split("\n")[1]
        if shipped_for != (contents or _contents(sorted(PACKAGE.rglob("*.py")))):
            return None
        copy = user_cache() / f"kernels-{shipped_for[:20]}"
        if not copy.is_dir():
            copy.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(dir=copy.parent, prefix=".copying-"))
            for cached in PACKAGE.rglob("__pycache__/*.nb[ic]"):
                target = staging / cached.parent.relative_to(PACKAGE)
                target.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(cached, target / cached.name)
            try:
                staging.rename(copy)  # whole or not at all: another process may be loading from it
            except OSError:  # another process made it first
                shutil.rmtree(staging, ignore_errors=True)
        return copy
    except (OSError, IndexError):
        return None


def _install_copy_locator(copy: Path) -> None:
    """numba caches mjfast's kernels under `copy`, in the folders they have in the package
    (numba's cache locators; a numba without them compiles)."""
    try:
        from numba.core import caching
    except ImportError:
        return
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    mixin = getattr(caching, "_SourceFileBackedLocatorMixin", None)
    locator = getattr(caching, "_CacheLocator", None)
    if impl is None or mixin is None or locator is None or not isinstance(getattr(impl, "_locator_classes", None),
                                                                         list):
        return

    class ShippedCopyLocator(mixin, locator):  # type: ignore[valid-type,misc]  # numba's classes, found at run time
        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(copy / Path(py_file).resolve().parent.relative_to(PACKAGE) / "__pycache__")

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            if not Path(py_file).resolve().is_relative_to(PACKAGE):
                return None
            return super().from_function(py_func, py_file)

    impl._locator_classes.insert(0, ShippedCopyLocator)


_CONTENTS = drop_stale_kernels()  # before any kernel loads: kernel modules import this first
SHIPPED_COPY = shipped_kernels_copy(_CONTENTS) if EXTRAS else None
if SHIPPED_COPY is not None:
    _install_copy_locator(SHIPPED_COPY)
if EXTRAS:
    _install_loader()
    _install_link_only()
    _install_linear_inlining()
COMPILE_NOTICE = _install_compile_notice()
