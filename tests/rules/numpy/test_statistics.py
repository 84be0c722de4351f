"""Tests of the rules for var, std (and NaN forms) and average."""

import itertools
import warnings

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from samples import uniform as sample

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

DTYPES = [np.float64, np.float32, np.complex128]
MASK = np.array([[True, False, True, True], [False, True, True, True], [True, True, False, True]])

SPREADS = [np.var, np.std, np.nanvar, np.nanstd, np.ndarray.var, np.ndarray.std]
SPREAD_KEYWORDS = [
    {},
    {"axis": 0},
    {"axis": -1, "keepdims": True, "ddof": 1},
    {"axis": (0, 2)},
    {"axis": 1, "correction": 1},
]


@pytest.mark.parametrize("f", SPREADS, ids=lambda f: f.__qualname__)
@pytest.mark.parametrize("kwargs", SPREAD_KEYWORDS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_spread(f, kwargs, dtype):
    if "correction" in kwargs and f in (np.ndarray.var, np.ndarray.std):
        kwargs = {"axis": 1, "ddof": 1}  # the methods have no correction keyword
    x = sample((2, 3, 4), dtype)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


@pytest.mark.parametrize("f", [np.var, np.std, np.nanvar, np.nanstd], ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "kwargs", [{"axis": 1, "where": MASK}, {"where": MASK, "ddof": 1}, {"dtype": np.float64}]
)
def test_spread_keywords(f, kwargs):
    x = sample((3, 4), np.float32 if "dtype" in kwargs else np.float64)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


@pytest.mark.parametrize("f", [np.nanvar, np.nanstd], ids=lambda f: f.__name__)
def test_nan_spread(f):
    x = sample((3, 4))
    x[0, 2] = x[1, 0] = np.nan
    _, pullback = cr.rrule(f, x, axis=1)
    dx = pullback(np.ones(3))[1]
    assert dx[0, 2] == 0.0 and dx[1, 0] == 0.0 and np.all(np.isfinite(dx))
    test_rrule(f, x, fkwargs={"axis": 1})
    test_frule(f, x, fkwargs={"axis": 1})


CONSTANT_DATA = [
    # f, x, kwargs: at zero variance std's derivative is 0 (not NaN); var's is 0 anyway
    (np.std, [2.0, 2.0, 2.0], {}),
    (np.std, [[0.0, 0.0], [1.0, 3.0]], {"axis": 1}),
    (np.std, [5.0, 5.0], {"ddof": 1}),
    (np.nanstd, [1.0, np.nan, 1.0], {}),
    (np.var, [2.0, 2.0, 2.0], {}),
]


@pytest.mark.parametrize("f, x, kwargs", CONSTANT_DATA, ids=str)
def test_zero_variance_gives_zero_derivative(f, x, kwargs):
    x = np.array(x)
    with np.errstate(divide="raise", invalid="raise"):
        y, pullback = cr.rrule(f, x, **kwargs)
        dx = pullback(np.ones(np.shape(y)) if np.ndim(y) else 1.0)[1]
        _, dy = cr.frule((NoTangent(), np.ones_like(x)), f, x, **kwargs)
    constant = np.nanstd(x, axis=kwargs.get("axis"), keepdims=True) == 0
    assert np.all(np.isfinite(dx))
    assert np.all(np.where(constant, dx, 0.0) == 0.0)
    assert np.all(np.isfinite(dy))


def centre(x, axis=None, where=None):
    return np.mean(x, axis=axis, keepdims=True, where=True if where is None else where)


X3 = sample((2, 3, 4), seed=5)
MEANS = [
    # f, keywords (mean= is NumPy 2's: the centre, held fixed)
    (np.var, {"mean": centre(X3)}),
    (np.std, {"axis": 1, "mean": centre(X3, 1)}),
    (np.var, {"axis": (0, 2), "ddof": 1, "keepdims": True, "mean": centre(X3, (0, 2))}),
    (np.std, {"axis": -1, "where": X3 > -0.8, "mean": centre(X3, -1, X3 > -0.8)}),
    (np.nanvar, {"axis": 0, "mean": centre(X3, 0)}),
    (np.nanstd, {"mean": centre(X3)}),
    (np.ndarray.var, {"axis": 2, "mean": centre(X3, 2)}),
    (np.ndarray.std, {"axis": 0, "ddof": 1, "mean": centre(X3, 0)}),
]


@pytest.mark.parametrize("f, kwargs", MEANS, ids=lambda v: getattr(v, "__qualname__", ""))
def test_spread_with_mean(f, kwargs):
    test_rrule(f, X3, fkwargs=kwargs)
    test_frule(f, X3, fkwargs=kwargs)
    # At the data's own mean the derivative is the ordinary one.
    dy = np.ones(np.shape(f(X3, **kwargs)))
    given = {k: v for k, v in kwargs.items() if k != "mean"}
    _, with_mean = cr.rrule(f, X3, **kwargs)
    _, without = cr.rrule(f, X3, **given)
    np.testing.assert_allclose(with_mean(dy)[1], without(dy)[1], rtol=1e-12, atol=1e-15)


def test_spread_about_a_fixed_mean():
    # mean= is held fixed: var about 0 of [1, 3] is 5, and its gradient is 2 x / N.
    x = np.array([1.0, 3.0])
    y, pullback = cr.rrule(np.var, x, mean=np.zeros(1))
    assert y == 5.0
    np.testing.assert_array_equal(pullback(1.0)[1], [1.0, 3.0])
    _, dy = cr.frule((NoTangent(), np.array([1.0, 0.0])), np.var, x, mean=np.zeros(1))
    assert dy == 1.0
    y, pullback = cr.rrule(np.std, x, mean=np.zeros(1))
    np.testing.assert_allclose(pullback(1.0)[1], x / (2 * np.sqrt(5.0)))


def test_std_derivative_values():
    x = np.array([1.0, 3.0])  # mean 2, std 1: d std / dx = (x - mean) / (n std)
    _, pullback = cr.rrule(np.std, x)
    assert np.allclose(pullback(1.0)[1], [-0.5, 0.5])


def test_zero_cotangent_and_float32():
    x = sample((3, 4), np.float32)
    for f in (np.var, np.std, np.nanvar, np.nanstd):
        _, pullback = cr.rrule(f, x, axis=0)
        assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent())
        assert pullback(np.ones(4, np.float32))[1].dtype == np.float32


