"""Tests of the rules for diff, ediff1d, gradient and trapezoid."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.core.zeros import vanishes


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
    # Scalar spacings are differentiated; the cotangent of coordinates is not implemented
    # (NotImplementedTangent), so the frule gets them without a tangent.
    test_rrule(np.gradient, X, *args, fkwargs=kwargs)
    spacings = [a if np.ndim(a) == 0 else with_tangent(a, NoTangent()) for a in args]
    test_frule(np.gradient, X, *spacings, fkwargs=kwargs)


def test_gradient_scalar_spacing_values():
    # gradient(f, h) = gradient(f) / h, so d/dh <dy, gradient(f, h)> = -<dy, gradient(f, h)> / h.
    f = np.array([1.0, 4.0, 9.0, 16.0])
    y, pullback = cr.rrule(np.gradient, f, 0.5)
    dy = np.array([1.0, -2.0, 0.5, 3.0])
    assert pullback(dy)[2] == pytest.approx(-np.dot(dy, y) / 0.5, rel=1e-15)
    _, tangent = cr.frule((NoTangent(), ZeroTangent(), 1.0), np.gradient, f, 0.5)
    np.testing.assert_allclose(tangent, -y / 0.5, rtol=1e-15)
    # One spacing per axis; each scales only its own axis's result.
    _, pullback = cr.rrule(np.gradient, X[0], 0.5, 2.0)
    gx, _ = np.gradient(X[0], 0.5, 2.0)
    _, _, d_first, d_second = pullback((np.ones_like(gx), ZeroTangent()))
    assert d_first == pytest.approx(-gx.sum() / 0.5, rel=1e-14) and d_second == 0.0


GRADIENT_COORDINATES = [
    # f, coordinates, keywords: edges of order 1 and 2, the shortest axes each allows
    (X[0, :, 0], COORDINATES, {}),
    (X[0, :, 0], COORDINATES, {"edge_order": 2}),
    (X[0, :2, 0], COORDINATES[:2], {}),
    (X[0, :3, 0], COORDINATES[:3], {"edge_order": 2}),
    (X[0, :, 0] + 1j * X[0, ::-1, 1], COORDINATES, {}),
]


@pytest.mark.parametrize("f, x, kwargs", GRADIENT_COORDINATES, ids=range(len(GRADIENT_COORDINATES)))
def test_gradient_coordinates(f, x, kwargs):
    test_rrule(np.gradient, f, x, fkwargs=kwargs, check_second_order=True)
    test_frule(np.gradient, f, x, fkwargs=kwargs, check_second_order=True)


def test_gradient_coordinates_values():
    # f = x^2 on nodes 0, 1, 3: the quadratic through them is x^2 itself, so every row is
    # exactly 2 x. Moving a node with f fixed: g = (f1 - f0) / (x1 - x0) at the edge.
    x, f = np.array([0.0, 1.0, 3.0]), np.array([0.0, 1.0, 9.0])
    np.testing.assert_allclose(np.gradient(f, x, edge_order=2), 2 * x, atol=1e-14)
    _, pullback = cr.rrule(np.gradient, f, x)
    # d g0 / d x0 = g0 / (x1 - x0) = 1 and d g0 / d x1 = -1; exact in binary.
    np.testing.assert_array_equal(pullback(np.array([1.0, 0.0, 0.0]))[2], [1.0, -1.0, 0.0])


def test_gradient_of_a_0d_array_has_no_results():
    y, tangent = cr.frule((NoTangent(), 1.0), np.gradient, np.array(0.5))
    assert y == [] or y == ()
    assert tangent is NoTangent()
    test_rrule(np.gradient, np.array(0.5))


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


# ---- degenerate orders and empty results ------------------------------------------------------

V = np.array([0.5, 1.25, -0.75, 2.0])
M = V[:3] * V[:, None]  # (4, 3)
DEGENERATE_DIFFS = [
    # args, keywords: n = 0 returns a itself (NumPy then ignores prepend and append); n at
    # least the length gives an empty result, which depends on nothing.
    ((V, 0), {"prepend": 0.5, "append": np.array([0.25])}),
    ((M, 0, 0, M[:1], M[:2]), {}),
    ((M, 0, 0), {"append": M[:2]}),
    ((V, 4), {}),
    ((V, 7), {"prepend": 0.5}),
    ((M, 5, 0, M[:1], M[:1]), {}),
    ((M, 3, 1), {}),
    ((np.zeros((2, 0)), 1), {}),
    ((np.zeros((2, 0)), 2), {"prepend": 1.5}),
]


@pytest.mark.parametrize("args, kwargs", DEGENERATE_DIFFS, ids=range(len(DEGENERATE_DIFFS)))
def test_diff_degenerate_orders(args, kwargs):
    test_rrule(np.diff, *args, fkwargs=kwargs)
    test_frule(np.diff, *args, fkwargs=kwargs)


def test_diff_degenerate_order_values():
    _, pullback = cr.rrule(np.diff, V, 0, -1, 0.5, np.array([0.25]))
    _, da, _, _, d_pre, d_app = pullback(np.arange(4.0))
    np.testing.assert_array_equal(da, np.arange(4.0))
    assert vanishes(d_pre) and vanishes(d_app)
    _, pullback = cr.rrule(np.diff, V, 5)
    assert vanishes(pullback(np.zeros(0))[1])


EMPTY_INTEGRALS = [
    (np.ediff1d, (np.zeros(0),), {}),
    (np.ediff1d, (np.zeros((2, 0)),), {"to_begin": np.array([1.5]), "to_end": 2.5}),
    (np.trapezoid, (np.zeros(0),), {}),
    (np.trapezoid, (np.zeros((2, 0)),), {"dx": 0.5}),
    (np.trapezoid, (np.zeros(0), np.zeros(0)), {}),
]


@pytest.mark.parametrize("f, args, kwargs", EMPTY_INTEGRALS, ids=range(len(EMPTY_INTEGRALS)))
def test_empty_inputs(f, args, kwargs):
    test_rrule(f, *args, fkwargs=kwargs)
    test_frule(f, *args, fkwargs=kwargs)
    _, pullback = cr.rrule(f, *args, **kwargs)
    y = f(*args, **kwargs)
    cotangents = pullback(np.ones(np.shape(y)))
    # An empty array has nothing to receive; only the values put around it get a cotangent.
    assert vanishes(cotangents[1])
