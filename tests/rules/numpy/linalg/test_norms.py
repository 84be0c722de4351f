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