# ---- average --------------------------------------------------------------------------------

WEIGHTS = sample((2, 3, 4), seed=1, low=0.5, high=1.5)
AVERAGES = [
    # args after the data, keywords
    ((), {}),
    ((1,), {}),
    ((None, WEIGHTS), {}),
    ((1, WEIGHTS), {}),
    ((-1, WEIGHTS[0, 0]), {}),  # one-dimensional weights along the axis
    (((0, 2), WEIGHTS), {"keepdims": True}),
    ((0,), {"weights": WEIGHTS}),  # weights given by keyword: no cotangent for them
]
RETURNED = [
    # args after the data (returned=True last), keywords
    ((None, None, True), {}),
    ((1, None, True), {"keepdims": True}),
    ((None, WEIGHTS, True), {}),
    ((1, WEIGHTS, True), {}),
    ((-1, WEIGHTS[0, 0], True), {}),
    (((0, 2), WEIGHTS, True), {"keepdims": True}),
    ((0,), {"weights": WEIGHTS, "returned": True}),
]


@pytest.mark.parametrize(
    "args, kwargs", AVERAGES + RETURNED, ids=range(len(AVERAGES) + len(RETURNED))
)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_average(args, kwargs, dtype):
    x = sample((2, 3, 4), dtype)
    test_rrule(np.average, x, *args, fkwargs=kwargs)
    test_frule(np.average, x, *args, fkwargs=kwargs)


