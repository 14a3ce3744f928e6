"""The shanten core: shanten over every MCR form, useful tiles, acceptance, every discard and
the step after it, as numba kernels on 34-count arrays. api (the per-hand calls, mjfast's
shanten, useful_tiles, waits...) and batch (many hands on all cores, mjfast.batch) are their
Python faces; the rankings on top of them are mjfast.advice's; numba's details are in mjfast.runtime.

Modules, from the bottom up:

    group_dp        the distances of one tile group to every partial target (the DP that
                    defines every table entry)
    lookup_table    the regular-form lookup table: layout, loading, the kernels that read it
    scratch         the scratch array the kernels share, laid out
    regular         the regular form: the groups' rows, their merge, deficiency and useful tiles
    regular_sweep   the regular form of every discard, and of every draw and discard after it
    special_forms   seven pairs, thirteen orphans, honours and knitted, knitted straight
    all_forms       every form at once, and the best of them
    discards        every discard of a hand and the step after it (next acceptance)
    status          what a kernel says of its input: OK or the fault's code
    one_hand        the one-hand entry kernels api calls
    api             the per-hand calls: a hand in any notation to its kernel's arrays, the
                    kernel's status to the HandError that words it
    batch           the batch calls: many hands' rows on all cores
"""

from ..runtime.lazy import lazy_attributes

# Names loaded on first use, by module: importing the package compiles and loads nothing.
_LOADED_LATER: dict[str, tuple[str, ...]] = {
    "api": ("acceptance", "shanten", "shanten_by_form", "useful_by_form", "useful_tiles", "waits"),
}
__getattr__, __dir__ = lazy_attributes(__name__, _LOADED_LATER)
__all__ = [name for names in _LOADED_LATER.values() for name in names]
