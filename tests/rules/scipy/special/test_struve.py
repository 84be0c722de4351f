"""Tests of the rules for the Struve functions struve, modstruve and their integrals."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, table_tests

import chainrules as cr

XI = (0.5, 4.5)
X = (XI,)
ORDER = (-1.7, 2.6)
INTEGER = (0, 3)
FIRST = (((3,), (3,)),)

ROWS = [
    Row(sc.struve, (ORDER, XI)),
    Row(sc.modstruve, (ORDER, XI)),
    Row(sc.struve, (INTEGER, XI), integer=(0,), shapes=FIRST),
    Row(sc.modstruve, (INTEGER, XI), integer=(0,), shapes=FIRST),
]
CASES = cases(ROWS)

test_rrule_bessel_more, test_frule_bessel_more = table_tests(CASES)


# ---- the integrals itstruve0, it2struve0, itmodstruve0 --------------------------------------

INTEGRALS = [sc.itstruve0, sc.it2struve0, sc.itmodstruve0]

INTEGRAL_ROWS = [*(Row(f, X) for f in INTEGRALS)]
INTEGRAL_CASES = cases(INTEGRAL_ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(INTEGRAL_CASES)


@pytest.mark.parametrize("f", INTEGRALS, ids=repr)
def test_scalar_special_more(f):
    # SciPy evaluates these at real arguments only.
    test_scalar(f, 1.3, complex_point=False)


# ---- hard points and exact values -----------------------------------------------------------


def test_struve_at_zero():
    # H_0'(0) = 2/pi and L_0'(0) = 2/pi: the term (x/2)^v / (sqrt(pi) gamma(v + 3/2)) alone.
    assert cr.rrule(sc.struve, 0, 0.0)[1](1.0)[2] == pytest.approx(2 / np.pi)
    assert cr.rrule(sc.modstruve, 0, 0.0)[1](1.0)[2] == pytest.approx(2 / np.pi)


def test_struve_second_derivative_at_zero():
    # H_0 = (2/pi)(x - x^3/9 + ...), so H_0''(0) = 0; the recurrence gave inf - inf = NaN.
    from chainrules.engines import reverse

    for f in (sc.struve, sc.modstruve):
        second = reverse.grad(reverse.grad(lambda x, f=f: f(0, x)))
        assert second(0.0) == 0.0
        # H_0''(x) ~ -(4/(3 pi)) x and L_0''(x) ~ +(4/(3 pi)) x near 0.
        sign = -1 if f is sc.struve else 1
        assert second(1e-9) == pytest.approx(sign * 4e-9 / (3 * np.pi), rel=1e-12)


def test_struve_order_minus_one_near_zero():
    # H_{-1}'(x) = O(x) from two O(1/x) terms of the recurrence: the series keeps it exact.
    from chainrules.engines import reverse

    for f in (sc.struve, sc.modstruve):
        assert reverse.grad(lambda x, f=f: f(-1, x))(0.0) == 0.0
        assert np.isfinite(reverse.grad(reverse.grad(lambda x, f=f: f(-1, x)))(0.0))


def test_it2struve0_second_derivative_near_zero():
    # -H0(x)/x = -2/pi + (2/(9 pi)) x^2 + ...: slope (4/(9 pi)) x, not a cancelled quotient.
    from chainrules.engines import reverse

    second = reverse.grad(reverse.grad(sc.it2struve0))
    assert second(1e-9) == pytest.approx(4e-9 / (9 * np.pi), rel=1e-12)
    assert second(1e-300) == pytest.approx(4e-300 / (9 * np.pi), rel=1e-12)


def test_order_far_below_zero_gives_nan_as_scipy_does():
    # the series' terms at k >= 170 divided by math.gamma, which raised OverflowError; there
    # SciPy's value is NaN, and so are the partials
    for f in (sc.struve, sc.modstruve):
        y, pullback = cr.rrule(f, -1e300, 2.5)
        assert np.isnan(y)
        with np.errstate(all="ignore"):
            assert np.isnan([cr.unthunk(c) for c in pullback(1.0)[1:]]).all()