def test_average_returned_values():
    x, w = np.array([1.0, 3.0]), np.array([1.0, 3.0])
    (average, total), pullback = cr.rrule(np.average, x, 0, w, True)
    assert (average, total) == (2.5, 4.0)
    # The sum of the weights passes its cotangent to every weight.
    _, da, _, dw, _ = pullback(cr.Tangent(tuple, 1.0, 10.0))
    np.testing.assert_allclose(da, [0.25, 0.75])
    np.testing.assert_allclose(dw, [10.0 + (1.0 - 2.5) / 4, 10.0 + (3.0 - 2.5) / 4])
    assert pullback((ZeroTangent(), 1.0))[3].tolist() == [1.0, 1.0]
    _, (d_average, d_total) = cr.frule(
        (NoTangent(), np.ones(2), NoTangent(), np.array([1.0, 1.0]), NoTangent()),
        np.average,
        x,
        0,
        w,
        True,
    )
    assert (d_average, d_total) == (1.0 + (-1.5 + 0.5) / 4, 2.0)
    # Without weights the sum of the weights is the count of elements: a constant.
    (_, count), pullback = cr.rrule(np.average, x, None, None, True)
    assert count == 2.0
    np.testing.assert_array_equal(pullback((1.0, 5.0))[1], [0.5, 0.5])


def test_average_weights_values():
    _, pullback = cr.rrule(np.average, np.array([1.0, 3.0]), 0, np.array([1.0, 3.0]))
    _, da, _, dw = pullback(1.0)
    assert np.allclose(da, [0.25, 0.75])
    assert np.allclose(dw, [(1.0 - 2.5) / 4, (3.0 - 2.5) / 4])


SECOND_ORDER = [
    (np.var, (sample((3, 4)),), {"axis": 1}),
    (np.std, (sample((3, 4)),), {"ddof": 1}),
    (np.nanstd, (sample((3, 4)),), {"axis": 0}),
    (np.average, (sample((3, 4)), 1, sample((3, 4), seed=9, low=0.5, high=1.5)), {}),
    (np.var, (sample((3, 4)),), {"axis": 1, "mean": centre(sample((3, 4)), 1)}),
    (np.average, (sample((3, 4)), 1, sample((3, 4), seed=9, low=0.5, high=1.5), True), {}),
]


@pytest.mark.parametrize("f, args, kwargs", SECOND_ORDER, ids=lambda v: getattr(v, "__name__", ""))
def test_second_order(f, args, kwargs):
    test_rrule(f, *args, fkwargs=kwargs, check_second_order=True)
    test_frule(f, *args, fkwargs=kwargs, check_second_order=True)


# ---- a 0-d array reduced over axis 0 or -1 ------------------------------------------------------

ZERO_D_AXES = [{"axis": 0}, {"axis": -1}, {"axis": 0, "keepdims": True}, {"axis": ()}]


@pytest.mark.parametrize("kwargs", ZERO_D_AXES, ids=range(len(ZERO_D_AXES)))
@pytest.mark.parametrize("f", [np.nanstd, np.nanvar], ids=lambda f: f.__name__)
def test_0d_input_with_an_axis(f, kwargs):
    # NumPy's NaN forms take axis 0 and -1 on a 0-d array: one element, no spread.
    x = np.array(0.7)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)
    assert cr.rrule(f, x, **kwargs)[1](1.0)[1] == 0.0


@pytest.mark.parametrize("f", [np.var, np.std])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=str)
@pytest.mark.parametrize("shape", [(64, 256), (7,), (3, 4, 5), (2, 1, 3), (1,), (0, 3)])
def test_spread_value_is_numpys_own(f, dtype, shape):
    # A float array's var and std come from the centred data the rule keeps, by NumPy's own
    # operations: the value, its type and dtype bit for bit, and NumPy's warning where a
    # slice has no more elements than ddof (there NumPy's call computes it).
    a = (np.random.default_rng(8).normal(size=shape) * 3 + 50).astype(dtype)
    axes = [None, *range(len(shape))] + ([(0, len(shape) - 1)] if len(shape) > 1 else [])
    for axis, ddof, keepdims in itertools.product(axes, (0, 1, 7), (False, True)):
        with warnings.catch_warnings(record=True) as numpys:
            warnings.simplefilter("always")
            expected = f(a, axis, ddof=ddof, keepdims=keepdims)
        with warnings.catch_warnings(record=True) as rules:
            warnings.simplefilter("always")
            y, _ = cr.rrule(f, a, axis, ddof=ddof, keepdims=keepdims)
        assert np.array_equal(y, expected, equal_nan=True)
        assert type(y) is type(expected) and y.dtype == expected.dtype
        assert len(rules) == len(numpys)


