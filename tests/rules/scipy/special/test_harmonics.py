"""Tests of the rules for spherical harmonics and Legendre functions of all degrees."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, with_tangent
from fdm import forward_fdm

import chainrules as cr
from chainrules import NoTangent, RuleKeywordError, ZeroTangent
from chainrules.core.calls import call
from chainrules.engines import reverse

THETA = np.array([0.3, 1.2, 2.0, 2.9])
PHI = np.array([0.4, 2.5, 4.1, 5.9])
X = np.array([-0.8, -0.2, 0.45, 0.9])
NEAR_EDGE = np.array([-0.999, 0.998])
COMPLEX = np.array([0.3 + 0.4j, -1.5 - 0.2j, 2.0 + 1.0j])

# (name, function, arguments, keywords); every row at diff_n = 0, 1 and 2, second order on.
ROWS = [
    ("sph_harm_y", sc.sph_harm_y, (np.array([0, 2, 3, 4]), np.array([0, -1, 3, 2]), THETA, PHI)),
    ("sph_harm_y-broadcast", sc.sph_harm_y, (np.array([[1], [3]]), 1, THETA[:3], 0.7)),
    ("sph_harm_y-beyond-n", sc.sph_harm_y, (1, np.array([2, -2]), THETA[:2], PHI[:2])),
    ("sph_harm_y_all", sc.sph_harm_y_all, (3, 2, THETA, PHI)),
    ("sph_harm_y_all-broadcast", sc.sph_harm_y_all, (2, 1, THETA[:2, None], PHI[:3])),
    ("legendre_p_all", sc.legendre_p_all, (5, X)),
    ("legendre_p_all-near-edge", sc.legendre_p_all, (5, NEAR_EDGE)),
    ("legendre_p_all-complex", sc.legendre_p_all, (4, COMPLEX)),
    ("assoc_legendre_p_all", sc.assoc_legendre_p_all, (4, 2, X)),
    ("assoc_legendre_p_all-norm", sc.assoc_legendre_p_all, (4, 3, X), {"norm": True}),
    ("assoc_legendre_p_all-near-edge", sc.assoc_legendre_p_all, (3, 2, NEAR_EDGE)),
    ("assoc_legendre_p_all-complex", sc.assoc_legendre_p_all, (3, 2, COMPLEX)),
    (
        "assoc_legendre_p_all-cut3",
        sc.assoc_legendre_p_all,
        (3, 2, np.array([1.5, 2.5])),
        {"branch_cut": 3},
    ),
    ("sph_legendre_p_all", sc.sph_legendre_p_all, (4, 2, THETA)),
]
CASES = [(*row, {}) if len(row) == 3 else row for row in ROWS]


@pytest.mark.parametrize("diff_n", [0, 1, 2])
@pytest.mark.parametrize(("name", "f", "args", "kwargs"), CASES, ids=[c[0] for c in CASES])
def test_rrule_harmonics(name, f, args, kwargs, diff_n):
    test_rrule(f, *args, fkwargs={**kwargs, "diff_n": diff_n})


@pytest.mark.parametrize("diff_n", [0, 1, 2])
@pytest.mark.parametrize(("name", "f", "args", "kwargs"), CASES, ids=[c[0] for c in CASES])
def test_frule_harmonics(name, f, args, kwargs, diff_n):
    test_frule(f, *args, fkwargs={**kwargs, "diff_n": diff_n})


# ---- the poles theta = 0, pi: SciPy is defined on [0, pi], so steps go inwards -------------

POLES = np.array([0.0, 0.0, np.pi, np.pi])
INWARDS = np.array([1.0, 0.5, -1.0, -0.5])
POLE_ROWS = [
    (sc.sph_harm_y, (np.array([2, 3, 2, 1]), np.array([0, 1, -2, 1]))),
    (sc.sph_harm_y_all, (3, 2)),
]


@pytest.mark.parametrize("diff_n", [0, 1, 2])
@pytest.mark.parametrize(("f", "integers"), POLE_ROWS, ids=["sph_harm_y", "sph_harm_y_all"])
def test_rules_at_the_poles(f, integers, diff_n):
    theta = with_tangent(POLES, INWARDS)
    for harness in (test_rrule, test_frule):
        harness(f, *integers, theta, PHI, fkwargs={"diff_n": diff_n}, fdm=forward_fdm(6, 1))


@pytest.mark.parametrize("diff_n", [0, 1, 2])
def test_sph_legendre_p_all_at_the_poles(diff_n):
    theta = with_tangent(POLES, INWARDS)
    for harness in (test_rrule, test_frule):
        harness(
            sc.sph_legendre_p_all, 3, 2, theta, fkwargs={"diff_n": diff_n}, fdm=forward_fdm(6, 1)
        )


@pytest.mark.parametrize("m", [0, 1, -2])
def test_phi_derivative_vanishes_at_the_poles(m):
    # Y = S(theta) e^{i m phi} with S(0) = S(pi) = 0 unless m = 0: dY/dphi = i m Y is 0 there.
    _, pullback = cr.rrule(sc.sph_harm_y, 2, m, POLES, PHI)
    np.testing.assert_allclose(pullback(np.ones(4) + 1j)[4], 0.0, atol=1e-15)


# ---- the identities the rules rest on -------------------------------------------------------


@pytest.mark.parametrize("n", range(6))
def test_ladder_relation(n):
    # 2 S_n^m' = sqrt((n-m)(n+m+1)) S_n^{m+1} - sqrt((n+m)(n-m+1)) S_n^{m-1}, poles included.
    theta = np.array([0.0, 0.3, 1.1, 2.9, np.pi])
    for m in range(-n - 1, n + 2):
        slope = sc.sph_legendre_p(n, m, theta, diff_n=2)[1:]
        up, down = (
            sc.sph_legendre_p(n, m + 1, theta, diff_n=1),
            sc.sph_legendre_p(n, m - 1, theta, diff_n=1),
        )
        a_up = np.sqrt(max((n - m) * (n + m + 1), 0))
        a_down = np.sqrt(max((n + m) * (n - m + 1), 0))
        np.testing.assert_allclose(2 * slope, a_up * up - a_down * down, atol=1e-12)


def test_sph_harm_y_third_derivative_matches_finite_differences():
    n, m, theta, phi = 3, 1, np.array([0.0, 0.7, np.pi]), 0.4
    _, pullback = cr.rrule(sc.sph_harm_y, n, m, theta, phi, diff_n=2)
    seed = (ZeroTangent(), ZeroTangent(), np.zeros((3, 2, 2)) + np.array([[1.0, 0], [0, 0]]))
    third = pullback(seed)[3]
    h = 1e-5
    inside = np.clip(theta, h, np.pi - h)
    hessian = [sc.sph_harm_y(n, m, inside + s * h, phi, diff_n=2)[2][..., 0, 0] for s in (-1, 1)]
    expected = np.real((hessian[1] - hessian[0]) / (2 * h))
    np.testing.assert_allclose(third, expected, rtol=1e-6, atol=1e-6)


def test_legendre_third_derivative_is_gegenbauer():
    # P_n''' = 15 C_{n-3}^{(7/2)}: against the derivative of the Legendre series.
    x = np.array([-1.0, -0.3, 0.6, 1.0])
    _, pullback = cr.rrule(sc.legendre_p_all, 6, x, diff_n=2)
    for n in range(7):
        seed = np.zeros((3, 7, 4))
        seed[2, n] = 1.0
        expected = np.polynomial.Legendre.basis(n).deriv(3)(x)
        np.testing.assert_allclose(pullback(seed)[2], expected, rtol=1e-12, atol=1e-10)


def test_assoc_legendre_equation():
    # (1 - z^2) y'' - 2 z y' + (n(n+1) - m^2/(1 - z^2)) y = 0 on both branches.
    for z, cut in ((np.array([-0.7, 0.2, 0.95]), 2), (np.array([1.3, 2.0]), 3)):
        y, y1, y2 = sc.assoc_legendre_p_all(4, 3, z, branch_cut=cut, diff_n=2)
        n = np.arange(5)[:, None, None]
        m = np.array([0, 1, 2, 3, -3, -2, -1])[None, :, None]
        residual = (1 - z * z) * y2 - 2 * z * y1 + (n * (n + 1) - m * m / (1 - z * z)) * y
        np.testing.assert_allclose(residual, 0.0, atol=1e-9 * np.max(np.abs(y2)))


def test_assoc_legendre_third_derivative_at_the_edge():
    # At z = 1 the equation degenerates: order 0 by Gegenbauer, other orders NaN.
    _, pullback = cr.rrule(sc.assoc_legendre_p_all, 3, 2, 1.0, diff_n=2)
    seed = np.zeros((3, 4, 5))
    seed[2, 3, 0] = 1.0
    assert pullback(seed)[3] == pytest.approx(15.0)  # P_3''' = 15
    seed[2, 3, 2] = 1.0
    assert np.isnan(pullback(seed)[3])


def test_keywords_are_checked():
    with pytest.raises(RuleKeywordError, match="branch_cut"):
        cr.rrule(sc.sph_harm_y, 1, 0, 0.5, 0.1, branch_cut=3)
    with pytest.raises(ValueError, match="diff_n"):
        cr.rrule(sc.legendre_p_all, 2, 0.5, diff_n=3)
    y, _ = cr.rrule(sc.assoc_legendre_p_all, 2, 1, 0.5, norm=True, diff_n=1)
    np.testing.assert_array_equal(y, sc.assoc_legendre_p_all(2, 1, 0.5, norm=True, diff_n=1))


def test_integer_degrees_have_no_tangent():
    _, pullback = cr.rrule(sc.sph_harm_y, 2, 1, 0.5, 0.3, diff_n=1)
    cotangents = pullback((1.0 + 0j, np.ones(2, complex)))
    assert cotangents[:3] == (NoTangent(), NoTangent(), NoTangent())


def test_engines_reach_the_rules_through_call():
    # Y_1^0 = sqrt(3/pi) cos(theta)/2: the reverse engine differentiates it twice.
    def real_part(theta):
        return np.real(call(sc.sph_harm_y, 1, 0, theta, 0.0))

    grad = reverse.grad(real_part)
    assert grad(0.5) == pytest.approx(-np.sqrt(3 / np.pi) * np.sin(0.5) / 2)
    assert reverse.grad(grad)(0.5) == pytest.approx(-np.sqrt(3 / np.pi) * np.cos(0.5) / 2)
    assert float(call(np.add, 1.0, 2.0)) == 3.0
