"""Tests of the rules for scipy.linalg.eig, eigvals, eigvalsh, svdvals, lstsq, norm, pinvh,
orthogonal_procrustes and signm."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, ids, sample

import chainrules as cr

SMALL_STEPS = central_fdm(5, 1)  # eigenvectors flip sign where eigenvalues cross


def general(n, dtype, seed=0):
    """A non-normal matrix with distinct eigenvalues (complex pairs, for a real one)."""
    return sample((n, n), dtype, seed) + np.diag(np.arange(n, dtype=float))


def hermitian(n, dtype, seed=0):
    a = sample((n, n), dtype, seed)
    return a + a.conj().T


def real_spectrum(n, seed=0):
    """A real non-symmetric matrix with distinct real eigenvalues."""
    t = np.triu(sample((n, n), np.float64, seed), 1) + np.diag(np.arange(1.0, n + 1))
    q, _ = np.linalg.qr(sample((n, n), np.float64, seed + 1))
    return q @ t @ q.T


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eig(dtype):
    a = general(3, dtype)
    test_rrule(scipy.linalg.eig, a, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.eig, a, fdm=SMALL_STEPS)
    test_rrule(scipy.linalg.eig, a, fkwargs={"right": False}, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.eig, a, fkwargs={"right": False}, fdm=SMALL_STEPS)
    test_rrule(scipy.linalg.eigvals, a, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.eigvals, a, fdm=SMALL_STEPS)


def test_eig_with_real_spectrum_matches_scipy_outputs():
    a = real_spectrum(3)
    (w, v), pullback = cr.rrule(scipy.linalg.eig, a)
    expected_w, expected_v = scipy.linalg.eig(a)
    assert w.dtype == expected_w.dtype == np.complex128
    assert v.dtype == expected_v.dtype
    np.testing.assert_allclose(w, expected_w)
    np.testing.assert_allclose(v, expected_v)
    g = pullback(cr.Tangent(tuple, np.ones(3) + 1j, np.ones((3, 3))))[1]
    assert g.dtype == np.float64
    test_rrule(scipy.linalg.eig, a, fdm=SMALL_STEPS)
    test_rrule(scipy.linalg.eigvals, a, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.eigvals, a, fdm=SMALL_STEPS)


def test_eigvals_of_diagonal_matrix_is_exact():
    _, pullback = cr.rrule(scipy.linalg.eigvals, np.diag([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(pullback(np.array([1.0, 0.0, 2.0]))[1], np.diag([1.0, 0.0, 2.0]))


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eigvalsh(dtype, lower):
    a = hermitian(4, dtype)
    test_rrule(scipy.linalg.eigvalsh, a, fkwargs={"lower": lower})
    test_frule(scipy.linalg.eigvalsh, a, fkwargs={"lower": lower})


def test_eigvalsh_reads_one_triangle():
    a = np.array([[2.0, 5.0], [1.0, 3.0]])
    _, pullback = cr.rrule(scipy.linalg.eigvalsh, a, lower=False)
    assert pullback(np.ones(2))[1][1, 0] == 0.0


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_svdvals(shape, dtype):
    a = sample(shape, dtype)
    test_rrule(scipy.linalg.svdvals, a)
    test_frule(scipy.linalg.svdvals, a)


def test_svdvals_at_ties_is_exact():
    _, pullback = cr.rrule(scipy.linalg.svdvals, 3 * np.eye(2))
    np.testing.assert_array_equal(pullback(np.ones(2))[1], np.eye(2))


LSTSQ = [((4, 2), (4,)), ((4, 2), (4, 3)), ((2, 4), (2,)), ((3, 3), (3, 2))]


@pytest.mark.parametrize(("a_shape", "b_shape"), LSTSQ, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lstsq(a_shape, b_shape, dtype):
    a, b = sample(a_shape, dtype), sample(b_shape, dtype, 1)
    test_rrule(scipy.linalg.lstsq, a, b)
    test_frule(scipy.linalg.lstsq, a, b)


@pytest.mark.parametrize(("a_shape", "b_shape"), LSTSQ, ids=str)
def test_lstsq_matches_scipy_outputs(a_shape, b_shape):
    a, b = sample(a_shape), sample(b_shape, np.float64, 1)
    (x, residues, rank, s), _ = cr.rrule(scipy.linalg.lstsq, a, b)
    expected = scipy.linalg.lstsq(a, b)
    np.testing.assert_allclose(x, expected[0])
    assert np.shape(residues) == np.shape(expected[1])
    np.testing.assert_allclose(residues, expected[1])
    assert rank == expected[2]
    np.testing.assert_allclose(s, expected[3])


NORM = [
    {},
    {"ord": 1},
    {"ord": "fro"},
    {"ord": "nuc"},
    {"ord": 2},
    {"ord": np.inf, "axis": 1},
    {"axis": 0, "keepdims": True},
]


@pytest.mark.parametrize("kwargs", NORM, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_norm(kwargs, dtype):
    a = sample((3, 4), dtype)
    test_rrule(scipy.linalg.norm, a, fkwargs=kwargs)
    test_frule(scipy.linalg.norm, a, fkwargs=kwargs)


def test_norm_at_zero_is_zero():
    _, pullback = cr.rrule(scipy.linalg.norm, np.zeros(3))
    np.testing.assert_array_equal(pullback(1.0)[1], np.zeros(3))


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_pinvh(dtype, lower):
    a = hermitian(3, dtype)
    p, _ = cr.rrule(scipy.linalg.pinvh, a, lower=lower)
    np.testing.assert_allclose(p, scipy.linalg.pinvh(a, lower=lower), rtol=1e-10)
    test_rrule(scipy.linalg.pinvh, a, fkwargs={"lower": lower})
    test_frule(scipy.linalg.pinvh, a, fkwargs={"lower": lower})


def test_pinvh_reads_one_triangle():
    a = np.array([[2.0, 5.0], [1.0, 3.0]])
    _, pullback = cr.rrule(scipy.linalg.pinvh, a)
    assert pullback(np.ones((2, 2)))[1][0, 1] == 0.0


def test_unsupported_keyword_is_named():
    with pytest.raises(cr.RuleKeywordError, match="'b'"):
        cr.rrule(scipy.linalg.eigvals, np.eye(2), b=np.eye(2))


@pytest.mark.parametrize("shapes", [((4, 3), (4, 3)), ((3, 3), (3, 3))], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_orthogonal_procrustes(dtype, shapes):
    a, b = sample(shapes[0], dtype), sample(shapes[1], dtype, 1)
    (r, scale), _ = cr.rrule(scipy.linalg.orthogonal_procrustes, a, b)
    expected_r, expected_scale = scipy.linalg.orthogonal_procrustes(a, b)
    np.testing.assert_allclose(r, expected_r, atol=1e-12)
    np.testing.assert_allclose(scale, expected_scale)
    test_rrule(scipy.linalg.orthogonal_procrustes, a, b)
    test_frule(scipy.linalg.orthogonal_procrustes, a, b)


def test_orthogonal_procrustes_scale_gradient_is_the_rotation():
    a, b = np.eye(2), np.array([[0.0, -2.0], [1.0, 0.0]])
    (r, _), pullback = cr.rrule(scipy.linalg.orthogonal_procrustes, a, b)
    _, da, db = pullback(cr.Tangent(tuple, cr.ZeroTangent(), 1.0))
    np.testing.assert_allclose(db, r)
    np.testing.assert_allclose(da, b @ r.T)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_signm(dtype):
    a = sample((3, 3), dtype) + np.diag([2.0, -2.0, 3.0])
    test_rrule(scipy.linalg.signm, a)
    test_frule(scipy.linalg.signm, a)


def test_signm_of_a_normal_matrix_is_locally_constant_along_commuting_directions():
    _, pullback = cr.rrule(scipy.linalg.signm, np.diag([1.0, -2.0]))
    np.testing.assert_allclose(pullback(np.eye(2))[1], np.zeros((2, 2)), atol=1e-12)
    _, pullback = cr.rrule(scipy.linalg.signm, np.diag([1.0, -1.0]))
    # sign(diag(1, -1) + t E12) = [[1, t], [0, -1]]: the off-diagonal derivative is 1.
    g = pullback(np.array([[0.0, 1.0], [0.0, 0.0]]))[1]
    np.testing.assert_allclose(g, [[0.0, 1.0], [0.0, 0.0]], atol=1e-10)


@pytest.mark.parametrize(
    ("shape", "mode"),
    [((3, 3), "full"), ((2, 4), "economic"), ((4, 2), "economic"), ((4, 2), "r")],
    ids=str,
)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_rq(dtype, shape, mode):
    a = sample(shape, dtype)
    # No second order: tracked values are factored by the namespace's qr, whose signs differ
    # from LAPACK's RQ (another branch of the factors), so the traced pullback is not this one.
    test_rrule(scipy.linalg.rq, a, fkwargs={"mode": mode}, check_second_order=False)
    test_frule(scipy.linalg.rq, a, fkwargs={"mode": mode}, check_second_order=False)


def test_rq_of_undetermined_factors_raises():
    with pytest.raises(ValueError, match="economic"):
        cr.rrule(scipy.linalg.rq, sample((2, 4)))


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
