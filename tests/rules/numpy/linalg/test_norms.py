"""Tests of the rules for np.linalg.norm, matrix_norm, vector_norm and cond."""

import math
import warnings

import mpmath
import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, ids, sample

import chainrules as cr

# Norms have kinks (ties of the inf-norms, of column or row sums, of singular values) that
# the default finite differences' largest trial steps can cross: these checks use small steps.
SMALL_STEPS = central_fdm(5, 1)
VECTOR_ORDS = [None, 2, 1, np.inf, -np.inf, 3, 0.5, 0, -1]
SMOOTH_VECTOR_ORDS = (None, 2, 3, 0.5)
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_vector_norms(ord, dtype):
    x = sample((5,), dtype)
    second = ord in SMOOTH_VECTOR_ORDS
    test_rrule(np.linalg.norm, x, fkwargs={"ord": ord}, check_second_order=second, fdm=SMALL_STEPS)
    test_frule(np.linalg.norm, x, fkwargs={"ord": ord}, fdm=SMALL_STEPS)
    x = sample((3, 4), dtype, 1)
    test_rrule(np.linalg.norm, x, fkwargs={"ord": ord, "axis": 1}, fdm=SMALL_STEPS)
    test_frule(
        np.linalg.norm, x, fkwargs={"ord": ord, "axis": 0, "keepdims": True}, fdm=SMALL_STEPS
    )
    kwargs = {"ord": 2 if ord is None else ord, "axis": (0, 1), "keepdims": True}
    test_rrule(np.linalg.vector_norm, x, fkwargs=kwargs, fdm=SMALL_STEPS)
    test_frule(np.linalg.vector_norm, x, fkwargs=kwargs, fdm=SMALL_STEPS)


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_matrix_norms(ord, dtype):
    x = sample((3, 4), dtype)
    second = ord in (None, "fro", "nuc", 2)
    test_rrule(np.linalg.norm, x, fkwargs={"ord": ord}, check_second_order=second, fdm=SMALL_STEPS)
    test_frule(np.linalg.norm, x, fkwargs={"ord": ord}, fdm=SMALL_STEPS)
    x = sample((2, 3, 4), dtype, 1)
    kwargs = {"ord": ord, "axis": (2, 0), "keepdims": True}
    test_rrule(np.linalg.norm, x, fkwargs=kwargs, fdm=SMALL_STEPS)
    test_frule(np.linalg.norm, x, fkwargs=kwargs, fdm=SMALL_STEPS)
    if ord is not None:
        test_rrule(np.linalg.matrix_norm, x, fkwargs={"ord": ord}, fdm=SMALL_STEPS)
        test_frule(np.linalg.matrix_norm, x, fkwargs={"ord": ord}, fdm=SMALL_STEPS)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_flattened_norms(dtype):
    x = sample((2, 3, 4), dtype)
    test_rrule(np.linalg.norm, x, fdm=SMALL_STEPS)
    test_rrule(np.linalg.vector_norm, x, fdm=SMALL_STEPS)
    test_frule(np.linalg.vector_norm, x, fkwargs={"axis": 1}, fdm=SMALL_STEPS)


ZERO_CASES = [
    (np.linalg.norm, (3,), {}),
    (np.linalg.norm, (3,), {"ord": 1}),
    (np.linalg.norm, (3,), {"ord": np.inf}),
    (np.linalg.norm, (3,), {"ord": 3}),
    (np.linalg.norm, (3,), {"ord": 0.5}),
    (np.linalg.vector_norm, (2, 3), {}),
    (np.linalg.norm, (2, 2), {"ord": "fro"}),
    (np.linalg.norm, (2, 2), {"ord": 1}),
    (np.linalg.norm, (2, 2), {"ord": np.inf}),
    (np.linalg.matrix_norm, (2, 2), {}),
]


