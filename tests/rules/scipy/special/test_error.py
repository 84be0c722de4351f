"""Tests of the rules for the error-function family, the normal distribution, voigt_profile."""

import math

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, cotangents, midpoint, table_tests

import chainrules as cr

ROWS = [
    Row(sc.erf, ((-1.5, 1.5),), complex=True),
    Row(sc.erfc, ((-1.5, 1.5),), complex=True),
    Row(sc.erfcx, ((-1.0, 2.0),), complex=True),
    Row(sc.erfi, ((-1.5, 1.5),), complex=True),
    Row(sc.dawsn, ((-2.0, 2.0),), complex=True),
    Row(sc.wofz, ((-1.5, 1.5),), complex=True, shapes=(((3,),), ((),)), float32=False),
    Row(sc.erfinv, ((-0.8, 0.8),)),
    Row(sc.erfcinv, ((0.2, 1.8),)),
    Row(sc.ndtr, ((-2.0, 2.0),), complex=True),
    Row(sc.ndtri, ((0.1, 0.9),)),
    Row(sc.ndtri_exp, ((-3.0, -0.1),)),
    Row(sc.log_ndtr, ((-3.0, 2.0),), complex=True),
    Row(sc.owens_t, ((-2.0, 2.0), (-1.5, 1.5))),
]
CASES = cases(ROWS)

test_rrule_error, test_frule_error = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_error(row):
    test_scalar(row.f, midpoint(row))


# ---- the Voigt profile ----------------------------------------------------------------------

VOIGT_ROWS = [
    Row(sc.voigt_profile, ((-2.0, 2.0), (0.5, 2.0), (0.1, 1.5))),
]
VOIGT_CASES = cases(VOIGT_ROWS)

test_rrule_distributions_more, test_frule_distributions_more = table_tests(VOIGT_CASES)


def test_wofz_of_real_input_gives_real_cotangent():
    # wofz maps reals to complex values: the cotangent of a real x is Re(conj(w'(x)) dy).
    x = np.array([0.3, -1.2])
    dx = cr.rrule(sc.wofz, x)[1](np.array([1.0 + 0.5j, -2.0j]))[1]
    assert dx.dtype == np.float64
    w = sc.wofz(x)
    derivative = 2j / math.sqrt(math.pi) - 2 * x * w
    np.testing.assert_allclose(dx, np.real(np.conj(derivative) * [1.0 + 0.5j, -2.0j]))


def test_known_values():
    rrule = cr.rrule
    assert rrule(sc.erf, 0.0)[1](1.0)[1] == pytest.approx(2 / math.sqrt(math.pi), rel=1e-15)
    assert rrule(sc.ndtri, 0.5)[1](1.0)[1] == pytest.approx(math.sqrt(2 * math.pi), rel=1e-15)
    assert rrule(sc.erfinv, 0.0)[1](1.0)[1] == pytest.approx(math.sqrt(math.pi) / 2, rel=1e-15)
    assert rrule(sc.owens_t, 0.0, 0.7)[1](1.0)[1] == 0.0


def test_log_ndtr_far_left_tail_is_finite():
    # phi(x) / Phi(x) ~ -x for x -> -inf; both factors underflow at x = -40.
    dx = cr.rrule(sc.log_ndtr, -40.0)[1](1.0)[1]
    assert dx == pytest.approx(40.0249, rel=1e-4)


def test_voigt_profile_limits():
    # gamma = 0: the normal density, whose derivative in x is -x / sigma**2 times it
    x, sigma = 0.7, 1.3
    dx = cotangents(sc.voigt_profile, x, sigma, 0.0)[0]
    assert dx == pytest.approx(-x / sigma**2 * sc.voigt_profile(x, sigma, 0.0), rel=1e-13)
    assert cotangents(sc.voigt_profile, 0.0, sigma, 0.4)[0] == pytest.approx(0.0, abs=1e-17)


# True values (mpmath, 30 digits): the asymptotic series take over beyond |x| = 7, where the
# closed forms 1 - 2x dawsn(x) and 2x erfcx(x) - 2/sqrt(pi) cancel to 0 (exactly, by 1e8).
@pytest.mark.parametrize(
    ("f", "x", "exact"),
    [
        (sc.dawsn, 1e7, -5.0000000000000075e-15),
        (sc.dawsn, 1e8, -5.0000000000000001e-17),
        (sc.dawsn, -1e150, -5e-301),
        (sc.erfcx, 1e8, -5.641895835477563e-17),
    ],
)
def test_far_derivatives_do_not_cancel(f, x, exact):
    from chainrules.engines import reverse

    assert reverse.grad(f)(x) == pytest.approx(exact, rel=1e-14)


