"""Tests of the Bessel order derivatives: series, quadrature and Chebyshev interpolation against
mpmath, first and second, and their own rules."""

import mpmath as M
import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule

from chainrules.rules.scipy.special.bessel_order import (
    bessel_order_derivative,
    bessel_order_second,
    order_derivative,
)

TWINS = {"jv": M.besselj, "yv": M.bessely, "iv": M.besseli, "kv": M.besselk}


# real x: the series (x <= 4, J and I) and quadrature; complex z: interpolation in the order
@pytest.mark.parametrize("name", list(TWINS))
@pytest.mark.parametrize("v, z", [(-2.5, 1.0), (0.3, 6.0), (1.5, -2.0 + 0.7j), (2.0, 3j)])
def test_first_and_second_derivatives(name, v, z):
    twin = TWINS[name]
    with M.workdps(30):
        first = complex(M.diff(lambda w: twin(w, z), v))
        second = complex(M.diff(lambda w: twin(w, z), v, 2))
    scale = max(abs(first), abs(complex(twin(v, z))))
    # quadrature at 1e-12 and interpolation (measured 1e-13, 3e-12 for the second): relative to
    # the function's size where the derivative is much smaller (K_v near v = 0)
    assert abs(bessel_order_derivative(name, v, z) - first) <= 1e-10 * scale
    assert abs(bessel_order_second(name, v, z) - second) <= 1e-9 * max(abs(second), scale)


def test_nan_at_non_positive_real_arguments():
    assert np.isnan(bessel_order_derivative("jv", 0.5, -1.0))
    assert np.isnan(bessel_order_second("kv", 0.5, 0.0))


def test_the_order_derivatives_have_rules():
    # d/dx of jv_dv by the recurrence at the neighbouring orders; d/dv the second derivative
    jv_dv = order_derivative("jv")
    v, x = np.array([0.3, 1.7]), np.array([2.0, 6.0])
    test_rrule(jv_dv, v, x, check_second_order=False)
    test_frule(jv_dv, v, x, check_second_order=False)
    # d/dv J_v(x) at v = 0 is pi/2 Y_0(x) (DLMF 10.15.3)
    assert jv_dv(0.0, 1.0) == pytest.approx(np.pi / 2 * sc.y0(1.0), rel=1e-13)


# ---- edges: the origin, underflow, negative integer orders -----------------------------------


@pytest.mark.parametrize("name", ["jv", "iv", "ive"])
@pytest.mark.parametrize("v", [1e-300, 1e-8, 2.5, 30.0, 1e4, 1e300])
def test_order_derivative_is_zero_at_the_origin(name, v):
    # J_v(0) = I_v(0) = 0 for every v > 0: both derivatives in v are exactly 0 (they were NaN)
    assert bessel_order_derivative(name, v, 0.0) == 0.0
    assert bessel_order_second(name, v, 0.0) == 0.0


def test_order_derivative_next_to_the_origin():
    # mpmath.diff of besselj / besseli at 50 digits: J and I agree to 1e-17 at x = 1e-8; the
    # series there is accurate to rounding (a few ulps)
    expected = -0.0015279742985672653
    assert bessel_order_derivative("jv", 0.5, 1e-8) == pytest.approx(expected, rel=1e-14)
    assert bessel_order_derivative("iv", 0.5, 1e-8) == pytest.approx(expected, rel=1e-14)
    # an array mixing the origin, its neighbour and v = 0 at the origin, where J_v(0) jumps
    # from 1 to 0: no derivative
    found = bessel_order_derivative("jv", np.array([0.5, 0.5, 0.0]), np.array([0.0, 1e-8, 0.0]))
    assert found[0] == 0.0
    assert found[1] == pytest.approx(expected, rel=1e-14)
    assert np.isnan(found[2])


@pytest.mark.parametrize(
    "name, v, x",
    [
        ("jv", 1e4, 2.5),
        ("jv", 1e8, 30.0),
        ("iv", 1e300, 1e8),
        ("ive", 1e4, 2.5),
        ("kv", 1e4, 1e4),
        ("kv", -1e4, 1e4),
        ("kv", 1e8, 1e8),
    ],
)
def test_order_derivative_where_the_function_underflows(name, v, x):
    # the value is 0 in double, the derivative below the smallest subnormal; it was NaN from
    # inf * 0 in the series and integrals, and -0.028 at jv(1e8, 30) (an unresolved integral)
    assert getattr(sc, name)(v, x) == 0.0
    assert bessel_order_derivative(name, v, x) == 0.0
    found = bessel_order_derivative(name, np.array([v, v]), np.array([x, x]))
    np.testing.assert_array_equal(found, [0.0, 0.0])


