"""Tests of the rules for np.linalg.det and np.linalg.slogdet, singular matrices included."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, sample

import chainrules as cr
from chainrules.rules.matrices import adjugate


@pytest.mark.parametrize("f", [np.linalg.det, np.linalg.slogdet], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (2, 3, 3)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_det_and_slogdet(f, shape, dtype):
    a = sample(shape, dtype) + 2 * np.eye(shape[-1])
    test_rrule(f, a, check_second_order=True)
    test_frule(f, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_adjugate_of_invertible(dtype):
    a = sample((4, 4), dtype) + 2 * np.eye(4)
    np.testing.assert_allclose(adjugate(a), np.linalg.det(a) * np.linalg.inv(a), rtol=1e-10)


def test_det_of_rank_n_minus_1_is_the_rank_one_adjugate():
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])  # rank 2
    _, pullback = cr.rrule(np.linalg.det, a)
    g = pullback(1.0)[1]
    cofactors = np.array(
        [[-3.0, 6.0, -3.0], [6.0, -12.0, 6.0], [-3.0, 6.0, -3.0]]
    )  # the cofactor matrix, computed by hand: adj(a)^T
    np.testing.assert_allclose(g, cofactors, atol=1e-12)
    # rank one: the other singular values are LAPACK's rounding noise, about s1 * s3(a), which
    # matrix_rank's default cutoff sits just above on some BLAS kernels; judge them by scale
    s = np.linalg.svd(g, compute_uv=False)
    assert s[1] <= 1e-12 * s[0]
    test_rrule(np.linalg.det, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_det_of_rank_n_minus_2_has_zero_gradient(dtype):
    u, v = sample((4, 2), dtype, 1), sample((2, 4), dtype, 2)
    _, pullback = cr.rrule(np.linalg.det, u @ v)
    g = pullback(1.0)[1]
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, 0.0, atol=1e-12)


def test_det_of_zero_matrix():
    _, pullback = cr.rrule(np.linalg.det, np.zeros((3, 3)))
    np.testing.assert_array_equal(pullback(1.0)[1], np.zeros((3, 3)))


def test_slogdet_sign_cotangent_for_complex_input():
    """d sign = sign * i Im tr(a^{-1} da): checked for a cotangent on the sign alone."""
    a = sample((3, 3), np.complex128) + 2 * np.eye(3)
    result = np.linalg.slogdet(a)
    dy = cr.Tangent(type(result), sign=1j * result.sign)
    test_rrule(np.linalg.slogdet, a, output_tangent=dy)


def test_slogdet_of_singular_matrix():
    y, _ = cr.rrule(np.linalg.slogdet, np.zeros((2, 2)))
    assert y.sign == 0.0 and y.logabsdet == -np.inf


def test_slogdet_pullback_reuses_the_factorization(monkeypatch):
    calls = {"lu_factor": 0}
    original = scipy.linalg.lu_factor

    def counted(*args, **kwargs):
        calls["lu_factor"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(scipy.linalg, "lu_factor", counted)
    a = sample((3, 3)) + 2 * np.eye(3)
    _, pullback = cr.rrule(np.linalg.slogdet, a)
    result = np.linalg.slogdet(a)
    da = pullback(cr.Tangent(type(result), logabsdet=1.0))[1]
    assert calls["lu_factor"] == 1
    np.testing.assert_allclose(da, np.linalg.inv(a).T, rtol=1e-12)


def test_float32_stays_float32():
    a = (sample((3, 3)) + 2 * np.eye(3)).astype(np.float32)
    for f in (np.linalg.det, np.linalg.slogdet):
        test_rrule(f, a)
    _, pullback = cr.rrule(np.linalg.det, a)
    assert pullback(np.float32(1.0))[1].dtype == np.float32
