"""Link-only libraries, beside numba's code libraries (numba.core.codegen).

numba finalises every kernel it compiles: it links in the code of the kernels it calls,
optimises the whole module and emits machine code. A kernel only other kernels call is never
run on its own, and each caller optimises and emits again all the code it links in, so for
those kernels (LINK_ONLY, by qualified name, numba's library name; dispatch.kernels_only
names them) finalising only links, and their callers do the rest: that work done twice was a
fifth of the compile. A library holding a Python or C wrapper (a kernel of the same name that
Python calls), or none of mjfast's functions, finalises in full. runtime.activate installs
this at the first compile or load of one of mjfast's kernels.
"""

from __future__ import annotations

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


def install_link_only() -> None:
    """CPUCodeLibrary.finalize and JITCPUCodegen.set_env, made link-only for LINK_ONLY's
    libraries (a numba without the methods they need is left as it is)."""
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
