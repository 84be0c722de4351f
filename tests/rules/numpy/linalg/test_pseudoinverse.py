"""Tests of the rules for np.linalg.pinv and np.linalg.lstsq, rank-deficient inputs included."""

import mpmath
import numpy as np
import pytest
import scipy.linalg as sla
from chainrules_testing import test_frule, test_rrule
from chainrules_testing.strategies import distinct_singular_values
from hypothesis import find
from samples import DTYPES, ids, sample

import chainrules as cr
from chainrules.engines import call, hessian, reverse


def full_rank(m, n, dtype):
    """An ``m x n`` matrix with singular values at least 0.5 apart and from zero."""
    return find(distinct_singular_values(m, n, dtype=dtype), lambda a: True)


SHAPES = [(3, 3), (4, 2), (2, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_pinv(shape, dtype):
    a = full_rank(*shape, dtype)
    test_rrule(np.linalg.pinv, a, check_second_order=True)
    test_frule(np.linalg.pinv, a)


def test_pinv_stacked_and_hermitian():
    test_rrule(np.linalg.pinv, sample((2, 4, 3)))
    a = sample((3, 3), np.complex128)
    test_rrule(np.linalg.pinv, a, fkwargs={"hermitian": True})
    test_frule(np.linalg.pinv, a, fkwargs={"hermitian": True})


LSTSQ = [((4, 2), (4,)), ((4, 2), (4, 3)), ((3, 3), (3,)), ((2, 4), (2, 2))]


@pytest.mark.parametrize("a_shape, b_shape", LSTSQ, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lstsq(a_shape, b_shape, dtype):
    a, b = full_rank(*a_shape, dtype), sample(b_shape, dtype, 1)
    test_rrule(np.linalg.lstsq, a, b, check_second_order=True)
    test_frule(np.linalg.lstsq, a, b)


def test_lstsq_matches_numpy_outputs():
    a, b = sample((5, 3)), sample((5, 2), seed=1)
    (x, residuals, rank, _), _ = cr.rrule(np.linalg.lstsq, a, b)
    expected = np.linalg.lstsq(a, b)
    np.testing.assert_allclose(x, expected[0], rtol=1e-12)
    np.testing.assert_allclose(residuals, expected[1], rtol=1e-12)
    assert rank == expected[2] == 3


def rank_two(dtype):
    """``b c`` of rank two, with a perturbation ``db c + b dc`` that keeps the rank."""
    b, c = sample((4, 2), dtype, 1), sample((2, 3), dtype, 2)
    db, dc = sample((4, 2), dtype, 3), sample((2, 3), dtype, 4)
    return b, c, db, dc


def along_rank_preserving(f, dtype, h=1e-6):
    b, c, db, dc = rank_two(dtype)
    fd = (f((b + h * db) @ (c + h * dc)) - f((b - h * db) @ (c - h * dc))) / (2 * h)
    return b @ c, db @ c + b @ dc, fd


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_pinv_rank_deficient_along_rank_preserving_perturbations(dtype):
    """Where the rank is locally constant, the rules give pinv's derivative."""
    a, da, fd = along_rank_preserving(np.linalg.pinv, dtype)
    _, dy = cr.frule((None, da), np.linalg.pinv, a)
    np.testing.assert_allclose(dy, fd, atol=1e-7)
    g = sample((3, 4), dtype, 5)
    _, pullback = cr.rrule(np.linalg.pinv, a)
    np.testing.assert_allclose(
        np.real(np.vdot(pullback(g)[1], da)), np.real(np.vdot(g, fd)), rtol=1e-7
    )


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lstsq_rank_deficient_along_rank_preserving_perturbations(dtype):
    rhs = sample((4,), dtype, 6)
    a, da, fd = along_rank_preserving(lambda m: np.linalg.lstsq(m, rhs)[0], dtype)
    (_, residuals, rank, _), dy = cr.frule((None, da, cr.ZeroTangent()), np.linalg.lstsq, a, rhs)
    assert rank == 2 and residuals.shape == (0,)
    np.testing.assert_allclose(dy[0], fd, atol=1e-7)
    g = sample((3,), dtype, 7)
    _, pullback = cr.rrule(np.linalg.lstsq, a, rhs)
    da_bar = pullback(cr.Tangent(tuple, g, cr.ZeroTangent(), cr.NoTangent(), cr.ZeroTangent()))[1]
    np.testing.assert_allclose(np.real(np.vdot(da_bar, da)), np.real(np.vdot(g, fd)), rtol=1e-7)


# ---- pinv at every rank: first and second derivatives along rank-preserving curves ----------


def factors(m, n, r, seed):
    """``b`` (m x r), ``c`` (r x n) of full rank ``r`` and their tangents: the curve
    ``(b + t db) (c + t dc)`` keeps rank ``r`` near ``t = 0``."""
    rng = np.random.default_rng(seed)
    b, c, db, dc = (rng.standard_normal(s) for s in [(m, r), (r, n), (m, r), (r, n)])
    return b + 2 * np.eye(m, r), c + 2 * np.eye(r, n), db, dc


def reference_derivatives(b, c, db, dc, w):
    """phi(t) = <w, pinv((b + t db)(c + t dc))> and its first two derivatives at 0, from the
    closed form pinv(b c) = c^H (c c^H)^-1 (b^H b)^-1 b^H (full-rank factors), in 30 digits."""
    mp = mpmath

    def phi(t):
        bt = mp.matrix(b.tolist()) + t * mp.matrix(db.tolist())
        ct = mp.matrix(c.tolist()) + t * mp.matrix(dc.tolist())
        p = ct.T * mp.inverse(ct * ct.T) * mp.inverse(bt.T * bt) * bt.T
        return mp.fsum(p[i, j] * w[i, j] for i in range(p.rows) for j in range(p.cols))

    with mp.workdps(30):
        return [float(mp.diff(phi, 0, k)) for k in (1, 2)]


PINVS = [np.linalg.pinv, sla.pinv]
RANKED = [(n, n, r) for n in (1, 2, 3, 4) for r in range(1, n + 1)] + [
    (2, 4, 1),
    (4, 2, 2),
    (3, 5, 2),
]


@pytest.mark.parametrize("pinv", PINVS, ids=["numpy", "scipy"])
@pytest.mark.parametrize("m, n, r", RANKED, ids=str)
def test_pinv_second_derivative_along_rank_preserving_curves(pinv, m, n, r):
    """Reverse over reverse and forward over reverse agree with the closed form. Tolerance:
    factors with singular values of order one, so a few hundred ulps of the 1e-0 values."""
    b, c, db, dc = factors(m, n, r, seed=100 * m + 10 * n + r)
    w = sample((n, m), seed=r)

    def phi(t):
        return np.sum(w * call(pinv, (b + t * db) @ (c + t * dc)))

    first, second = reference_derivatives(b, c, db, dc, w)
    np.testing.assert_allclose(reverse.grad(phi)(0.0), first, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(reverse.grad(reverse.grad(phi))(0.0), second, rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(hessian(phi)(0.0), second, rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("pinv", PINVS, ids=["numpy", "scipy"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (1, 1)], ids=str)
def test_pinv_of_the_zero_matrix(pinv, shape):
    """Rank 0: the only rank-preserving direction is zero; the derivatives are finite zeros,
    never NaN."""
    a = np.zeros(shape)
    g = reverse.grad(lambda x: np.sum(call(pinv, x) ** 2))(a)
    np.testing.assert_array_equal(g, np.zeros(shape))
    h = hessian(lambda x: np.sum(call(pinv, x)))(a)
    assert np.all(np.isfinite(h))


@pytest.mark.parametrize(
    "a_shape, b_shape", [((0, 3), (0,)), ((3, 0), (3,)), ((3, 0), (3, 2)), ((0, 0), (0,))], ids=str
)
def test_lstsq_and_pinv_of_empty_matrices(a_shape, b_shape):
    """Rank 0. NumPy's residuals of a 3 x 0 system are |b|^2 (full column rank, m > n), with
    cotangent 2 b g."""
    a, b = sample(a_shape), sample(b_shape, seed=1)
    (_, residuals, rank, _), _ = cr.rrule(np.linalg.lstsq, a, b)
    expected = np.linalg.lstsq(a, b)
    assert rank == expected[2] == 0 and residuals.shape == expected[1].shape
    test_rrule(np.linalg.lstsq, a, b, check_second_order=False)
    test_frule(np.linalg.lstsq, a, b)
    for pinv in PINVS:
        test_rrule(pinv, a, check_second_order=False)
        test_frule(pinv, a)
