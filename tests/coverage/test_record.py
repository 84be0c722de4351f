"""Reading the test-results file the harness's pytest plugin writes."""

import json

import pytest

from chainrules.coverage.record import (
    RECORD_SCHEMA,
    EngineCheck,
    RecordError,
    TestRecord,
    read_test_record,
)

OLD_SCHEMA = "chainrules-test-record/1"


def write(tmp_path, document, name="record.json"):
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


RESULTS = [
    {"function": "numpy.sin", "kind": "rrule", "second_order": False},
    {"function": "numpy.sin", "kind": "frule", "second_order": True},
    {"function": "numpy.sin", "kind": "rrule", "second_order": False},
    {"function": "math.exp", "kind": "frule", "second_order": False},
]


@pytest.mark.parametrize("schema", [RECORD_SCHEMA, OLD_SCHEMA])
def test_read_a_record(tmp_path, schema):
    document = {"schema": schema, "seed": 7, "results": RESULTS}
    if schema == RECORD_SCHEMA:
        document["engines"] = []
    path = write(tmp_path, document)
    record = read_test_record(path)
    assert (record.seed, record.path) == (7, str(path))
    assert record.tested == {
        "numpy.sin": frozenset({"rrule", "frule"}),
        "math.exp": frozenset({"frule"}),
    }
    assert record.tested_second_order == {"numpy.sin"}
    assert record.kinds_of_any(["numpy.cos", "math.exp"]) == {"frule"}
    # the harness's results are the reference engine, in either schema
    assert record.engine_check("numpy.sin", "reference") == EngineCheck(2)
    assert record.engine_check("math.exp", "reference") == EngineCheck(1)
    assert record.engine_check("numpy.sin", "torch") is None
    assert record.engine_check("numpy.cos", "reference") is None


def test_engine_entries_keep_the_highest_order_and_every_reason(tmp_path):
    engines = [
        {"function": "scipy.special.iv", "engine": "torch", "order": 1, "reason": "b"},
        {"function": "scipy.special.iv", "engine": "torch", "order": 1, "reason": "a"},
        {"function": "scipy.special.iv", "engine": "torch", "order": 1, "reason": "a"},
        {"function": "scipy.special.iv", "engine": "jax", "order": 1, "reason": "host"},
        {"function": "scipy.special.iv", "engine": "jax", "order": 2, "reason": ""},
        {"function": "scipy.special.iv", "engine": "autograd", "order": 1},
        {"function": "numpy.exp", "engine": "reference", "order": 2, "reason": ""},
    ]
    document = {"schema": RECORD_SCHEMA, "seed": None, "results": [], "engines": engines}
    record = read_test_record(write(tmp_path, document))
    torch = record.engine_check("scipy.special.iv", "torch")
    assert torch == EngineCheck(1, ("a", "b")) and torch.reason == "a; b"
    assert record.engine_check("scipy.special.iv", "jax") == EngineCheck(2)
    assert record.engine_check("scipy.special.iv", "autograd") == EngineCheck(1)
    assert record.engine_check("numpy.exp", "reference") == EngineCheck(2)
    assert record.kinds("numpy.exp") == frozenset()


def test_aliases_merge_their_checks():
    record = TestRecord(
        seed=None,
        tested={"numpy.abs": frozenset({"rrule"})},
        engines={"numpy.absolute": {"jax": EngineCheck(1, ("x",))}},
    )
    names = ["numpy.absolute", "numpy.abs"]
    assert record.engine_check_of_any(names, "reference") == EngineCheck(1)
    assert record.engine_check_of_any(names, "jax") == EngineCheck(1, ("x",))
    assert record.engine_check_of_any(names, "torch") is None


def test_an_empty_run_with_no_seed(tmp_path):
    record = read_test_record(
        write(tmp_path, {"schema": RECORD_SCHEMA, "seed": None, "results": [], "engines": []})
    )
    assert (record.seed, record.tested, record.tested_second_order) == (None, {}, frozenset())
    assert record.engines == {}


GOOD = {"function": "numpy.sin", "kind": "rrule", "second_order": False}
ENGINE = {"function": "numpy.sin", "engine": "torch", "order": 1, "reason": ""}


def _engines(*entries):
    return {"schema": RECORD_SCHEMA, "seed": 1, "results": [], "engines": list(entries)}


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("{not json", "is not JSON"),
        ([], "expected schema"),
        ({"schema": "chainrules-test-record/3", "results": []}, "expected schema"),
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
        ({"schema": RECORD_SCHEMA, "seed": 1, "results": []}, "'engines' must be a list"),
        (_engines("numpy.sin"), r"engines\[0\] must be an object"),
        (_engines(ENGINE, {**ENGINE, "engine": "numba"}), r"engines\[1\] needs .*'numba'"),
        (_engines({**ENGINE, "order": 3}), r"engines\[0\] needs .*'order': 3"),
        (_engines({**ENGINE, "order": True}), r"engines\[0\] needs .*'order': True"),
        (_engines({**ENGINE, "function": None}), r"engines\[0\] needs 'function'"),
        (_engines({**ENGINE, "reason": 1}), r"engines\[0\] needs .*'reason': 1"),
        (
            _engines({**ENGINE, "order": 2, "reason": "why"}),
            r"engines\[0\] gives a reason at order 2",
        ),
    ],
)
def test_a_bad_record_is_refused(tmp_path, document, message):
    with pytest.raises(RecordError, match=message):
        read_test_record(write(tmp_path, document))


def test_a_bad_schema_names_the_readable_ones(tmp_path):
    path = write(tmp_path, {"schema": "chainrules-test-record/0", "results": []})
    expected = (
        f"{path}: expected schema 'chainrules-test-record/1' or 'chainrules-test-record/2', "
        "found 'chainrules-test-record/0'"
    )
    with pytest.raises(RecordError) as error:
        read_test_record(path)
    assert str(error.value) == expected


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(RecordError, match="cannot read the test record"):
        read_test_record(tmp_path / "absent.json")
