"""The tables as files: decisions and games, each in Parquet and CSV, written as results come.

Rows are buffered up to ROWS_PER_GROUP and then written (one Parquet row group), so memory
stays flat however many games are read. The files are written under temporary names and put in
place when the run ends well (resume.atomic): a killed run never leaves a half-written table.
Needs pyarrow (the `logs` extra).
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from ..tiles import TILE_NAMES
from .columns import (
    DECISION_CELLS,
    DECISION_COLUMNS,
    GAME_CELLS,
    GAME_COLUMNS,
    LABELS,
    NA,
    OPTION_BITS,
    D,
    G,
    option_names,
)
from .resume import atomic
from .work import ChunkResult

ROWS_PER_GROUP = 1 << 16
_ARROW_TYPES = {"int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "bool": pa.bool_(),
                "string": pa.string(), "float64": pa.float64()}
# The names of coded cells by column type: tile ids, labels, claim option bits; Arrow arrays,
# so that a column of codes becomes its names in Arrow (take), not through Python strings.
_NAMES = {"tile": pa.array(TILE_NAMES, pa.string()), **{k: pa.array(v, pa.string()) for k, v in LABELS.items()},
          "options": pa.array([option_names(bits) for bits in range(1 << len(OPTION_BITS))], pa.string())}


def schema(columns) -> pa.Schema:
    return pa.schema([(c.name, _ARROW_TYPES[c.written_type]) for c in columns])


DECISION_SCHEMA, GAME_SCHEMA = schema(DECISION_COLUMNS), schema(GAME_COLUMNS)


def _cells(columns, rows: np.ndarray) -> dict:
    """Arrow arrays of the integer cells, NA as null, codes as their names."""
    arrays = {}
    for i, column in enumerate(columns):
        values = rows[:, i]
        missing = values == NA
        if column.type in _NAMES:
            arrays[column.name] = _NAMES[column.type].take(pa.array(values, mask=missing))
        elif column.type == "bool":
            arrays[column.name] = pa.array(values != 0, pa.bool_(), mask=missing)
        elif column.type in ("ms", "milli"):  # thousandths in the cells
            arrays[column.name] = pa.array(values / 1000.0, pa.float64(), mask=missing)
        else:
            arrays[column.name] = pa.array(values.astype(column.type), _ARROW_TYPES[column.type], mask=missing)
    return arrays


def decision_table(result: ChunkResult) -> pa.Table:
    arrays = _cells(DECISION_CELLS, result.decisions)
    games = result.games[:, G["game"]]
    at = np.searchsorted(games, result.decisions[:, D["game"]])
    arrays["match_id"] = pa.array(np.array(result.match_ids, object)[at] if len(at) else [], pa.string())
    return pa.table([arrays[f.name] for f in DECISION_SCHEMA], schema=DECISION_SCHEMA)


def game_table(result: ChunkResult) -> pa.Table:
    arrays = _cells(GAME_CELLS, result.games)
    arrays["match_id"] = pa.array(result.match_ids, pa.string())
    arrays["file"] = pa.array([result.file] * len(result.match_ids), pa.string())
    arrays["fans"] = pa.array([f or None for f in result.fans], pa.string())
    for p in range(4):
        arrays[f"bot_{p}"] = pa.array([names[p] or None for names in result.names], pa.string())
    return pa.table([arrays[f.name] for f in GAME_SCHEMA], schema=GAME_SCHEMA)


class TableFiles:
    """NAME.parquet and NAME.csv in a folder, written a row group at a time; a context: the
    files are in place when it ends without an exception, and nowhere otherwise."""

    def __init__(self, folder: Path, name: str, table_schema: pa.Schema):
        self.paths = (folder / f"{name}.parquet", folder / f"{name}.csv")
        self._placed = ExitStack()
        parquet, csv = (self._placed.enter_context(atomic(path)) for path in self.paths)
        self.parquet = pq.ParquetWriter(str(parquet), table_schema)
        self.csv = pa_csv.CSVWriter(str(csv), table_schema)
        self.schema = table_schema
        self.buffered: list = []
        self.n_buffered = 0

    def __enter__(self) -> "TableFiles":
        return self

    def __exit__(self, *failure) -> None:
        if failure[0] is None:
            self._flush()
        self.parquet.close()
        self.csv.close()
        self._placed.__exit__(*failure)

    def add(self, table: pa.Table) -> None:
        self.buffered.append(table)
        self.n_buffered += table.num_rows
        if self.n_buffered >= ROWS_PER_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self.buffered:
            table = pa.concat_tables(self.buffered)
            self.parquet.write_table(table, row_group_size=ROWS_PER_GROUP)
            self.csv.write_table(table)
        self.buffered, self.n_buffered = [], 0

