"""Tests of the rules for wright_bessel and log_wright_bessel in every argument."""

import math

import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules.rules.scipy.special import wright

SHAPES = (((3,), (3,), (3,)),)
ROWS = [
    Row(f, ((0.2, 2.0), (0.2, 2.0), (0.5, 4.5)), shapes=SHAPES)
    for f in (sc.wright_bessel, sc.log_wright_bessel)
]
CASES = cases(ROWS)

test_rrule_wright, test_frule_wright = table_tests(CASES)


def test_derivative_in_x():
    a, b, x = 0.7, 1.3, 1.1
    assert cr.rrule(sc.wright_bessel, a, b, x)[1](1.0)[3] == sc.wright_bessel(a, a + b, x)


def test_at_a_pole_of_gamma():
    # at a = b = 0 every term x^k / (k! gamma(a k + b)) is at a pole of gamma, where 1/gamma
    # has the derivative 1: d/da = sum k x^k / k! = x e^x and d/db = e^x
    da, db = wright.wright_bessel_gradient(0.0, 0.0, 2.0)
    assert (float(da), float(db)) == pytest.approx((2 * math.exp(2.0), math.exp(2.0)), rel=1e-14)


def test_large_arguments_in_logarithms():
    # log_wright_bessel where wright_bessel overflows: a finite gradient
    da, db = wright.log_wright_bessel_gradient(0.5, 1.0, 1e4)
    assert np.isfinite(da) and np.isfinite(db)
    assert np.isnan(wright.wright_bessel_gradient(-0.5, 1.0, 1.0)[0])  # outside a >= 0
