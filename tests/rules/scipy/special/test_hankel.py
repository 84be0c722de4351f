"""Tests of the rules for the Hankel functions, in the argument and in the order."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import unthunk
from chainrules.engines import reverse

X = (0.5, 4.5)
ORDER = (-1.7, 2.6)
INTEGER = (0, 3)
FIRST = (((3,), (3,)),)
NUMERIC = "the derivative in the order is computed numerically, on NumPy values only"

HANKEL = [sc.hankel1, sc.hankel2, sc.hankel1e, sc.hankel2e]

ROWS = [
    *(Row(f, (ORDER, X), second_order=False, reason=NUMERIC) for f in HANKEL),
    *(Row(f, (INTEGER, X), integer=(0,), complex=True, shapes=FIRST) for f in HANKEL),
]
CASES = cases(ROWS)

test_rrule_bessel_more, test_frule_bessel_more = table_tests(CASES)


# ---- hard points and exact values -----------------------------------------------------------


# d/dv at (v, x) = (1.3, 2.1), from central differences of SciPy's functions checked to 1e-8.
def test_order_derivatives_match_bessel():
    v, x = 1.3, 2.1
    djv = unthunk(cr.rrule(sc.jv, v, x)[1](1.0)[1])
    dyv = unthunk(cr.rrule(sc.yv, v, x)[1](1.0)[1])
    _, pullback = cr.rrule(sc.hankel1, v, x)
    # A real order receives Re(conj(dH/dv) dy): dy = 1 and dy = 1j give both parts.
    assert unthunk(pullback(1.0)[1]) == pytest.approx(djv, rel=1e-10)
    assert unthunk(pullback(1.0j)[1]) == pytest.approx(dyv, rel=1e-10)
    assert unthunk(cr.rrule(sc.jve, v, x)[1](1.0)[1]) == pytest.approx(djv, rel=1e-10)
    h = 1e-5
    fd = (sc.jvp(v + h, x, 2) - sc.jvp(v - h, x, 2)) / (2 * h)
    assert unthunk(cr.rrule(sc.jvp, v, x, 2)[1](1.0)[1]) == pytest.approx(fd, rel=1e-7)


# At complex z the order derivative interpolates SciPy's values in the order (Chebyshev, 16
# points over v +- 1/2): (function, mpmath's twin); mpmath at 30 digits, computed here.
COMPLEX_ORDERS = [
    (sc.hankel1, lambda v, z: mpmath.hankel1(v, z)),
    (sc.hankel2e, lambda v, z: mpmath.hankel2(v, z) * mpmath.exp(1j * z)),
    (sc.jve, lambda v, z: mpmath.besselj(v, z) * mpmath.exp(-abs(mpmath.im(z)))),
    (sc.jvp, lambda v, z: mpmath.diff(lambda t: mpmath.besselj(v, t), z)),
    (sc.kvp, lambda v, z: mpmath.diff(lambda t: mpmath.besselk(v, t), z)),
]


@pytest.mark.parametrize("f, twin", COMPLEX_ORDERS, ids=lambda p: getattr(p, "__name__", ""))
def test_orders_at_complex_arguments(f, twin):
    v, z = 1.5, -2.0 + 0.7j
    _, pullback = cr.rrule(f, v, np.array([z]))
    # a real order, a complex output: the cotangents of 1 and 1j give the real and imaginary
    # parts of the derivative
    d = unthunk(pullback(np.ones(1))[1]) + 1j * unthunk(pullback(1j * np.ones(1))[1])
    with mpmath.workdps(30):
        exact = complex(mpmath.diff(lambda w: twin(w, z), v))
    assert complex(d) == pytest.approx(exact, rel=1e-10)


def test_real_part_of_the_derivative_at_small_x():
    # SciPy's hankel1(1, 1e-100) has the real part 4e83 (true J_1 = 5e-101): the derivative of
    # the real part (J_0' = -J_1) comes from jv and yv at real x.
    d = reverse.grad(lambda x: np.real(sc.hankel1(0.0, x)))(1e-100)
    assert float(d) == pytest.approx(-5e-101, rel=1e-14)


@pytest.mark.parametrize("f", [sc.hankel1e, sc.hankel2e], ids=lambda f: f.__name__)
def test_scaled_second_derivative_at_large_x(f):
    # hankel1e(0, x) ~ sqrt(2/(pi x)) exp(-i pi/4): the recurrences gave 3.4e-21 at 1e9
    # (true 1.3e-23), from the cancellation of two terms ~1/x apart.
    x = 1e9
    second = float(reverse.grad(reverse.grad(lambda x: np.real(f(0.0, x))))(x))
    assert second == pytest.approx(0.75 / np.sqrt(np.pi) * x**-2.5, rel=1e-9)
