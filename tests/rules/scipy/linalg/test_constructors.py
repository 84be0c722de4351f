"""Tests of the rules for scipy.linalg.hankel, convolution_matrix, leslie, khatri_rao, companion
and fiedler."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import DTYPES, check_column_and_row, ids, sample

import chainrules as cr


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_hankel(dtype):
    check_column_and_row(scipy.linalg.hankel, dtype)


def test_hankel_ignores_the_first_entry_of_r():
    _, pullback = cr.rrule(scipy.linalg.hankel, np.ones(2), np.ones(3))
    _, dc, dr = pullback(np.ones((2, 3)))
    np.testing.assert_array_equal(dc, [1.0, 2.0])
    np.testing.assert_array_equal(dr, [0.0, 2.0, 1.0])


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize(("m", "n"), [(3, 5), (5, 3), (4, 4)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_convolution_matrix(dtype, m, n, mode):
    a = sample((m,), dtype)
    args = (a, with_tangent(n, cr.NoTangent()))
    test_rrule(scipy.linalg.convolution_matrix, *args, fkwargs={"mode": mode})
    test_frule(scipy.linalg.convolution_matrix, *args, fkwargs={"mode": mode})


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_leslie(dtype):
    f, s = sample((4,), dtype), sample((3,), dtype, 1)
    test_rrule(scipy.linalg.leslie, f, s)
    test_frule(scipy.linalg.leslie, f, s)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_khatri_rao(dtype):
    a, b = sample((2, 3), dtype), sample((4, 3), dtype, 1)
    test_rrule(scipy.linalg.khatri_rao, a, b)
    test_frule(scipy.linalg.khatri_rao, a, b)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_companion(dtype):
    a = sample((4,), dtype) + 2.0
    test_rrule(scipy.linalg.companion, a)
    test_frule(scipy.linalg.companion, a)


def test_companion_derivative_of_the_leading_coefficient():
    # companion([2, 4, 6])[0] = [-2, -3]; d/d a[0] of -a[k] / a[0] is a[k] / a[0]^2.
    _, pullback = cr.rrule(scipy.linalg.companion, np.array([2.0, 4.0, 6.0]))
    np.testing.assert_array_equal(pullback(np.array([[1.0, 0.0], [0.0, 0.0]]))[1], [1.0, -0.5, 0.0])


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_fiedler(dtype):
    a = sample((4,), dtype)
    test_rrule(scipy.linalg.fiedler, a)
    test_frule(scipy.linalg.fiedler, a)


def test_fiedler_at_ties_is_zero():
    _, pullback = cr.rrule(scipy.linalg.fiedler, np.array([1.0, 1.0, 3.0]))
    np.testing.assert_array_equal(pullback(np.ones((3, 3)))[1], [-2.0, -2.0, 4.0])


@pytest.mark.parametrize(("k", "m", "n"), [(3, 3, 5), (3, 5, 3), (3, 3, 3)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_diagsvd(dtype, k, m, n):
    s = sample((k,), dtype)
    test_rrule(scipy.linalg.diagsvd, s, m, n)
    test_frule(scipy.linalg.diagsvd, s, m, n)


def test_diagsvd_cotangent_is_the_diagonal():
    _, pullback = cr.rrule(scipy.linalg.diagsvd, np.ones(2), 2, 3)
    np.testing.assert_array_equal(pullback(np.arange(6.0).reshape(2, 3))[1], [0.0, 4.0])


@pytest.mark.parametrize("size", [2, 3, 4, 7])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_fiedler_companion(dtype, size):
    a = sample((size,), dtype) + 2.0
    test_rrule(scipy.linalg.fiedler_companion, a)
    test_frule(scipy.linalg.fiedler_companion, a)


def test_fiedler_companion_of_a_stack_and_of_a_constant():
    a = sample((2, 5)) + 2.0
    test_rrule(scipy.linalg.fiedler_companion, a)
    test_frule(scipy.linalg.fiedler_companion, a)
    y, pullback = cr.rrule(scipy.linalg.fiedler_companion, np.array([2.0]))
    assert y.size == 0
    assert isinstance(pullback(y)[1], cr.ZeroTangent)


def test_fiedler_companion_derivative_of_a_monic_polynomial():
    # fiedler_companion([1, b1, b2]) = [[-b1, -b2], [1, 0]].
    _, pullback = cr.rrule(scipy.linalg.fiedler_companion, np.array([1.0, 3.0, 5.0]))
    g = np.array([[1.0, 10.0], [100.0, 1000.0]])
    np.testing.assert_array_equal(pullback(g)[1], [3.0 + 50.0, -1.0, -10.0])
