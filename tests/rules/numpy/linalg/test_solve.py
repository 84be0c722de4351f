"""Tests of the np.linalg rules for solve, inv, tensorinv and tensorsolve."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, count_calls, ids, invertible, sample

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

SOLVE_SHAPES = [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (3, 2)), ((3, 3), (2, 3, 1))]


@pytest.mark.parametrize("a_shape, b_shape", SOLVE_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve(a_shape, b_shape, dtype):
    a, b = invertible(a_shape, dtype), sample(b_shape, dtype, 1)
    test_rrule(np.linalg.solve, a, b, check_second_order=True)
    test_frule(np.linalg.solve, a, b)


def test_solve_float32_stays_float32():
    a, b = invertible((3, 3), np.float32), sample((3,), np.float32)
    test_rrule(np.linalg.solve, a, b)
    _, pullback = cr.rrule(np.linalg.solve, a, b)
    _, da, db = pullback(np.ones(3, np.float32))
    assert da.dtype == db.dtype == np.float32


def test_solve_pullback_reuses_the_factorization(monkeypatch):
    """The pullback solves with the forward LU factors: no factorization, one solve pair."""
    calls = count_calls(monkeypatch, scipy.linalg, "lu_factor", "lu_solve")
    solve = np.linalg.solve

    def refactorizing(*args, **kwargs):
        raise AssertionError("the rule called np.linalg.solve")

    monkeypatch.setattr(np.linalg, "solve", refactorizing)
    a, b = invertible((4, 4)), sample((4, 2))
    x, pullback = cr.rrule(solve, a, b)
    assert calls == {"lu_factor": 1, "lu_solve": 1}
    _, da, db = pullback(np.ones((4, 2)))
    assert calls == {"lu_factor": 1, "lu_solve": 2}
    np.testing.assert_allclose(db, np.linalg.inv(a).T @ np.ones((4, 2)), rtol=1e-12)
    np.testing.assert_allclose(da, -db @ x.T, rtol=1e-12)


def test_solve_singular_raises_like_numpy():
    with pytest.raises(np.linalg.LinAlgError):
        cr.rrule(np.linalg.solve, np.zeros((2, 2)), np.ones(2))


def test_solve_zero_cotangent():
    _, pullback = cr.rrule(np.linalg.solve, invertible((2, 2)), np.ones(2))
    assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent(), ZeroTangent())


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_inv(shape, dtype):
    a = invertible(shape, dtype)
    test_rrule(np.linalg.inv, a, check_second_order=True)
    test_frule(np.linalg.inv, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_tensorinv_and_tensorsolve(dtype):
    a = invertible((6, 6), dtype).reshape(2, 3, 6)
    test_rrule(np.linalg.tensorinv, a)
    test_frule(np.linalg.tensorinv, a.reshape(6, 2, 3), 1)
    a = invertible((6, 6), dtype).reshape(6, 2, 3)
    b = sample((6,), dtype, 2)
    test_rrule(np.linalg.tensorsolve, a, b)
    test_frule(np.linalg.tensorsolve, a, b)
    a = invertible((6, 6), dtype).reshape(2, 3, 6)
    b = sample((2, 3), dtype, 3)
    test_rrule(np.linalg.tensorsolve, a, b, fkwargs={"axes": (0, 2)})
    test_frule(np.linalg.tensorsolve, a, b, fkwargs={"axes": (0, 2)})
