"""Tests of the np.linalg rules for solve, inv, tensorinv, tensorsolve, matrix_power,
multi_dot, vecdot and the aliases of np functions."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from chainrules_testing.strategies import well_conditioned
from hypothesis import find
from samples import DTYPES, ids, sample

import chainrules as cr
from chainrules import NoTangent, ZeroTangent


def invertible(shape, dtype=np.float64, seed=0):
    """A (stack of) matrices of condition number about 10 or less, built on the harness'
    well-conditioned strategy (its simplest example), each of the stack a little moved."""
    n, count = shape[-1], int(np.prod(shape[:-2]))
    base = find(well_conditioned(n, dtype=dtype), lambda a: True)
    stack = [base + 0.05 * k * sample((n, n), dtype, seed + k) for k in range(count)]
    return np.reshape(stack, shape).astype(dtype)


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
    calls = {"lu_factor": 0, "lu_solve": 0}
    for name in calls:
        original = getattr(scipy.linalg, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(scipy.linalg, name, counted)
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


@pytest.mark.parametrize("n", [0, 1, 3, -2])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_matrix_power(n, dtype):
    a = invertible((3, 3), dtype)
    test_rrule(np.linalg.matrix_power, a, n, check_second_order=True)
    test_frule(np.linalg.matrix_power, a, n)


def test_matrix_power_of_a_stack():
    a = invertible((2, 3, 3))
    test_rrule(np.linalg.matrix_power, a, 2)
    test_frule(np.linalg.matrix_power, a, -1)


def test_matrix_power_zero_is_constant():
    _, pullback = cr.rrule(np.linalg.matrix_power, np.eye(2), 0)
    np.testing.assert_array_equal(pullback(np.ones((2, 2)))[1], np.zeros((2, 2)))


MULTI_DOT = [[(3,), (3, 4), (4, 2), (2,)], [(3, 4), (4, 2), (2, 5)], [(4,), (4, 3)]]


@pytest.mark.parametrize("shapes", MULTI_DOT, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_multi_dot(shapes, dtype):
    arrays = [sample(s, dtype, k) for k, s in enumerate(shapes)]
    test_rrule(np.linalg.multi_dot, arrays)
    test_frule(np.linalg.multi_dot, arrays)


VECDOT = [((2, 3), (3,), {}), ((3, 2), (3, 2), {"axis": 0})]


@pytest.mark.parametrize("s1, s2, kwargs", VECDOT, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_vecdot(s1, s2, kwargs, dtype):
    x1, x2 = sample(s1, dtype, 1), sample(s2, dtype, 2)
    test_rrule(np.linalg.vecdot, x1, x2, fkwargs=kwargs, check_second_order=True)
    test_frule(np.linalg.vecdot, x1, x2, fkwargs=kwargs)


ALIASES = [
    (np.linalg.matmul, [(2, 3), (3, 2)], {}),
    (np.linalg.outer, [(3,), (2,)], {}),
    (np.linalg.cross, [(2, 3), (3,)], {}),
    (np.linalg.matrix_transpose, [(2, 3, 4)], {}),
    (np.linalg.tensordot, [(2, 3), (3, 2)], {"axes": 1}),
    (np.linalg.trace, [(2, 3, 3)], {"offset": 1}),
    (np.linalg.diagonal, [(2, 3, 4)], {"offset": -1}),
]


@pytest.mark.parametrize("f, shapes, kwargs", ALIASES, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_aliases(f, shapes, kwargs, dtype):
    args = [sample(s, dtype, k) for k, s in enumerate(shapes)]
    test_rrule(f, *args, fkwargs=kwargs)
    test_frule(f, *args, fkwargs=kwargs)


def test_alias_rejects_unknown_keywords():
    with pytest.raises(cr.RuleKeywordError, match="axis1"):
        cr.rrule(np.linalg.trace, np.eye(2), axis1=0)


def test_matrix_rank_has_no_derivative():
    rank, pullback = cr.rrule(np.linalg.matrix_rank, np.eye(3))
    assert rank == 3 and pullback(1.0) == (NoTangent(), NoTangent())