@pytest.mark.parametrize(
    "name, v, x, expected",
    [  # mpmath.diff at 50 digits; tiny but representable values, next to the underflow
        ("jv", 150.0, 2.5, -2.8544222077840757e-248),
        ("iv", 150.0, 2.5, -2.9141943936169553e-248),
        ("kv", 600.0, 600.0, 5.4074720779956935e-141),
    ],
)
def test_order_derivative_next_to_the_underflow(name, v, x, expected):
    # series (J, I) and quadrature (K) keep their relative accuracy; abs=0 for tiny values
    assert bessel_order_derivative(name, v, x) == pytest.approx(expected, rel=1e-12, abs=0)


@pytest.mark.parametrize(
    "name, v, x, expected",
    [  # (-1)^n (pi Y_n - J_n') and -I_n' - 2 (-1)^n K_n with Y_n = -inf, K_n = inf
        ("jv", -1e4, 2.5, -np.inf),
        ("jv", -10001.0, 2.5, np.inf),
        ("jv", -1e300, 0.5, -np.inf),
        ("jv", -1e300, 1e-300, -np.inf),
        ("iv", -1e4, 2.5, -np.inf),
        ("iv", -10001.0, 2.5, np.inf),
        ("iv", -1e300, 2.5, -np.inf),
        ("iv", -1e300, 30.0, -np.inf),  # was +inf
        ("ive", -1e300, 1.0, -np.inf),
    ],
)
def test_order_derivative_at_large_negative_integer_orders(name, v, x, expected):
    assert bessel_order_derivative(name, v, x) == expected


@pytest.mark.parametrize(
    "name, v, x, expected",
    [  # mpmath.diff at 40 digits; the integrals and series, next to the reflected points
        ("jv", -20.0, 2.5, -1522970478215628.93222761418199),
        ("iv", -20.0, 30.0, 713369052.957403266804891739134),
    ],
)
def test_order_derivative_at_moderate_negative_integer_orders(name, v, x, expected):
    # as accurate as the series and quadrature elsewhere (measured 1e-15 and 2e-14)
    assert bessel_order_derivative(name, v, x) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("name", "v", "x", "first", "second"),
    [
        # mpmath (30 digits); the quadrature gave -0.037 for jv's 0.0119 at x = 1e4, the wrong
        # sign for yv's, and 0 for kve's at x = 1e8
        ("jv", 0.5, 1e4, 0.011933117978470561, 0.0060154915861604336),
        ("jv", 2.5, 1e4, -0.01193044926634385, -0.0060195814789049241),
        ("yv", 0.5, 1e4, 0.0038301864380989698, -0.018744145029336227),
        ("kve", 30.0, 1e8, 3.7599593082255374e-11, 1.2533310492863432e-12),
        ("ive", 3.0, 300.0, -0.00022736519530353434, -7.3508434241570236e-5),
        ("jv", 10.0, 200.0, 0.085822828313418711, -0.0037999023039079631),
    ],
)
def test_order_derivatives_at_large_x(name, v, x, first, second):
    # the Hankel expansions; rtol: their sums' rounding, measured within 2e-14
    assert bessel_order_derivative(name, v, x) == pytest.approx(first, rel=1e-13, abs=0)
    assert bessel_order_second(name, v, x) == pytest.approx(second, rel=1e-13, abs=0)


def test_order_derivative_beyond_the_quadrature_is_nan():
    # x = 1e4 with v^2 beyond x: neither the expansions nor the quadrature resolve it
    assert np.isnan(bessel_order_derivative("jv", 150.0, 1e4))


@pytest.mark.parametrize(
    ("v", "x", "first", "second"),
    [
        # mpmath (30 digits); the quadrature found none of the mass, which sits near
        # t = log(2 v / x) (1.3e38 for 8.6e152 at x = 1e-300)
        (0.5, 1e-100, 2.8699408122839911e52, 6.5724427561106293e54),
        (0.5, 1e-300, 8.6416657111267176e152, 5.9585349910547648e155),
        (1.0, 1e-300, 6.908914594138721e302, 4.7733265362509694e305),
        (2.5, 1e-100, 8.7100875678372129e252, 2.0177521449607178e255),
    ],
)
def test_kv_order_derivatives_at_tiny_x(v, x, first, second):
    # rtol: the quadrature's 1e-12 and a few roundings, measured within 1.1e-14
    assert bessel_order_derivative("kv", v, x) == pytest.approx(first, rel=1e-13, abs=0)
    assert bessel_order_second("kv", v, x) == pytest.approx(second, rel=1e-13, abs=0)


