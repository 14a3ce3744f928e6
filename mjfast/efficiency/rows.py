"""What the one-hand entry kernels (one_hand, fan_advice.fan_discards_of) return, declared once: their status codes and
the columns of their discard rows. The Python layer (mjfast.api) turns a status into a
HandError and the rows into DiscardOptions; the log analysis (mjfast.logs.kernels) reads the
same columns.

A discard row is one discard of a 3n+2 hand, rows best first, as float64 (the figures that
are integers are exact in it). The plain ranking (discards_of) fills the first PLAIN_WIDTH
columns, the fan-aware one (fan_discards_of) all FAN_WIDTH.
"""

# Statuses: OK, or what is wrong with the input (the Python layer words the message).
OK, TOO_MANY_COPIES, BAD_TILE_COUNT, SEEN_TOO_OFTEN = 0, 1, 2, 3

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
UNKNOWN = -1  # a valid acceptance not worked out (see fan_advice.fan_aware_options)
