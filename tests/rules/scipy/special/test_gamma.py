"""Tests of the rules for the gamma family of scipy.special: one table row per function."""

import math
import warnings

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, midpoint, table_tests

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.engines import call, reverse
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
    assert reverse.grad(reverse.grad(sc.rgamma))(pole) == pytest.approx(exact, rel=1e-13)


# ---- beta and binom through their zeros (a pole of gamma in a denominator) --------------------

# (n, k, d/dn, d/dk): binom(n, k) = gamma(n+1) / (gamma(k+1) gamma(n-k+1)) where k + 1 or
# n - k + 1 is a pole of gamma or next to one; references from mpmath.diff of that product at
# 50 digits (steps 1e-20 relative), or exact: -1/30 at n = 0 (binom(n, 30) = -n/30 + O(n**2)),
# 4/15 = 1/(1.5 * 2.5) at (0.5, 2.5), 1/870 = 28!/30! at (1, 30), 2 and 4/3 by reflection.
BINOM_ZEROS = [
    (1e-300, 30.0, -1 / 30, 1 / 30),
    (1e-8, 30.0, -0.033333330692230872, 0.033333332023893191),
    (0.5, 2.5, -4 / 15, 4 / 15),
    (0.5 + 1e-9, 2.5, -0.26666666646064301, 0.26666666674508745),
    (1.0, 30.0, 1 / 870, -1 / 870),
    (-0.5, 0.5, 2.0, -2.0),
    (-2.5, -0.5, -4 / 3, 4 / 3),
    (0.3, -2.7, -0.084805859159266671, 0.16313919249260012),
    (5.0, -3.3, 0.00050503364903672392, 0.00122933008486752),
    (30.0, 1e4, -2.7789154348367437e-92, 2.7789154348367437e-92),
    (1.0, -1e4, 0.0, -9.999000099990001e-9),
]


@pytest.mark.parametrize(("n", "k", "dn", "dk"), BINOM_ZEROS)
def test_binom_through_its_zeros(n, k, dn, dk):
    # 4e-15 beside the rounding of n - k + 1 where digamma terms cancel; 2e-11 where
    # beta(n + 1, k - n) has arguments near 1e4, at SciPy's own accuracy for beta there
    rtol = 4e-15 if max(abs(n), abs(k)) < 100 else 2e-11
    for i, expected in ((1, dn), (2, dk)):
        assert cotangent(sc.binom, n, k, i=i) == pytest.approx(expected, rel=rtol, abs=0)
        arrays = (np.array([n, 2.5]), np.array([k, 1.2]))
        got = cotangent(sc.binom, *arrays, dy=np.ones(2), i=i)
        assert got[0] == pytest.approx(expected, rel=rtol, abs=0)


def test_binom_at_infinite_arguments():
    # binom(n, k) ~ |k|**(-n-1) sin(pi k) / pi as k -> -inf (n > -1), and ~ n**k / gamma(k+1)
    # as n -> inf (k < 0): both vanish with their partials
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no inf - inf on the way
        for n, k in ((0.5, -math.inf), (1.0, -math.inf), (math.inf, -2.5), (math.inf, -2.0)):
            assert cotangent(sc.binom, n, k, i=1) == cotangent(sc.binom, n, k, i=2) == 0.0
        assert cotangent(sc.binom, math.inf, -1e4, i=2) == 0.0


# (a, b, d/da, d/db) of beta where a + b is a pole of gamma: gamma(a) gamma(b) times
# (1/gamma)'(a + b) = (-1)**m m!, by mpmath at 50 digits: -2 pi, -4 pi, -120 gamma(-2.5)**2
BETA_ZEROS = [
    (0.5, -0.5, -6.2831853071795865),
    (-0.5, -0.5, -12.566370614359173),
    (-2.5, -2.5, -107.23302924253161),
]


@pytest.mark.parametrize(("a", "b", "expected"), BETA_ZEROS)
def test_beta_where_a_plus_b_is_a_pole(a, b, expected):
    for i in (1, 2):
        assert cotangent(sc.beta, a, b, i=i) == pytest.approx(expected, rel=1e-14, abs=0)
        got = cotangent(sc.beta, np.array([a, 2.0]), np.array([b, 3.0]), dy=np.ones(2), i=i)
        assert got[0] == pytest.approx(expected, rel=1e-14, abs=0)
    # its neighbour on the ordinary side, by mpmath.diff at 50 digits
    got = cotangent(sc.beta, 0.5, -0.5 + 1e-9, i=2)
    assert got == pytest.approx(-6.2831853148916391, rel=1e-8)  # a + b = 1e-9 to 1e-16


# (a, b, dbeta/db, dbetaln/db) where b and a + b are both poles (a a positive integer):
# beta(a, b) = (a-1)! / (b (b+1) ... (b+a-1)), differentiated by mpmath at 60 digits
BETA_POLE_RATIOS = [
    (1.0, -1e4, -1e-8, 1e-4),
    (30.0, -1e4, 2.7746039459142515e-92, 0.00300435857396725),
    (1e4, -1e4, 0.00097876060360443823, 9.7876060360443823),
]


