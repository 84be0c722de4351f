"""The JSON format, checked against its documented schema."""

import json

import pytest

from chainrules.coverage.format_json import SCHEMA, render_json, to_document, validate
from chainrules.coverage.report import current_report


def test_small_report_follows_the_schema(small_report):
    document = json.loads(render_json(small_report))
    assert validate(document) == []
    assert document["results"]["known"] is small_report.known
    assert [f["name"] for f in document["functions"]] == [r.name for r in small_report.rows]
    assert [o["name"] for o in document["outside_universe"]] == ["abs"]
    assert document["notes"]["disagreements"] == []
    total = document["total"]
    if small_report.known:
        assert (document["results"]["seed"], total["tested"], total["coverage"]) == (11, 1, 50.0)
        sin = next(f for f in document["functions"] if f["name"] == "math.sin")
        assert sin["tested"] == {"rrule": True, "frule": True, "second_order": True}
        assert sin["covered"] is True
        assert sin["engines"] == {
            "reference": {"state": "tested", "order": 2, "reason": ""},
            "torch": {"state": "tested", "order": 2, "reason": ""},
            "jax": {
                "state": "tested",
                "order": 1,
                "reason": "the host callback | has no 2nd derivative",
            },
            "autograd": {"state": "reached", "order": None, "reason": ""},
            "dask": {"state": "reached", "order": None, "reason": ""},
        }
        assert total["engines"]["jax"] == {"second_order": 0, "first_order": 1, "reached": 2}
    else:
        assert (total["tested"], total["coverage"], total["rule_coverage"]) == (None, None, 100.0)
        assert total["engines"]["torch"] == {
            "second_order": None,
            "first_order": None,
            "reached": 2,
        }


def test_every_function_has_a_state_per_engine(small_report, engine_cells):
    document = to_document(small_report)
    states = {f["name"]: [e["state"] for e in f["engines"].values()] for f in document["functions"]}
    shown = {
        "2": "tested",
        "1": "tested",
        "reached": "reached",
        "?": "unknown",
        "-": "unreachable",
        "n/a": "non-differentiable",
    }
    assert states == {name: [shown[c] for c in cells] for name, cells in engine_cells.items()}
    for function in document["functions"]:
        assert list(function["engines"]) == ["reference", "torch", "jax", "autograd", "dask"]


def test_the_installed_report_follows_the_schema():
    document = to_document(current_report())
    assert validate(document) == []
    assert document["total"]["functions"] == len(document["functions"])


def test_the_schema_is_plain_json():
    assert json.loads(json.dumps(SCHEMA)) == SCHEMA


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(schema="chainrules-coverage/0"), "$.schema: expected"),
        (lambda d: d.pop("total"), "$: missing 'total'"),
        (lambda d: d.update(extra=1), "$: unexpected 'extra'"),
        (lambda d: d["total"].update(functions=-1), "$.total.functions: -1 is below 0"),
        (lambda d: d["total"].update(coverage=101.0), "$.total.coverage: 101.0 is above 100"),
        (lambda d: d["total"].update(tested="1"), "$.total.tested: expected integer or null"),
        (lambda d: d["total"].update(functions=True), "$.total.functions: expected integer"),
        (lambda d: d["functions"][0].update(status="fine"), "is not one of"),
        (lambda d: d["functions"][0]["tested"].pop("frule"), "tested: missing 'frule'"),
        (lambda d: d["environment"].update(numpy=2), "$.environment.numpy: expected string"),
        (
            lambda d: d["functions"][0]["engines"]["jax"].update(state="fine"),
            "$.functions[0].engines.jax.state: 'fine' is not one of",
        ),
        (
            lambda d: d["functions"][0]["engines"]["torch"].update(order=3),
            "$.functions[0].engines.torch.order: 3 is above 2",
        ),
        (lambda d: d["functions"][0]["engines"].pop("autograd"), "missing 'autograd'"),
        (
            lambda d: d["total"]["engines"]["reference"].update(reached=None),
            "$.total.engines.reference.reached: expected integer",
        ),
    ],
)
def test_validate_finds_what_breaks_the_schema(small_report, change, message):
    document = to_document(small_report)
    change(document)
    errors = validate(document)
    assert any(message in e for e in errors), errors
