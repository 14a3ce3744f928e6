"""How mjfast's kernels' code libraries are linked, beside numba's (numba.core.codegen).

numba finalises every kernel it compiles: it links in the code of the kernels it calls,
optimises the whole module and emits machine code. So every library optimises and emits again
all the code it calls, and mjfast changes that for its own kernels in two ways:

- Link-only libraries (LINK_ONLY, by qualified name, numba's library name;
  dispatch.kernels_only names them): a kernel only other kernels call is never run on its own,
  so finalising it only links, and its callers do the rest.
- Shared cores linked by name (SHARED: `njit(shared=True)`, large kernels many others call,
  such as the fan scorer): a shared core is emitted once, in its own (cached) library, with
  each entry also under a name that is the same in every process (stable_name: numba's
  mangled name without the number it gives each compile); a library that calls it links a
  declaration of that name, not its code, and the name resolves to the core's code through
  LLVM's symbol table (registered when the core is compiled or loaded). Before a cached caller
  loads, the cores it names are loaded (from their own cache); a core that cannot be found
  turns the load into a compile (SharedCoreMissing), never into an unresolved symbol. Measured
  on the first value answer: its compile 55 s against 76 s.

A library holding a Python or C wrapper (a kernel of the same name that Python calls), or none
of mjfast's functions, finalises as numba does. runtime.activate installs this at the first
compile or load of one of mjfast's kernels.
"""

from __future__ import annotations

import re
from importlib import import_module

from ..errors import MjfastError

LINK_ONLY: set[str] = set()
SHARED: set[str] = set()
_WRAPPER_PREFIXES = ("_ZN7cpython", "cfunc.")
_OWN_SYMBOL = "_ZN6mjfast"  # how numba's mangled names of mjfast's functions begin
_OWN_ENVIRONMENT = "_ZN08NumbaEnv6mjfast"  # and of their environments
STABLE_PREFIX = "mjfast_shared."
_COMPILE_NUMBER = re.compile(r"B\d+v\d+")  # the ABI tag "v<n>": numba's count of compiles in this process
_NAME_PART = re.compile(r"(\d+)")
_entries: dict[str, str] = {}  # a shared core's entry (numba's name in its library) -> its stable name
_registered: set[str] = set()  # stable names whose code this process has loaded or compiled


class SharedCoreMissing(MjfastError, LookupError):
    """A cached kernel names a shared core that cannot be loaded: the loader compiles the kernel
    instead (runtime.cache), so this never reaches a caller of mjfast."""


def stable_name(mangled: str) -> str:
    """The name of a shared core's entry that every process gives it: numba's mangled name
    without the compile number (the rest, the qualified name, the target's flags and the
    argument types, is the same from one process to the next)."""
    return STABLE_PREFIX + _COMPILE_NUMBER.sub("", mangled, count=1)


def _own(functions) -> bool:
    return any(f.name.startswith(_OWN_SYMBOL) and not f.is_declaration for f in functions)


def _core_entries(library) -> list:
    """A shared core library's entries: its defined, external functions of mjfast's."""
    import llvmlite.binding as ll

    return [f for f in library._final_module.functions
            if not f.is_declaration and f.linkage == ll.Linkage.external and f.name.startswith(_OWN_SYMBOL)]


def _linked_by_name(library) -> bool:
    """Whether a library is a shared core whose entries are all known by their stable names."""
    names = getattr(library, "_mjfast_entries", None)
    return bool(names) and all(_entries.get(n) in _registered for n in names)


def _link(self) -> None:
    """Link in what this library calls (each library once), but the shared cores known by name,
    which stay declared."""
    seen = set()
    for library in self._linking_libraries:
        if library not in seen:
            seen.add(library)
            self._reload_init.update(library._reload_init)
            if library is not self and _linked_by_name(library):
                continue
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)


def _add_stable_entries(self) -> None:
    """A shared core's entries under their stable names too: a function each that calls the
    entry (a tail call: one jump)."""
    import llvmlite.binding as ll

    lines = []
    for f in _core_entries(self):
        returns = str(f.global_value_type).partition(" (")[0]
        types = [str(a.type) for a in f.arguments]
        params = ", ".join(f"{t} %a{k}" for k, t in enumerate(types))
        lines.append(f'declare {returns} @"{f.name}"({", ".join(types)})')
        lines.append(f'define {returns} @"{stable_name(f.name)}"({params}) {{\n'
                     f'  %r = tail call {returns} @"{f.name}"({params})\n  ret {returns} %r\n}}')
    self._mjfast_entries = [f.name for f in _core_entries(self)]
    if lines:
        self._final_module.link_in(ll.parse_assembly("\n".join(lines)))


