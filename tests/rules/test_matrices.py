"""Tests of the linear-algebra building blocks shared by the rules."""

import numpy as np
import pytest

from chainrules.rules.matrices import (
    Factored,
    lower_hermitian,
    lower_hermitian_cotangent,
    lower_symmetric,
    lower_symmetric_cotangent,
    safe_reciprocal,
    solve_triangular,
    solve_triangular_right,
)


def sample(shape, dtype=np.complex128, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


@pytest.mark.parametrize(
    "forward, adjoint",
    [(lower_hermitian, lower_hermitian_cotangent), (lower_symmetric, lower_symmetric_cotangent)],
    ids=["hermitian", "symmetric"],
)
@pytest.mark.parametrize("upper", [False, True])
def test_triangle_maps_and_their_adjoints(forward, adjoint, upper):
    """<g, forward(x)> = <adjoint(g), x> in the real inner product."""
    x, g = sample((2, 3, 3)), sample((2, 3, 3), seed=1)
    lhs = np.real(np.vdot(g, forward(x, upper=upper)))
    np.testing.assert_allclose(lhs, np.real(np.vdot(adjoint(g, upper=upper), x)), rtol=1e-12)


def test_lower_hermitian_reads_one_triangle():
    a = np.array([[1.0 + 2j, 9.0], [3.0 - 1j, 4.0]])
    np.testing.assert_array_equal(lower_hermitian(a), [[1.0, 3.0 + 1j], [3.0 - 1j, 4.0]])


@pytest.mark.parametrize("adjoint", [False, True])
def test_factored_solves(adjoint):
    a, b = sample((2, 3, 3)) + 3 * np.eye(3), sample((3, 2), seed=1)
    m = np.conj(np.swapaxes(a, -1, -2)) if adjoint else a
    np.testing.assert_allclose(Factored(a).solve(b, adjoint=adjoint), np.linalg.solve(m, b))


def test_factored_singular_matrix():
    with pytest.raises(np.linalg.LinAlgError):
        Factored(np.zeros((2, 2))).require_invertible()


def test_triangular_solves():
    t, b = np.tril(sample((3, 3))) + 3 * np.eye(3), sample((3, 3), seed=1)
    np.testing.assert_allclose(t @ solve_triangular(t, b, lower=True), b)
    np.testing.assert_allclose(solve_triangular_right(b, t, lower=True) @ t, b)
    np.testing.assert_allclose(t.conj().T @ solve_triangular(t, b, lower=True, adjoint=True), b)


def test_safe_reciprocal_masks_small_values():
    np.testing.assert_array_equal(
        safe_reciprocal(np.array([2.0, 0.0, 1e-20, -4.0]), 1e-10), [0.5, 0.0, 0.0, -0.25]
    )