# ---- var and std of float arrays: the cotangents against their formulas -----------------------

SPREAD_CALLS = [{}, {"axis": 0}, {"axis": -1, "keepdims": True}, {"axis": 1, "ddof": 1}]


def _spread_layouts(dtype):
    """The same data of ``dtype`` in C order, in Fortran order and as a strided view."""
    x = np.random.default_rng(5).normal(size=(6, 5)).astype(dtype)
    wide = np.zeros((6, 10), dtype)
    wide[:, ::2] = x
    return {"C": x, "F": np.asfortranarray(x), "strided": wide[:, ::2]}


@pytest.mark.parametrize("f", [np.var, np.std], ids=lambda f: f.__name__)
@pytest.mark.parametrize("kwargs", SPREAD_CALLS, ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
def test_spread_cotangent_formula(f, kwargs, layout, dtype):
    x = _spread_layouts(dtype)[layout]
    kept = x.copy()
    y, pullback = cr.rrule(f, x, **kwargs)
    expected_y = f(x, **kwargs)
    assert np.asarray(y).dtype == expected_y.dtype and np.array_equal(y, expected_y)
    dy = np.linspace(0.5, 2.0, np.size(y)).reshape(np.shape(y)).astype(dtype)
    dy = dy[()] if dy.ndim == 0 else dy
    dy_kept = np.copy(dy)
    dx = pullback(dy)[1]
    # 2 (x - mean) dy / (N - ddof) for var, (x - mean) dy / ((N - ddof) std) for std, in float64
    axis, ddof = kwargs.get("axis"), kwargs.get("ddof", 0)
    x64 = x.astype(np.float64)
    centred = x64 - x64.mean(axis=axis, keepdims=True)
    n = x.size if axis is None else x.shape[axis]
    dy_kept_dims = np.reshape(np.asarray(dy, np.float64), np.shape(x64.sum(axis, keepdims=True)))
    if f is np.var:
        formula = 2 * centred * dy_kept_dims / (n - ddof)
    else:
        formula = centred * dy_kept_dims / ((n - ddof) * x64.std(axis, ddof=ddof, keepdims=True))
    # a few roundings in x's precision (the mean, the centring, the products), none of them
    # amplified: the data are of order one and far from their mean
    np.testing.assert_allclose(
        dx, formula, rtol=8 * np.finfo(dtype).eps, atol=8 * np.finfo(dtype).eps
    )
    assert dx.dtype == x.dtype and not np.shares_memory(dx, x)
    assert np.array_equal(x, kept) and np.array_equal(dy, dy_kept)


def test_complex_var_and_its_cotangent():
    # |x - mean|^2 summed: the complex branch of the squares; 2 (x - mean) dy / N back
    x = np.array([1.0 + 2.0j, -0.5 + 0.25j, 3.0 - 1.0j, 0.0 + 0.0j])
    y, pullback = cr.rrule(np.var, x)
    centred = x - x.mean()
    np.testing.assert_allclose(y, np.mean(np.abs(centred) ** 2), rtol=4e-16)
    assert np.isrealobj(y)
    np.testing.assert_allclose(pullback(1.5)[1], 2 * centred * 1.5 / 4, rtol=4e-16)
    # the value as the rule computes it for arrays NumPy's var does not take (tracked ones)
    from chainrules.rules.numpy.statistics import _Spread

    value = _Spread(x, None, None, 0, False, None).value(False)
    assert np.isrealobj(value)
    np.testing.assert_allclose(value, np.var(x), rtol=4e-16)
