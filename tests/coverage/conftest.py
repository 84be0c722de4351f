"""A small report with every kind of row, shared by the format tests.

With results, the engines' cells are: math.sin ``2 2 1 reached`` (jax with a reason),
math.cos ``1 reached reached reached``, math.floor ``n/a`` and the others ``-`` in every
engine; without, math.sin and math.cos show ``?`` instead.
"""

import math
import operator

import pytest

from chainrules.core.registry import RuleInfo
from chainrules.coverage.record import EngineCheck, TestRecord
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
    engines={
        "math.sin": {
            "torch": EngineCheck(2),
            "jax": EngineCheck(1, ("the host callback | has no 2nd derivative",)),
        }
    },
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


@pytest.fixture
def engine_cells(small_report):
    """The engine cells (reference, torch, jax, autograd, dask) of each row of
    ``small_report``, without the ``[n]`` marks of reasons."""
    known = small_report.known
    return {
        "math.cos": ["1", "reached", "reached", "reached", "reached"] if known else ["?"] * 5,
        "math.floor": ["n/a"] * 5,
        "math.sin": ["2", "2", "1", "reached", "reached"] if known else ["?"] * 5,
        "operator.setitem": ["-"] * 5,
        "math.tricky": ["-"] * 5,
    }


@pytest.fixture
def engine_totals(small_report):
    """The engine cells (2nd / 1st / reached) of each totals row of ``small_report``."""
    if small_report.known:
        math = ["1 / 1 / 2", "1 / 0 / 2", "0 / 1 / 2", "0 / 0 / 2", "0 / 0 / 2"]
        none = ["0 / 0 / 0"] * 5
    else:
        math, none = ["? / ? / 2"] * 5, ["? / ? / 0"] * 5
    return {"python.math": math, "python.operator": none, "unclassified": none, "total": math}