@pytest.mark.parametrize("f, shape, kwargs", ZERO_CASES, ids=str)
def test_norm_at_zero_has_zero_subgradient(f, shape, kwargs):
    _, pullback = cr.rrule(f, np.zeros(shape), **kwargs)
    np.testing.assert_array_equal(pullback(1.0)[1], np.zeros(shape))
    _, dy = cr.frule((None, np.ones(shape)), f, np.zeros(shape), **kwargs)
    assert dy == 0.0


TIES = [
    (np.array([3.0, -3.0, 1.0]), {"ord": np.inf}, [0.5, -0.5, 0.0]),
    (np.array([-1.0, 2.0, -1.0]), {"ord": -np.inf}, [-0.5, 0.0, -0.5]),
    (np.array([[1.0, -2.0], [2.0, 1.0]]), {"ord": 1}, [[0.5, -0.5], [0.5, 0.5]]),
    (np.array([[1.0, -2.0], [2.0, 1.0]]), {"ord": np.inf}, [[0.5, -0.5], [0.5, 0.5]]),
    (np.eye(2), {"ord": 2}, [[0.5, 0.0], [0.0, 0.5]]),
]


@pytest.mark.parametrize("x, kwargs, expected", TIES, ids=str)
def test_inf_norm_ties_split_the_cotangent(x, kwargs, expected):
    _, pullback = cr.rrule(np.linalg.norm, x, **kwargs)
    np.testing.assert_allclose(pullback(1.0)[1], expected, atol=1e-15)


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_cond(p, dtype):
    x = sample((3, 3), dtype) + 3 * np.eye(3)
    test_rrule(np.linalg.cond, x, fkwargs={"p": p}, fdm=SMALL_STEPS)
    test_frule(np.linalg.cond, x, fkwargs={"p": p}, fdm=SMALL_STEPS)
    test_rrule(
        np.linalg.cond,
        sample((2, 3, 3), dtype, 1) + 3 * np.eye(3),
        fkwargs={"p": p},
        fdm=SMALL_STEPS,
    )


