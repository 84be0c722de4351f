"""Tests of the rules for cumsum, cumprod, cumulative_sum, cumulative_prod and the NaN forms."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.engines import hessian
from chainrules.rules.numpy.scans import linear_recurrence


def sample(shape, dtype=np.float64, seed=0, low=0.5, high=1.5):
    rng = np.random.default_rng(seed)
    x = rng.uniform(low, high, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-0.5, 0.5, shape)
    return x.astype(dtype)


DTYPES = [np.float64, np.float32, np.complex128]
SCANS = [
    np.cumsum,
    np.cumprod,
    np.nancumsum,
    np.nancumprod,
    np.ndarray.cumsum,
    np.ndarray.cumprod,
]


@pytest.mark.parametrize("f", SCANS, ids=lambda f: f.__qualname__)
@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": -1}, {"axis": 1}], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_scan(f, kwargs, dtype):
    x = sample((2, 3, 4), dtype)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


CUMULATIVE = [
    ((5,), {}),
    ((5,), {"include_initial": True}),
    ((3, 4), {"axis": 1}),
    ((3, 4), {"axis": 0, "include_initial": True}),
    ((2, 3, 4), {"axis": -1, "include_initial": True}),
]


@pytest.mark.parametrize("f", [np.cumulative_sum, np.cumulative_prod], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape, kwargs", CUMULATIVE, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_cumulative(f, shape, kwargs, dtype):
    x = sample(shape, dtype)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


def test_dtype_keyword_and_positional_axis():
    x = sample((3, 4), np.float32)
    test_rrule(np.cumsum, x, 1, np.float64)
    _, pullback = cr.rrule(np.cumprod, x, axis=0, dtype=np.float64)
    assert pullback(np.ones((3, 4)))[1].dtype == np.float32


def cumprod_jacobian(x):
    """The Jacobian of cumprod, element by element, by plain products."""
    n = len(x)
    jacobian = np.zeros((n, n))
    for i in range(n):
        for k in range(i + 1):
            jacobian[i, k] = np.prod([x[j] for j in range(i + 1) if j != k])
    return jacobian


CUMPROD_ZEROS = [
    [2.0, 0.0, 3.0],
    [0.0, 2.0, 0.0, 4.0],
    [0.0, 0.0, 0.0],
    [1.5, -2.0, 0.0, 0.5, 0.0, 3.0, 2.0],
]


@pytest.mark.parametrize("x", CUMPROD_ZEROS, ids=str)
def test_cumprod_exact_with_zeros(x):
    x = np.array(x)
    jacobian = cumprod_jacobian(x)
    dy = np.arange(1.0, len(x) + 1)
    with np.errstate(divide="raise", invalid="raise"):
        _, pullback = cr.rrule(np.cumprod, x)
        assert np.array_equal(pullback(dy)[1], jacobian.T @ dy)
        _, tangent = cr.frule((NoTangent(), dy), np.cumprod, x)
        assert np.array_equal(tangent, jacobian @ dy)


def test_cumprod_hessian_is_exact_at_zeros():
    # sum(cumprod(x)) = x0 + x0 x1 + x0 x1 x2
    x = np.array([0.0, 0.0, 3.0])
    expected = [[0.0, 4.0, 0.0], [4.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert np.array_equal(hessian(lambda v: np.sum(np.cumprod(v)))(x), expected)


def test_cumprod_second_order_through_the_engine():
    test_rrule(np.cumprod, sample(5), check_second_order=True)


WITH_NAN = np.array([1.0, np.nan, 2.0, 3.0])
NAN_GRADIENTS = [
    (np.nancumsum, [4.0, 0.0, 2.0, 1.0]),
    (np.nancumprod, [1 + 1 + 2 + 6, 0.0, 1 + 3, 2.0]),
]


@pytest.mark.parametrize("f, expected", NAN_GRADIENTS, ids=lambda v: getattr(v, "__name__", ""))
def test_nan_positions_get_zero_cotangent(f, expected):
    _, pullback = cr.rrule(f, WITH_NAN)
    assert np.array_equal(pullback(np.ones(4))[1], expected)


def test_nancumsum_skips_the_nan_elements_not_a_nan_tangent():
    # The pushforward is linear in the tangent, so that JAX can transpose it under jit.
    _, dy = cr.frule((NoTangent(), np.array([np.nan, 1.0, 1.0, 1.0])), np.nancumsum, WITH_NAN)
    assert np.isnan(dy).all()
    jax = pytest.importorskip("jax")
    a = jax.numpy.asarray(WITH_NAN)

    def pushforward(t):
        return cr.frule((NoTangent(), t), np.nancumsum, a)[1]

    (transposed,) = jax.linear_transpose(pushforward, jax.numpy.ones(4))(jax.numpy.ones(4))
    np.testing.assert_array_equal(transposed, [4.0, 0.0, 2.0, 1.0])


def test_zero_cotangent_and_float32():
    x = sample(4, np.float32)
    for f in (np.cumsum, np.cumprod, np.cumulative_sum, np.cumulative_prod):
        _, pullback = cr.rrule(f, x)
        assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent())
        assert pullback(np.ones(4, np.float32))[1].dtype == np.float32
        assert cr.frule((NoTangent(), ZeroTangent()), f, x)[1] == ZeroTangent()


RECURRENCES = [1, 2, 3, 5, 8, 9, 33]


@pytest.mark.parametrize("n", RECURRENCES)
def test_linear_recurrence(n):
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    expected, previous = [], 0.0
    for m in range(n):
        previous = a[m] + b[m] * previous
        expected.append(previous)
    assert np.allclose(linear_recurrence(a, b, 0), expected, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize(
    "f", [np.cumsum, np.nancumsum, np.cumulative_prod], ids=lambda f: f.__name__
)
def test_second_order(f):
    x = sample((3, 4))
    test_rrule(f, x, fkwargs={"axis": 1}, check_second_order=True)
    test_frule(f, x, fkwargs={"axis": 1}, check_second_order=True)


# ---- a 0-d array: NumPy scans it as one element ------------------------------------------------

SCANS_0D = [
    (np.cumsum, {"axis": 0}),
    (np.cumprod, {"axis": 0}),
    (np.cumprod, {"axis": -1}),
    (np.nancumprod, {"axis": 0}),
    (np.cumulative_prod, {"axis": -1}),
    (np.cumulative_prod, {"axis": 0, "include_initial": True}),
]


@pytest.mark.parametrize("f, kwargs", SCANS_0D, ids=range(len(SCANS_0D)))
def test_0d_input_with_an_axis(f, kwargs):
    x = np.array(0.7)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)
    y, pullback = cr.rrule(f, x, **kwargs)
    dy = np.arange(1.0, 1.0 + y.size)
    # The result is [x] (or [1, x] with the initial 1): the last entry's cotangent reaches x.
    assert pullback(dy)[1] == dy[-1]
