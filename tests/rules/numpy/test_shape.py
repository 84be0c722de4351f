"""Tests of the rules for reshaping, permuting, broadcasting and casting arrays, and meshgrid."""

from typing import Any

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from samples import ARRAY_DTYPES as DTYPES
from samples import A, check_call
from samples import Call as Row
from samples import ids as dtype_id

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.core.errors import RuleKeywordError

X = A((2, 3, 4))
ROWS = [
    Row(np.reshape, (X, (4, 6))),
    Row(np.reshape, (X, (4, -1)), {"order": "F"}),
    Row(np.ndarray.reshape, (X, 6, 4)),
    Row(np.ravel, (X,)),
    Row(np.ndarray.ravel, (X,)),
    Row(np.ndarray.flatten, (X,), {"order": "F"}),
    Row(np.squeeze, (A((2, 1, 3, 1)),)),
    Row(np.squeeze, (A((2, 1, 3, 1)),), {"axis": -1}),
    Row(np.ndarray.squeeze, (A((1, 3)),)),
    Row(np.expand_dims, (X, (0, -1))),
    Row(np.transpose, (X,)),
    Row(np.transpose, (X, (2, 0, 1))),
    Row(np.permute_dims, (X, (1, -1, 0))),
    Row(np.ndarray.transpose, (X, 1, 2, 0)),
    Row(np.matrix_transpose, (X,)),
    Row(np.swapaxes, (X, 0, -1)),
    Row(np.ndarray.swapaxes, (X, 1, 2)),
    Row(np.moveaxis, (X, 0, -1)),
    Row(np.moveaxis, (X, (0, 1), (2, 0))),
    Row(np.rollaxis, (X, 2)),
    Row(np.rollaxis, (X, 0, 2)),
    Row(np.rollaxis, (X, 1), {"start": 3}),
    Row(np.atleast_1d, (A(()),)),
    Row(np.atleast_2d, (A((3,)),)),
    Row(np.atleast_3d, (A((3,)), A((2, 3)))),
    Row(np.broadcast_to, (A((3, 1)), (2, 3, 4))),
    Row(np.broadcast_arrays, (A((3, 1)), A((4,)))),
    Row(np.copy, (X,)),
    Row(np.ndarray.copy, (X,)),
    Row(np.ndarray.to_device, (X, "cpu")),
    Row(np.meshgrid, (A((3,)), A((2,)), A((4,)))),
    Row(np.meshgrid, (A((3,)), A((2, 2))), {"indexing": "ij"}),
    Row(np.meshgrid, (A((3,)), A((2,))), {"sparse": True}),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("row", ROWS, ids=repr)
def test_rules(row: Row, dtype: Any) -> None:
    check_call(row, dtype)


def test_casts() -> None:
    x = np.random.default_rng(0).standard_normal((2, 3))
    z = x + 1j * x
    for f, args in [
        (np.astype, (x, np.float32)),
        (np.astype, (z, np.complex64)),
        (np.ndarray.astype, (x, np.complex128)),
        (np.ndarray.conj, (z,)),
        (np.ndarray.conjugate, (z,)),
    ]:
        test_rrule(f, *args, rtol=1e-5, atol=1e-5, seed=1)
        test_frule(f, *args, rtol=1e-5, atol=1e-5, seed=1)
    # A complex value cast to real keeps the real part: the imaginary part gets no cotangent.
    with pytest.warns(np.exceptions.ComplexWarning):
        _, pullback = cr.rrule(np.ndarray.astype, z, np.float64)
    assert pullback(np.ones((2, 3)))[1].dtype == np.complex128
    np.testing.assert_array_equal(pullback(np.ones((2, 3)))[1], np.ones((2, 3)))
    # An integer result passes nothing back.
    _, pullback = cr.rrule(np.astype, x, np.int64)
    assert pullback(np.ones((2, 3)))[1] == ZeroTangent()


def test_second_order() -> None:
    x = np.random.default_rng(0).standard_normal((2, 3))
    test_rrule(np.transpose, x, check_second_order=True, seed=1)
    test_rrule(np.broadcast_to, x[:1], (4, 3), check_second_order=True, seed=1)


def test_exact_values() -> None:
    x = np.arange(6.0).reshape(2, 3)
    _, pullback = cr.rrule(np.broadcast_to, np.ones((3, 1)), (2, 3, 4))
    np.testing.assert_array_equal(pullback(np.ones((2, 3, 4)))[1], np.full((3, 1), 8.0))
    _, pullback = cr.rrule(np.swapaxes, x, 0, 1)
    np.testing.assert_array_equal(pullback(x.T)[1], x)
    # The attributes x.T and x.mT have the rules of transpose and matrix_transpose.
    y, pullback = cr.rrule(np.ndarray.T, x)
    np.testing.assert_array_equal(y, x.T)
    np.testing.assert_array_equal(pullback(x.T)[1], x)
    _, dy = cr.frule((NoTangent(), x), np.ndarray.mT, x)
    np.testing.assert_array_equal(dy, x.T)


@pytest.mark.parametrize("attribute", [np.ndarray.T, np.ndarray.mT], ids=["T", "mT"])
def test_transpose_attributes(attribute) -> None:
    x = np.random.default_rng(2).standard_normal((2, 3, 4))
    test_rrule(attribute, x)
    test_frule(attribute, x)


def test_zero_cotangent_and_dtype() -> None:
    x = np.ones((2, 3), dtype=np.float32)
    _, pullback = cr.rrule(np.reshape, x, (3, 2))
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    assert pullback(np.ones((3, 2)))[1].dtype == np.float32
    assert cr.frule((NoTangent(), ZeroTangent(), NoTangent()), np.reshape, x, (6,))[1] == (
        ZeroTangent()
    )
    # Integer arrays have no tangent space.
    _, pullback = cr.rrule(np.reshape, np.arange(6), (2, 3))
    assert pullback(np.ones((2, 3)))[1] == NoTangent()


def test_unsupported_keyword() -> None:
    with pytest.raises(RuleKeywordError, match=r"numpy\.reshape.*'out'"):
        cr.rrule(np.reshape, np.ones(2), (2, 1), out=np.ones(2))
