"""Tests of the rules for np.linalg.norm, matrix_norm, vector_norm and cond."""

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
