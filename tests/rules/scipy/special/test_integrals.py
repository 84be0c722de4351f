"""Tests of the rules for exponential integrals, sici, spence, zeta, elliptic integrals and the
modified Fresnel integrals."""

import math

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, test_scalar
from samples import (
    Row,
    cases,
    midpoint,
    output_derivative,
    table_tests,
)

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.engines import reverse

ROWS = [
    Row(sc.expi, ((0.3, 3.0),), complex=True),
    Row(sc.exp1, ((0.3, 3.0),), complex=True),
    Row(sc.spence, ((0.2, 3.0),), complex=True),
    Row(sc.zetac, ((1.5, 6.0),)),
    Row(sc.ellipk, ((-0.8, 0.9),)),
    Row(sc.ellipe, ((-0.8, 0.9),)),
    Row(sc.expn, ((0, 4), (0.3, 3.0)), integer=(0,)),
    Row(sc.zeta, ((2.0, 4.0), (0.5, 3.0)), float32=False),
    # second derivatives in q, with an integer exponent
    Row(sc.zeta, ((2, 4), (0.5, 3.0)), integer=(0,), float32=False, shapes=(((3,), (3,)),)),
]
CASES = cases(ROWS)

test_rrule_integrals, test_frule_integrals = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_integrals(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


# ---- the modified Fresnel integrals ---------------------------------------------------------

FRESNEL_ROWS = [
    # SciPy's modified Fresnel integrals follow their definition for x >= 0 only.
    Row(sc.modfresnelp, ((0.2, 2.5),)),
    Row(sc.modfresnelm, ((0.2, 2.5),)),
]
FRESNEL_CASES = cases(FRESNEL_ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(FRESNEL_CASES)


@pytest.mark.parametrize("f", [sc.modfresnelp, sc.modfresnelm], ids=repr)
def test_scalar_special_more_outputs(f):
    test_scalar(f, 1.3, complex_point=False)


@pytest.mark.parametrize("x", [np.array([0.4, 1.0, 2.5]), np.array([0.4 + 0.3j, 2.0 - 1.0j])])
def test_two_outputs(x):
    for f in (sc.sici, sc.shichi, sc.fresnel):
        test_rrule(f, x)
        test_frule(f, x)


# zeta'(x) and d/dx zeta(x, q) from mpmath's numerical differentiation at 30 digits.
ZETA_POINTS = [
    (2.0, None, -0.93754825431584375370),
    (0.0, None, -0.91893853320467274178),
    (-2.0, None, -0.030448457058393270780),
    (-7.3, None, 0.0023055775627049534),
    (0.3, None, -1.9618608600898818),
    (3.7, None, -0.09220632335339039),
    (0.5 + 14.134725141734695j, None, 0.78329651186703112 + 0.12469982974817057j),
    (2.0, 0.5, 1.7480808796238798),
    (4.0, 1.7, -0.097013159865239622),
]


@pytest.mark.parametrize("x, q, expected", ZETA_POINTS)
def test_zeta_derivative_in_x_reference_values(x, q, expected):
    args = (x,) if q is None else (x, q)
    dx = cr.unthunk(cr.rrule(sc.zeta, *args)[1](1.0)[1])
    assert dx == pytest.approx(np.conj(expected), rel=1e-12)


def test_zeta_second_derivative_through_the_engine():
    # zeta''(2) = sum log(n)**2 / n**2
    second = reverse.grad(reverse.grad(sc.zeta))(2.0)
    assert second == pytest.approx(1.98928023429890, rel=1e-12)


def test_riemann_zeta_rules():
    test_rrule(sc.zeta, np.array([-3.5, 0.4, 2.5]))
    test_frule(sc.zeta, np.array([-3.5, 0.4, 2.5]))
    test_rrule(sc.zeta, np.array([0.3 + 2.0j, 2.5 - 1.0j]))
    # with a zero tangent in x, only the derivative in q is computed
    _, tangent = cr.frule((NoTangent(), 0.0, 1.0), sc.zeta, 3.0, 2.0)
    assert tangent == pytest.approx(-3 * sc.zeta(4.0, 2.0), rel=1e-15)


def test_zeta_keyword_q():
    test_rrule(sc.zeta, np.array([2.5, 3.0]), fkwargs={"q": 1.5})
    test_frule(sc.zeta, np.array([2.5, 3.0]), fkwargs={"q": 1.5})


# ---- hard points ----------------------------------------------------------------------------


def cotangent(f, *args, dy=1.0):
    return cr.rrule(f, *args)[1](dy)[1]


def test_removable_points():
    assert cotangent(sc.spence, 1.0) == -1.0
    assert cotangent(sc.ellipk, 0.0) == pytest.approx(math.pi / 8, rel=1e-15)
    assert cotangent(sc.ellipe, 0.0) == pytest.approx(-math.pi / 8, rel=1e-15)
    with np.errstate(divide="ignore"):
        dx = cotangent(sc.sici, 0.0, dy=(1.0, ZeroTangent()))
    assert dx == 1.0


def test_elliptic_series_meets_closed_form():
    m = np.array([-0.1 - 1e-12, -0.1 + 1e-12, 0.1 - 1e-12, 0.1 + 1e-12])
    for f in (sc.ellipk, sc.ellipe):
        dm = cotangent(f, m, dy=np.ones(4))
        # 2e-12 apart in m: the derivatives agree to the curvature times that
        np.testing.assert_allclose(dm[0], dm[1], rtol=1e-11)
        np.testing.assert_allclose(dm[2], dm[3], rtol=1e-11)


def test_expn_order_zero_and_integer_order():
    x = 1.3
    assert cr.rrule(sc.expn, 0, x)[1](1.0)[2] == pytest.approx(
        -math.exp(-x) * (x + 1) / x**2, rel=1e-14
    )
    assert cr.rrule(sc.expn, 2, x)[1](1.0)[2] == pytest.approx(-sc.expn(1, x), rel=1e-14)
    assert cr.rrule(sc.expn, 2, x)[1](1.0)[1] is NoTangent()


def test_modified_fresnel_values():
    # fp'(0) = -1; kp'(0) = -exp(-i pi/4)/sqrt(pi): a real argument gets the real part.
    assert output_derivative(sc.modfresnelp, 0.0, 0, 2) == -1.0
    kp = -np.exp(-0.25j * np.pi) / np.sqrt(np.pi)
    assert output_derivative(sc.modfresnelp, 0.0, 1, 2) == pytest.approx(kp.real)
    assert isinstance(output_derivative(sc.modfresnelm, 0.5, 1, 2), float)


def test_spence_second_derivative_at_one():
    # log(z) / (1 - z) = -1 + (z - 1)/2 - ..., so spence''(1) = 1/2 (its quotient form gave 0)
    assert reverse.grad(reverse.grad(sc.spence))(1.0) == pytest.approx(0.5, rel=1e-15)
    assert reverse.grad(reverse.grad(sc.spence))(1.0 + 1e-9) == pytest.approx(0.5, rel=1e-8)