@pytest.mark.parametrize("p", [None, 2, -2, "fro", 1, np.inf], ids=str)
@pytest.mark.parametrize("x", [np.zeros((2, 2)), np.diag([1.0, 0.0])], ids=["zero", "rank-one"])
def test_cond_of_a_singular_matrix_has_no_derivative(p, x):
    """cond = inf there; its gradient came out NaN. A clear error, from the pullback and the
    frule (-2 of the rank-one matrix is 0, a kink with a subgradient, not an error)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        y, pullback = cr.rrule(np.linalg.cond, x, p)
        if p == -2 and np.any(x):
            assert y == 0 and np.all(np.isfinite(pullback(1.0)[1]))
            return
        assert np.isinf(y)
        with pytest.raises(np.linalg.LinAlgError, match=r"cond.*singular argument x"):
            pullback(1.0)
        with pytest.raises(np.linalg.LinAlgError, match=r"cond.*singular argument x"):
            cr.frule((cr.NoTangent(), np.ones((2, 2)), cr.NoTangent()), np.linalg.cond, x, p)


# ---- 2-norms: the gradient x / y from the forward's norm y ----------------------------------

# (x, f, keywords): norms that are square roots of sums of squares, along the ways a kept y is
# laid out; each has a slice of norm zero where the quotient would be 0 / 0.
_HALF_ZERO = np.array([[0.0, 0.0, 0.0, 0.0], [3.0, -4.0, 1.0, 2.0], [0.5, 1.0, -2.0, 0.25]])
TWO_NORMS = [
    (np.linalg.norm, {}),
    (np.linalg.norm, {"axis": 1}),
    (np.linalg.norm, {"axis": -1, "keepdims": True}),
    (np.linalg.norm, {"axis": (0, 1)}),
    (np.linalg.norm, {"ord": "fro", "keepdims": True}),
    (np.linalg.norm, {"ord": 2, "axis": 1}),
    (np.linalg.vector_norm, {"axis": 1}),
    (np.linalg.vector_norm, {}),
    (np.linalg.matrix_norm, {}),
]


def _two_norm_cotangent(x, dy, kwargs):
    """``x / |x|`` (0 where the norm is 0) times ``dy``, computed in float64 per slice."""
    axis = kwargs.get("axis")
    axes = (0, 1) if axis is None else axis if isinstance(axis, tuple) else (axis,)
    norm = np.sqrt(np.sum(np.abs(x.astype(np.complex128)) ** 2, axis=axes, keepdims=True))
    dy = np.reshape(dy, norm.shape)
    return np.where(norm > 0, x / np.where(norm > 0, norm, 1), 0) * dy


@pytest.mark.parametrize("f, kwargs", TWO_NORMS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128], ids=str)
@pytest.mark.parametrize("zero_slice", [False, True])
def test_two_norm_gradient_reuses_the_norm(f, kwargs, dtype, zero_slice):
    x = (_HALF_ZERO if zero_slice else _HALF_ZERO + 1.5).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 0.5j * x[:, ::-1]  # the zero row stays zero
    y, pullback = cr.rrule(f, x, **kwargs)
    dy = np.linspace(0.5, 2.0, np.size(y)).reshape(np.shape(y))
    dx = cr.unthunk(pullback(dy[()] if dy.ndim == 0 else dy)[1])
    expected = _two_norm_cotangent(x, dy, kwargs)
    tolerance = 1e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(dx, expected, rtol=tolerance, atol=tolerance)
    assert np.all(np.isfinite(dx))  # a zero norm gives a zero gradient, never 0 / 0
    if kwargs.get("axis") in (1, -1) and zero_slice:
        np.testing.assert_array_equal(dx[0], 0)


def test_two_norm_of_nan_keeps_its_zero_gradient():
    # the masked form takes a NaN norm (not positive) as zero; the quotient must not change that
    x = np.array([[np.nan, 1.0], [3.0, 4.0]])
    _, pullback = cr.rrule(np.linalg.norm, x, axis=1)
    np.testing.assert_array_equal(pullback(np.ones(2))[1], [[0.0, 0.0], [0.6, 0.8]])
    _, pullback = cr.rrule(np.linalg.norm, x)
    np.testing.assert_array_equal(pullback(1.0)[1], np.zeros((2, 2)))


# ---- over- and underflow: the gradient is that of x / s, by scale invariance -------------------

# Row scales, per dtype: rows whose squares (or p-th powers) overflow, rows whose squares
# underflow to zero, rows whose squares are subnormal (the forward's sum loses digits), and
# plain rows, on the fast side of the guard.
_EDGE_SCALES = {
    np.float64: [(1e200, 1e200, 1e200), (1e-200, 1e-200, 1e-200), (1e200, 1.0, 1e-200),
                 (3e-162, 3e-162, 3e-162), (1.0, 2.0, 0.5)],
    np.float32: [(1e30, 1e30, 1e30), (1e-30, 1e-30, 1e-30), (1e30, 1.0, 1e-30),
                 (3e-21, 3e-21, 3e-21), (1.0, 2.0, 0.5)],
}  # fmt: skip
_EDGE_BASE = np.array([[3.0, -4.0, 1.0, 2.0], [0.5, 1.0, -2.0, 0.25], [1.5, -1.5, 2.5, -0.5]])


def _layouts(x):
    """``x`` as a C array and as a strided view of a wider one."""
    wide = np.zeros((x.shape[0], 2 * x.shape[1]), x.dtype)
    wide[:, ::2] = x
    return {"C": x, "strided": wide[:, ::2]}


def _exact_gradient(x, ord, axes):
    """The gradient of the vector ``ord``-norm over ``axes`` (``None`` as 2), ``sign(x) *
    (|x| / |x|_p)^(p - 1)``, in 50 digits with mpmath's unbounded exponents, rounded to
    ``x``'s dtype."""
    p = mpmath.mpf(2 if ord is None else ord)
    moved = np.moveaxis(x.astype(np.complex128), axes, tuple(range(-len(axes), 0)))
    flat = moved.reshape((*moved.shape[: moved.ndim - len(axes)], -1))
    out = np.empty(flat.shape, np.complex128)
    with mpmath.workdps(50):
        for index in np.ndindex(flat.shape[:-1]):
            entries = [mpmath.mpc(complex(v)) for v in flat[index]]
            norm = mpmath.fsum(abs(v) ** p for v in entries) ** (1 / p)
            out[index] = [
                complex(v / abs(v) * (abs(v) / norm) ** (p - 1)) if v != 0 else 0 for v in entries
            ]
    out = np.moveaxis(out.reshape(moved.shape), tuple(range(-len(axes), 0)), axes)
    return out if np.iscomplexobj(x) else out.real.astype(x.dtype)


