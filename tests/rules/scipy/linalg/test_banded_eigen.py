"""Tests of the rules for scipy.linalg.eig_banded, eigvals_banded, eigh_tridiagonal and
eigvalsh_tridiagonal."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, dense, hermitian_band, ids, sample

import chainrules as cr

SMALL_STEPS = central_fdm(5, 1)  # eigenvectors flip sign at crossings; keep the steps short


EIG_BANDED = [
    {},
    {"eigvals_only": True},
    {"select": "i", "select_range": (1, 3)},
    {"select": "i", "select_range": (0, 2), "eigvals_only": True},
]


@pytest.mark.parametrize("kwargs", EIG_BANDED, ids=str)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eig_banded(dtype, lower, kwargs):
    ab = hermitian_band(2, 5, dtype, lower)
    check_eig_banded(ab, {"lower": lower, **kwargs})


def check_eig_banded(ab, fkwargs):
    f = scipy.linalg.eig_banded
    if np.iscomplexobj(ab) and not fkwargs.get("eigvals_only"):
        # Each complex eigenvector's phase is LAPACK's choice, not a function of the matrix:
        # the pullback is checked on cotangents blind to it (as for eigh), the frule on reals;
        # no second order: moving the cotangent leaves that set.
        dy = phase_free_cotangent(f(ab, **fkwargs))
        test_rrule(
            f, ab, fkwargs=fkwargs, output_tangent=dy, fdm=SMALL_STEPS, check_second_order=False
        )
        return
    test_rrule(f, ab, fkwargs=fkwargs, fdm=SMALL_STEPS)
    test_frule(f, ab, fkwargs=fkwargs, fdm=SMALL_STEPS)


def phase_free_cotangent(result, seed=7):
    """A random cotangent of ``(w, v)`` with ``Im diag(v^H g_v) = 0``."""
    w, v = result
    rng = np.random.default_rng(seed)
    g_w = rng.standard_normal(w.shape)
    g_v = rng.standard_normal(v.shape) + 1j * rng.standard_normal(v.shape)
    phase = np.imag(np.sum(np.conj(v) * g_v, axis=0))
    return cr.Tangent(tuple, g_w, g_v - 1j * v * phase)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eig_banded_subset_by_value(dtype):
    ab = hermitian_band(1, 5, dtype, False)
    w = np.linalg.eigvalsh(dense(ab, False))
    window = {"select": "v", "select_range": ((w[0] + w[1]) / 2, (w[3] + w[4]) / 2)}
    check_eig_banded(ab, window)
    test_rrule(scipy.linalg.eigvals_banded, ab, fkwargs=window)
    test_frule(scipy.linalg.eigvals_banded, ab, fkwargs=window)


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eigvals_banded(dtype, lower):
    ab = hermitian_band(1, 4, dtype, lower)
    test_rrule(scipy.linalg.eigvals_banded, ab, lower)
    test_frule(scipy.linalg.eigvals_banded, ab, lower)


def test_eig_banded_cotangent_lives_on_the_band():
    # w = eigenvalues of [[2, 1], [1, 2]] = (1, 3); dw_1 = v_1 v_1^T with v_1 = (1, -1)/sqrt 2:
    # the stored upper entry collects both off-diagonal entries, the corner nothing.
    ab = np.array([[5.0, 1.0], [2.0, 2.0]])
    _, pullback = cr.rrule(scipy.linalg.eigvals_banded, ab)
    np.testing.assert_allclose(pullback(np.array([1.0, 0.0]))[1], [[0.0, -1.0], [0.5, 0.5]])


def test_eig_banded_reads_the_real_part_of_the_diagonal():
    ab = hermitian_band(1, 3, np.complex128, False)
    _, pullback = cr.rrule(scipy.linalg.eigvals_banded, ab)
    assert np.all(np.imag(pullback(np.ones(3))[1][1]) == 0)


TRIDIAGONAL = [
    {},
    {"lapack_driver": "stev"},
    {"lapack_driver": "stemr", "eigvals_only": True},  # its eigenvectors flip sign at random
    {"lapack_driver": "stebz"},
    {"select": "i", "select_range": (1, 2)},
    {"eigvals_only": True},
    {"eigvals_only": True, "select": "i", "select_range": (0, 1)},
]


@pytest.mark.parametrize("kwargs", TRIDIAGONAL, ids=str)
def test_eigh_tridiagonal(kwargs):
    d, e = sample((5,)), sample((4,), seed=1)
    test_rrule(scipy.linalg.eigh_tridiagonal, d, e, fkwargs=kwargs, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.eigh_tridiagonal, d, e, fkwargs=kwargs, fdm=SMALL_STEPS)


@pytest.mark.parametrize("kwargs", [{}, {"lapack_driver": "sterf"}, {"select": "v"}], ids=str)
def test_eigvalsh_tridiagonal(kwargs):
    d, e = sample((5,)), sample((4,), seed=1)
    if kwargs.get("select") == "v":
        w = scipy.linalg.eigvalsh_tridiagonal(d, e)
        kwargs = {"select": "v", "select_range": ((w[0] + w[1]) / 2, (w[2] + w[3]) / 2)}
    test_rrule(scipy.linalg.eigvalsh_tridiagonal, d, e, fkwargs=kwargs)
    test_frule(scipy.linalg.eigvalsh_tridiagonal, d, e, fkwargs=kwargs)


def test_eigvalsh_tridiagonal_partials():
    # dw_i/dd_j = v_ji^2 and dw_i/de_j = 2 v_ji v_(j+1)i.
    d, e = sample((4,)), sample((3,), seed=1)
    v = scipy.linalg.eigh_tridiagonal(d, e)[1]
    _, pullback = cr.rrule(scipy.linalg.eigvalsh_tridiagonal, d, e)
    _, g_d, g_e = pullback(np.eye(4)[2])
    np.testing.assert_allclose(g_d, v[:, 2] ** 2, rtol=1e-12)
    np.testing.assert_allclose(g_e, 2 * v[:-1, 2] * v[1:, 2], rtol=1e-12)
