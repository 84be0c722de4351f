"""The classification rows and the reviewed table."""

import re

import pytest

from chainrules.coverage.classification import (
    DIFFERENTIABLE,
    NON_DIFFERENTIABLE,
    OUT_OF_SCOPE,
    ClassificationTable,
    Row,
)
from chainrules.coverage.universe import REVIEWED_TABLE


@pytest.mark.parametrize(
    ("status", "reason", "error"),
    [
        (NON_DIFFERENTIABLE, "", "needs a reason"),
        (OUT_OF_SCOPE, "   ", "needs a reason"),
        ("maybe", "why", "unknown status"),
        ("unclassified", "why", "unknown status"),
    ],
)
def test_row_rejects(status, reason, error):
    with pytest.raises(ValueError, match=error):
        Row("numpy.logic", status, "numpy", "isnan", reason=reason)


def test_row_qualifies_names():
    row = Row("numpy.elementwise", DIFFERENTIABLE, "numpy", "\n  sin   cos\n tan ")
    assert row.qualified == ("numpy.sin", "numpy.cos", "numpy.tan")


def test_name_listed_twice_is_an_error():
    rows = [
        Row("numpy.elementwise", DIFFERENTIABLE, "numpy", "sin"),
        Row("numpy.logic", NON_DIFFERENTIABLE, "numpy", "sin", reason="twice"),
    ]
    with pytest.raises(ValueError, match=r"numpy\.sin is classified twice"):
        ClassificationTable(rows)


def test_lookup_prefers_a_named_row_to_the_wildcard():
    named = Row("fastmath", OUT_OF_SCOPE, "pkg.fast", "helper", reason="a helper")
    wildcard = Row("fastmath", DIFFERENTIABLE, "pkg.fast", "*")
    table = ClassificationTable([named, wildcard])
    assert table.lookup("pkg.fast.helper", module="pkg.fast") is named
    assert table.lookup("pkg.fast.exp", module="pkg.fast") is wildcard
    assert table.lookup("pkg.fast.exp") is None
    assert table.names() == {"pkg.fast.helper"}


def test_reviewed_table_categories_are_named_library_dot_family():
    pattern = re.compile(r"^(numpy|scipy|python)\.[a-z]+$|^fastmath$")
    assert all(pattern.match(row.category) for row in REVIEWED_TABLE.rows)


def test_reviewed_table_gives_a_reason_wherever_it_leaves_the_universe():
    left_out = [row for row in REVIEWED_TABLE.rows if row.status != DIFFERENTIABLE]
    assert left_out
    assert all(len(row.reason) > 10 for row in left_out)
