"""Tests of the rules for scipy.linalg.cholesky, cho_factor, cho_solve, cholesky_banded and
cho_solve_banded."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, dense, hermitian_band, ids, sample

import chainrules as cr

# Trial steps of the default finite differences can leave the positive definite matrices
# (cholesky then raises): these checks use small steps.
SMALL_STEPS = central_fdm(5, 1)


def positive_definite(n, dtype, seed=0):
    s = sample((n, n), dtype, seed)
    return s @ np.conj(s.T) + n * np.eye(n)


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_cho_factor_and_cho_solve(lower, dtype):
    a = positive_definite(3, dtype)
    test_rrule(
        scipy.linalg.cho_factor,
        a,
        fkwargs={"lower": lower},
        check_second_order=True,
        fdm=SMALL_STEPS,
    )
    test_frule(scipy.linalg.cho_factor, a, fkwargs={"lower": lower}, fdm=SMALL_STEPS)
    factor = scipy.linalg.cho_factor(a, lower=lower)
    for b in (sample((3,), dtype, 1), sample((3, 2), dtype, 2)):
        test_rrule(scipy.linalg.cho_solve, factor, b, check_second_order=True)
        test_frule(scipy.linalg.cho_solve, factor, b)


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_cholesky(lower, dtype):
    a = positive_definite(3, dtype)
    test_rrule(scipy.linalg.cholesky, a, lower, check_second_order=True, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.cholesky, a, lower, fdm=SMALL_STEPS)


def positive_band(width, n, dtype, lower, seed=0):
    """Band storage of a Hermitian positive definite (diagonally dominant) matrix."""
    ab = hermitian_band(width, n, dtype, lower, seed)
    diagonal = 0 if lower else width
    ab[diagonal] = np.abs(ab[diagonal]) + 2.0 * (width + 1)
    return ab


@pytest.mark.parametrize("width", [1, 2])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_cholesky_banded(dtype, lower, width):
    ab = positive_band(width, 5, dtype, lower)
    test_rrule(scipy.linalg.cholesky_banded, ab, fkwargs={"lower": lower})
    test_frule(scipy.linalg.cholesky_banded, ab, fkwargs={"lower": lower})


def test_cholesky_banded_is_cholesky_on_the_band():
    ab = positive_band(1, 4, np.float64, False)
    g = sample(ab.shape, seed=3)
    _, pullback = cr.rrule(scipy.linalg.cholesky_banded, ab)
    _, dense_pullback = cr.rrule(scipy.linalg.cholesky, dense(ab, False))
    g_dense = np.diag(g[1]) + np.diag(g[0, 1:], 1)
    expected = dense_pullback(g_dense)[1]
    d_ab = pullback(g)[1]
    np.testing.assert_allclose(d_ab[1], np.diag(expected), rtol=1e-12)
    np.testing.assert_allclose(d_ab[0, 1:], np.diag(expected, 1), rtol=1e-12)
    assert d_ab[0, 0] == g[0, 0]  # the corner is copied to the result


@pytest.mark.parametrize("b_shape", [(5,), (5, 2)], ids=str)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_cho_solve_banded(dtype, lower, b_shape):
    cb = scipy.linalg.cholesky_banded(positive_band(2, 5, dtype, lower), lower=lower)
    b = sample(b_shape, dtype, 1)
    test_rrule(scipy.linalg.cho_solve_banded, (cb, lower), b)
    test_frule(scipy.linalg.cho_solve_banded, (cb, lower), b)