def _register(self, names: list) -> None:
    """The stable names of a shared core's entries `names` (in this finalised or loaded
    library), in LLVM's symbol table: the calls of every library finalised or loaded later
    resolve to this code."""
    import llvmlite.binding as ll

    for name in names:
        stable = stable_name(name)
        address = self.get_pointer_to_function(stable)
        if address:
            ll.add_symbol(stable, address)
            _entries[name] = stable
            _registered.add(stable)


def _rename_declarations(self) -> None:
    for f in self._final_module.functions:
        if f.is_declaration and f.name in _entries:
            f.name = _entries[f.name]


def _finalize_own(self) -> None:
    """numba's finalize of one of mjfast's emitted libraries, with its shared cores linked by
    name (see the module doc)."""
    from numba.core.compiler_lock import require_global_compiler_lock

    require_global_compiler_lock()
    self._codegen._check_llvm_bugs()
    self._raise_if_finalized()
    _link(self)
    core = self.name in SHARED
    if core:
        _add_stable_entries(self)
    _rename_declarations(self)
    self._optimize_final_module()
    self._final_module.verify()
    self._finalize_final_module()
    if core:
        _register(self, self._mjfast_entries)


def _own_finalize(finalize):
    def finalize_library(self):
        functions = list(self._final_module.functions)
        if not _own(functions):
            return finalize(self)  # not one of mjfast's (another package's may share a kernel's name)
        if self.name not in LINK_ONLY or any(f.name.startswith(_WRAPPER_PREFIXES) for f in functions):
            return _finalize_own(self)
        self._raise_if_finalized()
        _link(self)
        self._finalized = True

    finalize_library.mjfast_own = True
    return finalize_library


def _core_of(stable: str):
    """The dispatcher of the shared core a stable name belongs to: the module and the name
    that numba's mangled name spells (_ZN<length><part>...: mjfast, its modules, the kernel)."""
    mangled = stable[len(STABLE_PREFIX):]
    parts, at = [], 3  # after "_ZN"
    while at < len(mangled) and mangled[at].isdigit():
        length = int(_NAME_PART.match(mangled, at).group(1))
        at += len(str(length))
        parts.append(mangled[at:at + length])
        at += length
    if len(parts) < 2 or parts[0] != "mjfast":
        raise SharedCoreMissing(stable)
    try:
        return getattr(import_module(".".join(parts[:-1])), parts[-1])
    except (ImportError, AttributeError) as error:
        raise SharedCoreMissing(stable) from error


def _load_core(stable: str) -> None:
    """Load (or compile) the shared core named `stable` with each signature its cache holds,
    which registers its names; SharedCoreMissing when that does not give the name."""
    dispatcher = _core_of(stable)
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_load_index", None)
    if index is None:
        raise SharedCoreMissing(stable)
    for key in list(index()):
        dispatcher.compile(key[0])
        if stable in _registered:
            return
    raise SharedCoreMissing(stable)


def _link_facts(linking) -> tuple:
    """What loading a library needs to know of its code for linking: (its defined names, the
    shared cores it declares by their stable names)."""
    defined, cores = [], []
    for value in (*linking.functions, *linking.global_variables):
        if not value.is_declaration:
            defined.append(value.name)
        elif value.name.startswith(STABLE_PREFIX):
            cores.append(value.name)
    return tuple(defined), tuple(cores)


def _own_serialize(serialize):
    """numba's serialization of a library as object code, with its link facts added for one of
    mjfast's, so that loading it parses no code (see _own_unserialize)."""
    def serialize_using_object_code(self):
        name, kind, data = serialize(self)
        linking = self._get_module_for_linking()
        if kind != "object" or len(data) != 2 or not _own(linking.functions):
            return name, kind, data
        return name, kind, (*data, _link_facts(linking))

    serialize_using_object_code.mjfast_own = True
    return serialize_using_object_code


