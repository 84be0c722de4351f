"""Tests of the rules for logistic functions, x log y, entropies, Box-Cox transforms, softplus."""

import math

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_rrule, test_scalar
from samples import LAYOUTS, Row, cases, check_array_derivative, midpoint, table_tests

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

UNIT = (0.1, 0.9)
POSITIVE = (0.2, 2.0)

ROWS = [
    Row(sc.expit, ((-3.0, 3.0),)),
    Row(sc.logit, (UNIT,)),
    Row(sc.log_expit, ((-3.0, 3.0),)),
    Row(sc.entr, (POSITIVE,)),
    Row(sc.xlogy, ((-2.0, 2.0), POSITIVE), complex=True),
    Row(sc.xlog1py, ((-2.0, 2.0), (-0.5, 2.0)), complex=True),
    Row(sc.rel_entr, (POSITIVE, POSITIVE)),
    Row(sc.kl_div, (POSITIVE, POSITIVE)),
    Row(sc.boxcox, (POSITIVE, (-1.0, 2.0))),
    Row(sc.boxcox1p, ((-0.5, 2.0), (-1.0, 2.0))),
    Row(sc.inv_boxcox, ((-0.5, 1.0), (-0.5, 1.5))),
    Row(sc.inv_boxcox1p, ((-0.5, 1.0), (-0.5, 1.5))),
]
CASES = cases(ROWS)

test_rrule_information, test_frule_information = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_information(row):
    test_scalar(row.f, midpoint(row))


# ---- softplus -------------------------------------------------------------------------------

SOFTPLUS_ROWS = [
    Row(sc.softplus, ((-3.0, 3.0),)),
]
SOFTPLUS_CASES = cases(SOFTPLUS_ROWS)

test_rrule_distributions_more, test_frule_distributions_more = table_tests(SOFTPLUS_CASES)


