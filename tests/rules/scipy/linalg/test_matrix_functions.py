"""Tests of the rules for scipy.linalg's matrix functions, non-normal matrices included."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, rule_checker, sample

import chainrules as cr
from chainrules.rules.scipy.linalg.matrix_functions import frechet


def non_normal(dtype, shift=0.3):
    """Upper triangular with a large off-diagonal part: far from normal."""
    return np.triu(sample((3, 3), dtype, 1)) * 0.5 + shift * np.eye(3)


def positive_spectrum(dtype):
    s = sample((3, 3), dtype, 2)
    return s @ np.conj(s.T) + np.eye(3)


ENTIRE = [
    scipy.linalg.expm,
    scipy.linalg.cosm,
    scipy.linalg.sinm,
    scipy.linalg.tanm,
    scipy.linalg.coshm,
    scipy.linalg.sinhm,
    scipy.linalg.tanhm,
]


NO_SECOND_ORDER: dict = {}


check_rules = rule_checker(NO_SECOND_ORDER)


@pytest.mark.parametrize("f", ENTIRE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_entire_functions(f, dtype):
    for a in (0.5 * sample((3, 3), dtype), non_normal(dtype)):
        check_rules(f, a)


@pytest.mark.parametrize("f", [scipy.linalg.logm, scipy.linalg.sqrtm], ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_logm_and_sqrtm(f, dtype):
    for a in (positive_spectrum(dtype), np.eye(3) + non_normal(dtype)):
        check_rules(f, a)


def test_expm_of_a_stack():
    a = 0.5 * sample((2, 3, 3))
    check_rules(scipy.linalg.expm, a)


def test_frechet_block_trick_agrees_with_al_mohy_higham():
    a, e = non_normal(np.float64), sample((3, 3), seed=4)
    block = frechet(lambda m: scipy.linalg.expm(m), a, e)
    np.testing.assert_allclose(block, scipy.linalg.expm_frechet(a, e)[1], rtol=1e-10)


def test_expm_pullback_is_the_frechet_derivative_at_the_adjoint():
    a, g = non_normal(np.complex128), sample((3, 3), np.complex128, 5)
    _, pullback = cr.rrule(scipy.linalg.expm, a)
    expected = scipy.linalg.expm_frechet(np.conj(a.T), g, compute_expm=False)
    np.testing.assert_allclose(pullback(g)[1], expected, rtol=1e-12)


@pytest.mark.parametrize("t", [0.3, 2, -0.5], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_fractional_matrix_power(t, dtype):
    a = positive_spectrum(dtype)
    check_rules(scipy.linalg.fractional_matrix_power, a, t)


@pytest.mark.parametrize("compute_expm", [True, False])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_expm_frechet(compute_expm, dtype):
    a, e = 0.5 * sample((3, 3), dtype), sample((3, 3), dtype, 3)
    kwargs = {"compute_expm": compute_expm}
    check_rules(scipy.linalg.expm_frechet, a, e, fkwargs=kwargs)


@pytest.mark.parametrize(
    "f, args",
    [
        (scipy.linalg.sqrtm, ()),
        (scipy.linalg.logm, ()),
        (scipy.linalg.fractional_matrix_power, (0.3,)),
    ],
    ids=["sqrtm", "logm", "fractional_matrix_power"],
)
def test_branch_cut_of_a_real_matrix_with_negative_eigenvalues(f, args):
    # The value is complex and f(A^H) != f(A)^H there: the pullback must not assume otherwise.
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 4))
    a = a + a.T
    assert np.linalg.eigvalsh(a).min() < 0
    test_rrule(f, a, *args)


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
