"""Tests of the hypergeometric functions on jets: the regions of 2F1 and their seams."""

import mpmath as M
import numpy as np
import pytest

from chainrules.rules.scipy.special.hypergeometric_jets import hyp0f1_jet, hyp1f1_jet, hyp2f1_jet
from chainrules.rules.scipy.special.jets import parameter_jets


def _hyp2f1(a, b, c, z):
    return hyp2f1_jet(*parameter_jets(a, b, c), np.asarray(z))


# both sides of each seam: |z| = 1/2 (series / ODE), |1 - z| = 1 (Pfaff), near and at z = 1
@pytest.mark.parametrize("z", [0.49, 0.51, -0.99, -1.01, 1 - 1e-12, 0.6 + 0.79j, 0.5 + 0.5j])
def test_hyp2f1_across_its_seams(z):
    a, b, c = 0.7, 1.3, 2.9
    found = _hyp2f1(a, b, c, z)
    with M.workdps(30):
        f = lambda *p: M.hyp2f1(*p, z)
        for i in range(3):
            order = tuple(int(i == j) for j in range(3))
            exact = complex(M.diff(f, (a, b, c), order))
            # the ODE's tolerance 1e-11: measured 1e-12 at worst here
            assert complex(found.gradient[i]) == pytest.approx(exact, rel=1e-10)


def test_hyp2f1_degenerate_exponent_is_smooth():
    # c - a - b = 0, 1, 2: no special case; the derivatives either side of each agree
    for gap in (0.0, 1.0, 2.0):
        left = _hyp2f1(0.5, 0.5, 1.0 + gap - 1e-7, 0.99).gradient
        right = _hyp2f1(0.5, 0.5, 1.0 + gap + 1e-7, 0.99).gradient
        np.testing.assert_allclose(left, right, rtol=1e-5)


def test_confluent_and_bessel_series():
    (a,) = parameter_jets(0.5)
    found = hyp1f1_jet(a, 1.5, np.asarray(-30.0))
    with M.workdps(30):
        assert float(found.gradient[0]) == pytest.approx(
            float(M.diff(lambda p: M.hyp1f1(p, 1.5, -30), 0.5)), rel=1e-13
        )
    (v,) = parameter_jets(1.5)
    found = hyp0f1_jet(v, np.asarray(4.0))
    with M.workdps(30):
        assert float(found.hessian[0, 0]) == pytest.approx(
            float(M.diff(lambda p: M.hyp0f1(p, 4), 1.5, 2)), rel=1e-13
        )


def _euler(a, b, c, z):
    """2F1 by Euler's integral (DLMF 15.6.1, 0 < b < c), split where its weight
    t^(b-1) (1-t)^(c-b-1) gathers for large c (near t = b/c); a reference mpmath's own 2F1 does
    not converge to at c = 1e8 and z = -2.5."""
    cuts = sorted({0, 1, *(M.mpf(10) ** k * b / c for k in range(-3, 4) if 10.0**k * b < c)})
    weight = lambda t: t ** (b - 1) * (1 - t) ** (c - b - 1) * (1 - z * t) ** (-a)
    return M.gamma(c) / (M.gamma(b) * M.gamma(c - b)) * M.quad(weight, cuts)