# mpmath at 60 digits (voigt = Re w(z) / (sigma sqrt(2 pi)), differentiated with relative
# steps of 1e-25): both sides of |z| = 30, where the partials change form, and beyond
VOIGT_FAR = [
    ((0.5, 1e-3, 1.0), (-0.20371774044970434, -8.1488817178917e-05, -0.1527889164893262)),
    ((0.5, 0.0235, 1.0), (-0.2033945809003301, -0.0019341483477398713, -0.15288255236198295)),
    ((0.5, 0.0237, 1.0), (-0.2033890514821795, -0.0019509384767492817, -0.15288414380678678)),
    ((3.0, 0.01, 0.2), (-0.004674369973599372, 4.646994860117722e-05, 0.03490079382579353)),
]


@pytest.mark.parametrize(("args", "expected"), VOIGT_FAR)
def test_voigt_profile_partials_where_sigma_is_small(args, expected):
    # 2i/sqrt(pi) - 2 z w(z) cancels to 1/z^2: the asymptotic series of w from |z| = 30 on
    got = cotangents(sc.voigt_profile, *args)
    pullback = cr.rrule(sc.voigt_profile, *(np.array([a, a]) for a in args))[1]
    arrays = [cr.unthunk(g) for g in pullback(np.ones(2))[1:]]
    for value, row, want in zip(got, arrays, expected, strict=True):
        assert value == pytest.approx(want, rel=1e-14, abs=0)  # a few roundings of the series
        np.testing.assert_array_equal(row, [value, value])


@pytest.mark.parametrize("sigma", [1e-300, 0.0])
def test_voigt_profile_partials_in_the_lorentzian_limit(sigma):
    # sigma -> 0: the Lorentzian gamma / (pi (x^2 + gamma^2)); d/dsigma = 2 sigma/pi Re(i/u^3)
    x, gamma = 0.5, 1.0
    r2 = x * x + gamma * gamma
    dx, dsigma, dgamma = cotangents(sc.voigt_profile, x, sigma, gamma)
    assert dx == pytest.approx(-2 * x * gamma / (np.pi * r2 * r2), rel=1e-15)
    assert dgamma == pytest.approx((x * x - gamma * gamma) / (np.pi * r2 * r2), rel=1e-15)
    u = complex(x, gamma)
    assert dsigma == pytest.approx(2 * sigma / np.pi * (1j / u**3).real, rel=1e-15, abs=0)


@pytest.mark.filterwarnings("error")
def test_owens_t_in_a_where_h_squared_underflows():
    # dT/da = exp(-(h**2 + (h a)**2) / 2) / (2 pi (1 + a**2)): (h a)**2 is finite where h**2
    # underflows and a**2 overflows (was 0 * inf, NaN); the quotient is 0 there
    for h, a in [(1e-300, 1e300), (0.0, -1e300), (3.0, 1e200)]:
        assert cotangents(sc.owens_t, h, a)[1] == 0.0
    # dT/dh = -exp(-h**2 / 2) erf(h a / sqrt 2) / (2 sqrt(2 pi)) with h a = 1
    assert cotangents(sc.owens_t, 1e-300, 1e300)[0] == pytest.approx(
        -math.erf(1 / math.sqrt(2)) / (2 * math.sqrt(2 * math.pi)), rel=1e-15
    )
    assert cotangents(sc.owens_t, 1e-300, 1e-300)[1] == pytest.approx(1 / (2 * math.pi), rel=1e-15)


@pytest.mark.parametrize("point", [(0.3, -0.7, 0.3), (0.3, -0.7, 1.5), (-3.0, -3.0, 0.3)])
def test_voigt_profile_at_negative_sigma(point):
    # SciPy's value at sigma < 0 is the same formula, Re w(z) / (sigma sqrt(2 pi)); the rule
    # took the asymptotic series there at every z (9.7e7 for 0.64 at the first point).
    # Reference: five-point differences of SciPy's value at step 1e-4 (error about 1e-14)
    def difference(i):
        h = 1e-4

        def at(t):
            shifted = list(point)
            shifted[i] += t
            return sc.voigt_profile(*shifted)

        return (8 * (at(h) - at(-h)) - (at(2 * h) - at(-2 * h))) / (12 * h)

    found = cotangents(sc.voigt_profile, *point)
    for i in range(3):
        assert found[i] == pytest.approx(difference(i), rel=1e-8, abs=0)
