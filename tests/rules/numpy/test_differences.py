"""Tests of the rules for diff, ediff1d, gradient and trapezoid."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent


def sample(shape, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1.0, 1.0, shape)
    return x.astype(dtype)


DTYPES = [np.float64, np.float32, np.complex128]
X = sample((3, 4, 5))

DIFFS = [
    # args after the data: n, axis, prepend, append
    (),
    (2, 0),
    (1, 1),
    (3, -1),
    (1, 1, sample((3, 2, 5), seed=1), 2.5),
    (2, 1, 1.5, sample((3, 1, 5), seed=2)),
]


@pytest.mark.parametrize("args", DIFFS, ids=range(len(DIFFS)))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_diff(args, dtype):
    test_rrule(np.diff, X.astype(dtype), *args)
    test_frule(np.diff, X.astype(dtype), *args)


def test_diff_keywords():
    test_rrule(np.diff, X, fkwargs={"n": 2, "axis": 0})
    test_frule(np.diff, X, fkwargs={"axis": 1, "append": 0.5})


def test_diff_pullback_values():
    _, pullback = cr.rrule(np.diff, np.array([1.0, 4.0, 9.0, 16.0]), 2)
    assert np.array_equal(pullback(np.array([1.0, 2.0]))[1], [1.0, 0.0, -3.0, 2.0])


EDIFF1DS = [
    (X,),
    (X[0], sample(2, seed=3), sample((1, 3), seed=4)),
    (X[0, 0], None, 1.0),
]


@pytest.mark.parametrize("args", EDIFF1DS, ids=range(len(EDIFF1DS)))
def test_ediff1d(args):
    test_rrule(np.ediff1d, *args)
    test_frule(np.ediff1d, *args)


def test_ediff1d_complex():
    z = sample(6, np.complex128)
    test_rrule(np.ediff1d, z)
    test_frule(np.ediff1d, z)


COORDINATES = np.cumsum(np.random.default_rng(5).uniform(0.2, 1.0, 4))
GRADIENTS = [
    # args after the data, keywords
    ((), {}),
    ((0.5,), {}),
    ((), {"axis": 1}),
    ((COORDINATES,), {"axis": 1}),
    ((1.0, COORDINATES, 2.0), {}),
    ((0.3,), {"axis": (1, -1)}),
]


@pytest.mark.parametrize("args, kwargs", GRADIENTS, ids=range(len(GRADIENTS)))
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(args, kwargs, edge_order):
    kwargs = {**kwargs, "edge_order": edge_order}
    spacings = [with_tangent(a, NoTangent()) for a in args]  # spacings are not differentiated
    test_rrule(np.gradient, X, *spacings, fkwargs=kwargs)
    test_frule(np.gradient, X, *spacings, fkwargs=kwargs)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128], ids=lambda d: np.dtype(d).name)
def test_gradient_dtypes(dtype):
    x = X.astype(dtype)
    test_rrule(np.gradient, x, fkwargs={"axis": 1})
    test_frule(np.gradient, x, fkwargs={"axis": 1})


def test_gradient_short_axis():
    test_rrule(np.gradient, X[:, :2], fkwargs={"axis": 1})


def test_gradient_transpose_values():
    # np.gradient of [f0, f1, f2] with unit spacing: [f1 - f0, (f2 - f0) / 2, f2 - f1]
    _, pullback = cr.rrule(np.gradient, np.zeros(3))
    assert np.array_equal(pullback(np.array([1.0, 0.0, 0.0]))[1], [-1.0, 1.0, 0.0])
    assert np.array_equal(pullback(np.array([0.0, 1.0, 0.0]))[1], [-0.5, 0.0, 0.5])


TRAPEZOIDS = [
    # args after the data, keywords
    ((), {}),
    ((np.cumsum(np.random.default_rng(6).uniform(0.1, 1.0, 5)),), {}),
    ((None, 0.3), {}),
    ((np.cumsum(np.random.default_rng(7).uniform(0.1, 1.0, (3, 4, 5)), axis=1),), {"axis": 1}),
    ((), {"axis": 0}),
]


@pytest.mark.parametrize("args, kwargs", TRAPEZOIDS, ids=range(len(TRAPEZOIDS)))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_trapezoid(args, kwargs, dtype):
    test_rrule(np.trapezoid, X.astype(dtype), *args, fkwargs=kwargs)
    test_frule(np.trapezoid, X.astype(dtype), *args, fkwargs=kwargs)


def test_zero_cotangents():
    for f, args in ((np.diff, ()), (np.gradient, ()), (np.trapezoid, ()), (np.ediff1d, ())):
        _, pullback = cr.rrule(f, X[0, 0], *args)
        assert pullback(ZeroTangent())[1] == ZeroTangent()


SECOND_ORDER = [
    (np.diff, (X, 2, 1)),
    (np.ediff1d, (X[0], None, 1.0)),
    (np.gradient, (X,)),
    (np.trapezoid, (X, np.cumsum(np.random.default_rng(8).uniform(0.1, 1.0, 5)))),
]


@pytest.mark.parametrize("f, args", SECOND_ORDER, ids=lambda v: getattr(v, "__name__", ""))
def test_second_order(f, args):
    test_rrule(f, *args, check_second_order=True)
    test_frule(f, *args, check_second_order=True)
