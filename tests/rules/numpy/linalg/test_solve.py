"""Tests of the np.linalg rules for solve, inv, tensorinv and tensorsolve."""

import re

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
    """The pullback solves with the forward LU factors: no factorization, one solve pair,
    through LAPACK's routines for one matrix and through SciPy's for a stack."""
    calls = count_calls(monkeypatch, scipy.linalg, "lu_factor", "lu_solve")
    routines = count_calls(monkeypatch, scipy.linalg.lapack, "dgetrf", "dgetrs")
    solve = np.linalg.solve

    def refactorizing(*args, **kwargs):
        raise AssertionError("the rule called np.linalg.solve")

    monkeypatch.setattr(np.linalg, "solve", refactorizing)
    a, b = invertible((4, 4)), sample((4, 2))
    x, pullback = cr.rrule(solve, a, b)
    assert routines == {"dgetrf": 1, "dgetrs": 1}
    _, da, db = pullback(np.ones((4, 2)))
    assert routines == {"dgetrf": 1, "dgetrs": 2}
    assert calls == {"lu_factor": 0, "lu_solve": 0}
    np.testing.assert_allclose(db, np.linalg.inv(a).T @ np.ones((4, 2)), rtol=1e-12)
    np.testing.assert_allclose(da, -db @ x.T, rtol=1e-12)

    a = invertible((2, 4, 4))
    x, pullback = cr.rrule(solve, a, b)
    assert calls == {"lu_factor": 1, "lu_solve": 1}
    pullback(np.ones((2, 4, 2)))
    assert calls == {"lu_factor": 1, "lu_solve": 2}
    assert routines == {"dgetrf": 1, "dgetrs": 2}


# ---- one NumPy matrix goes to LAPACK directly: every other call as before -----------------

ALL_DTYPES = [np.float64, np.complex128, np.float32, np.complex64]

# (a's shape, b's shape, a's dtype, b's dtype): one matrix of every LAPACK dtype, and the
# calls the direct routines do not take as they are (stacks, other dtypes, empty arrays),
# which go through Factored
DIRECT_CASES = [((4, 4), (4,), t, t) for t in ALL_DTYPES] + [
    ((4, 4), (4, 3), np.complex64, np.complex64),
    ((4, 4), (4,), np.float64, np.complex128),
    ((4, 4), (4, 2), np.float64, np.complex128),
    ((4, 4), (4,), np.complex128, np.float64),
    ((4, 4), (4,), np.float32, np.float64),
    ((4, 4), (4, 0), np.float64, np.float64),
    ((2, 4, 4), (4,), np.float64, np.float64),
    ((4, 4, 4), (4, 2), np.float64, np.float64),
    ((4, 4), (2, 4, 3), np.complex128, np.complex128),
    ((4, 4), (4, 4, 3), np.float64, np.float64),
]


def tolerance(*dtypes):
    """Relative tolerance: LAPACK's rounding on matrices of condition number about 10."""
    single = any(np.dtype(t) in (np.dtype(np.float32), np.dtype(np.complex64)) for t in dtypes)
    return 1e-4 if single else 1e-12


