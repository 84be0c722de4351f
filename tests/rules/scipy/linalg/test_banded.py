"""Tests of the rules for scipy.linalg.solve_banded and solveh_banded."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import DTYPES, ids, sample

import chainrules as cr

BANDS = [(1, 1), (2, 0), (0, 1), (1, 2)]


def banded(below, above, n, dtype, seed=0):
    """Band storage of a diagonally dominant ``n x n`` matrix."""
    ab = sample((below + above + 1, n), dtype, seed)
    ab[above] = ab[above] + 6.0
    return ab


@pytest.mark.parametrize("b_shape", [(5,), (5, 2)], ids=str)
@pytest.mark.parametrize("l_u", BANDS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve_banded(dtype, l_u, b_shape):
    ab, b = banded(*l_u, 5, dtype), sample(b_shape, dtype, 1)
    args = (with_tangent(l_u, cr.NoTangent()), ab, b)
    test_rrule(scipy.linalg.solve_banded, *args)
    test_frule(scipy.linalg.solve_banded, *args)


def test_solve_banded_corners_get_zero_cotangents():
    ab = banded(1, 1, 3, np.float64)
    _, pullback = cr.rrule(scipy.linalg.solve_banded, (1, 1), ab, np.ones(3))
    d_ab = pullback(np.ones(3))[2]
    assert d_ab[0, 0] == 0.0
    assert d_ab[2, 2] == 0.0


def hermitian_banded(width, n, dtype, lower, seed=0):
    ab = sample((width + 1, n), dtype, seed)
    diagonal = 0 if lower else width
    ab[diagonal] = np.abs(ab[diagonal]) + 6.0
    return ab


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("b_shape", [(4,), (4, 2)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solveh_banded(dtype, b_shape, lower):
    ab, b = hermitian_banded(1, 4, dtype, lower), sample(b_shape, dtype, 1)
    test_rrule(scipy.linalg.solveh_banded, ab, b, fkwargs={"lower": lower})
    test_frule(scipy.linalg.solveh_banded, ab, b, fkwargs={"lower": lower})


def test_solveh_banded_of_a_diagonal_matrix():
    # x = b / d: d's cotangent is -g x / d.
    _, pullback = cr.rrule(scipy.linalg.solveh_banded, np.array([[2.0, 4.0]]), np.ones(2))
    np.testing.assert_allclose(pullback(np.ones(2))[1], [[-0.25, -0.0625]])
