"""Tests of the rules for scipy.linalg.null_space and subspace_angles."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import with_tangent
from fdm import central_fdm
from samples import DTYPES, check_both, draw, ids

import chainrules as cr
from chainrules.rules.matrices import mH

SMALL_STEPS = central_fdm(5, 1)  # pivoting and singular vectors are piecewise constant


# ---- null_space ---------------------------------------------------------------------------


def gauge_free(n, seed=3):
    """A random cotangent of the basis ``n`` with no component along ``n X`` (``X``
    skew-Hermitian): the rotations of the basis within the null space, which are a gauge."""
    g = draw(n.shape, n.dtype, seed)
    nh_g = mH(n) @ g
    return g - n @ (nh_g - mH(nh_g)) / 2


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=ids)
def test_null_space_of_one_dimension_is_the_derivative_of_n(dtype):
    """Real, of full row rank and one-dimensional: N is unique up to its sign, and smooth."""
    atol = 1e-5 if dtype == np.float32 else None  # entries near zero, rounded in float32
    kwargs = {"fdm": SMALL_STEPS, "atol": atol, "check_second_order": True}
    check_both(scipy.linalg.null_space, draw((2, 3), dtype), **kwargs)


@pytest.mark.parametrize("shape", [(2, 3), (2, 5)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_null_space_on_gauge_free_losses(shape, dtype):
    a = draw(shape, dtype)
    dy = gauge_free(scipy.linalg.null_space(a))
    # Second order moves the cotangent off the gauge-free ones, where no derivative exists.
    kwargs = {"output_tangent": dy, "fdm": SMALL_STEPS, "check_second_order": False}
    check_both(scipy.linalg.null_space, a, **kwargs)


def projector_derivative(a, da):
    """The derivative of ``N N^H`` by finite differences, and by the frule."""
    n, dn = cr.frule((None, da), scipy.linalg.null_space, a)
    assert np.allclose(mH(n) @ dn, 0, atol=1e-12)  # the gauge-fixed derivative
    h = 1e-6

    def projector(s):
        m = scipy.linalg.null_space(a + s * h * da)
        return m @ mH(m)

    return (projector(1) - projector(-1)) / (2 * h), dn @ mH(n) + n @ mH(dn)


def test_null_space_projector_matches_finite_differences():
    a, da = draw((2, 5), np.complex128), draw((2, 5), np.complex128, 1)
    np.testing.assert_allclose(*projector_derivative(a, da), atol=1e-8)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_null_space_of_a_rank_deficient_matrix(dtype):
    """A 4x4 ``a`` of rank 2 along ``a (I + t y)``, which keeps the rank and moves the null
    space (the signs of its basis follow rounding errors: the projector is checked)."""
    a = draw((4, 2), dtype) @ draw((2, 4), dtype, 1)
    da = a @ draw((4, 4), dtype, 2)
    assert scipy.linalg.null_space(a).shape == (4, 2)
    np.testing.assert_allclose(*projector_derivative(a, da), atol=1e-7)


def test_null_space_of_full_rank_is_empty():
    n, pullback = cr.rrule(scipy.linalg.null_space, draw((3, 3)) + 3 * np.eye(3))
    assert n.shape == (3, 0)
    np.testing.assert_array_equal(pullback(np.zeros((3, 0)))[1], np.zeros((3, 3)))


# ---- subspace_angles ----------------------------------------------------------------------


@pytest.mark.parametrize("shapes", [((5, 2), (5, 3)), ((5, 3), (5, 2)), ((4, 2), (4, 2))], ids=str)
@pytest.mark.parametrize("dtype", [*DTYPES, np.float32], ids=ids)
def test_subspace_angles(shapes, dtype):
    a, b = draw(shapes[0], dtype), draw(shapes[1], dtype, 1)
    check_both(scipy.linalg.subspace_angles, a, b, check_second_order=np.dtype(dtype).kind == "f")


def test_subspace_angles_of_rank_deficient_matrices():
    """``orth`` keeps two columns of a rank-2 ``a``; ``x a`` moves its column space along the
    whole line ``(I + t x) a``, at constant rank."""
    a = draw((5, 2)) @ draw((2, 3), seed=1)
    moved = with_tangent(a, draw((5, 5), seed=2) @ a)
    check_both(scipy.linalg.subspace_angles, moved, draw((5, 2), seed=3), fdm=SMALL_STEPS)
    check_both(scipy.linalg.subspace_angles, draw((5, 1), seed=4), moved, fdm=SMALL_STEPS)


def equal_angles(t=0.6):
    """Two planes in R^5 at two equal principal angles ``t``."""
    e = np.eye(5)
    a = e[:, :2] @ np.array([[2.0, 1.0], [0.0, 1.0]])
    b = np.cos(t) * e[:, :2] + np.sin(t) * e[:, 2:4]
    return a, b


def test_subspace_angles_sum_at_equal_angles():
    """Equal angles are not separately differentiable, but their sum is, and exactly."""
    a, b = equal_angles()
    np.testing.assert_allclose(scipy.linalg.subspace_angles(a, b), [0.6, 0.6])
    da, db = draw((5, 2), seed=1), draw((5, 2), seed=2)
    _, pullback = cr.rrule(scipy.linalg.subspace_angles, a, b)
    _, g_a, g_b = pullback(np.ones(2))
    h = 1e-6

    def total(s):
        return np.sum(scipy.linalg.subspace_angles(a + s * h * da, b + s * h * db))

    fd = (total(1) - total(-1)) / (2 * h)
    np.testing.assert_allclose(np.sum(g_a * da) + np.sum(g_b * db), fd, rtol=1e-7)
    _, d_theta = cr.frule((None, da, db), scipy.linalg.subspace_angles, a, b)
    np.testing.assert_allclose(np.sum(d_theta), fd, rtol=1e-7)


def test_subspace_angles_at_the_kinks_are_zero():
    """theta = 0 (a shared direction) and pi / 2 (an orthogonal one) are kinks, as |x| at 0."""
    e = np.eye(4)
    a, b = e[:, :2], np.stack([e[:, 0], (e[:, 1] + e[:, 2]) / np.sqrt(2)], axis=1)
    theta, pullback = cr.rrule(scipy.linalg.subspace_angles, a, b)
    np.testing.assert_allclose(theta, [np.pi / 4, 0.0], atol=1e-7)
    g = pullback(np.array([0.0, 1.0]))
    np.testing.assert_array_equal(g[1], 0)
    theta, pullback = cr.rrule(scipy.linalg.subspace_angles, e[:, :1], e[:, 1:2])
    np.testing.assert_allclose(theta, [np.pi / 2])
    np.testing.assert_array_equal(pullback(np.ones(1))[1], 0)