@pytest.mark.parametrize("a_shape, b_shape, a_dtype, b_dtype", DIRECT_CASES, ids=str)
def test_solve_against_the_formula(a_shape, b_shape, a_dtype, b_dtype):
    """x = a^{-1} b, db = a^{-H} dy, da = -db x^H, against NumPy's solve in double precision
    (a vector b as a column, a stack b broadcast against a)."""
    a = invertible(a_shape, np.complex128 if np.dtype(a_dtype).kind == "c" else np.float64)
    a = (10 * a).astype(a_dtype)
    b = (10 * sample(b_shape, np.result_type(b_dtype, np.float64), 1)).astype(b_dtype)
    x, pullback = cr.rrule(np.linalg.solve, a, b)
    expected = np.linalg.solve(a, b)
    assert x.dtype == expected.dtype and x.shape == expected.shape
    dy = sample(x.shape, x.dtype, 2)
    _, da, db = pullback(dy)
    assert da.dtype == a.dtype and db.dtype == b.dtype
    # the reference: b and dy as stacks of columns, sums over the axes a or b was broadcast on
    column = (lambda m: m[..., None]) if b.ndim == 1 else (lambda m: m)
    a_c = a.astype(np.complex128)
    x_c = np.linalg.solve(a_c, column(b.astype(np.complex128)))
    db_c = np.linalg.solve(np.conj(np.swapaxes(a_c, -1, -2)), column(dy.astype(np.complex128)))
    da_c = -db_c @ np.conj(np.swapaxes(x_c, -1, -2))
    da_c = da_c.sum(axis=tuple(range(da_c.ndim - a.ndim)))
    db_c = db_c[..., 0] if b.ndim == 1 else db_c
    db_c = db_c.sum(axis=tuple(range(db_c.ndim - b.ndim)))
    rtol = tolerance(a_dtype, b_dtype)
    np.testing.assert_allclose(x, x_c[..., 0] if b.ndim == 1 else x_c, rtol=rtol, atol=rtol)
    for got, want, arg in ((da, da_c, a), (db, db_c, b)):
        want = want if np.iscomplexobj(arg) else want.real
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * np.abs(want).max(initial=1))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids)
def test_solve_with_one_singular_matrix_raises_like_numpy(dtype):
    a = np.array([[1.0, 2.0], [2.0, 4.0]], dtype)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        np.linalg.solve(a, np.ones(2, dtype))
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        cr.rrule(np.linalg.solve, a, np.ones(2, dtype))


# (a's shape, b's shape): arguments NumPy's solve refuses, for a non-square a (of full rank,
# so that LU factors exist and have no zero pivot), an a that is no matrix, a b of another
# size, a b that is no array of vectors, batches that do not broadcast
REFUSED = [
    ((2, 3), (2,)),
    ((3, 2), (3,)),
    ((2, 3), (2, 1)),
    ((3, 2), (3, 2)),
    ((2, 2, 3), (2, 2, 1)),
    ((0, 3), (0,)),
    ((3,), (3,)),
    ((3, 3), (2,)),
    ((3, 3), (2, 1)),
    ((3, 3), (4, 3)),
    ((2, 3, 3), (4, 3, 1)),
    ((3, 3), ()),
]


@pytest.mark.parametrize("layout", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64], ids=ids)
@pytest.mark.parametrize("a_shape, b_shape", REFUSED, ids=str)
def test_solve_refuses_what_numpy_refuses_with_its_error(a_shape, b_shape, dtype, layout):
    """The error NumPy's solve raises, type and message, from the rrule and the frule, where
    LU factors of a non-square a raised LAPACK's errors (or, 0 x 3, gave a value)."""
    a = (10 * sample(a_shape, np.complex128 if dtype == np.complex128 else np.float64)).astype(
        dtype
    )
    a = np.asfortranarray(a) if layout == "F" else a
    b = np.ones(b_shape, dtype)
    before = a.copy(), b.copy()
    with pytest.raises(Exception) as raised:
        np.linalg.solve(a, b)
    expected = (type(raised.value), f"^{re.escape(str(raised.value))}$")
    with pytest.raises(expected[0], match=expected[1]):
        cr.rrule(np.linalg.solve, a, b)
    with pytest.raises(expected[0], match=expected[1]):
        cr.frule((NoTangent(), np.ones_like(a), np.ones_like(b)), np.linalg.solve, a, b)
    np.testing.assert_array_equal(a, before[0])
    np.testing.assert_array_equal(b, before[1])


def test_solve_with_integer_arrays_is_numpy_solve():
    a, b = np.array([[3, 1], [1, 2]]), np.array([9, 8])
    x, _ = cr.rrule(np.linalg.solve, a, b)
    np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=1e-15)


def test_solve_with_nan_is_nan_as_numpy():
    a, b = invertible((3, 3)), np.array([1.0, np.nan, 2.0])
    x, pullback = cr.rrule(np.linalg.solve, a, b)
    np.testing.assert_array_equal(np.isnan(x), np.isnan(np.linalg.solve(a, b)))
    assert np.all(np.isnan(pullback(np.ones(3))[1]))


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
