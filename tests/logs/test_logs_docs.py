"""docs/logs.md describes every column of the tables as mjfast.logs.columns declares it."""

from __future__ import annotations

import pytest

from mjfast.logs.columns import DECISION_COLUMNS, GAME_COLUMNS

from ..data import ROOT

DOC = (ROOT / "docs" / "logs.md").read_text(encoding="utf-8")


def _table_after(heading: str) -> list[str]:
    lines = DOC.split(heading + "\n", 1)[1].strip().split("\n")
    return [line for line in lines[2:lines.index("") if "" in lines else None]]


@pytest.mark.parametrize("heading, columns", [("### decisions", DECISION_COLUMNS), ("### games", GAME_COLUMNS)])
def test_the_doc_lists_every_column_with_its_type_and_meaning(heading, columns):
    assert _table_after(heading) == [f"| `{c.name}` | {c.written_type} | {c.meaning} |" for c in columns]
