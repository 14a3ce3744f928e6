"""The batch calls, mjfast's face for many hands at once on all cores (mjfast.efficiency.batch
answers them): `import mjfast.batch` or `mjfast.batch` after `import mjfast`.

    import mjfast.batch
    mjfast.batch.shanten(counts, melds=n_melds, meld_counts=meld_tiles)   # (N,) int8

Hands are rows of an (N, 34) uint8 count array; each call's doc says what it returns.
"""

from .efficiency.batch import IMPOSSIBLE, discards, regular_shanten, shanten, shanten_by_form, useful

__all__ = ["IMPOSSIBLE", "discards", "regular_shanten", "shanten", "shanten_by_form", "useful"]