@pytest.mark.parametrize(("a", "b", "dbeta", "dbetaln"), BETA_POLE_RATIOS)
def test_beta_where_b_and_a_plus_b_are_poles(a, b, dbeta, dbetaln):
    # betaln's partial is digamma(1 - b) - digamma(1 - a - b), two numbers near 9.2 whose
    # difference is 1e-4 at a = 1: 2.3e-11 lost there; beta's is y times it, y being SciPy's
    # beta, 6e-12 from mpmath here
    assert cotangent(sc.beta, a, b, i=2) == pytest.approx(dbeta, rel=5e-11, abs=0)
    assert cotangent(sc.betaln, a, b, i=2) == pytest.approx(dbetaln, rel=5e-11, abs=0)
    assert cotangent(sc.beta, b, a, i=1) == pytest.approx(dbeta, rel=5e-11, abs=0)
    got = cotangent(sc.betaln, np.array([a, 2.0]), np.array([b, 3.0]), dy=np.ones(2), i=2)
    assert got[0] == pytest.approx(dbetaln, rel=5e-11, abs=0)
    # in a, beta is infinite beside the point (gamma(b) is): no partial
    assert math.isnan(cotangent(sc.beta, a, b, i=1))
    assert math.isnan(cotangent(sc.betaln, a, b, i=1))


def test_beta_at_infinity():
    # beta(a, inf) = 0 for every a > 0
    assert cotangent(sc.beta, 2.5, math.inf, i=1) == 0.0
    assert cotangent(sc.beta, math.inf, 1e-8, i=2) == 0.0
    got = cotangent(sc.beta, np.array([2.5, 2.0]), np.array([math.inf, 3.0]), dy=np.ones(2))
    assert got[0] == 0.0


# (z, m, d/dz) of poch(z, m) = gamma(z + m) / gamma(z) at poles of gamma(z), by mpmath.diff at
# 60 digits with steps of 1e-25 (1e-325 at m = 1e-300): gamma(z + m) (1/gamma)'(z), finite
# where y = 0; where z + m is a pole too (m an integer <= -z), the limit of a ratio of poles
POCH_POLES = [
    (0.0, 1e-300, 1e300),
    (0.0, 0.5, 1.772453850905516),
    (0.0, 1.0, 1.0),
    (0.0, 30.0, 8.841761993739702e30),
    (0.0, -0.5, -3.5449077018110321),
    (-3.0, 0.5, 5.6718523228976513),
    (-1e4, 1e-8, 100000009.21039081),
    (-1e4, 0.5, 314.16319237433847),
    (-1e4, 2.5, 31410036209.208754),
    (-1e4, -2.5, -3.1402186447847716e-10),
    (-1e4, 1.0, 1.0),
    (-1e4, 30.0, -2.8763474827284904e117),
]


@pytest.mark.parametrize(("z", "m", "expected"), POCH_POLES)
def test_poch_at_the_poles_of_gamma(z, m, expected):
    # 1e-14 near the origin; at z = -1e4, SciPy's poch (5e-12) or a difference of two
    # digammas near 9.2 (2.3e-12 at m = 1)
    rtol = 1e-14 if abs(z) < 10 else 1e-11
    assert cotangent(sc.poch, z, m) == pytest.approx(expected, rel=rtol, abs=0)
    got = cotangent(sc.poch, np.array([z, 2.0]), np.array([m, 3.0]), dy=np.ones(2))
    assert got[0] == pytest.approx(expected, rel=rtol, abs=0)
    if sc.poch(z, m) == 0:
        # poch(z, m) is 0 for every m beside the point: so is its partial in m
        assert cotangent(sc.poch, z, m, i=2) == 0.0
    else:
        # poch(z, m) is 0 beside the integer m, finite there: no partial in m
        assert math.isnan(cotangent(sc.poch, z, m, i=2))


def test_poch_and_binom_at_infinity():
    # poch(inf, m) = 0 and binom(inf, k) = 0 for m, k < 0, and so are their partials
    assert cotangent(sc.poch, math.inf, -0.5, i=2) == 0.0
    assert cotangent(sc.binom, math.inf, -1e300, i=2) == 0.0


# second derivatives through the zeros, by reverse over reverse; mpmath.diff(..., 2) of the
# gamma products at 40 digits
SECOND_AT_ZEROS = [
    (lambda a: call(sc.beta, a, -0.5), 0.5, 17.420688722428817),
    (lambda z: call(sc.poch, z, 0.5), 0.0, -4.914285557711104),
    (lambda z: call(sc.poch, z, 2.5), -3.0, -51.88161128891119),
    (lambda n: call(sc.binom, n, 30.0), 1e-300, 0.2641102531724705),
]


@pytest.mark.parametrize(("f", "x", "expected"), SECOND_AT_ZEROS)
def test_second_derivatives_through_the_zeros(f, x, expected):
    assert reverse.grad(reverse.grad(f))(x) == pytest.approx(expected, rel=1e-14)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize(
    ("f", "args", "i", "expected"),
    [
        # mpmath (60 digits); where digamma(a) - digamma(a + b) cancelled to b / a (0 for 1e-16)
        (sc.poch, (1e8, 1e-8), 0, 1.0000001892068252e-16),
        (sc.poch, (1e300, 0.5), 0, 5e-151),  # z**m (m / 2z): 1/z beside it rounds away
        (sc.betaln, (1e5, 3.0), 0, -2.999970000499991e-05),
        (sc.beta, (1e300, -0.5), 0, -1.7724538509055160e-150),  # gamma(-1/2) a**(1/2) b / a
        (sc.betaln, (2e4, 3e4), 0, -0.91630573204915507),
        (sc.binom, (1e6, 2.0), 0, 999999.5),
    ],
)
def test_digamma_differences_at_large_arguments(f, args, i, expected):
    # rtol: the series' terms left out (1/(120 a^4) of the first) and a few roundings. (beta
    # and binom multiply SciPy's value, whose own error they keep: 3e-11 in beta(1e5, 3), 1e-9
    # in binom(1e6, 2.5))
    got = cr.unthunk(cr.rrule(f, *args)[1](1.0)[i + 1])
    assert got == pytest.approx(expected, rel=1e-13, abs=0)
