"""Tests of the rules for scipy.linalg.hessenberg, matrix_balance, cdf2rdf and rsf2csf."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import with_tangent
from fdm import central_fdm
from samples import DTYPES, check_factors, draw, ids

import chainrules as cr

SMALL_STEPS = central_fdm(5, 1)  # Schur vectors flip sign where eigenvalues cross


# ---- hessenberg ---------------------------------------------------------------------------


@pytest.mark.parametrize("calc_q", [False, True])
@pytest.mark.parametrize("dtype", [*DTYPES, np.float32], ids=ids)
def test_hessenberg(calc_q, dtype):
    a = draw((5, 5), dtype)
    check_factors(scipy.linalg.hessenberg, a, calc_q, fdm=SMALL_STEPS)


def test_hessenberg_of_small_matrices_is_the_matrix():
    for n in (1, 2):
        check_factors(
            scipy.linalg.hessenberg, draw((n, n), np.complex128), fkwargs={"calc_q": True}
        )


def test_hessenberg_of_a_reduced_matrix_has_no_derivative():
    a = np.triu(draw((4, 4)))
    _, pullback = cr.rrule(scipy.linalg.hessenberg, a)
    with pytest.raises(ValueError, match="reduced Hessenberg"):
        pullback(np.ones((4, 4)))


# ---- matrix_balance -----------------------------------------------------------------------


def badly_scaled(dtype=np.float64):
    """A matrix that balancing permutes and scales, and a tangent keeping the zeros that
    decide the permutation."""
    a = (draw((5, 5), dtype) * np.array([1e-3, 1.0, 1e3, 10.0, 1e-2])[:, None]).astype(dtype)
    a[1, [0, 2, 3, 4]] = 0  # row 1 isolates an eigenvalue: a permutation
    return a, draw((5, 5), dtype, 1) * (a != 0)


@pytest.mark.parametrize("separate", [False, True])
@pytest.mark.parametrize("dtype", [*DTYPES, np.float32], ids=ids)
def test_matrix_balance(separate, dtype):
    a, da = badly_scaled(dtype)
    _, (scale, perm) = scipy.linalg.matrix_balance(a, separate=True)
    assert np.any(perm != np.arange(5)) and np.any(scale != 1)
    for permute in (True, False):
        args = (with_tangent(a, da), permute)
        # the default estimate: fdm's central_fdm(5, 1), whose error estimate is no bound,
        # was seen 1.4e-7 off the derivative here, outside float64's tolerance
        kwargs = {"fkwargs": {"separate": separate}}
        check_factors(scipy.linalg.matrix_balance, *args, check_second_order=True, **kwargs)


def test_matrix_balance_is_a_similarity():
    a, _ = badly_scaled()
    (_, t), pullback = cr.rrule(scipy.linalg.matrix_balance, a)
    g = draw((5, 5), seed=3)
    np.testing.assert_allclose(pullback((g, cr.ZeroTangent()))[1], np.linalg.inv(t).T @ g @ t.T)


# ---- cdf2rdf ------------------------------------------------------------------------------


def eigenpairs(n=5, dtype=np.float64):
    """The eigenvalues and vectors of a real matrix with two complex pairs, and tangents that
    keep the real eigenvalue real."""
    w, v = scipy.linalg.eig(draw((n, n), dtype, seed=4))
    assert np.count_nonzero(w.imag) == 4
    dw = draw((n,), w.dtype, 5)
    dw[w.imag == 0] = dw[w.imag == 0].real
    return with_tangent(w, dw), v


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=ids)
def test_cdf2rdf(dtype):
    w, v = eigenpairs(dtype=dtype)
    check_factors(scipy.linalg.cdf2rdf, w, v, check_second_order=True)


def test_cdf2rdf_of_real_eigenvalues():
    w, v = scipy.linalg.eigh(draw((3, 3)) + draw((3, 3)).T)
    check_factors(scipy.linalg.cdf2rdf, w, v, check_second_order=True)


# ---- rsf2csf ------------------------------------------------------------------------------


def real_schur(n=5, seed=0):
    """A real Schur form with 2x2 blocks and a tangent keeping that form."""
    t, z = scipy.linalg.schur(draw((n, n), seed=seed))
    pattern = np.triu(np.ones((n, n))) + (np.tril(t, -1) != 0)
    assert np.count_nonzero(np.tril(t, -1)) >= 1
    return t, z, draw((n, n), seed=seed + 1) * pattern


@pytest.mark.parametrize("dtype", [*DTYPES, np.float32], ids=ids)
def test_rsf2csf(dtype):
    t, z, dt = real_schur()
    real = np.float32 if dtype == np.float32 else np.float64
    t, dt = t.astype(real), dt.astype(real)
    check_factors(scipy.linalg.rsf2csf, with_tangent(t, dt), z.astype(dtype), fdm=SMALL_STEPS)


def test_rsf2csf_entries_below_the_subdiagonal_pass_through():
    t, z, dt = real_schur(seed=2)
    dt = dt + np.tril(draw((5, 5), seed=7), -2)
    check_factors(scipy.linalg.rsf2csf, with_tangent(t, dt), z, fdm=SMALL_STEPS)


def test_rsf2csf_of_a_triangular_form_is_a_cast():
    t = np.triu(draw((3, 3)))
    _, pullback = cr.rrule(scipy.linalg.rsf2csf, t, np.eye(3))
    g = draw((3, 3), np.complex128, 1)
    _, g_t, g_z = pullback((g, g))
    np.testing.assert_allclose(g_t, g.real - np.diag(np.diagonal(g.real, -1), -1))
    np.testing.assert_allclose(g_z, g.real)