# c = 1e8 took 12 s for NaN (the differential equation, stiff in c); c = 1000 is beside it on
# the ordinary side, once integrated, now summed; both through 2F1's own series in z. The
# references: mpmath.diff at 30 digits of Euler's integral (``_euler``), first and second
# derivative in a, b, c (kept here: they take 10 s a point to compute).
@pytest.mark.parametrize(
    "a, b, c, z, firsts, seconds",
    [
        (
            0.5,
            1.0,
            1e8,
            -2.5,
            [-2.4999998750000104e-08, -1.2499999296875061e-08, 1.2499999062500102e-16],
            [1.2499998468750212e-15, 4.687499367187593e-16, -2.499999718750041e-24],
        ),
        (
            2.5,
            1.5,
            1000.0,
            -2.5,
            [-0.00368095390580773, -0.006142516935238272, 9.174169598759645e-06],
            [2.271589917200515e-05, 5.313464027739544e-05, -1.8151661548231372e-08],
        ),
    ],
)
def test_hyp2f1_large_lower_parameter(a, b, c, z, firsts, seconds):
    found = _hyp2f1(a, b, c, z)
    # the series is summed to rounding; measured within 4e-16
    assert found.gradient.tolist() == pytest.approx(firsts, rel=1e-13, abs=0)
    assert np.diagonal(found.hessian).tolist() == pytest.approx(seconds, rel=1e-13, abs=0)


def test_euler_reference_against_mpmath_where_it_converges():
    # the reference above is Euler's integral: at c = 1000 mpmath's own 2F1 converges too
    with M.workdps(30):
        assert _euler(2.5, 1.5, 1000.0, -2.5) == pytest.approx(
            M.hyp2f1(2.5, 1.5, 1000.0, -2.5), rel=1e-25
        )


def test_hyp2f1_lower_parameter_at_1e300():
    # F = 1 + a b z/c + O(c^-2): d/da = b z/c, d/db = a z/c, d/dc = -a b z/c^2 (1.25e-600: 0 in
    # double precision); all three were NaN
    found = _hyp2f1(0.5, 1.0, 1e300, -2.5)
    assert float(found.value) == 1.0
    assert found.gradient.tolist() == pytest.approx([-2.5e-300, -1.25e-300, 0.0], rel=1e-15, abs=0)
    assert found.gradient[2] == 0.0
    assert np.all(np.isfinite(found.hessian))


# Pfaff's side at |z| = 1e300 (w = z/(z - 1) rounds to 1: NaN after 19 s) and 5e7, where
# Gauss's sum and a few terms in 1 - w = 1/(1 - z) give 2F1; z = -1e5 beside them (integrated).
@pytest.mark.parametrize(
    "a, b, c, z",
    [
        (0.5, 1.0, 1.5, -1e300),
        (30.0, 1.0, 1.5, -1e300),
        (-0.5, 1.5, 1.0, -5e299),
        (-0.5, 2.5, 1.5, -5e7),
        (-0.5, 60.5, 30.5, -5e7),
        (0.5, 1.0, 1.5, -1e5),
    ],
)
def test_hyp2f1_far_out_on_pfaffs_side(a, b, c, z):
    found = _hyp2f1(a, b, c, z)
    with M.workdps(30):
        f = lambda *p: M.hyp2f1(*p, z)
        value = float(f(a, b, c))
        assert float(found.value) == pytest.approx(value, rel=1e-13, abs=0)
        # Gauss's sum on jets of log-gammas: measured within 1.4e-13 (the b derivative at b =
        # 60.5 cancels to 1/250 of its terms); the differential equation within 1e-11. A
        # derivative that is 0 (at b = 1 the function is linear in c) is rounding of size F.
        near = 1e-13 * abs(value)
        for i in range(3):
            order = tuple(int(i == j) for j in range(3))
            exact = float(M.diff(f, (a, b, c), order))
            assert float(found.gradient[i]) == pytest.approx(exact, rel=1e-11, abs=near)
            exact = float(M.diff(f, (a, b, c), tuple(2 * o for o in order)))
            assert float(found.hessian[i, i]) == pytest.approx(exact, rel=1e-11, abs=near)


def test_hyp2f1_too_stiff_is_nan_at_once():
    # a = 1e5 at z = 0.9: no series applies and the differential equation would need about
    # 1e6 steps; NaN, as it was after 50000 right-hand sides, not a number
    found = _hyp2f1(1e5, 1.0, 1.5, 0.9)
    assert np.isnan(found.value) and np.all(np.isnan(found.gradient))