@pytest.mark.parametrize(
    ("v", "x", "first", "second"),
    [
        # mpmath (30 digits); as kv's, Y's tail integrals hid their mass from the quadrature
        (0.5, 1e-100, -1.8270610666246659e52, -4.1841470112941078e54),
        (1.0, 1e-300, -4.3983516362276532e302, -3.0387940529442277e305),
    ],
)
def test_yv_order_derivatives_at_tiny_x(v, x, first, second):
    assert bessel_order_derivative("yv", v, x) == pytest.approx(first, rel=1e-13, abs=0)
    assert bessel_order_second("yv", v, x) == pytest.approx(second, rel=1e-13, abs=0)


@pytest.mark.parametrize(
    ("name", "v", "x", "first", "second", "rtol"),
    [
        # mpmath (60 digits), at orders above x: the integrals' parts cancelled to the small
        # function (iv(150, 41)'s derivative came out 0.135); rtol: the first term's rounding,
        # |v log(x/2)| 1e-16, times e^(x^2 / (4 v)) for J's alternating sum
        ("iv", 150.0, 41.0, -3.2180086602576349e-65, 6.4627185382757171e-65, 2e-13),
        ("jv", 41.0, 7.5, -1.7552457918405121e-26, 4.1874491837861873e-26, 5e-14),
        ("jv", 41.0, 30.0, -0.00013367017947814846, 0.0001092707430957598, 3e-12),
        # iv's exp(x) overflows at x = 800, iv itself does not (it was -inf)
        ("iv", 900.0, 800.0, -1.0379497125402693e143, 1.0031904901912796e143, 2e-12),
        ("ive", 900.0, 800.0, -3.8070693702809903e-205, 3.67957690206135e-205, 2e-12),
    ],
)
def test_order_derivatives_at_orders_above_x(name, v, x, first, second, rtol):
    assert bessel_order_derivative(name, v, x) == pytest.approx(first, rel=rtol, abs=0)
    assert bessel_order_second(name, v, x) == pytest.approx(second, rel=rtol, abs=0)


@pytest.mark.parametrize(
    ("name", "v", "x", "first", "second"),
    [
        # mpmath (40 digits; at v < 0 from I_mu + 2/pi sin(mu pi) K_mu, mu = -v), where I e^-x
        # is small beside its integrals, of order 1 / sqrt(x): from v^2 = 4x on. The quadrature
        # gave iv(90, 100)'s 21% off, iv(140, 150)'s 1e10 times too large, iv(-150, 100)'s
        # -2.5e24 for 0.038 and ive(-300, 300)'s 7e-49 for 2.3e-63. rtol 1e-12: the series'
        # rounding over its x / 2 + 6 sqrt(x) terms (7e-13 measured at v = x = 1000).
        ("iv", 90.0, 100.0, -1.8128992984445257e25, 1.4543048855752413e25),
        ("iv", 140.0, 150.0, -6.343150234183176e36, 5.2601765050915945e36),
        ("ive", 250.0, 300.0, -1.3900813665938952e-45, 1.0508094500040464e-45),
        ("ive", 800.0, 1000.0, -1.7024098475221846e-135, 1.2459031106679715e-135),
        ("ive", 150.0, 1000.0, -2.4918505384521943e-08, 3.560834237665639e-09),
        ("iv", -150.0, 100.0, 0.03848093002347747, 0.276580936739768),
        ("iv", -150.3, 100.0, -0.010603574500826227, 0.015001801996202737),
        ("ive", -300.0, 300.0, 2.3290445426488477e-63, 2.0484787420226014e-63),
        ("ive", -300.5, 300.0, 1.4998934539229062e-63, 1.320986015700692e-63),
        ("ive", -150.0, 1000.0, 2.4918505384521943e-08, 3.560834237665639e-09),
        ("iv", -30.5, 7.5, -62242837100813.53, -161818900488697.78),
    ],
)
def test_i_order_derivatives_where_its_integrals_cancel(name, v, x, first, second):
    assert bessel_order_derivative(name, v, x) == pytest.approx(first, rel=1e-12, abs=0)
    assert bessel_order_second(name, v, x) == pytest.approx(second, rel=1e-12, abs=0)


def test_i_order_derivative_overflows_with_its_sign():
    # mpmath: -6.2e329 and 3.3e329, beyond the floats; the quadrature gave +inf for the first
    assert bessel_order_derivative("iv", 500.0, 900.0) == -np.inf
    assert bessel_order_second("iv", 500.0, 900.0) == np.inf


def test_jv_order_derivative_where_the_quadrature_cancels_is_nan():
    # J_150(100) = 2.7e-16 beside integrals of order 1: the quadrature gave 4x the derivative
    assert np.isnan(bessel_order_derivative("jv", 150.0, 100.0))
