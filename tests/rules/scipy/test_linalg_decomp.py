"""Tests of the rules for scipy.linalg.qr, svd, eigh, det, inv, pinv and polar."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, ids, sample

import chainrules as cr
from chainrules._compat import SCIPY_VERSION

SMALL_STEPS = central_fdm(5, 1)  # singular vectors and eigenvectors flip sign at crossings


SHAPES = [(3, 3), (4, 2), (2, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("mode", ["economic", "r", "full"])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_qr(shape, mode, dtype):
    a = sample(shape, dtype)
    if mode == "full" and shape[0] > shape[1]:
        _, pullback = cr.rrule(scipy.linalg.qr, a, mode=mode)
        with pytest.raises(ValueError, match="not determined"):
            pullback(cr.Tangent(tuple, np.ones((4, 4)), np.ones((4, 2))))
        return
    test_rrule(scipy.linalg.qr, a, fkwargs={"mode": mode}, check_second_order=True)
    test_frule(scipy.linalg.qr, a, fkwargs={"mode": mode})


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_svd(shape):
    a = sample(shape)
    test_rrule(scipy.linalg.svd, a, False, check_second_order=True, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.svd, a, False, fdm=SMALL_STEPS)
    for dtype in DTYPES:
        b = sample(shape, dtype, 1)
        test_rrule(scipy.linalg.svd, b, fkwargs={"compute_uv": False})
        test_frule(scipy.linalg.svd, b, fkwargs={"compute_uv": False})


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


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_det_and_inv(dtype):
    a = sample((3, 3), dtype) + 3 * np.eye(3)
    for f in (scipy.linalg.det, scipy.linalg.inv):
        test_rrule(f, a, check_second_order=True)
        test_frule(f, a)


@pytest.mark.skipif(SCIPY_VERSION < (1, 17), reason="scipy.linalg.inv takes assume_a from 1.17 on")
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_inv_of_structured_matrices(dtype):
    s = sample((3, 3), dtype, 1)
    spd = s @ np.conj(s.T) + 3 * np.eye(3)
    for kind in ("pos", "her", "sym"):
        test_rrule(scipy.linalg.inv, spd, fkwargs={"assume_a": kind})
        test_frule(scipy.linalg.inv, spd, fkwargs={"assume_a": kind, "lower": True})


def test_det_of_singular_matrix_is_finite():
    _, pullback = cr.rrule(scipy.linalg.det, np.ones((3, 3)))
    np.testing.assert_allclose(pullback(1.0)[1], np.zeros((3, 3)), atol=1e-12)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_pinv(shape, dtype):
    a = sample(shape, dtype)
    test_rrule(scipy.linalg.pinv, a)
    test_frule(scipy.linalg.pinv, a)
    test_rrule(scipy.linalg.pinv, a, fkwargs={"return_rank": True})


@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_polar(side, dtype):
    a = sample((3, 3), dtype) + 2 * np.eye(3)
    test_rrule(scipy.linalg.polar, a, side)
    test_frule(scipy.linalg.polar, a, side)
    tall = sample((4, 2), dtype, 1)
    test_rrule(scipy.linalg.polar, tall)
