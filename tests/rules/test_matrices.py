"""Tests of the linear-algebra building blocks shared by the rules."""

import re

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules as cr
from chainrules.core.errors import ProjectionError
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


# ---- empty stacks, which SciPy's LAPACK wrappers refuse ---------------------------------------


def test_factored_and_triangular_solves_of_empty_stacks():
    a, b = np.zeros((0, 3, 3)), np.zeros((0, 3, 2))
    assert Factored(a).solve(b, adjoint=True).shape == (0, 3, 2)
    assert solve_triangular(a, b, lower=True).shape == (0, 3, 2)


# ---- structured outputs: a cotangent component of the wrong shape ----------------------------

_A = np.random.default_rng(7).standard_normal((3, 3)) + 3 * np.eye(3)
_H = _A + _A.T
STRUCTURED = [
    # (function, arguments, output component given the wrong shape, by name or position)
    (np.linalg.slogdet, (_A,), "logabsdet"),
    (np.linalg.svd, (_A,), "S"),
    (np.linalg.eigh, (_H,), "eigenvalues"),
    (np.linalg.eig, (_A,), "eigenvectors"),
    (np.linalg.qr, (_A,), "Q"),
    (np.linalg.lstsq, (_A, np.ones(3)), 0),
    (sla.svd, (_A,), 1),
    (sla.qr, (_A,), 1),
    (sla.rq, (_A,), 0),
    (sla.lu, (_A,), 2),
    (sla.lu_factor, (_A,), 0),
    (sla.eigh, (_H,), 0),
    (sla.eig, (_A,), 1),
    (sla.polar, (_A,), 1),
    (sla.schur, (_H,), 0),
    (sla.cho_factor, (_H @ _H,), 0),
    (sla.hessenberg, (_A,), 1),
    (sla.ldl, (_H,), 1),
    (sla.qz, (_A, _H), 3),
    (sla.lstsq, (_A, np.ones(3)), 0),
]


@pytest.mark.parametrize(
    "f, args, which", STRUCTURED, ids=[f"{f.__module__}.{f.__name__}" for f, *_ in STRUCTURED]
)
@pytest.mark.parametrize("form", ["tangent", "tuple", "list"])
def test_structured_output_cotangent_of_the_wrong_shape(f, args, which, form):
    """A batched (2, ...) cotangent for one component, given as the Tangent an engine builds
    (by name for a namedtuple, by position otherwise), a tuple or a list: ProjectionError
    naming the function and both shapes, never a silently broadcast or summed cotangent."""
    kwargs = {"calc_q": True} if f is sla.hessenberg else {}
    y, pullback = cr.rrule(f, *args, **kwargs)
    names = getattr(type(y), "_fields", None)
    index = names.index(which) if isinstance(which, str) else which
    component = np.asarray(y[index])
    wrong = np.ones((2, *component.shape), dtype=component.dtype)
    if form == "tangent" and names:
        dy = cr.Tangent(type(y), **{names[index]: wrong})
    else:
        parts = [cr.ZeroTangent()] * len(y)
        parts[index] = wrong
        container = {"tangent": lambda p: cr.Tangent(tuple, *p), "tuple": tuple, "list": list}
        dy = container[form](parts)
    expected = re.escape(f"shape {wrong.shape}")
    with pytest.raises(ProjectionError, match=rf"{f.__name__}.*{expected}"):
        pullback(dy)
