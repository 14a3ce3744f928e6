"""The value engine (docs/value-engine.md): the figures of every discard of a hand under the
value model (docs/advice.md), as advice/'s rankings ask for them.

A query is one record family (query.py), built once by its caller and carried unchanged down
to the kernels; budget.py runs queries on a clock and names the model behind each answer.
Modules, from the bottom up:

    query       the records: Position, Model, Risk, Query, Figures
    slots       a hand's key, the hash slots and the bit set that find hands by it
    graph       the graph's columns and what it derives from its query (Scope)
    pricing     the ready hands' waits, scored
    build       the graph, breadth first, each hand's moves read from the table's rows
    backward    the backward pass over the draws left: every figure at once
    entry       the entry kernel (hand_values): the roots, the graph, the figures by discard
    budget      the engine on a clock: deadlines, the stop flag, the model that fits
    at_once     a computation's queries answered on every core (a review of one game)

Importing this package loads no kernel: budget.py loads the entry kernel on first use.
"""

from .budget import EFFICIENCY, FAN_AWARE, MODELS, NO_EXCHANGE, VALUE, Deadline, check_budget, value_figures
from .query import NO_CLAIMS, NO_RISK, Figures, Model, Position, Query, Risk, new_query

__all__ = ["EFFICIENCY", "FAN_AWARE", "MODELS", "NO_CLAIMS", "NO_EXCHANGE", "NO_RISK", "VALUE", "Deadline",
           "Figures", "Model", "Position", "Query", "Risk", "check_budget", "new_query", "value_figures"]