def _check_edge_gradient(f, x, kwargs, ord, axes):
    """The rule's value is NumPy's; its cotangent (``dy = 1``) and tangent (``dx = 1``) are the
    exact gradient's, to a tolerance for the gradient of a rescaled input: the sum of ``n``
    powers (relative error ``n eps``), its root, the quotient and the power ``p - 1``
    (``|p - 1| + 1`` times the quotient's error); ``x`` is left as it was."""
    before = x.copy()
    y, pullback = cr.rrule(f, x, **kwargs)
    with np.errstate(all="ignore"):
        expected_y = f(x, **kwargs)
    np.testing.assert_array_equal(y, expected_y)
    dx = cr.unthunk(pullback(np.ones(np.shape(y))[()])[1])
    _, dy = cr.frule((cr.NoTangent(), np.ones_like(x)), f, x, **kwargs)
    np.testing.assert_array_equal(x, before)
    expected = _exact_gradient(x, ord, axes)
    n = math.prod(x.shape[a] for a in axes)
    p = 2 if ord is None else ord
    eps = np.finfo(x.dtype).eps
    rtol = (abs(p - 1) + 1) * (n + 4) * eps
    tiny = np.finfo(x.dtype).tiny  # true gradient entries below it are subnormal or zero
    np.testing.assert_allclose(dx, expected, rtol=rtol, atol=tiny)
    sums = np.sum(expected.real, axis=axes, keepdims=kwargs.get("keepdims", False))
    np.testing.assert_allclose(dy, sums, rtol=rtol, atol=n * tiny)


# (f, keywords, ord the gradient is of, axes reduced over a 3 x 4 input)
EDGE_TWO_NORMS = [
    (np.linalg.norm, {}, None, (0, 1)),
    (np.linalg.norm, {"ord": "fro"}, None, (0, 1)),
    (np.linalg.norm, {"axis": 1}, None, (1,)),
    (np.linalg.norm, {"ord": 2, "axis": -1, "keepdims": True}, None, (1,)),
    (np.linalg.norm, {"axis": (0, 1)}, None, (0, 1)),
    (np.linalg.vector_norm, {"axis": 1}, None, (1,)),
    (np.linalg.vector_norm, {}, None, (0, 1)),
    (np.linalg.matrix_norm, {}, None, (0, 1)),
]


@pytest.mark.parametrize("layout", ["C", "strided"])
@pytest.mark.parametrize("scale", range(5))
@pytest.mark.parametrize("f, kwargs, ord, axes", EDGE_TWO_NORMS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=ids)
def test_two_norm_gradient_where_the_squares_overflow_or_underflow(
    f, kwargs, ord, axes, dtype, scale, layout
):
    """NumPy's norm of 1e200 * x is inf, of 1e-200 * x 0, of 3e-162 * x a few digits off (the
    squares are subnormal); the gradient x / |x| is none of those: it comes from x / s."""
    scales = np.array(_EDGE_SCALES[dtype][scale])[:, None]
    x = _layouts((_EDGE_BASE * scales).astype(dtype))[layout]
    _check_edge_gradient(f, x, kwargs, ord, axes)


