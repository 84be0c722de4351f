"""Tests of the rules for logsumexp, softmax and log_softmax: axes, weights, signs, keepdims."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

RNG = np.random.default_rng(7)
A = RNG.standard_normal((2, 3))
A32 = A.astype(np.float32)
Z = A + 1j * RNG.standard_normal((2, 3))
W = np.array([0.5, 0.0, 2.0])  # a zero weight

# (function, positional arguments, keywords); None marks an argument without tangent.
CASES = [
    (sc.logsumexp, (A,), {}),
    (sc.logsumexp, (A,), {"axis": 1}),
    (sc.logsumexp, (A,), {"axis": 0, "keepdims": True}),
    (sc.logsumexp, (A,), {"axis": (0, 1)}),
    (sc.logsumexp, (A32,), {"axis": 1}),
    (sc.logsumexp, (Z,), {"axis": 1}),
    (sc.logsumexp, (A[0, 0],), {}),
    (sc.logsumexp, (A, 1, W), {}),
    (sc.logsumexp, (A, None, np.array([[0.5], [3.0]])), {}),
    (sc.logsumexp, (A, 1, np.array([1.0, -3.0, 0.5])), {"return_sign": True}),
    (sc.logsumexp, (A, -1, W, True), {}),
    (sc.softmax, (A,), {}),
    (sc.softmax, (A,), {"axis": 1}),
    (sc.softmax, (A32,), {"axis": 0}),
    (sc.log_softmax, (A,), {}),
    (sc.log_softmax, (A,), {"axis": 1}),
    (sc.log_softmax, (A32,), {"axis": 0}),
]


def arguments(args):
    # axis and keepdims passed positionally have no tangent
    return [
        a if isinstance(a, np.ndarray | np.generic) else with_tangent(a, NoTangent()) for a in args
    ]


def case_id(case):
    f, args, kwargs = case
    dtypes = "-".join(np.asarray(a).dtype.name for a in args if isinstance(a, np.ndarray))
    return f"{f.__name__}-{dtypes}-{len(args)}-{'-'.join(f'{k}={v}' for k, v in kwargs.items())}"


def second_order(args):
    """Second derivatives through the reference engine, for the float64 arrays."""
    return all(np.asarray(a).dtype == np.float64 for a in args if isinstance(a, np.ndarray))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_softmax(case):
    f, args, kwargs = case
    test_rrule(f, *arguments(args), fkwargs=kwargs, check_second_order=second_order(args))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_softmax(case):
    f, args, kwargs = case
    test_frule(f, *arguments(args), fkwargs=kwargs, check_second_order=second_order(args))


# ---- hard points ----------------------------------------------------------------------------


def test_logsumexp_gradient_is_softmax():
    a = np.log(np.array([1.0, 3.0]))
    np.testing.assert_allclose(cr.rrule(sc.logsumexp, a)[1](1.0)[1], [0.25, 0.75])


def test_logsumexp_zero_weights():
    a = np.array([[0.3, -1.0, 2.0]])
    w = np.array([0.5, 0.0, 2.0])
    y, pullback = cr.rrule(sc.logsumexp, a, 1, w)
    _, da, _, db = pullback(np.ones(1))
    assert da[0, 1] == 0.0
    np.testing.assert_allclose(db, np.exp(a[0] - y[0]))
    # Every weight zero: y = -inf, no term depends on a.
    with np.errstate(divide="ignore"):
        y, pullback = cr.rrule(sc.logsumexp, a, 1, np.zeros(3))
    assert y[0] == -np.inf
    np.testing.assert_array_equal(pullback(np.ones(1))[1], np.zeros((1, 3)))


def test_logsumexp_keyword_weights_get_no_cotangent():
    _, pullback = cr.rrule(sc.logsumexp, A, b=W, axis=1)
    cotangents = pullback(np.ones(2))
    assert len(cotangents) == 2
    y = sc.logsumexp(A, axis=1, b=W)
    np.testing.assert_allclose(cotangents[1], W * np.exp(A - y[:, None]))


def test_logsumexp_return_sign():
    w = np.array([1.0, -3.0, 0.5])
    (y, sign), pullback = cr.rrule(sc.logsumexp, A, 1, w, False, True)
    _, da, _, db, _, _ = pullback((np.ones(2), np.ones(2)))
    np.testing.assert_allclose(da, sign[:, None] * w * np.exp(A - y[:, None]))
    np.testing.assert_allclose(db, np.sum(sign[:, None] * np.exp(A - y[:, None]), axis=0))
    _, tangent = cr.frule((NoTangent(), np.ones_like(A)), sc.logsumexp, A, return_sign=True)
    assert tangent[1] is ZeroTangent()


def test_zero_cotangents():
    assert cr.rrule(sc.logsumexp, A)[1](ZeroTangent())[1] is ZeroTangent()
    assert cr.rrule(sc.softmax, A)[1](ZeroTangent())[1] is ZeroTangent()
    assert cr.rrule(sc.log_softmax, A)[1](ZeroTangent())[1] is ZeroTangent()


def test_unsupported_keyword_is_named():
    with pytest.raises(cr.RuleKeywordError, match=r"logsumexp.*axes"):
        cr.rrule(sc.logsumexp, A, axes=0)


# ---- logsumexp of a float array: SciPy's value, and exp(a - y) from the same exponentials ---


def _exact_logsumexp(x, axis):
    """logsumexp over ``axis`` with the reduced axes kept, and its gradient ``exp(x - y)``,
    in 50 digits (mpmath), rounded to float64."""
    x = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim)) if axis is None else axis if isinstance(axis, tuple) else (axis,)
    axes = tuple(a % x.ndim for a in axes)
    ends = tuple(range(x.ndim - len(axes), x.ndim))
    moved = np.moveaxis(x, axes, ends)
    flat = moved.reshape((*moved.shape[: x.ndim - len(axes)], -1))
    y, grad = np.empty(flat.shape[:-1]), np.empty(flat.shape)
    with mpmath.workdps(50):
        for index in np.ndindex(flat.shape[:-1]):
            terms = [mpmath.exp(mpmath.mpf(float(v))) for v in flat[index]]
            total = mpmath.fsum(terms)
            y[index] = float(mpmath.log(total))
            grad[index] = [float(t / total) for t in terms]
    grad = np.moveaxis(grad.reshape(moved.shape), ends, axes)
    return np.expand_dims(y, axes), grad


LSE_RNG = np.random.default_rng(11)
PLAIN_LOGSUMEXP = [
    # x, keywords: axes and keepdims, ties among the maxima, a dominant maximum (y near 0)
    (LSE_RNG.normal(size=(16, 64)), {"axis": -1}),
    (LSE_RNG.normal(size=(3, 4, 5)), {"axis": (0, 2), "keepdims": True}),
    (LSE_RNG.normal(size=(3, 4, 5)), {"axis": (2, 0)}),
    (LSE_RNG.normal(size=(3, 4)), {}),
    (LSE_RNG.normal(size=(3, 4)), {"axis": 0, "keepdims": True}),
    (np.array([[1.0, 1.0, -2.0], [0.5, 0.5, 0.5]]), {"axis": 1}),
    (np.array([0.0, -50.0, -60.0]), {}),
    (np.array([700.0, 710.0, 705.0]), {}),
]


@pytest.mark.parametrize("x, kwargs", PLAIN_LOGSUMEXP, ids=range(len(PLAIN_LOGSUMEXP)))
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=str)
def test_logsumexp_of_a_float_array(x, kwargs, dtype):
    x = x.astype(dtype)
    y, pullback = cr.rrule(sc.logsumexp, x, **kwargs)
    # SciPy's own operations, so SciPy's value (to rounding, across SciPy's versions)
    expected = sc.logsumexp(x, **kwargs)
    assert type(y) is type(expected) and np.shape(y) == np.shape(expected)
    eps = np.finfo(dtype).eps
    np.testing.assert_allclose(y, expected, rtol=2 * eps, atol=0)
    exact_y, exact_grad = _exact_logsumexp(x, kwargs.get("axis"))
    # y near 0 (a dominant maximum) keeps its relative accuracy: log1p of the small rest
    np.testing.assert_allclose(y, exact_y.reshape(np.shape(y)), rtol=4 * eps, atol=0)
    dy = np.linspace(0.5, 1.5, np.size(y)).reshape(np.shape(y)).astype(dtype)
    dx = pullback(dy[()] if dy.ndim == 0 else dy)[1]
    assert dx.dtype == dtype
    # exp(a - max) carries the rounding of a - max, amplified by its size: a few eps each
    expected_dx = exact_grad * dy.reshape(exact_y.shape)
    np.testing.assert_allclose(dx, expected_dx, rtol=64 * eps, atol=0)


LSE_SPECIAL = [
    # the calls the exponentials leave to SciPy: non-finite maxima, no elements, a 0-d array,
    # float16, weights, signs
    (np.array([[1.0, np.inf], [0.0, 1.0]]), {"axis": 1}),
    (np.array([[-np.inf, -np.inf], [0.0, 1.0]]), {"axis": 1}),
    (np.array([[1.0, np.nan], [0.0, 1.0]]), {"axis": 1}),
    (np.zeros((2, 0)), {"axis": 1}),
    (np.array(1.5), {}),
    (np.array([1.0, 2.0, 3.0], np.float16), {}),
    (np.array([1.0, 2.0, 3.0]), {"b": np.array([1.0, 0.0, 2.0])}),
]


@pytest.mark.parametrize("x, kwargs", LSE_SPECIAL, ids=range(len(LSE_SPECIAL)))
def test_logsumexp_special_calls_keep_scipys_value(x, kwargs):
    with np.errstate(all="ignore"):
        y, pullback = cr.rrule(sc.logsumexp, x, **kwargs)
        expected = sc.logsumexp(x, **kwargs)
        np.testing.assert_array_equal(y, expected)
        assert type(y) is type(expected)
        dy = np.ones(np.shape(y))
        dx = cr.unthunk(pullback(dy[()] if dy.ndim == 0 else dy)[1])
    assert np.shape(dx) == x.shape
    # the weights b exp(x - y), with y = -inf taken as 0 (all terms absent: no dependence on x);
    # an infinite maximum gives NaN (inf - inf), as before
    y_kept = np.reshape(y, np.shape(y) + (1,) * (x.ndim - np.ndim(y)))
    y_kept = np.where(y_kept == -np.inf, 0.0, y_kept)
    with np.errstate(invalid="ignore"):
        weights = kwargs.get("b", 1.0) * np.exp(x.astype(np.float64) - y_kept)
    rtol = 4e-3 if x.dtype == np.float16 else 1e-14
    np.testing.assert_allclose(dx, weights, rtol=rtol, atol=0, equal_nan=True)


def test_logsumexp_arguments_and_cotangent_kinds():
    # axis by keyword (bound without inspect) or by position, and cotangents of every kind the
    # pullback meets: a float array (of another precision too), a 0-d array, a Python float
    x = np.random.default_rng(2).normal(size=(4, 6))
    x_kept = x.copy()
    y_kw, by_keyword = cr.rrule(sc.logsumexp, x, axis=-1)
    y_pos, by_position = cr.rrule(sc.logsumexp, x, -1)
    assert np.array_equal(y_kw, sc.logsumexp(x, axis=-1)) and np.array_equal(y_pos, y_kw)
    _, grad = _exact_logsumexp(x, -1)
    for dy in (np.linspace(-1.0, 1.0, 4), np.linspace(-1.0, 1.0, 4).astype(np.float32)):
        dy_kept = dy.copy()
        for pullback in (by_keyword, by_position):
            dx = pullback(dy)[1]
            # exp(x - y) dy: a few roundings of float64 (dy's own float32 values are exact)
            np.testing.assert_allclose(dx, grad * dy.astype(np.float64)[:, None], rtol=1e-14)
            assert dx.dtype == x.dtype and not np.shares_memory(dx, dy)
        assert np.array_equal(dy, dy_kept)
    _, pullback = cr.rrule(sc.logsumexp, x.astype(np.float32).T)
    _, grad = _exact_logsumexp(x.astype(np.float32).T, None)
    for dy in (2.0, np.array(2.0), np.float32(2.0)):
        dx = pullback(dy)[1]
        assert dx.dtype == np.float32
        np.testing.assert_allclose(dx, 2.0 * grad, rtol=8 * np.finfo(np.float32).eps)
    assert np.array_equal(x, x_kept)
    with pytest.raises(TypeError):
        cr.rrule(sc.logsumexp, x, -1, axis=0)  # an argument given twice: the binding's error
