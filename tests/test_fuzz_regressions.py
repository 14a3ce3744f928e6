"""Every input a fuzzer once failed on, the property tests' (test_properties_readers.py) or the
campaign's (bench/fuzz_readers.py), kept in data/fuzz/<target>/ (data/README.md lists them and
what each broke), goes through its target's check (readers.py): read, or rejected with the
reader's own error."""

from __future__ import annotations

import pytest

from .readers import FUZZ_FINDINGS, TARGETS, decode

KEPT = sorted(FUZZ_FINDINGS.glob("*/*"))


def test_the_kept_inputs_are_for_known_targets():
    assert KEPT and {path.parent.name for path in KEPT} <= set(TARGETS)


@pytest.mark.parametrize("path", KEPT, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_kept_input_is_read_or_rejected_with_the_reader_s_error(path):
    TARGETS[path.parent.name].check(decode(path.read_bytes()))
