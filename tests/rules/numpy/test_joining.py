"""Tests of the rules for joining and splitting arrays: concatenate, stack, split, block..."""

from typing import Any

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import ARRAY_DTYPES as DTYPES
from samples import A, check_call
from samples import Call as Row
from samples import ids as dtype_id

import chainrules as cr
from chainrules import NoTangent, Tangent, ZeroTangent
from chainrules.core.errors import RuleKeywordError

X = A((2, 3, 4))
ROWS = [
    Row(np.concatenate, ([X, A((1, 3, 4))],)),
    Row(np.concatenate, ([X, A((2, 3, 2))],), {"axis": -1}),
    Row(np.concatenate, ([X, A((5,))],), {"axis": None}),
    Row(np.concat, ((X, X),), {"axis": 1}),
    Row(np.stack, ([X, X, X],)),
    Row(np.stack, ([A((3,)), A((3,))],), {"axis": -1}),
    Row(np.hstack, ([A((3,)), A((2,))],)),
    Row(np.hstack, ([A((2, 3)), A((2, 1))],)),
    Row(np.vstack, ([A((3,)), A((2, 3))],)),
    Row(np.dstack, ([A((3,)), A((1, 3))],)),
    Row(np.column_stack, ([A((3,)), A((3, 2))],)),
    Row(np.split, (X, 3), {"axis": 1}),
    Row(np.split, (X, [1, 3], -1)),
    Row(np.array_split, (X, 3), {"axis": 2}),
    Row(np.hsplit, (X, [1])),
    Row(np.vsplit, (X, 2)),
    Row(np.dsplit, (X, 2)),
    Row(np.unstack, (X,), {"axis": 1}),
    Row(np.block, ([[A((2, 2)), A((2, 3))], [A((1, 5))]],)),
    Row(np.block, ([A((3,)), A((2,))],)),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("row", ROWS, ids=repr)
def test_rules(row: Row, dtype: Any) -> None:
    check_call(row, dtype)


def test_exact_values() -> None:
    x = np.arange(6.0).reshape(2, 3)
    # Sequence arguments get a structural tangent of their own type.
    _, pullback = cr.rrule(np.concatenate, (x, x[:1]))
    cotangent = pullback(np.arange(9.0).reshape(3, 3))[1]
    assert isinstance(cotangent, Tangent)
    np.testing.assert_array_equal(cotangent[1], [[6.0, 7.0, 8.0]])
    # Unused outputs of a split take a zero cotangent; the input gets zeros there.
    _, pullback = cr.rrule(np.split, x, 2)
    dx = pullback([ZeroTangent(), np.ones((1, 3))])[1]
    np.testing.assert_array_equal(dx, [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    # Each block of np.block gets its own part of the cotangent.
    _, pullback = cr.rrule(np.block, [[np.zeros((1, 1)), np.zeros((1, 2))], [np.zeros((1, 3))]])
    blocks = pullback(np.arange(6.0).reshape(2, 3))[1]
    np.testing.assert_array_equal(blocks[0][1], [[1.0, 2.0]])
    np.testing.assert_array_equal(blocks[1][0], [[3.0, 4.0, 5.0]])


def test_row_stack() -> None:
    x = np.ones((2, 3))
    with pytest.warns(DeprecationWarning):
        test_rrule(np.row_stack, [x, x[:1]], seed=1)
    with pytest.warns(DeprecationWarning):
        test_frule(np.row_stack, [x, x[:1]], seed=1)


def test_second_order() -> None:
    x = np.random.default_rng(0).standard_normal((2, 3))
    test_rrule(np.concatenate, [x, x], check_second_order=True, seed=1)
    test_rrule(np.split, x, 3, with_tangent(1, NoTangent()), check_second_order=True, seed=1)


def test_zero_cotangent_and_dtype() -> None:
    x = np.ones((2, 3), dtype=np.float32)
    _, pullback = cr.rrule(np.stack, [x, x])
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    assert all(d.dtype == np.float32 for d in pullback(np.ones((2, 2, 3)))[1])


def test_unsupported_keyword() -> None:
    with pytest.raises(RuleKeywordError, match=r"numpy\.concatenate.*'out'"):
        cr.rrule(np.concatenate, [np.ones(2)], out=np.ones(2))
