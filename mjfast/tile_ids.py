"""The 34 tile kinds: their ids and names, at the bottom of the package, so that errors.py
(which names tiles in its messages), the notation (tiles.py) and its fast reader
(compact_kernel.py) all read them without importing each other.

Ids follow the MCR reference order: 0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-30 E S W N,
31-33 C F P (red, green, white dragons).
"""

N_KINDS = 34
SUITS = "mps"
HONOR_LETTERS = "ESWNCFP"
TILE_NAMES: tuple[str, ...] = tuple([f"{r}{s}" for s in SUITS for r in range(1, 10)] + list(HONOR_LETTERS))
TILE_INDEX: dict[str, int] = {name: i for i, name in enumerate(TILE_NAMES)}
NOT_COMPACT = -2  # what the fast reader of compact strings returns for one the checked reader must read
MAX_TILES = 0xFFFF  # the most tiles the fast reader counts (the low 16 bits of its answer)
