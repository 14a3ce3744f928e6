"""The columns of the discard rows the ranking kernels fill (plain.discards_of,
fan_aware.fan_discards_of), declared once. The Python layer (advice.options) turns the rows
into DiscardOptions; the log analysis (mjfast.logs.kernels) reads the same columns.

A discard row is one discard of a 3n+2 hand, rows best first, as float64 (the figures that
are integers are exact in it). The plain ranking (discards_of) fills the first PLAIN_WIDTH
columns, the fan-aware one (fan_discards_of) all FAN_WIDTH.
"""

# Columns of a discard row.
TILE = 0  # the tile id discarded
SHANTEN = 1  # of the 3n+1 hand left
ACCEPTANCE = 2  # unseen copies of its useful tiles
NEXT_ACCEPTANCE = 3  # the expected acceptance one useful draw later (0.0 where not worked out)
USEFUL_MASK = 4  # the useful tiles, bit t for tile id t
PLAIN_WIDTH = 5
VALID_ACCEPTANCE = 5  # fan-aware: the acceptance that can reach the minimum, -1 unknown
NEXT_VALID_ACCEPTANCE = 6  # fan-aware: its expectation one useful draw later
VALID_DRAWS_MASK = 7  # fan-aware: the draws counted in the valid acceptance
EFFECTIVE_SHANTEN = 8  # fan-aware: the shanten that counts under the minimum
FAN_WIDTH = 9
UNKNOWN = -1  # a valid acceptance not worked out (see fan_aware.fan_aware_options)