@pytest.mark.parametrize("scale", [1e200, 1e-200, 3e-162, 1.0])
def test_complex_two_norm_gradient_where_the_squares_overflow_or_underflow(scale):
    x = scale * (_EDGE_BASE + 0.5j * _EDGE_BASE[:, ::-1])
    _check_edge_gradient(np.linalg.norm, x, {}, None, (0, 1))
    _check_edge_gradient(np.linalg.norm, x, {"axis": 1}, None, (1,))


@pytest.mark.parametrize("layout", ["C", "strided"])
@pytest.mark.parametrize("scale", range(5))
@pytest.mark.parametrize("ord", [3, 1.5, 0.5, -1, -2, 20, -20], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=ids)
def test_p_norm_gradient_where_the_powers_overflow_or_underflow(ord, dtype, scale, layout):
    """The p-th powers over- or underflow where the norm does not: the gradient, a function of
    |x| / |x|_p alone, comes from x / s, s the largest |x| (the smallest, for p < 0)."""
    scales = np.array(_EDGE_SCALES[dtype][scale])[:, None]
    x = _layouts((_EDGE_BASE * scales).astype(dtype))[layout]
    _check_edge_gradient(np.linalg.norm, x, {"ord": ord, "axis": 1}, ord, (1,))
    _check_edge_gradient(np.linalg.norm, x[0], {"ord": ord}, ord, (0,))
    _check_edge_gradient(np.linalg.vector_norm, x, {"ord": ord}, ord, (0, 1))


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
def test_vector_norm_of_a_vector_with_a_zero_keeps_its_subgradient(ord):
    """The rescaling leaves an exact zero entry alone (p < 0: the norm is 0, gradient 0)."""
    x = np.array([0.0, 3.0, -4.0])
    _, pullback = cr.rrule(np.linalg.norm, x, ord)
    for scale in (1e200, 1e-200):
        _, scaled_pullback = cr.rrule(np.linalg.norm, scale * x, ord)
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(scaled_pullback(1.0)[1], pullback(1.0)[1], rtol=1e-14)


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
@pytest.mark.parametrize("scale", [1e200, 1e-200, 1e300, 1e-300])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=ids)
def test_matrix_norm_gradient_is_scale_invariant(ord, scale, dtype):
    """Every norm is homogeneous of degree one: the gradient at c x is the gradient at x, which
    the tests above check by finite differences; to the SVD's or the sum's rounding (a few
    eps of the dtype, times the size 12)."""
    if dtype == np.float32:
        scale = {1e200: 1e30, 1e-200: 1e-30, 1e300: 1e36, 1e-300: 1e-36}[scale]
    x = np.array([[2.0, 1.0, 0.5, 1.0], [0.3, 3.0, 1.0, 0.0], [1.0, -1.0, 4.0, 0.5]], dtype)
    _, pullback = cr.rrule(np.linalg.norm, x, ord)
    scaled = (scale * x.astype(np.float64)).astype(dtype)
    with np.errstate(all="ignore"):
        _, scaled_pullback = cr.rrule(np.linalg.norm, scaled, ord)
        dx = scaled_pullback(1.0)[1]
    rtol = 64 * np.finfo(dtype).eps
    np.testing.assert_allclose(dx, pullback(1.0)[1], rtol=rtol, atol=rtol)


@pytest.mark.parametrize("ord", [1, np.inf], ids=str)
def test_matrix_norm_of_sums_that_overflow_has_no_false_tie(ord):
    """Column sums (ord=1) or row sums (inf) of 2e308 and 1.1e308 are both inf in floats: no
    tie; the cotangent goes to the larger alone."""
    x = np.array([[1e308, 1e308], [1e308, 1e307]])
    _, pullback = cr.rrule(np.linalg.norm, x, ord)
    expected = np.array([[1.0, 0.0], [1.0, 0.0]])
    np.testing.assert_array_equal(pullback(1.0)[1], expected if ord == 1 else expected.T)


