"""What a kernel says of its input, declared once: OK, or the code of what is wrong with it.
The Python layer turns a code into the HandError that words it (mjfast.efficiency.api.raise_for_status reads
the input again to name the tile or the count)."""

OK, TOO_MANY_COPIES, BAD_TILE_COUNT, SEEN_TOO_OFTEN = 0, 1, 2, 3
