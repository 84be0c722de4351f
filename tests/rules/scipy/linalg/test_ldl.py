"""Tests of the rules for scipy.linalg.ldl."""

import numpy as np
import pytest
import scipy.linalg
from fdm import central_fdm
from samples import DTYPES, check_both, draw, ids

import chainrules as cr
from chainrules.rules.matrices import mH

SMALL_STEPS = central_fdm(5, 1)  # pivoting and singular vectors are piecewise constant


# ---- ldl ----------------------------------------------------------------------------------


def symmetric(dtype, hermitian=True, seed=0, definite=False):
    """A Hermitian (or complex-symmetric) matrix: positive definite, or with a small diagonal
    that makes Bunch-Kaufman pivoting choose 2x2 blocks."""
    a = draw((5, 5), dtype, seed)
    a = a + (mH(a) if hermitian else a.T)
    if definite:
        return a @ mH(a) + np.eye(5, dtype=dtype)
    return a - np.diag(0.9 * np.diagonal(a))


LDL = [
    {"lower": True, "hermitian": True},
    {"lower": False, "hermitian": True},
    {"lower": True, "hermitian": False},
    {"lower": False, "hermitian": False},
]


# SciPy warns that it ignores the imaginary parts of a Hermitian matrix's diagonal, which
# random tangents have; the rules ignore them too.
IGNORED_DIAGONAL = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")


@IGNORED_DIAGONAL
@pytest.mark.parametrize("kwargs", LDL, ids=str)
@pytest.mark.parametrize("dtype", [*DTYPES, np.float32], ids=ids)
def test_ldl_with_2x2_pivots(kwargs, dtype):
    a = symmetric(dtype, kwargs["hermitian"])
    _, d, _ = scipy.linalg.ldl(a, **kwargs)
    assert np.any(np.diagonal(d, -1) != 0)
    # LAPACK's sytrf computes the factors; tracked values cannot pass through it.
    check_both(scipy.linalg.ldl, a, fkwargs=kwargs, fdm=SMALL_STEPS, check_second_order=False)


@IGNORED_DIAGONAL
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_ldl_of_a_positive_definite_matrix(dtype):
    a = symmetric(dtype, definite=True, seed=1)
    _, d, _ = scipy.linalg.ldl(a)
    assert np.all(np.diagonal(d, -1) == 0)
    check_both(scipy.linalg.ldl, a, fdm=SMALL_STEPS, check_second_order=False)


def test_ldl_reads_one_triangle():
    a = symmetric(np.float64)
    _, pullback = cr.rrule(scipy.linalg.ldl, a, lower=False)
    g = pullback((np.ones((5, 5)), np.ones((5, 5)), cr.NoTangent()))[1]
    np.testing.assert_array_equal(np.tril(g, -1), 0)
