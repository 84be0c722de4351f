"""Tests of the rules for np.linalg.pinv and np.linalg.lstsq, rank-deficient inputs included."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from chainrules_testing.strategies import distinct_singular_values
from hypothesis import find
from samples import DTYPES, ids, sample

import chainrules as cr


def full_rank(m, n, dtype):
    """An ``m x n`` matrix with singular values at least 0.5 apart and from zero."""
    return find(distinct_singular_values(m, n, dtype=dtype), lambda a: True)


SHAPES = [(3, 3), (4, 2), (2, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_pinv(shape, dtype):
    a = full_rank(*shape, dtype)
    test_rrule(np.linalg.pinv, a, check_second_order=True)
    test_frule(np.linalg.pinv, a)


def test_pinv_stacked_and_hermitian():
    test_rrule(np.linalg.pinv, sample((2, 4, 3)))
    a = sample((3, 3), np.complex128)
    test_rrule(np.linalg.pinv, a, fkwargs={"hermitian": True})
    test_frule(np.linalg.pinv, a, fkwargs={"hermitian": True})


LSTSQ = [((4, 2), (4,)), ((4, 2), (4, 3)), ((3, 3), (3,)), ((2, 4), (2, 2))]


@pytest.mark.parametrize("a_shape, b_shape", LSTSQ, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lstsq(a_shape, b_shape, dtype):
    a, b = full_rank(*a_shape, dtype), sample(b_shape, dtype, 1)
    test_rrule(np.linalg.lstsq, a, b, check_second_order=True)
    test_frule(np.linalg.lstsq, a, b)


def test_lstsq_matches_numpy_outputs():
    a, b = sample((5, 3)), sample((5, 2), seed=1)
    (x, residuals, rank, _), _ = cr.rrule(np.linalg.lstsq, a, b)
    expected = np.linalg.lstsq(a, b)
    np.testing.assert_allclose(x, expected[0], rtol=1e-12)
    np.testing.assert_allclose(residuals, expected[1], rtol=1e-12)
    assert rank == expected[2] == 3


def rank_two(dtype):
    """``b c`` of rank two, with a perturbation ``db c + b dc`` that keeps the rank."""
    b, c = sample((4, 2), dtype, 1), sample((2, 3), dtype, 2)
    db, dc = sample((4, 2), dtype, 3), sample((2, 3), dtype, 4)
    return b, c, db, dc


def along_rank_preserving(f, dtype, h=1e-6):
    b, c, db, dc = rank_two(dtype)
    fd = (f((b + h * db) @ (c + h * dc)) - f((b - h * db) @ (c - h * dc))) / (2 * h)
    return b @ c, db @ c + b @ dc, fd


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_pinv_rank_deficient_along_rank_preserving_perturbations(dtype):
    """Where the rank is locally constant, the rules give pinv's derivative."""
    a, da, fd = along_rank_preserving(np.linalg.pinv, dtype)
    _, dy = cr.frule((None, da), np.linalg.pinv, a)
    np.testing.assert_allclose(dy, fd, atol=1e-7)
    g = sample((3, 4), dtype, 5)
    _, pullback = cr.rrule(np.linalg.pinv, a)
    np.testing.assert_allclose(
        np.real(np.vdot(pullback(g)[1], da)), np.real(np.vdot(g, fd)), rtol=1e-7
    )


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lstsq_rank_deficient_along_rank_preserving_perturbations(dtype):
    rhs = sample((4,), dtype, 6)
    a, da, fd = along_rank_preserving(lambda m: np.linalg.lstsq(m, rhs)[0], dtype)
    (_, residuals, rank, _), dy = cr.frule((None, da, cr.ZeroTangent()), np.linalg.lstsq, a, rhs)
    assert rank == 2 and residuals.shape == (0,)
    np.testing.assert_allclose(dy[0], fd, atol=1e-7)
    g = sample((3,), dtype, 7)
    _, pullback = cr.rrule(np.linalg.lstsq, a, rhs)
    da_bar = pullback(cr.Tangent(tuple, g, cr.ZeroTangent(), cr.NoTangent(), cr.ZeroTangent()))[1]
    np.testing.assert_allclose(np.real(np.vdot(da_bar, da)), np.real(np.vdot(g, fd)), rtol=1e-7)
