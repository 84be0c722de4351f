"""Reading the test-results file the harness's pytest plugin writes."""

import json

import pytest

from chainrules.coverage.record import RECORD_SCHEMA, RecordError, read_test_record


def write(tmp_path, document, name="record.json"):
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


def test_read_a_record(tmp_path):
    path = write(
        tmp_path,
        {
            "schema": RECORD_SCHEMA,
            "seed": 7,
            "results": [
                {"function": "numpy.sin", "kind": "rrule", "second_order": False},
                {"function": "numpy.sin", "kind": "frule", "second_order": True},
                {"function": "numpy.sin", "kind": "rrule", "second_order": False},
                {"function": "math.exp", "kind": "frule", "second_order": False},
            ],
        },
    )
    record = read_test_record(path)
    assert (record.seed, record.path) == (7, str(path))
    assert record.tested == {
        "numpy.sin": frozenset({"rrule", "frule"}),
        "math.exp": frozenset({"frule"}),
    }
    assert record.tested_second_order == {"numpy.sin"}
    assert record.kinds_of_any(["numpy.cos", "math.exp"]) == {"frule"}


def test_an_empty_run_with_no_seed(tmp_path):
    record = read_test_record(
        write(tmp_path, {"schema": RECORD_SCHEMA, "seed": None, "results": []})
    )
    assert (record.seed, record.tested, record.tested_second_order) == (None, {}, frozenset())


GOOD = {"function": "numpy.sin", "kind": "rrule", "second_order": False}


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("{not json", "is not JSON"),
        ([], "expected schema"),
        ({"schema": "chainrules-test-record/2", "results": []}, "expected schema"),
        ({"schema": RECORD_SCHEMA, "seed": "7", "results": []}, "'seed' must be"),
        ({"schema": RECORD_SCHEMA, "seed": True, "results": []}, "'seed' must be"),
        ({"schema": RECORD_SCHEMA, "seed": 1}, "'results' must be a list"),
        ({"schema": RECORD_SCHEMA, "seed": 1, "results": ["numpy.sin"]}, "must be an object"),
        ({"schema": RECORD_SCHEMA, "seed": 1, "results": [{**GOOD, "kind": "jvp"}]}, "'kind'"),
        ({"schema": RECORD_SCHEMA, "seed": 1, "results": [{**GOOD, "function": 3}]}, "'function'"),
        (
            {"schema": RECORD_SCHEMA, "seed": 1, "results": [{**GOOD, "second_order": "no"}]},
            "'second_order'",
        ),
    ],
)
def test_a_bad_record_is_refused(tmp_path, document, message):
    with pytest.raises(RecordError, match=message):
        read_test_record(write(tmp_path, document))


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(RecordError, match="cannot read the test record"):
        read_test_record(tmp_path / "absent.json")
