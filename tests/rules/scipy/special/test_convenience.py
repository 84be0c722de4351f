"""Tests of the rules for SciPy's convenience functions, Lambert W, Wright omega and diric."""

import math

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, test_scalar
from samples import Row, cases, midpoint, table_tests

import chainrules as cr
from chainrules import NoTangent

ROWS = [
    Row(sc.cbrt, ((0.3, 2.0),)),
    Row(sc.exp2, ((-2.0, 2.0),)),
    Row(sc.exp10, ((-1.0, 1.0),)),
    Row(sc.expm1, ((-2.0, 2.0),), complex=True),
    Row(sc.log1p, ((-0.5, 2.0),), complex=True),
    Row(sc.cosm1, ((-2.0, 2.0),)),
    Row(sc.exprel, ((-2.0, 2.0),)),
    Row(sc.powm1, ((0.3, 2.0), (-1.5, 2.0))),
    Row(sc.sindg, ((-80.0, 80.0),)),
    Row(sc.cosdg, ((-80.0, 80.0),)),
    Row(sc.tandg, ((-60.0, 60.0),)),
    Row(sc.cotdg, ((20.0, 160.0),)),
    Row(sc.radian, ((-30.0, 30.0), (0.0, 59.0), (0.0, 59.0))),
    Row(sc.huber, ((0.5, 1.5), (-3.0, 3.0))),
    Row(sc.pseudo_huber, ((0.5, 1.5), (-3.0, 3.0))),
    Row(sc.wrightomega, ((-2.0, 2.0),), complex=True),
]
CASES = cases(ROWS)

test_rrule_convenience, test_frule_convenience = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_convenience(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


# ---- the Dirichlet kernel diric -------------------------------------------------------------

SCALAR_N = (((3,), ()), ((2, 3), ()), ((), ()))
DIRIC_ROWS = [
    Row(sc.diric, ((-7.0, 7.0), (1, 6)), integer=(1,), shapes=SCALAR_N),
]
DIRIC_CASES = cases(DIRIC_ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(DIRIC_CASES)


@pytest.mark.parametrize("z", [np.array([0.3, 1.5, 4.0]), np.array([0.3 + 0.5j, -1.0 + 2.0j])])
def test_lambertw(z):
    test_rrule(sc.lambertw, z)
    test_frule(sc.lambertw, z)
    test_rrule(sc.lambertw, z, fkwargs={"k": -1})
    assert cr.rrule(sc.lambertw, 0.0)[1](1.0)[1] == 1.0  # W'(0) = 1


# ---- hard points ----------------------------------------------------------------------------


def cotangents(f, *args):
    return cr.rrule(f, *args)[1](1.0)


def test_exprel_near_zero():
    assert cotangents(sc.exprel, 0.0)[1] == 0.5
    # the series and the closed form meet at |x| = 1/2
    for x in (0.5, -0.5):
        below = cotangents(sc.exprel, x * (1 - 1e-12))[1]
        above = cotangents(sc.exprel, x * (1 + 1e-12))[1]
        assert below == pytest.approx(above, rel=1e-11)
    expected = (math.exp(1e-3) * (1e-3 - 1) + 1) / 1e-6
    assert cotangents(sc.exprel, 1e-3)[1] == pytest.approx(expected, rel=1e-9)


def test_huber_hard_points():
    assert cotangents(sc.huber, 1.0, 0.0) == (NoTangent(), 0.0, 0.0)
    assert cotangents(sc.huber, 1.0, -3.0) == (NoTangent(), 2.0, -1.0)
    assert cotangents(sc.pseudo_huber, 0.0, 2.0) == (NoTangent(), 2.0, 0.0)
    assert cotangents(sc.pseudo_huber, 1.0, 0.0) == (NoTangent(), 0.0, 0.0)
    assert cotangents(sc.pseudo_huber, 0.0, 0.0) == (NoTangent(), 0.0, 0.0)


def test_degrees():
    assert cotangents(sc.sindg, 90.0)[1] == pytest.approx(0.0, abs=1e-18)
    assert cotangents(sc.cosdg, 90.0)[1] == pytest.approx(-math.pi / 180, rel=1e-15)
    assert cotangents(sc.radian, 1.0, 2.0, 3.0)[1:] == pytest.approx(
        (math.pi / 180, math.pi / 180 / 60, math.pi / 180 / 3600), rel=1e-15
    )


@pytest.mark.parametrize("x", [0.0, 2 * np.pi, -4 * np.pi])
@pytest.mark.parametrize("n", [2, 3, 5])
def test_diric_extrema(x, n):
    # diric is +-1 at multiples of 2 pi, an extremum: the derivative is 0, not 0/0.
    assert cr.rrule(sc.diric, x, n)[1](1.0)[1] == 0.0


@pytest.mark.filterwarnings("error")
def test_pseudo_huber_where_the_squares_overflow():
    # d/d delta = r**4 / (t (t + delta)**2), d/dr = r delta / t, t = sqrt(delta**2 + r**2):
    # t as hypot, so nothing overflows where delta**2 or r**2 would (d/dr was 0, d/d delta NaN)
    def exact(delta, r):  # in mpmath, where nothing overflows
        delta, r = mpmath.mpf(delta), mpmath.mpf(r)
        t = mpmath.sqrt(delta**2 + r**2)
        return float(r**4 / (t * (t + delta) ** 2)), float(r * delta / t)

    points = [(1.0, 1e200), (3.0, -1e155), (1e300, 1.0), (1e-300, 1e-300), (2.0, 3.0)]
    for delta, r in points:
        d_delta, d_r = cotangents(sc.pseudo_huber, delta, r)[1:]
        expected = exact(delta, r)
        # a few roundings in hypot, the quotients and the products
        assert d_delta == pytest.approx(expected[0], rel=1e-14, abs=0)
        assert d_r == pytest.approx(expected[1], rel=1e-14, abs=0)


@pytest.mark.filterwarnings("error")
def test_powm1_in_x_where_the_power_is_flat():
    # x**p - 1 is flat at -1 where p = inf and x < 1, or p = -inf and x > 1, and flat at 0
    # where p = 0: p x**(p - 1) is 0 there, not inf * 0
    for x, p in [(0.5, math.inf), (1e-300, math.inf), (2.5, -math.inf), (1e300, -math.inf)]:
        assert cotangents(sc.powm1, x, p)[1] == 0.0
    assert cotangents(sc.powm1, 0.0, 0.0)[1] == 0.0
    assert cotangents(sc.powm1, 0.0, 0.5)[1] == math.inf  # the limit of 0.5 x**-0.5
    assert cotangents(sc.powm1, 0.5, 2.5)[1] == pytest.approx(2.5 * 0.5**1.5, rel=1e-15)
