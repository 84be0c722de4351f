"""A small report with every kind of row, shared by the format tests."""

import math
import operator

import pytest

from chainrules.core.registry import RuleInfo
from chainrules.coverage.record import TestRecord
from chainrules.coverage.report import build_report
from chainrules.coverage.universe import SourceStatus, UniverseFunction


def _tricky(x):
    return x


UNIVERSE = [
    UniverseFunction("math.sin", math.sin, (), "math", "python.math", "differentiable", ""),
    UniverseFunction("math.cos", math.cos, (), "math", "python.math", "differentiable", ""),
    UniverseFunction(
        "math.floor", math.floor, (), "math", "python.math", "non-differentiable", "a | step"
    ),
    UniverseFunction(
        "operator.setitem",
        operator.setitem,
        (),
        "operator",
        "python.operator",
        "out-of-scope",
        "<script>alert('mutates')</script> & more",
    ),
    UniverseFunction("math.tricky", _tricky, (), "math", "unclassified", "unclassified", "new"),
]
REGISTRY = [
    RuleInfo(math.sin, "math.sin", True, True, False, False),
    RuleInfo(math.cos, "math.cos", True, True, False, False),
    RuleInfo(math.floor, "math.floor", True, True, True, False),
    RuleInfo(abs, "abs", True, False, False, False),
]
RECORD = TestRecord(
    seed=11,
    tested={"math.sin": frozenset({"rrule", "frule"}), "math.cos": frozenset({"rrule"})},
    tested_second_order=frozenset({"math.sin"}),
    path="results.json",
)
CONTEXT = {
    "sources": (
        SourceStatus("math", True, 4),
        SourceStatus("chainrules.fastmath", False, 0, "not importable: none yet"),
    ),
    "environment": (("numpy", "2.x"), ("python", "3.x")),
}


@pytest.fixture(params=["with results", "without results"])
def small_report(request):
    record = RECORD if request.param == "with results" else None
    return build_report(UNIVERSE, REGISTRY, record, **CONTEXT)
