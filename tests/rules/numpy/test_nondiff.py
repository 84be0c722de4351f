"""Tests of the table of non-differentiable NumPy functions."""

import numpy as np
import pytest

import chainrules as cr
from chainrules import NoTangent

X = np.array([1.5, -2.0, np.nan, np.inf])
Y = np.array([1.5, 3.0, 0.0, 1.0])
N = np.array([6, 4, 3])

# function, arguments
TABLE = [
    (np.isnan, (X,)),
    (np.isinf, (X,)),
    (np.isfinite, (X,)),
    (np.isnat, (np.array(["2020-01-01", "NaT"], dtype="datetime64[D]"),)),
    (np.isneginf, (X,)),
    (np.isposinf, (X,)),
    (np.isreal, (X + 0j,)),
    (np.iscomplex, (X + 1j,)),
    (np.signbit, (X,)),
    (np.isclose, (X, Y)),
    (np.allclose, (Y, Y)),
    (np.array_equal, (X, Y)),
    (np.array_equiv, (Y, Y[:1])),
    (np.isin, (X, Y)),
    (np.greater, (X, Y)),
    (np.greater_equal, (X, Y)),
    (np.less, (X, Y)),
    (np.less_equal, (X, Y)),
    (np.equal, (X, Y)),
    (np.not_equal, (X, Y)),
    (np.logical_and, (X, Y)),
    (np.logical_or, (X, Y)),
    (np.logical_xor, (X, Y)),
    (np.logical_not, (X,)),
    (np.bitwise_and, (N, 3)),
    (np.bitwise_or, (N, 3)),
    (np.bitwise_xor, (N, 3)),
    (np.bitwise_not, (N,)),
    (np.bitwise_count, (N,)),
    (np.left_shift, (N, 1)),
    (np.right_shift, (N, 1)),
    (np.gcd, (N, 4)),
    (np.lcm, (N, 4)),
    (np.ndim, (X,)),
    (np.shape, (X,)),
    (np.size, (X,)),
    (np.isscalar, (1.5,)),
    (np.isrealobj, (X,)),
    (np.iscomplexobj, (X,)),
    (np.isfortran, (X,)),
    (np.result_type, (X, 1j)),
]


@pytest.mark.parametrize("f, args", TABLE, ids=[f.__name__ for f, _ in TABLE])
def test_non_differentiable(f, args):
    y, pullback = cr.rrule(f, *args)
    np.testing.assert_equal(y, f(*args))
    assert pullback(np.ones(np.shape(y))) == (NoTangent(),) * (len(args) + 1)
    tangents = (NoTangent(), *(np.ones(np.shape(a)) for a in args))
    y_forward, dy = cr.frule(tangents, f, *args)
    np.testing.assert_equal(y_forward, y)
    assert dy is NoTangent()


def test_declared_in_the_registry():
    declared = {info.function for info in cr.registered_functions() if info.non_differentiable}
    missing = [f.__name__ for f, _ in TABLE if f not in declared]
    assert missing == []
    assert np.floor not in declared and np.floor_divide not in declared


def test_keywords_pass_through():
    y, pullback = cr.rrule(np.isclose, X, Y, rtol=0.0, atol=0.0, equal_nan=True)
    np.testing.assert_array_equal(y, [True, False, False, False])
    assert pullback(None) == (NoTangent(), NoTangent(), NoTangent())
