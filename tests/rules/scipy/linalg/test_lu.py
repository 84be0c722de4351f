"""Tests of the rules for scipy.linalg.lu, lu_factor and lu_solve."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, ids, sample

import chainrules as cr
from chainrules.rules.scipy.linalg.lu import _eliminate

# Pivots change where two candidate rows tie, which large trial steps can reach.
SMALL_STEPS = central_fdm(5, 1)


@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lu_factor(shape, dtype):
    a = sample(shape, dtype)
    test_rrule(scipy.linalg.lu_factor, a, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.lu_factor, a, fdm=SMALL_STEPS)


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (2, 2, 4), (1, 3)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lu_factor_of_non_square_matrices(shape, dtype):
    """The packed ``lu`` of an m x n matrix is m x n, with L's strict lower triangle in its
    first min(m, n) columns and U in its first min(m, n) rows. The second-order check
    (slow: elimination on tracked values) runs on one case."""
    a = sample(shape, dtype)
    second = shape == (3, 5) and dtype is np.float64
    test_rrule(scipy.linalg.lu_factor, a, fdm=SMALL_STEPS, check_second_order=second)
    test_frule(scipy.linalg.lu_factor, a, fdm=SMALL_STEPS)


def test_lu_factor_permutation_is_not_an_involution():
    """The pivots of this matrix form a 3-cycle: rows must go back the right way round."""
    a = np.array([[1.0, 2.0, 0.5], [3.0, 1.0, 2.0], [2.0, 5.0, 1.0]])
    _, piv = scipy.linalg.lu_factor(a)
    assert list(piv) != [0, 1, 2]
    test_rrule(scipy.linalg.lu_factor, a, fdm=SMALL_STEPS)


@pytest.mark.parametrize("b_shape", [(4,), (4, 2)], ids=str)
@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lu_solve(b_shape, trans, dtype):
    factors = scipy.linalg.lu_factor(sample((4, 4), dtype) + 2 * np.eye(4))
    b = sample(b_shape, dtype, 1)
    test_rrule(scipy.linalg.lu_solve, factors, b, trans)
    test_frule(scipy.linalg.lu_solve, factors, b, trans)


LU_SHAPES = [(4, 4), (5, 3), (3, 5), (2, 4, 3)]
LU_OPTIONS = [{}, {"permute_l": True}, {"p_indices": True}]


@pytest.mark.parametrize("shape", LU_SHAPES, ids=str)
@pytest.mark.parametrize("kwargs", LU_OPTIONS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lu(shape, kwargs, dtype):
    a = sample(shape, dtype)
    test_rrule(scipy.linalg.lu, a, fkwargs=kwargs, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.lu, a, fkwargs=kwargs, fdm=SMALL_STEPS)


def test_lu_outputs_match_scipy():
    a = sample((4, 3))
    for kwargs in LU_OPTIONS:
        result, _ = cr.rrule(scipy.linalg.lu, a, **kwargs)
        for got, expected in zip(result, scipy.linalg.lu(a, **kwargs), strict=True):
            np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shape", LU_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_traceable_elimination_matches_lapack(shape, dtype):
    """The factorization used for other array types pivots as LAPACK does."""
    a = sample(shape, dtype, 3)
    lu, piv = _eliminate(a)
    expected_lu, expected_piv = scipy.linalg.lu_factor(a)
    np.testing.assert_array_equal(piv, expected_piv)
    np.testing.assert_allclose(lu, expected_lu, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (2, 0, 0)], ids=str)
def test_lu_factor_of_empty_matrices(shape):
    a = np.zeros(shape)
    (lu, _), pullback = cr.rrule(scipy.linalg.lu_factor, a)
    assert lu.shape == shape
    np.testing.assert_array_equal(pullback((np.ones(shape), None))[1], np.zeros(shape))
    test_rrule(scipy.linalg.lu_factor, a, check_second_order=False)
    test_frule(scipy.linalg.lu_factor, a)
