"""Build tables/regular.npy, the regular-form lookup table (layout in mjfast/efficiency/lookup_table.py).

    python tables/build.py          # about a minute on 2 cores

Every entry comes from mjfast.efficiency.group_dp.group_distances_and_masks, the same function mjfast
calls at run time for groups whose tile limits are lowered by melds, so the table and the
fallback cannot disagree. tests/efficiency/test_tables.py recomputes a sample of entries against it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjfast.efficiency import lookup_table as lookup  # noqa: E402
from mjfast.efficiency.group_dp import (  # noqa: E402
    N_ENTRIES,
    enumerate_patterns,
    group_distances_and_masks,
    merge_rows,
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
        keeps = np.empty(N_ENTRIES, np.int32)
        group_distances_and_masks(counts, caps, chows, dist, masks, keeps)
        for k in range(N_ENTRIES):  # the keeps are not stored: efficiency.moves reads them from distance rows
            out[i, k] = dist[k] | (masks[k] << 8)
    return out


def _pack_bytes(ids: np.ndarray) -> np.ndarray:
    """Four one-byte ids per int32, little end first (lookup.distance_class and
    lookup.merged_class unpack them)."""
    padded = np.zeros(-(-len(ids) // 4) * 4, np.int64)
    padded[: len(ids)] = ids
    quads = padded.reshape(-1, 4)
    return quads[:, 0] | (quads[:, 1] << 8) | (quads[:, 2] << 16) | (quads[:, 3] << 24)


def _knitted_rests(patterns: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per suit pattern and knitted part j (1-4-7, 2-5-8, 3-6-9): the (set, pair, set + pair)
    entries of the pattern without one copy of each held tile of the part. Distances are
    packed 3 bits each, 9 bits per part, into one int per pattern; masks 9 bits each, 27
    bits per part, one int per (pattern, part)."""
    offsets = rank_offsets(9)
    dists = np.zeros(len(patterns), np.int64)
    masks = np.zeros((len(patterns), 3), np.int64)
    for j in range(3):
        rest = patterns.astype(np.int64)
        part = [j, j + 3, j + 6]
        rest[:, part] = np.maximum(rest[:, part] - 1, 0)
        prefix = np.cumsum(rest, axis=1) - rest
        ranks = offsets[np.arange(9), prefix, rest].sum(axis=1)
        entries = rows[ranks][:, [1, 5, 6]]
        d = entries & 0xFF
        m = (entries >> 8) & 0x1FF
        assert d.max() < 8
        dists |= (d[:, 0] | (d[:, 1] << 3) | (d[:, 2] << 6)) << (9 * j)
        masks[:, j] = m[:, 0] | (m[:, 1] << 9) | (m[:, 2] << 18)
    return dists, masks.ravel()


def _merge_closure(drows: np.ndarray, suit_classes: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distance rows, extended by every row that merging suits into a group's row
    (groups.merge_rows) reaches, and the class of each merge: (rows, merge[a, b] for a class
    a reached from the classes `starts` (the suits' and the honours') and a suit class b,
    else 0). Starting from the honours too reaches no new row, and lets a hand's groups but
    one be merged by lookups whichever group is left out (efficiency.moves)."""
    rows = [tuple(r) for r in drows.tolist()]
    index = {r: i for i, r in enumerate(rows)}
    merge = np.zeros((lookup.MAX_DCLASSES, lookup.MAX_DCLASSES), np.int64)
    out = np.empty(N_ENTRIES, np.int64)
    pending = list(starts)
    done = set()
    while pending:
        a = pending.pop()
        if a in done:
            continue
        done.add(a)
        for b in suit_classes:
            merge_rows(np.array(rows[a], np.int64), drows[b].astype(np.int64), out)
            row = tuple(out.tolist())
            if row not in index:
                index[row] = len(rows)
                rows.append(row)
            merge[a, b] = index[row]
            pending.append(index[row])
    assert len(rows) <= lookup.MAX_DCLASSES
    return np.array(rows, np.int64), merge


def build() -> np.ndarray:
    suit_patterns = enumerate_patterns(9)
    honor_patterns = enumerate_patterns(7)
    assert len(suit_patterns) == lookup.N_SUIT_PATTERNS
    assert len(honor_patterns) == lookup.N_HONOR_PATTERNS
    suit_rows = _entries(suit_patterns, True)
    honor_rows = _entries(honor_patterns, False)
    all_rows = np.vstack([suit_rows, honor_rows])
    rows, class_of = np.unique(all_rows, axis=0, return_inverse=True)
    class_of = class_of.ravel()
    drows, dclass_of = np.unique(all_rows & 0xFF, axis=0, return_inverse=True)
    dclass_of = dclass_of.ravel()
    drows, merge = _merge_closure(drows, np.unique(dclass_of[: len(suit_rows)]), np.unique(dclass_of))
    drows_padded = np.zeros((lookup.MAX_DCLASSES, N_ENTRIES), np.int64)
    drows_padded[: len(drows)] = drows
    table = np.concatenate(
        [
            rank_offsets(9).ravel(),
            rank_offsets(7).ravel(),
            class_of[: len(suit_rows)],
            class_of[len(suit_rows):],
            _pack_bytes(dclass_of[: len(suit_rows)]),
            _pack_bytes(dclass_of[len(suit_rows):]),
            drows_padded.ravel(),
            *_knitted_rests(suit_patterns, suit_rows),
            _pack_bytes(merge.ravel()),
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