@pytest.mark.parametrize("row", [r for r in SOFTPLUS_ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_distributions_more(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


# ---- hard points ----------------------------------------------------------------------------


def cotangents(f, *args):
    return cr.rrule(f, *args)[1](1.0)


@pytest.mark.parametrize("f", [sc.xlogy, sc.xlog1py, sc.rel_entr])
@pytest.mark.parametrize("y", [0.0, 2.0])
def test_x_log_y_at_x_zero_has_zero_derivative_in_y(f, y):
    with np.errstate(divide="ignore"):
        assert cotangents(f, 0.0, y)[2] == 0.0
        assert cr.frule((NoTangent(), ZeroTangent(), 1.0), f, 0.0, y)[1] == 0.0


def test_kl_div_at_x_zero():
    with np.errstate(divide="ignore"):
        assert cotangents(sc.kl_div, 0.0, 2.0)[2] == 1.0


def test_entr_at_zero_is_infinite():
    with np.errstate(divide="ignore"):
        assert cotangents(sc.entr, 0.0)[1] == math.inf


@pytest.mark.parametrize("f, log", [(sc.boxcox, math.log), (sc.boxcox1p, math.log1p)])
def test_boxcox_at_lambda_zero(f, log):
    x = 2.5
    assert cotangents(f, x, 0.0)[2] == pytest.approx(log(x) ** 2 / 2, rel=1e-15)
    assert cotangents(f, x, 0.0)[1] == pytest.approx(math.exp(-log(x)), rel=1e-15)
    # Across the switch between series and closed form, the derivative stays smooth.
    lmbdas = np.array([-1e-3, 0.0, 1e-8, 0.19, 0.21, 0.5])
    test_rrule(f, np.full(6, x), lmbdas)


def test_boxcox_derivative_in_x_at_lambda_one():
    # x**(lmbda - 1) at lmbda = 1 is 1, also at x = 0 (no 0 * log 0).
    assert cotangents(sc.boxcox, 0.0, 1.0)[1] == 1.0


def test_logistic_values():
    assert cotangents(sc.expit, 0.0)[1] == 0.25
    assert cotangents(sc.logit, 0.5)[1] == 4.0
    assert cotangents(sc.log_expit, 0.0)[1] == 0.5


# The cotangents of the arguments only, unthunked (``cotangents`` above keeps the function's).
def argument_cotangents(f, *args):
    return tuple(cr.unthunk(g) for g in cr.rrule(f, *args)[1](1.0)[1:])


def test_softplus_derivative_at_zero():
    assert argument_cotangents(sc.softplus, 0.0)[0] == 0.5


@pytest.mark.parametrize("layout", LAYOUTS)
def test_expit_derivative_of_an_array_in_each_layout(layout):
    # An array's derivative is y (1 - y) below x = 1 and expit(-x) (1 - expit(-x)) from there
    # on, written back by flat index; an array whose flat index is not its C order (F,
    # strided) or whose elements are mostly from x = 1 on takes the general form everywhere.
    # Each writes the saturated elements (y (1 - y) would give 0 at 40 and 700).
    values = np.concatenate(
        [np.linspace(-5.0, 0.99, 37), [np.nextafter(1.0, 0.0), 1.0, 1.5, 3.0, 40.0, 700.0, -40.0]]
    )
    check_array_derivative(
        sc.expit, values, lambda x: mpmath.exp(-x) / (1 + mpmath.exp(-x)) ** 2, layout, abs
    )


def test_expit_derivative_does_not_saturate():
    # expit(40) rounds to 1, so y (1 - y) was exactly 0; exp(-40) / (1 + exp(-40))**2
    from chainrules.engines import reverse

    assert reverse.grad(sc.expit)(40.0) == pytest.approx(math.exp(-40.0), rel=1e-14)
    assert reverse.grad(reverse.grad(sc.expit))(40.0) == pytest.approx(-math.exp(-40.0), rel=1e-14)
    assert reverse.grad(reverse.grad(sc.log_expit))(-40.0) == pytest.approx(
        -math.exp(-40.0), rel=1e-14
    )


# Box-Cox where x**lmbda vanishes with log(x) infinite: (x**lmbda - 1) / lmbda is -1/lmbda
# (x = 0, lmbda > 0) or the same with x = inf, lmbda < 0; its derivative in lmbda is exactly
# 1 / lmbda**2 (L x**lmbda -> 0).
@pytest.mark.parametrize(
    "f, x, lmbda",
    [
        (sc.boxcox, 0.0, 0.5),
        (sc.boxcox, 0.0, 2.5),
        (sc.boxcox, 0.0, 1e-8),
        (sc.boxcox, math.inf, -0.5),
        (sc.boxcox1p, math.inf, -0.5),
        (sc.boxcox1p, -1.0, 2.5),
    ],
)
def test_boxcox_where_the_power_vanishes(f, x, lmbda):
    with np.errstate(divide="ignore"):
        assert argument_cotangents(f, x, lmbda)[1] == pytest.approx(1 / lmbda**2, rel=1e-15)


def test_boxcox_next_to_zero_and_as_an_array():
    # x = 1e-300: (L x**lmbda - y) / lmbda with y = (x**lmbda - 1) / lmbda, mpmath at 50 digits
    # gives 4 and 0.16 to 17 digits (the L x**lmbda term is below 1e-147)
    assert argument_cotangents(sc.boxcox, 1e-300, 0.5)[1] == pytest.approx(4.0, rel=1e-15)
    x, lmbda = np.array([0.0, 1e-300, 2.0, np.inf]), np.array([0.5, 0.5, 0.5, -0.5])
    with np.errstate(divide="ignore"):
        dlmbda = cr.unthunk(cr.rrule(sc.boxcox, x, lmbda)[1](np.ones(4))[2])
    closed = (math.log(2.0) * math.sqrt(2.0) - sc.boxcox(2.0, 0.5)) / 0.5
    assert dlmbda == pytest.approx([4.0, 4.0, closed, 4.0], rel=1e-15)


# Inverse Box-Cox where x (inv_boxcox) or 1 + x (inv_boxcox1p) underflows to 0 at lmbda < 1:
# the derivative in lmbda is x**(1 - lmbda) times a polynomial in log(x), which tends to 0.
@pytest.mark.parametrize(
    "f, y, lmbda",
    [
        (sc.inv_boxcox, -1e4, 1e-300),
        (sc.inv_boxcox, -1e4, 0.0),
        (sc.inv_boxcox, -math.inf, -0.5),
        (sc.inv_boxcox, -1e300, -0.5),
        (sc.inv_boxcox1p, -1e4, 1e-8),
        (sc.inv_boxcox1p, -math.inf, -2.5),
        (sc.inv_boxcox1p, -1e300, -0.5),
    ],
)
def test_inv_boxcox_where_x_underflows(f, y, lmbda):
    with np.errstate(all="ignore"):
        assert argument_cotangents(f, y, lmbda) == (0.0, 0.0)


def test_inv_boxcox1p_where_its_factors_overflow_and_underflow():
    # (1 + lmbda y)**(1/lmbda) - 1 at y = 1e308, lmbda = 1e20: x = 7.55e-18, dx/dy = e**-755
    # underflows and dboxcox1p/dlmbda overflows; their product, -(L (1 + x) - y dx/dy) / lmbda,
    # is -7.5424791050204699e-38 (mpmath at 50 digits, relative step 1e-20)
    with np.errstate(all="ignore"):
        dlmbda = argument_cotangents(sc.inv_boxcox1p, 1e308, 1e20)[1]
        assert dlmbda == pytest.approx(-7.5424791050204699e-38, rel=1e-14, abs=0)
        # at y = lmbda = 1e300 it is about -1380 / 1e600: 0
        assert argument_cotangents(sc.inv_boxcox1p, 1e300, 1e300)[1] == 0.0
        # and as an array, with an ordinary element left as the product form gives it
        y, lmbda = np.array([1e308, 0.5]), np.array([1e20, 0.7])
        dlmbdas = cr.unthunk(cr.rrule(sc.inv_boxcox1p, y, lmbda)[1](np.ones(2))[2])
    assert dlmbdas[0] == pytest.approx(-7.5424791050204699e-38, rel=1e-14, abs=0)
    assert dlmbdas[1] == argument_cotangents(sc.inv_boxcox1p, 0.5, 0.7)[1]


@pytest.mark.filterwarnings("error")
def test_boxcox1p_in_x_where_one_plus_x_rounds():
    # (1 + x)**(lmbda - 1) with 1 + x = 1 exactly gave 1; (1 + 1e-300)**(1e300 - 1) is e
    assert cotangents(sc.boxcox1p, 1e-300, 1e300)[1] == pytest.approx(np.e, rel=1e-15)
    assert cotangents(sc.boxcox1p, 1e-300, -1e300)[1] == pytest.approx(1 / np.e, rel=1e-15)
    assert cotangents(sc.boxcox1p, 0.3, 2.5)[1] == pytest.approx(1.3**1.5, rel=1e-15)
    assert cotangents(sc.boxcox1p, 5.0, 0.5)[1] == pytest.approx(6**-0.5, rel=1e-15)
