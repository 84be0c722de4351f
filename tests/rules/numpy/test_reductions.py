"""Tests of the rules for sum, prod, mean, their NaN-skipping forms and trace."""

import mpmath
import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.core.fast_paths import FastPullback
from chainrules.engines import hessian, reverse


def sample(shape, dtype=np.float64, seed=0, low=-1.0, high=1.0):
    """Data of ``dtype`` with real (and imaginary) parts drawn from [low, high]."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(low, high, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(low, high, shape)
    return x.astype(dtype)


DTYPES = [np.float64, np.float32, np.complex128]

# keyword combinations every reduction takes: axis None, int, negative, tuple; keepdims
AXES = [
    {},
    {"axis": 0},
    {"axis": -1, "keepdims": True},
    {"axis": (0, 2)},
    {"axis": (-1, 1), "keepdims": True},
]

# prod is sampled away from zero here: its zeros are pinned below with exact values.
REDUCTIONS = [
    (np.sum, -1.0, 1.0),
    (np.prod, 0.5, 1.5),
    (np.mean, -1.0, 1.0),
    (np.nansum, -1.0, 1.0),
    (np.nanprod, 0.5, 1.5),
    (np.nanmean, -1.0, 1.0),
    (np.ndarray.sum, -1.0, 1.0),
    (np.ndarray.prod, 0.5, 1.5),
    (np.ndarray.mean, -1.0, 1.0),
]


@pytest.mark.parametrize("f, low, high", REDUCTIONS, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("kwargs", AXES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_reduction(f, low, high, kwargs, dtype):
    x = sample((2, 3, 4), dtype, low=low, high=high)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


MASK = np.array([[True, False, True, True], [False, True, True, True], [True, True, False, True]])

KEYWORDS = [
    (np.sum, {"axis": 1, "where": MASK}),
    (np.sum, {"axis": 0, "initial": 2.0}),
    (np.sum, {"dtype": np.float64}),
    (np.prod, {"axis": 1, "where": MASK}),
    (np.prod, {"axis": 0, "initial": 2.0, "keepdims": True}),
    (np.mean, {"axis": 1, "where": MASK}),
    (np.mean, {"where": MASK}),
    (np.nansum, {"axis": 1, "where": MASK}),
    (np.nanprod, {"axis": 0, "where": MASK}),
    (np.nanmean, {"axis": 1, "where": MASK, "keepdims": True}),
]


@pytest.mark.parametrize("f, kwargs", KEYWORDS, ids=lambda v: getattr(v, "__name__", "kw"))
def test_reduction_keywords(f, kwargs):
    x = sample((3, 4), low=0.5, high=1.5)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


def test_axis_given_by_position():
    x = sample((3, 4))
    test_rrule(np.sum, x, 1)
    test_rrule(np.ndarray.prod, x + 2.0, -1)
    test_frule(np.mean, x, 0)


def test_scalar_input():
    y, pullback = cr.rrule(np.sum, 2.5)
    assert y == 2.5
    assert pullback(1.0) == (NoTangent(), 1.0)


def test_integer_input_has_no_tangent():
    _, pullback = cr.rrule(np.sum, np.arange(4))
    assert pullback(1.0) == (NoTangent(), NoTangent())


def test_dtype_keyword_keeps_input_dtype():
    x = sample(4, np.float32)
    y, pullback = cr.rrule(np.sum, x, dtype=np.float64)
    assert y.dtype == np.float64
    assert pullback(np.float64(1.0))[1].dtype == np.float32


@pytest.mark.parametrize("f", [np.sum, np.prod, np.mean, np.nansum, np.nanprod, np.nanmean])
def test_float32_stays_float32(f):
    x = sample((3, 4), np.float32, low=0.5, high=1.5)
    _, pullback = cr.rrule(f, x, axis=1)
    assert pullback(np.ones(3, np.float32))[1].dtype == np.float32
    _, dy = cr.frule((NoTangent(), np.ones_like(x)), f, x, axis=1)
    assert dy.dtype == np.float32


@pytest.mark.parametrize("f", [np.sum, np.prod, np.mean, np.nansum, np.nanprod, np.nanmean])
def test_zero_cotangent(f):
    x = sample((3, 4))
    _, pullback = cr.rrule(f, x, axis=0)
    assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent())
    assert cr.frule((NoTangent(), ZeroTangent()), f, x, axis=0)[1] == ZeroTangent()


def test_unsupported_keyword_is_named():
    with pytest.raises(cr.RuleKeywordError, match=r"numpy\.sum.*'out'"):
        cr.rrule(np.sum, np.ones(3), out=np.zeros(()))


# ---- prod at zeros: exact, division-free, exact second derivatives ---------------------------

PROD_AT_ZEROS = [
    # x, gradient of prod(x)
    ([2.0, 3.0, 4.0], [12.0, 8.0, 6.0]),
    ([0.0, 3.0, 4.0], [12.0, 0.0, 0.0]),
    ([2.0, 0.0, 4.0, 0.0], [0.0, 0.0, 0.0, 0.0]),
    ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
    ([5.0], [1.0]),
]


@pytest.mark.parametrize("x, expected", PROD_AT_ZEROS, ids=str)
def test_prod_gradient_at_zeros_is_exact(x, expected):
    x = np.array(x)
    with np.errstate(divide="raise", invalid="raise"):
        _, pullback = cr.rrule(np.prod, x)
        assert np.array_equal(pullback(1.0)[1], expected)
        assert cr.frule((NoTangent(), np.ones_like(x)), np.prod, x)[1] == sum(expected)


def test_prod_gradient_at_zeros_along_an_axis():
    x = np.array([[0.0, 2.0, 3.0], [1.0, 0.0, 0.0]])
    _, pullback = cr.rrule(np.prod, x, axis=1)
    assert np.array_equal(pullback(np.array([1.0, 1.0]))[1], [[6.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


# ---- prod of a NumPy float array: the products of the others as y / x, where that is exact ---


def _exact_prod_cotangent(x, dy, axis):
    """``dy`` times the product of the other elements of each slice, exactly (mpmath), then
    rounded once to float64 (to zero or infinity past its range)."""
    x = np.moveaxis(np.asarray(x, np.float64), axis, -1)
    dy = np.broadcast_to(np.asarray(dy, np.float64), x.shape[:-1])
    out = np.empty(x.shape)
    for index in np.ndindex(x.shape):
        others = [mpmath.mpf(float(v)) for i, v in enumerate(x[index[:-1]]) if i != index[-1]]
        out[index] = float(mpmath.fprod(others) * mpmath.mpf(float(dy[index[:-1]])))
    return np.moveaxis(out, -1, axis)


PROD_BY_DIVISION = [
    # x, axis, dy: the quotient's guards, each on one side
    (np.random.default_rng(3).normal(size=(8, 64)), 1, np.linspace(-2.0, 2.0, 8)),
    (np.random.default_rng(4).uniform(0.5, 1.5, (3, 4, 5)), 0, 1.5),  # a normal product
    ([[0.0, 2.0, 3.0], [1.0, 2.0, 4.0]], 1, [1.0, 1.0]),  # one slice with a zero
    ([1e200, 1e200, 1e-200], 0, 1.0),  # the product overflows; the others need not
    ([1e-200, 1e-200, 1e200], 0, 1.0),  # the product underflows to zero
    ([1e-160, 1e-160, 1.0], 0, 1.0),  # a subnormal product has lost its digits
    ([1e-150, 1e-150], 0, 1e-100),  # a normal product, but y * dy underflows
    ([1e150, 1e150], 0, 1e10),  # a normal product, but y * dy overflows
    ([3.0, np.inf, 2.0], 0, 1.0),  # an infinite factor
]


@pytest.mark.parametrize("x, axis, dy", PROD_BY_DIVISION, ids=range(len(PROD_BY_DIVISION)))
def test_prod_cotangent_is_exact_to_rounding(x, axis, dy):
    x = np.array(x)
    with np.errstate(over="ignore"):  # the product itself may overflow: that is the case
        y, pullback = cr.rrule(np.prod, x, axis=axis)
        assert np.array_equal(y, np.prod(x, axis=axis))
        expected = _exact_prod_cotangent(x, dy, axis)
        dy = np.broadcast_to(dy, np.shape(y))
        dx = pullback(dy[()] if dy.ndim == 0 else dy)[1]
    # one rounding per factor (the product's, or the cumulative products'), one for dy
    np.testing.assert_allclose(dx, expected, rtol=(x.shape[axis] + 1) * 2.3e-16, atol=0)


def test_prod_cotangent_of_float32_below_the_normal_range():
    # float32's smallest normal number is about 1.2e-38: the product 1e-40 is subnormal there
    x = np.array([1e-20, 1e-20, 1.0], np.float32)
    _, pullback = cr.rrule(np.prod, x)
    expected = _exact_prod_cotangent(x.astype(np.float64), 1.0, 0).astype(np.float32)
    np.testing.assert_allclose(pullback(1.0)[1], expected, rtol=4 * 6e-8, atol=0)


def test_prod_cotangent_by_division_agrees_with_the_cumulative_products():
    # the quotient and the division-free way (what tracked values take) agree to rounding
    x = np.random.default_rng(5).normal(size=(16, 256))
    dy = np.random.default_rng(6).normal(size=16)
    _, pullback = cr.rrule(np.prod, x, axis=1)
    others = cr.rules.numpy.reductions.prod_of_others(x, (1,))
    np.testing.assert_allclose(pullback(dy)[1], others * dy[:, None], rtol=257 * 2.3e-16)


PROD_HESSIANS = [
    ([1.0, 2.0], [[0.0, 1.0], [1.0, 0.0]]),
    ([0.0, 0.0, 3.0], [[0.0, 3.0, 0.0], [3.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    ([0.0, 2.0, 3.0], [[0.0, 3.0, 2.0], [3.0, 0.0, 0.0], [2.0, 0.0, 0.0]]),
]


@pytest.mark.parametrize("x, expected", PROD_HESSIANS, ids=str)
def test_prod_hessian_is_exact(x, expected):
    assert np.array_equal(hessian(np.prod)(np.array(x)), expected)


def test_prod_second_order_through_the_engine():
    test_rrule(np.prod, sample(4, low=0.5, high=1.5), check_second_order=True)


def test_prod_complex_is_holomorphic():
    z = np.array([1 + 1j, 2 - 1j])
    _, pullback = cr.rrule(np.prod, z)
    assert np.allclose(pullback(1.0)[1], np.conj([2 - 1j, 1 + 1j]))


# ---- NaN-skipping reductions ----------------------------------------------------------------

WITH_NAN = np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, 4.0]])
NAN_GRADIENTS = [
    (np.nansum, [[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]]),
    (np.nanprod, [[2.0, 0.0, 1.0], [0.0, 0.0, 1.0]]),
    (np.nanmean, [[0.5, 0.0, 0.5], [0.0, 0.0, 1.0]]),
]


@pytest.mark.parametrize("f, expected", NAN_GRADIENTS, ids=lambda v: getattr(v, "__name__", ""))
def test_nan_positions_get_zero_cotangent(f, expected):
    _, pullback = cr.rrule(f, WITH_NAN, axis=1)
    assert np.array_equal(pullback(np.ones(2))[1], expected)
    _, dy = cr.frule((NoTangent(), np.ones_like(WITH_NAN)), f, WITH_NAN, axis=1)
    assert np.allclose(dy, np.sum(np.array(expected), axis=1))


@pytest.mark.parametrize("f", [np.nansum, np.nanprod, np.nanmean])
def test_nan_reductions_check_with_nans(f):
    x = sample((3, 4), low=0.5, high=1.5)
    x[0, 1] = x[2, 3] = np.nan
    test_rrule(f, x, fkwargs={"axis": 1})
    test_frule(f, x, fkwargs={"axis": 1})


# ---- trace ----------------------------------------------------------------------------------

TRACES = [
    ((4, 4), {}),
    ((3, 5), {"offset": 1}),
    ((5, 3), {"offset": -2}),
    ((2, 3, 4), {"axis1": 2, "axis2": 0}),
    ((2, 3, 4), {"offset": 1, "axis1": -1, "axis2": 1}),
]


@pytest.mark.parametrize("shape, kwargs", TRACES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_trace(shape, kwargs, dtype):
    x = sample(shape, dtype)
    test_rrule(np.trace, x, fkwargs=kwargs)
    test_frule(np.trace, x, fkwargs=kwargs)


def test_trace_method_and_value():
    x = sample((3, 3))
    test_rrule(np.ndarray.trace, x, 1)
    test_frule(np.ndarray.trace, x, 1)
    _, pullback = cr.rrule(np.trace, x)
    assert np.array_equal(pullback(2.0)[1], 2.0 * np.eye(3))


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (1, 1), (0, 3), (3, 0)])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (-2, -1), (-1, 0)])
def test_trace_cotangent_of_a_matrix_on_every_diagonal(shape, axes):
    # A matrix's cotangent is written onto the traced diagonal of zeros, for every offset
    # (empty diagonals beyond the matrix included), either order of the axes, and a real,
    # float32 or complex number as the cotangent (its real part onto a real matrix).
    a = np.random.default_rng(7).normal(size=shape)
    first, second = (axis % 2 for axis in axes)
    for offset in range(-6, 7):
        diagonal = np.eye(shape[first], shape[second], k=offset, dtype=bool)
        if first > second:
            diagonal = diagonal.T
        for dy in (1.7, np.float64(-0.3), np.float32(2.0), 1.5 + 2j):
            _, pullback = cr.rrule(np.trace, a, offset, *axes)
            da = pullback(dy)[1]
            assert da.dtype == a.dtype
            assert np.array_equal(da, np.where(diagonal, np.real(dy), 0.0))


# ---- a 0-d array reduced over axis 0 or -1 ------------------------------------------------------

# NumPy's reductions take axis=0 and axis=-1 on a 0-d array and reduce nothing.
ZERO_D_AXES = [{"axis": 0}, {"axis": -1}, {"axis": 0, "keepdims": True}, {"axis": ()}]


@pytest.mark.parametrize("kwargs", ZERO_D_AXES, ids=range(len(ZERO_D_AXES)))
@pytest.mark.parametrize(
    "f", [np.sum, np.prod, np.nansum, np.nanprod, np.nanmean], ids=lambda f: f.__name__
)
def test_0d_input_with_an_axis(f, kwargs):
    x = np.array(0.7)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)
    y, pullback = cr.rrule(f, x, **kwargs)
    assert np.shape(y) == () and pullback(2.5)[1] == 2.5
    assert cr.frule((NoTangent(), 1.5), f, x, **kwargs)[1] == 1.5


# ---- fast paths of prod and trace: the rules' values, on both sides of each guard -----------


def _layouts(shape, dtype, seed=0, low=0.5, high=1.5):
    """The same values of ``dtype`` in C order, in Fortran order and as a strided view."""
    x = sample(shape, dtype, seed=seed, low=low, high=high)
    wide = np.zeros((shape[0], 2 * shape[1], *shape[2:]), dtype)
    wide[:, ::2] = x
    return {"C": x, "F": np.asfortranarray(x), "strided": wide[:, ::2]}


NORMAL_GUARD = [
    # values, whether every one is a normal number of float64
    ([1.0, -2.0, 1e300], True),
    ([np.finfo(np.float64).tiny, -np.finfo(np.float64).max], True),
    ([1.0, 0.0], False),
    ([1.0, -0.0], False),
    ([1.0, 5e-324], False),  # subnormal
    ([1.0, np.inf], False),
    ([-np.inf, 1.0], False),
    ([1.0, np.nan], False),
    ([np.nan, 0.0], False),
    ([], True),  # an empty product: nothing to reject
]


@pytest.mark.parametrize("values, normal", NORMAL_GUARD, ids=range(len(NORMAL_GUARD)))
def test_normal_guard_of_the_division(values, normal):
    from chainrules.rules.numpy.reductions import _normal

    values = np.array(values, np.float64).reshape(-1, 1)
    assert _normal(values, np.finfo(np.float64)) is normal


PROD_CALLS = [
    ((), {}),
    ((1,), {}),
    ((), {"axis": 0}),
    ((), {"axis": -1, "keepdims": True}),
    ((), {"axis": (0, 1)}),
    ((None,), {"keepdims": True}),
]


@pytest.mark.parametrize("args, kwargs", PROD_CALLS, ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
def test_prod_fast_path(args, kwargs, layout, dtype):
    from chainrules.core.fast_paths import general_rule

    x = _layouts((6, 5), dtype)[layout]
    kept = x.copy()
    y, pullback = cr.rrule(np.prod, x, *args, **kwargs)
    assert isinstance(pullback, FastPullback)  # the fast path's
    expected_y = np.prod(x, *args, **kwargs)
    assert y.dtype == expected_y.dtype and np.array_equal(y, expected_y)  # NumPy's own value
    dy = np.linspace(-1.0, 2.0, np.size(y)).reshape(np.shape(y)).astype(dtype)
    dy_kept = dy.copy()
    dx = pullback(dy)[1]
    # the general rule computes the same operations: equal exactly
    _, general_pullback = general_rule(np.prod)(x, *args, **kwargs)
    assert dx.dtype == x.dtype and np.array_equal(dx, general_pullback(dy)[1])
    # against dy times the product of the others, from float64 products of a few factors:
    # a rounding per factor in x's precision
    axis = args[0] if args else kwargs.get("axis")
    axes = tuple(range(2)) if axis is None else np.atleast_1d(axis) % 2
    x64 = x.astype(np.float64)
    prod = np.prod(x64, axis=tuple(axes), keepdims=True)
    others = prod / x64  # every factor is in [0.5, 1.5]: no zero
    formula = others * np.reshape(dy.astype(np.float64), prod.shape)
    eps = np.finfo(dtype).eps
    np.testing.assert_allclose(dx, formula, rtol=(x.size + 2) * eps, atol=0)
    assert np.array_equal(x, kept) and np.array_equal(dy, dy_kept)  # nothing mutated
    assert not np.shares_memory(dx, dy)


def test_prod_fast_path_at_a_zero_and_at_an_overflow():
    # each guard of the division on its other side, through the fast path
    x = np.array([[0.0, 2.0, 3.0], [1e200, 1e200, 1e-200]])
    with np.errstate(over="ignore"):
        _, pullback = cr.rrule(np.prod, x, axis=1)
        dx = pullback(np.array([1.0, 1.0]))[1]
    assert isinstance(pullback, FastPullback)
    # exact: products of two factors, each exactly representable or a single rounding
    np.testing.assert_array_equal(dx[0], [6.0, 0.0, 0.0])
    np.testing.assert_array_equal(dx[1], [1e200 * 1e-200, 1e200 * 1e-200, np.inf])


TRACE_CALLS = [
    ((), {}),
    ((1,), {}),
    ((-2,), {}),
    ((0, 1, 0), {}),
    ((), {"offset": 2, "axis1": 1, "axis2": 0}),
    ((1,), {"axis2": -2, "axis1": -1}),
    ((), {"offset": 9}),  # past the matrix: an empty diagonal
]


@pytest.mark.parametrize("args, kwargs", TRACE_CALLS, ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
def test_trace_fast_path(args, kwargs, layout, dtype):
    a = _layouts((4, 5), dtype, low=-1.0)[layout]
    kept = a.copy()
    y, pullback = cr.rrule(np.trace, a, *args, **kwargs)
    assert isinstance(pullback, FastPullback)  # the fast path's
    expected_y = np.trace(a, *args, **kwargs)
    assert type(y) is type(expected_y) and y == expected_y  # NumPy's own value
    names = ("offset", "axis1", "axis2")
    given = {
        **dict(zip(names, (0, 0, 1), strict=True)),
        **dict(zip(names, args, strict=False)),
        **kwargs,
    }
    eye = np.eye(4, 5, k=given["offset"])
    if given["axis1"] % 2 == 1:  # the diagonal runs along (axis1, axis2) = (1, 0)
        eye = np.eye(5, 4, k=given["offset"]).T
    for dy in (1.5, np.float64(-2.0), np.array(0.25), 1.5 + 2.0j):
        dx = pullback(dy)[1]
        # dy copied onto the diagonal: exact (a complex dy gives its real part)
        assert dx.dtype == a.dtype and dx.shape == a.shape
        np.testing.assert_array_equal(dx, (np.real(dy) * eye).astype(dtype))
        assert not np.shares_memory(dx, a)
    assert np.array_equal(a, kept)


def test_trace_outside_the_fast_path_takes_the_rule():
    matrix = np.arange(12.0).reshape(3, 4)
    for args, kwargs in [((np.int64(1),), {}), ((), {"axis1": np.int64(1), "axis2": 0})]:
        y, pullback = cr.rrule(np.trace, matrix, *args, **kwargs)
        assert not isinstance(pullback, FastPullback)  # parameters of NumPy's types
        assert y == np.trace(matrix, *args, **kwargs)
    a = np.arange(24.0).reshape(2, 3, 4)
    for args, kwargs in [
        ((), {"axis1": 1, "axis2": 2}),
        ((np.int64(1),), {}),
        ((), {"dtype": None}),
    ]:
        y, pullback = cr.rrule(np.trace, a, *args, **kwargs)
        assert not isinstance(pullback, FastPullback)
        np.testing.assert_array_equal(y, np.trace(a, *args, **kwargs))
    _, pullback = cr.rrule(np.trace, np.eye(3, dtype=int))
    assert not isinstance(pullback, FastPullback)


@pytest.mark.parametrize("f", [np.sum, np.mean])
def test_sum_and_mean_cotangents_are_read_only_views_only_when_large(f):
    # the project's contract: below SPREAD_COPY_BELOW elements a fresh array, from it a
    # read-only broadcast view of dy, so that a write into the cotangent cannot reach dy
    from chainrules.core.shapes import SPREAD_COPY_BELOW

    for rows in (SPREAD_COPY_BELOW // 64 - 1, SPREAD_COPY_BELOW // 64):
        x = sample((rows, 64))
        dy = np.linspace(0.0, 1.0, 64)
        dy_kept = dy.copy()
        dx = cr.unthunk(cr.rrule(f, x, axis=0)[1](dy)[1])
        np.testing.assert_array_equal(
            dx, np.broadcast_to(dy / (rows if f is np.mean else 1), x.shape)
        )
        if x.size < SPREAD_COPY_BELOW:
            assert dx.flags.writeable and not np.shares_memory(dx, dy)
        else:
            assert not dx.flags.writeable
        assert np.array_equal(dy, dy_kept)


def test_reduced_axes_are_kept_apart_by_ndim_and_checked_each_call():
    from chainrules.rules.numpy.reductions import reduced_axes

    assert reduced_axes(-1, 2) == (1,) and reduced_axes(-1, 3) == (2,) and reduced_axes(-1, 0) == ()
    assert reduced_axes([0, -1], 3) == (0, 2) and reduced_axes((2, 0), 3) == (0, 2)
    assert reduced_axes(None, 2) == (0, 1) and reduced_axes(np.int64(1), 2) == (1,)
    for _ in range(2):
        with pytest.raises(ValueError, match="out of bounds"):
            reduced_axes(2, 2)


@pytest.mark.parametrize("offset", [0, 1, -2])
def test_trace_pullback_differentiated_in_its_cotangent(offset):
    # an engine tracking dy reaches the fast pullback's general branch: d(dA)/d(dy) = eye
    a = np.arange(16.0).reshape(4, 4)
    pullback = cr.rrule(np.trace, a, offset)[1]
    jacobian = reverse.jacobian(lambda dy: cr.unthunk(pullback(dy)[1]))(1.3)
    np.testing.assert_array_equal(jacobian, np.eye(4, k=offset))