# Limits along the ray to the point: at [t, 1] the gradient is that at [1, 1/t] (p > 1), and
# with k infinite entries each gets (1/k)**((p - 1) / p) of its sign; 1 keeps sign(x), inf and
# -inf the extreme entries' signs, p < 0 gives 0 to an infinite entry (its power vanishes).
INFINITE_ENTRIES = [
    (None, [np.inf, 1.0], [1.0, 0.0]),
    (2, [-np.inf, np.inf, 2.0], [-(0.5**0.5), 0.5**0.5, 0.0]),
    (3, [-np.inf, np.inf, 2.0], [-(2 ** (-2 / 3)), 2 ** (-2 / 3), 0.0]),
    (1, [np.inf, -1.0], [1.0, -1.0]),
    (np.inf, [np.inf, 1.0], [1.0, 0.0]),
    (-np.inf, [np.inf, 1.0], [0.0, 1.0]),
    (-1, [np.inf, 1.0], [0.0, 1.0]),
]


@pytest.mark.parametrize(("ord", "x", "expected"), INFINITE_ENTRIES, ids=repr)
def test_vector_norm_gradient_at_infinite_entries(ord, x, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, pullback = cr.rrule(np.linalg.norm, np.array(x), ord)
        gradient = pullback(1.0)[1]
    # one rounding of a power or a square root
    np.testing.assert_allclose(gradient, expected, rtol=4 * np.finfo(float).eps, atol=0)


def test_two_norm_gradient_at_infinite_entries_per_slice_and_of_a_matrix():
    x = np.array([[np.inf, 1.0], [3.0, 4.0]])
    _, pullback = cr.rrule(np.linalg.norm, x, axis=1)
    np.testing.assert_array_equal(pullback(np.ones(2))[1], [[1.0, 0.0], [0.6, 0.8]])
    for ord in (None, "fro"):
        _, pullback = cr.rrule(np.linalg.norm, x, ord)
        np.testing.assert_array_equal(pullback(1.0)[1], [[1.0, 0.0], [0.0, 0.0]])


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"], ids=str)
@pytest.mark.parametrize("scale", [1e200, 1e-200, 1e-300, 1e300])
def test_cond_gradient_where_the_singular_values_overflow_or_underflow(p, scale):
    """cond(c x) = cond(x), so its gradient at c x is the gradient at x over c: the squares of
    the singular values (None, 2, -2) or the Frobenius norm ('fro') must not over- or
    underflow on the way. To the inverse's and SVD's rounding on a condition number of 3
    (1e-12, some thousands of eps, where the values agree to a few hundred)."""
    x = np.array([[2.0, 1.0, 0.5], [0.3, 3.0, 1.0], [1.0, -1.0, 4.0]])
    _, pullback = cr.rrule(np.linalg.cond, x, p)
    expected = pullback(1.0)[1] / scale
    with np.errstate(all="ignore"):
        _, scaled_pullback = cr.rrule(np.linalg.cond, scale * x, p)
    # entries near zero are rounding noise of the size of the largest times eps, either way
    atol = 1e-12 * np.abs(expected).max()
    np.testing.assert_allclose(scaled_pullback(1.0)[1], expected, rtol=1e-12, atol=atol)
    tangents = (cr.NoTangent(), np.full((3, 3), scale), cr.NoTangent())
    _, dy = cr.frule(tangents, np.linalg.cond, scale * x, p)
    assert abs(dy - np.sum(pullback(1.0)[1])) <= 1e-12 * np.sum(np.abs(pullback(1.0)[1]))


@pytest.mark.parametrize(
    "shape, axis", [((0, 3), 1), ((3, 0), 1), ((0, 3), 0), ((2, 0, 3), (0, 2))]
)
def test_two_norm_of_empty_slices_or_no_slices(shape, axis):
    """No norms at all (the guard's extremes have nothing to look at) or norms of nothing (0):
    the cotangent has x's shape and no entries."""
    y, pullback = cr.rrule(np.linalg.norm, np.ones(shape), axis=axis)
    assert pullback(np.ones(np.shape(y)))[1].shape == shape