def _parsed_when_linked(library, bitcode: bytes):
    """A loaded library's code for linking, parsed the first time a later compile links it
    (loading parses nothing: 14 libraries' code took 0.1 s of a fresh process's first answer)."""
    def get_module_for_linking():
        if library._shared_module is None:
            import llvmlite.binding as ll

            library._shared_module = ll.parse_bitcode(bitcode)
        return library._shared_module

    return get_module_for_linking


def _own_unserialize(unserialize):
    """numba's unserialize of a cached library (its object code and its code for linking), but
    for one of mjfast's: the shared cores its code names are loaded first, its defined names
    told to the engine from its link facts, its code for linking parsed only when a later
    compile links it, and a shared core's own names registered (see the module doc). A cache
    written without the facts has them read from its code."""
    def unserialize_library(cls, codegen, state):
        name, kind, data = state
        if kind != "object" or _OWN_SYMBOL.encode() not in data[1]:
            return unserialize(codegen, state)
        library = codegen.create_library(name)
        linking = _parsed_when_linked(library, data[1])
        if len(data) == 3:
            defined, cores = data[2]
        else:
            defined, cores = _link_facts(linking())
        for core in cores:
            if core not in _registered:
                _load_core(core)
        library.enable_object_caching()
        library._set_compiled_object(data[0])
        library._get_module_for_linking = linking
        library._finalize_final_module()
        symbols = getattr(codegen._engine, "_defined_symbols", None)
        if isinstance(symbols, set):
            symbols.update(defined)
        else:
            codegen._engine._load_defined_symbols(linking())
        if name in SHARED:
            known = set(defined)
            library._mjfast_entries = [n for n in defined if n.startswith(_OWN_SYMBOL) and stable_name(n) in known]
            _register(library, library._mjfast_entries)
        return library

    unserialize_library.mjfast_own = True
    return classmethod(unserialize_library)


def _set_env_if_emitted(set_env):
    """numba points a compiled kernel's environment global at its environment object; a
    link-only library has no machine code, so no such global to set (its callers' copies are
    set by their own compile)."""
    def set_env_if_emitted(self, env_name, env):
        if not env_name.startswith(_OWN_ENVIRONMENT) or self._engine.is_symbol_defined(env_name):
            set_env(self, env_name, env)

    set_env_if_emitted.links_only = True
    return set_env_if_emitted


def install_linking() -> None:
    """CPUCodeLibrary.finalize, serialize_using_object_code and _unserialize and
    JITCPUCodegen.set_env, for mjfast's libraries as the module doc says (a numba without the
    methods they need is left as it is)."""
    try:
        from numba.core.codegen import CPUCodeLibrary, JITCodeLibrary, JITCPUCodegen, JitEngine
    except ImportError:
        return
    needed = ("finalize", "_get_module_for_linking", "_raise_if_finalized", "_optimize_final_module",
              "_finalize_final_module", "_unserialize", "enable_object_caching", "_set_compiled_object",
              "serialize_using_object_code")
    if not all(hasattr(CPUCodeLibrary, n) for n in needed) or not hasattr(JITCodeLibrary, "get_pointer_to_function") \
            or "_unserialize" in vars(JITCodeLibrary) or not hasattr(JITCPUCodegen, "set_env") \
            or not hasattr(JitEngine, "_load_defined_symbols"):
        return
    if not getattr(CPUCodeLibrary.finalize, "mjfast_own", False):
        CPUCodeLibrary.finalize = _own_finalize(CPUCodeLibrary.finalize)  # type: ignore[method-assign]
    if not getattr(CPUCodeLibrary.serialize_using_object_code, "mjfast_own", False):
        CPUCodeLibrary.serialize_using_object_code = _own_serialize(  # type: ignore[method-assign]
            CPUCodeLibrary.serialize_using_object_code)
    if not getattr(CPUCodeLibrary._unserialize, "mjfast_own", False):
        CPUCodeLibrary._unserialize = _own_unserialize(CPUCodeLibrary._unserialize)  # type: ignore[method-assign]
    if not getattr(JITCPUCodegen.set_env, "links_only", False):
        JITCPUCodegen.set_env = _set_env_if_emitted(JITCPUCodegen.set_env)  # type: ignore[method-assign]
