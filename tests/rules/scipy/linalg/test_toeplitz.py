"""Tests of the rules for scipy.linalg.solve_toeplitz, matmul_toeplitz and solve_circulant."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, sample

import chainrules as cr

RHS = [(4,), (4, 2)]


def well_conditioned(dtype, seed=0):
    """A first column whose Toeplitz and circulant matrices are far from singular."""
    c = sample((4,), dtype, seed)
    c[0] = c[0] + 6.0
    return c


@pytest.mark.parametrize("b_shape", RHS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve_toeplitz(dtype, b_shape):
    c, r, b = well_conditioned(dtype), sample((4,), dtype, 1), sample(b_shape, dtype, 2)
    for c_or_cr in (c, (c, r)):
        test_rrule(scipy.linalg.solve_toeplitz, c_or_cr, b)
        test_frule(scipy.linalg.solve_toeplitz, c_or_cr, b)


@pytest.mark.parametrize("b_shape", RHS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_matmul_toeplitz(dtype, b_shape):
    c, r, x = sample((4,), dtype), sample((4,), dtype, 1), sample(b_shape, dtype, 2)
    for c_or_cr in (c, (c, r)):
        test_rrule(scipy.linalg.matmul_toeplitz, c_or_cr, x)
        test_frule(scipy.linalg.matmul_toeplitz, c_or_cr, x)


def test_matmul_toeplitz_of_a_rectangular_matrix():
    c, r, x = sample((5,)), sample((3,), np.float64, 1), sample((3,), np.float64, 2)
    test_rrule(scipy.linalg.matmul_toeplitz, (c, r), x)
    test_frule(scipy.linalg.matmul_toeplitz, (c, r), x)


def test_solve_toeplitz_ignores_the_first_entry_of_r():
    c, r = np.array([4.0, 1.0]), np.array([9.0, 2.0])
    _, pullback = cr.rrule(scipy.linalg.solve_toeplitz, (c, r), np.ones(2))
    assert pullback(np.ones(2))[1][1][0] == 0.0


@pytest.mark.parametrize("b_shape", RHS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve_circulant(dtype, b_shape):
    c, b = well_conditioned(dtype), sample(b_shape, dtype, 2)
    test_rrule(scipy.linalg.solve_circulant, c, b)
    test_frule(scipy.linalg.solve_circulant, c, b)


def test_solve_circulant_of_a_multiple_of_the_identity():
    # x = b / 2: b's cotangent is g / 2, c[0]'s is -<g, x> / 2.
    _, pullback = cr.rrule(scipy.linalg.solve_circulant, np.array([2.0, 0.0]), np.array([2.0, 4.0]))
    _, dc, db = pullback(np.array([1.0, 1.0]))
    np.testing.assert_allclose(db, [0.5, 0.5])
    np.testing.assert_allclose(dc, [-1.5, -1.5])
