"""Advice: every discard of a hand and every answer to a discard, ranked by efficiency, by the
fan-aware figures or by value, on top of the shanten core (mjfast.efficiency) and the fan
scoring (mjfast.fan). docs/advice.md states the figures and the model.

Modules, from the bottom up:

    rows        the columns of the discard rows the ranking kernels fill
    position    the record every ranking's kernels read a hand by (Position)
    ranking     the rankings' keys and the sort (kernels)
    plain       the plain ranking's entry kernel (discards_of)
    win_scoring a win's fans as the look-aheads ask for them: through a memo, as played open
    fan_aware   the figures that know the 8-fan minimum, and the fan-aware ranking's entry
    model       the value model's parameters and the rankings' names
    claim_rates how often another player's discard can be claimed (the model's claims)
    value/      the value engine, a package (docs/value-engine.md): win chance and expected
                score of every discard, its query records, its graph, its clock
    danger      the danger of each discard from the opponents' play (fitted models)
    options     best_discards and DiscardOption: the Python face of the rankings
    waiting     hand_value: the value of a hand waiting to draw
    claims      claim_options: passing and every claim of another player's discard
    loss        what a choice loses against the best by value, and the bad-move rule (the
                review's and `mjfast logs --value`'s)
    budget, graph   old names of modules that moved into value/ (they warn, docs/api.md)
"""
