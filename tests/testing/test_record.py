"""The record of passing rule tests, its JSON schema, seeds and message layout."""

from __future__ import annotations

import json

from chainrules_testing.record import SCHEMA, note_passed, recorded, write_record
from chainrules_testing.report import Context
from chainrules_testing.seeds import resolve_seed, session_seed, set_session_seed


def test_the_record_is_deduplicated_sorted_json(tmp_path, fresh_record):
    for _ in range(2):
        note_passed("numpy.sin", "rrule", False)
    note_passed("numpy.cos", "frule", True)
    path = tmp_path / "record.json"
    write_record(path, 5)
    assert json.loads(path.read_text()) == {
        "schema": SCHEMA,
        "seed": 5,
        "results": [
            {"function": "numpy.cos", "kind": "frule", "second_order": True},
            {"function": "numpy.sin", "kind": "rrule", "second_order": False},
        ],
    }
    assert SCHEMA == "chainrules-test-record/1"
    fresh_record.clear_record()
    assert recorded() == []


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
