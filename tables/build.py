"""Build tables/regular.npy, the regular-form lookup table (layout in mjfast/lookup.py).

    python tables/build.py          # about a minute on 2 cores

Every entry comes from mjfast.groups.group_distances_and_masks, the same function mjfast
calls at run time for groups whose tile limits are lowered by melds, so the table and the
fallback cannot disagree. tests/test_tables.py recomputes a sample of entries against it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjfast import lookup  # noqa: E402
from mjfast.groups import (  # noqa: E402
    N_ENTRIES,
    enumerate_patterns,
    group_distances_and_masks,
    rank_offsets,
)


@njit(parallel=True)
def _entries(patterns, chows):
    n, width = patterns.shape
    out = np.empty((n, N_ENTRIES), np.int32)
    caps = np.full(width, 4, np.int64)
    for i in prange(n):
        counts = patterns[i].astype(np.int64)
        dist = np.empty(N_ENTRIES, np.int32)
        masks = np.empty(N_ENTRIES, np.int32)
        group_distances_and_masks(counts, caps, chows, dist, masks)
        for k in range(N_ENTRIES):
            out[i, k] = dist[k] | (masks[k] << 8)
    return out


def build() -> np.ndarray:
    suit_patterns = enumerate_patterns(9)
    honor_patterns = enumerate_patterns(7)
    assert len(suit_patterns) == lookup.N_SUIT_PATTERNS
    assert len(honor_patterns) == lookup.N_HONOR_PATTERNS
    suit_rows = _entries(suit_patterns, True)
    honor_rows = _entries(honor_patterns, False)
    rows, class_of = np.unique(np.vstack([suit_rows, honor_rows]), axis=0, return_inverse=True)
    class_of = class_of.ravel()
    table = np.concatenate(
        [
            rank_offsets(9).ravel(),
            rank_offsets(7).ravel(),
            class_of[: len(suit_rows)],
            class_of[len(suit_rows):],
            rows.ravel(),
        ]
    ).astype(np.int32)
    assert lookup.ROWS_AT + rows.size == table.size
    return table


def main() -> None:
    start = time.perf_counter()
    table = build()
    out = ROOT / "tables" / lookup.TABLE_FILE
    np.save(out, table)
    n_classes = (table.size - lookup.ROWS_AT) // N_ENTRIES
    print(
        f"wrote {out} ({table.nbytes / 1e6:.2f} MB, {n_classes} classes) "
        f"in {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
