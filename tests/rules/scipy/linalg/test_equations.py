"""Tests of the rules for scipy.linalg's Sylvester and Lyapunov equations and schur."""

import numpy as np
import pytest
import scipy.linalg
from fdm import central_fdm
from samples import DTYPES, ids, rule_checker, sample

import chainrules as cr

SMALL_STEPS = central_fdm(5, 1)  # Schur vectors flip sign where eigenvalues cross

# Rows without a second-order check, with the reason ("second derivative: not available,
# because ..."). The equations' solvers are called through chainrules.core.calls.call, so
# their pullbacks differentiate again; the Schur decomposition is not.
COMPILED_SCHUR = "LAPACK's Schur decomposition computes the value"
NO_SECOND_ORDER = {scipy.linalg.schur: COMPILED_SCHUR}


check_rules = rule_checker(NO_SECOND_ORDER)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve_sylvester(dtype):
    a, b = sample((3, 3), dtype) + 3 * np.eye(3), sample((2, 2), dtype, 1) + 3 * np.eye(2)
    q = sample((3, 2), dtype, 2)
    check_rules(scipy.linalg.solve_sylvester, a, b, q)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve_continuous_lyapunov(dtype):
    a, q = sample((3, 3), dtype) + 3 * np.eye(3), sample((3, 3), dtype, 1)
    check_rules(scipy.linalg.solve_continuous_lyapunov, a, q)


@pytest.mark.parametrize("method", [None, "bilinear"])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve_discrete_lyapunov(method, dtype):
    a, q = 0.3 * sample((3, 3), dtype), sample((3, 3), dtype, 1)
    check_rules(scipy.linalg.solve_discrete_lyapunov, a, q, method)


def with_real_eigenvalues():
    s = sample((4, 4)) + 2 * np.eye(4)
    return s @ np.diag([1.0, 2.0, 3.5, 5.0]) @ np.linalg.inv(s)


def test_schur_real_triangular():
    for a in (with_real_eigenvalues(), sample((4, 4)) + sample((4, 4)).T):
        check_rules(scipy.linalg.schur, a, fdm=SMALL_STEPS)


def test_schur_real_with_complex_pairs_has_no_rule():
    with pytest.raises(ValueError, match="output='complex'"):
        cr.rrule(scipy.linalg.schur, np.array([[0.0, -1.0], [1.0, 0.0]]))


def test_schur_complex_frule_and_rrule_agree():
    """Complex Schur vectors have LAPACK-chosen phases (and T with them): the rules are
    checked against each other with a phase-free cotangent, and T's diagonal (the
    eigenvalues, phase-free) against finite differences."""
    a, da = sample((4, 4), np.complex128), sample((4, 4), np.complex128, 1)
    (t, z), tangent = cr.frule((None, da), scipy.linalg.schur, a, "complex")
    g_t, g_z = np.diag(sample((4,), np.complex128, 2)), sample((4, 4), np.complex128, 3)
    g_z = g_z - z * (1j * np.imag(np.diagonal(np.conj(z.T) @ g_z)))
    _, pullback = cr.rrule(scipy.linalg.schur, a, "complex")
    lhs = np.real(np.vdot(g_t, tangent[0]) + np.vdot(g_z, tangent[1]))
    np.testing.assert_allclose(lhs, np.real(np.vdot(pullback((g_t, g_z))[1], da)), rtol=1e-10)
    h = 1e-6
    diagonal = [
        np.sort_complex(np.diagonal(scipy.linalg.schur(a + s * h * da, "complex")[0]))
        for s in (1, -1)
    ]
    order = np.argsort(np.argsort(np.diagonal(t)))  # match the sorted eigenvalues
    np.testing.assert_allclose(
        (diagonal[0] - diagonal[1])[order] / (2 * h), np.diagonal(tangent[0]), rtol=1e-5
    )


def test_schur_of_a_stack_is_refused():
    """SciPy accepts stacks; the rule's Sylvester system is built for one matrix, and was a
    broadcasting crash inside it."""
    a = sample((2, 3, 3))
    a = a + np.swapaxes(a, -1, -2)
    for rule in (
        lambda: cr.rrule(scipy.linalg.schur, a),
        lambda: cr.frule((None, a), scipy.linalg.schur, a),
    ):
        with pytest.raises(ValueError, match=r"schur.*argument a.*stacks.*\(2, 3, 3\)"):
            rule()
