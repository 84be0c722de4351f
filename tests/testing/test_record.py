"""The record of passing rule tests, its JSON schema, seeds and message layout."""

from __future__ import annotations

import json
import re

import pytest
from chainrules_testing.record import (
    SCHEMA,
    note_engine,
    note_passed,
    recorded,
    recorded_engines,
    write_record,
)
from chainrules_testing.report import Context
from chainrules_testing.seeds import resolve_seed, session_seed, set_session_seed

from chainrules.coverage.record import EngineCheck, read_test_record


def test_the_record_is_deduplicated_sorted_json(tmp_path, fresh_record):
    for _ in range(2):
        note_passed("numpy.sin", "rrule", False)
    note_passed("numpy.cos", "frule", True)
    note_engine("numpy.cos", "torch", 2)
    note_engine("numpy.sin", "jax", 1, "no second derivative on the host")
    path = tmp_path / "record.json"
    write_record(path, 5)
    assert json.loads(path.read_text()) == {
        "schema": SCHEMA,
        "seed": 5,
        "results": [
            {"function": "numpy.cos", "kind": "frule", "second_order": True},
            {"function": "numpy.sin", "kind": "rrule", "second_order": False},
        ],
        "engines": [
            {"function": "numpy.cos", "engine": "reference", "order": 2, "reason": ""},
            {"function": "numpy.cos", "engine": "torch", "order": 2, "reason": ""},
            {
                "function": "numpy.sin",
                "engine": "jax",
                "order": 1,
                "reason": "no second derivative on the host",
            },
            {"function": "numpy.sin", "engine": "reference", "order": 1, "reason": ""},
        ],
    }
    assert SCHEMA == "chainrules-test-record/2"
    fresh_record.clear_record()
    assert recorded() == [] and recorded_engines() == []


@pytest.mark.parametrize(
    ("engine", "order", "reason", "message"),
    [
        (
            "numba",
            1,
            "",
            "engine must be one of 'reference', 'torch', 'jax', 'autograd', 'dask', not 'numba'",
        ),
        ("torch", 3, "", "order must be 0, 1 or 2, not 3"),
        ("torch", True, "", "order must be 0, 1 or 2, not True"),
        ("jax", 2, "why", "a reason is for order 1 only"),
    ],
)
def test_engine_checks_are_validated(fresh_record, engine, order, reason, message):
    with pytest.raises(ValueError, match=re.escape(f"note_engine('numpy.exp'): {message}")):
        note_engine("numpy.exp", engine, order, reason)
    assert recorded_engines() == []


def test_the_written_record_reads_back_in_the_coverage_report(tmp_path, fresh_record):
    note_passed("numpy.tanh", "rrule", True)
    note_engine("numpy.tanh", "autograd", 1, "autograd's primitive has no second derivative")
    path = tmp_path / "record.json"
    write_record(path, None)
    record = read_test_record(path)
    assert record.kinds("numpy.tanh") == {"rrule"} and record.second_order("numpy.tanh")
    assert record.engine_check("numpy.tanh", "reference") == EngineCheck(2)
    assert record.engine_check("numpy.tanh", "autograd") == EngineCheck(
        1, ("autograd's primitive has no second derivative",)
    )
    assert record.engine_check("numpy.tanh", "jax") is None


def test_seeds_come_from_the_call_the_session_or_fresh_entropy():
    before = session_seed()
    try:
        set_session_seed(None)
        assert resolve_seed(3) == 3 and isinstance(resolve_seed(None), int)
        set_session_seed(42)
        assert resolve_seed(None) == 42 and resolve_seed(1) == 1
    finally:
        set_session_seed(before)


def test_messages_end_with_the_seed():
    message = Context("test_rrule", "numpy.sin", 9).message("headline", "line", "")
    assert message.splitlines() == [
        "test_rrule(numpy.sin): headline",
        "  line",
        "  seed=9 reproduces the random draws (pass seed=9, or --chainrules-seed 9)",
    ]
