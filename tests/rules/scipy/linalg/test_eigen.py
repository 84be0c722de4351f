"""Tests of the rules for scipy.linalg.eigh, eig, eigvals and eigvalsh."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, ids, sample

import chainrules as cr

SMALL_STEPS = central_fdm(5, 1)  # singular vectors and eigenvectors flip sign at crossings


# SciPy's default driver ("evr") may flip an eigenvector's sign under a tiny perturbation, so
# there the eigenvectors are not a differentiable function of the matrix: the eigenvector
# checks against finite differences use "evd", which keeps signs, and the default driver is
# checked on a sign-free loss.
EIGH = [
    {"driver": "evd"},
    {"lower": False, "driver": "evd"},
    {"subset_by_index": (1, 2), "driver": "evx"},
    {"eigvals_only": True},
    {"eigvals_only": True, "subset_by_index": (2, 3)},
]


@pytest.mark.parametrize("kwargs", EIGH, ids=str)
def test_eigh(kwargs):
    a = sample((4, 4))
    test_rrule(scipy.linalg.eigh, a, fkwargs=kwargs, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.eigh, a, fkwargs=kwargs, fdm=SMALL_STEPS)


def test_eigh_subset_by_value():
    a = sample((4, 4))
    w = np.linalg.eigvalsh(a)
    window = {"subset_by_value": ((w[0] + w[1]) / 2, (w[2] + w[3]) / 2), "driver": "evx"}
    test_rrule(scipy.linalg.eigh, a, fkwargs=window, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.eigh, a, fkwargs=window, fdm=SMALL_STEPS)


def test_eigh_subset_pullback_uses_the_returned_eigenvectors():
    # Here NumPy's full decomposition has other signs than SciPy's selected eigenvectors: the
    # pullback must couple the cotangents to the vectors it returned.
    s = np.random.default_rng(2).standard_normal((4, 4))
    a = s + s.T
    kwargs = {"subset_by_index": (1, 2), "driver": "evx"}
    _, v = scipy.linalg.eigh(a, **kwargs)
    _, v_numpy = np.linalg.eigh(a)
    assert np.any(np.sign(v[0]) != np.sign(v_numpy[0, 1:3]))
    # First order is the point here; second order of subsets is checked in test_eigh.
    test_rrule(scipy.linalg.eigh, a, fkwargs=kwargs, fdm=SMALL_STEPS, check_second_order=False)


def test_eigh_complex_eigenvalues_and_second_order():
    test_rrule(scipy.linalg.eigh, sample((3, 3), np.complex128), fkwargs={"eigvals_only": True})
    a = sample((3, 3))
    test_rrule(scipy.linalg.eigh, a, fkwargs={"driver": "evd"}, check_second_order=True)


def test_eigh_default_driver_on_a_sign_free_loss():
    """sum(w * diag(V^T W V)) does not depend on the eigenvectors' signs."""
    a, weights, da = sample((4, 4)), sample((4, 4), seed=1), sample((4, 4), seed=2)

    def loss(m):
        w, v = scipy.linalg.eigh(m)
        return np.sum(w * np.diagonal(v.T @ weights @ v))

    (w, v), pullback = cr.rrule(scipy.linalg.eigh, a)
    g_v = (weights + weights.T) @ v * w
    g = pullback(cr.Tangent(tuple, np.diagonal(v.T @ weights @ v), g_v))[1]
    h = 1e-6
    fd = (loss(a + h * da) - loss(a - h * da)) / (2 * h)
    np.testing.assert_allclose(np.sum(g * da), fd, rtol=1e-6)


def test_eigh_generalized_has_no_rule():
    with pytest.raises(ValueError, match="generalized"):
        cr.rrule(scipy.linalg.eigh, np.eye(2), np.eye(2))


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


@pytest.mark.parametrize("f", [scipy.linalg.eigh, scipy.linalg.eig], ids=lambda f: f.__name__)
def test_eigh_and_eig_of_a_stack_return_scipy_list(f):
    """The container follows SciPy's; the stacked pullback and frule are the per-matrix ones."""
    a = sample((2, 3, 3)) + 3 * np.eye(3)
    a = a + np.swapaxes(a, -1, -2)
    y, pullback = cr.rrule(f, a)
    assert type(y) is type(f(a)) is list
    g = [np.ones(y[0].shape), np.zeros(y[1].shape)]
    da = sample((2, 3, 3), seed=5)
    _, dy = cr.frule((cr.NoTangent(), da), f, a)
    assert type(dy) is cr.Tangent and dy.primal_type is list
    for i in range(2):
        _, single = cr.rrule(f, a[i])
        np.testing.assert_allclose(pullback(g)[1][i], single([x[i] for x in g])[1], rtol=1e-13)
        _, d_single = cr.frule((cr.NoTangent(), da[i]), f, a[i])
        np.testing.assert_allclose(cr.unthunk(dy[0])[i], cr.unthunk(d_single[0]), rtol=1e-13)
