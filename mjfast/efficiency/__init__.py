"""The shanten core: shanten over every MCR form, useful tiles, acceptance, every discard and
the step after it, as numba kernels on 34-count arrays. mjfast.api and mjfast.batch are their
Python faces; the rankings on top of them are mjfast.advice's; numba's details are in mjfast.jit.

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
    one_hand        the one-hand entry kernels mjfast.api calls
"""
