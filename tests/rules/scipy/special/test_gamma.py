"""Tests of the rules for the gamma family of scipy.special: one table row per function."""

import math

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, midpoint, table_tests

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.rules.scipy.special.gamma import trigamma

POSITIVE = (0.5, 3.0)

ROWS = [
    Row(sc.gamma, (POSITIVE,), complex=True),
    Row(sc.gammaln, (POSITIVE,)),
    Row(sc.loggamma, (POSITIVE,), complex=True),
    Row(sc.digamma, (POSITIVE,), complex=True),
    Row(sc.rgamma, ((0.3, 3.0),), complex=True),
    Row(sc.beta, (POSITIVE, POSITIVE)),
    Row(sc.betaln, (POSITIVE, POSITIVE)),
    Row(sc.poch, (POSITIVE, (0.2, 1.5))),
    Row(sc.binom, ((2.5, 6.0), (0.2, 2.0))),
    Row(sc.polygamma, ((0, 3), POSITIVE), integer=(0,), float32=False),
    Row(
        sc.multigammaln,
        ((12.0, 15.0), (3, 3)),  # far from a > (d - 1)/2: scipy raises outside, not NaN
        integer=(1,),
        shapes=(((3,), ()), ((2, 3), ()), ((), ())),
    ),
]
CASES = cases(ROWS)

test_rrule_gamma, test_frule_gamma = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_gamma(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


# ---- hard points ----------------------------------------------------------------------------


def cotangent(f, *args, dy=1.0, i=1):
    return cr.rrule(f, *args)[1](dy)[i]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_rgamma_at_the_poles_of_gamma(n):
    # 1/gamma(x) = (-1)**n n! (x + n) + O((x + n)**2) near x = -n.
    expected = (-1) ** n * math.factorial(n)
    assert cotangent(sc.rgamma, float(-n)) == expected
    assert cr.frule((NoTangent(), 1.0), sc.rgamma, float(-n))[1] == expected
    x = np.array([-float(n), 0.5])
    np.testing.assert_allclose(cotangent(sc.rgamma, x, dy=np.ones(2))[0], expected)


def test_rgamma_far_left_of_zero():
    # (-1)**n n! at the poles, from mpmath: 170! is a float, 171! beyond the floats; between
    # the poles gamma(1 - x) overflows too, and the derivative is infinite of its sign.
    assert cotangent(sc.rgamma, -170.0) == pytest.approx(7.257415615308e306, rel=1e-13)
    assert cotangent(sc.rgamma, -169.5) == pytest.approx(-9.09277449318612e305, rel=1e-13)
    for x, sign in ((-171.0, -1), (-171.5, -1), (-172.0, 1), (-1e8, 1)):
        assert cotangent(sc.rgamma, x) == sign * math.inf
        assert cotangent(sc.rgamma, np.array([x]), dy=np.ones(1))[0] == sign * math.inf


def test_known_values():
    euler = 0.5772156649015329
    assert cotangent(sc.gammaln, 1.0) == pytest.approx(-euler, rel=1e-15)
    assert cotangent(sc.gamma, 1.0) == pytest.approx(-euler, rel=1e-15)
    assert cotangent(sc.digamma, 1.0) == pytest.approx(math.pi**2 / 6, rel=1e-15)
    assert cotangent(sc.psi, 1.0) == pytest.approx(math.pi**2 / 6, rel=1e-15)
    # beta(a, 1) = 1/a
    assert cotangent(sc.beta, 2.0, 1.0) == pytest.approx(-1 / 4, rel=1e-14)


def test_trigamma_complex_matches_real_axis_and_reflection():
    x = np.array([0.3, 1.0, 2.5, 17.0, -1.5])
    np.testing.assert_allclose(trigamma(x + 0j), sc.polygamma(1, x), rtol=1e-13)
    # Reflection: psi'(1 - z) + psi'(z) = pi**2 / sin(pi z)**2
    z = 0.3 + 0.7j
    expected = math.pi**2 / np.sin(math.pi * z) ** 2
    assert trigamma(1 - z) + trigamma(z) == pytest.approx(expected, rel=1e-13)


def test_integer_arguments_have_no_tangent():
    _, pullback = cr.rrule(sc.polygamma, 2, np.array([1.5, 2.5]))
    assert pullback(np.ones(2))[1] is NoTangent()
    _, pullback = cr.rrule(sc.multigammaln, np.array([3.0, 4.0]), 2)
    cotangents = pullback(np.ones(2))
    assert cotangents[2] is NoTangent()
    np.testing.assert_allclose(cotangents[1], sc.digamma([3.0, 4.0]) + sc.digamma([2.5, 3.5]))


def test_gammasgn_is_non_differentiable():
    y, pullback = cr.rrule(sc.gammasgn, np.array([-0.5, 1.5]))
    np.testing.assert_array_equal(y, [-1.0, 1.0])
    assert pullback(np.ones(2)) == (NoTangent(), NoTangent())


def test_zero_cotangent():
    assert cotangent(sc.gamma, np.array([1.5]), dy=ZeroTangent()) is ZeroTangent()
    assert cotangent(sc.multigammaln, np.array([3.0]), 2, dy=ZeroTangent()) is ZeroTangent()


@pytest.mark.parametrize(
    ("pole", "exact"), [(0.0, 2 * np.euler_gamma), (-1.0, 2 - 2 * np.euler_gamma)]
)
def test_rgamma_second_derivative_at_poles(pole, exact):
    # 1/gamma(x) = x + gamma x**2 + ... at 0 and -(x+1) + (1 - gamma) (x+1)**2 + ... at -1:
    # the reflection formula makes the rule smooth there (a constant gave 0)
    from chainrules.engines import reverse

    assert reverse.grad(reverse.grad(sc.rgamma))(pole) == pytest.approx(exact, rel=1e-13)
