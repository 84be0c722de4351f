"""Tests of the rules for scipy.linalg.svd, svdvals and orth."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, ids, sample

import chainrules as cr
from chainrules.core.zeros import is_zero

SMALL_STEPS = central_fdm(5, 1)  # singular vectors and eigenvectors flip sign at crossings


SHAPES = [(3, 3), (4, 2), (2, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_svd(shape):
    a = sample(shape)
    test_rrule(scipy.linalg.svd, a, False, check_second_order=True, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.svd, a, False, fdm=SMALL_STEPS)
    for dtype in DTYPES:
        b = sample(shape, dtype, 1)
        test_rrule(scipy.linalg.svd, b, fkwargs={"compute_uv": False})
        test_frule(scipy.linalg.svd, b, fkwargs={"compute_uv": False})


SMALL_STEPS = central_fdm(5, 1)  # eigenvectors flip sign where eigenvalues cross


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_svdvals(shape, dtype):
    a = sample(shape, dtype)
    test_rrule(scipy.linalg.svdvals, a)
    test_frule(scipy.linalg.svdvals, a)


def test_svdvals_at_ties_is_exact():
    _, pullback = cr.rrule(scipy.linalg.svdvals, 3 * np.eye(2))
    np.testing.assert_array_equal(pullback(np.ones(2))[1], np.eye(2))


@pytest.mark.parametrize("shape", [(4, 2), (3, 3), (2, 4)], ids=str)
def test_orth(shape):
    a = sample(shape)
    test_rrule(scipy.linalg.orth, a, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.orth, a, fdm=SMALL_STEPS)


def test_orth_of_a_rank_deficient_matrix_keeps_the_rank():
    a = sample((4, 1)) @ sample((1, 3), np.float64, 1)
    q, pullback = cr.rrule(scipy.linalg.orth, a)
    assert q.shape == (4, 1)
    assert pullback(np.ones((4, 1)))[1].shape == (4, 3)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0)], ids=str)
def test_orth_of_empty_matrices(shape):
    """An empty basis (m x 0): no cotangent reaches A."""
    a = np.zeros(shape)
    y, pullback = cr.rrule(scipy.linalg.orth, a)
    assert y.shape == scipy.linalg.orth(a).shape
    assert is_zero(pullback(np.ones(y.shape))[1])
    test_rrule(scipy.linalg.orth, a, check_second_order=False)
    test_frule(scipy.linalg.orth, a)


def test_orth_of_a_zero_matrix_has_rank_zero():
    y, pullback = cr.rrule(scipy.linalg.orth, np.zeros((3, 2)))
    assert y.shape == (3, 0) and is_zero(pullback(np.ones((3, 0)))[1])


def test_orth_of_a_stack_is_refused():
    """SciPy accepts stacks; each matrix has its own rank, the rule takes one matrix."""
    with pytest.raises(ValueError, match=r"orth.*argument A.*stacks.*\(2, 3, 3\)"):
        cr.rrule(scipy.linalg.orth, sample((2, 3, 3)))


@pytest.mark.parametrize("full_matrices", [False, True])
def test_svd_of_a_stack_returns_scipy_list(full_matrices):
    """SciPy returns a list for a stack: so do the rules, and their tangents follow it; the
    stacked pullback is the per-matrix one."""
    a = sample((2, 3, 3)) + 3 * np.eye(3)
    y, pullback = cr.rrule(scipy.linalg.svd, a, full_matrices)
    assert type(y) is type(scipy.linalg.svd(a, full_matrices)) is list
    g = [sample((2, 3, 3), seed=1), sample((2, 3), seed=2), sample((2, 3, 3), seed=3)]
    stacked = pullback(g)[1]
    for i in range(2):
        _, single = cr.rrule(scipy.linalg.svd, a[i], full_matrices)
        np.testing.assert_array_equal(stacked[i], single([x[i] for x in g])[1])
    test_frule(scipy.linalg.svd, a, full_matrices, fdm=SMALL_STEPS)
