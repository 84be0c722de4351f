"""Tests of the rules for hyperu in every argument."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules.engines import reverse
from chainrules.rules.scipy.special import confluent_u

SHAPES = (((3,), (3,), (3,)),)
ROWS = [
    # a from -1.5: the recurrence in a below 1
    Row(sc.hyperu, ((-1.5, 2.0), (0.2, 2.0), (0.5, 4.5)), shapes=SHAPES),
    # integer parameters have no tangent
    Row(sc.hyperu, ((0, 3), (1, 3), (0.5, 4.5)), integer=(0, 1), shapes=SHAPES),
]
CASES = cases(ROWS)

test_rrule_hyperu, test_frule_hyperu = table_tests(CASES)


def test_derivative_in_x():
    a, b, x = 0.7, 1.3, 1.1
    assert cr.rrule(sc.hyperu, a, b, x)[1](1.0)[3] == -a * sc.hyperu(a + 1, b + 1, x)


@pytest.mark.parametrize("a, b, x", [(0.3, 0.5, 0.0), (-3.7, 0.5, 2.0), (2.0, 3.0, 1e-8)])
def test_parameter_derivatives(a, b, x):
    # U(a, b, 0) = gamma(1 - b) / gamma(a - b + 1) for b < 1; a <= 0 by the recurrence; small x
    got = confluent_u.hyperu_gradient(a, b, x)
    with mpmath.workdps(30):
        f = lambda a, b, x=x: mpmath.hyperu(a, b, x)
        exact = [float(mpmath.diff(f, (a, b), order)) for order in ((1, 0), (0, 1))]
    assert got == pytest.approx(exact, rel=1e-10)


def test_third_derivative_in_a_parameter_names_the_gradient():
    f = lambda b: sc.hyperu(1.0, b, 2.0)
    with pytest.raises(cr.ChainRulesError, match=r"hyperu_gradient.*numerically on NumPy"):
        reverse.grad(reverse.grad(reverse.grad(f)))(1.5)


def test_hyperu_b_derivative_where_the_recurrence_cancels_is_nan():
    # U(-3, 30, x) is a cubic in x, of order 3e4, reached by the recurrence from
    # U(1, 30, 0.3) ~ 1e44: the b-derivative came out 2.9e37 for -2826 (mpmath). The
    # a-derivative's terms cancel less; it stays (mpmath: -3.7566091347e45, 6.5e-10 measured)
    da, db = confluent_u.hyperu_gradient(-3.0, 30.0, 0.3)
    assert np.isnan(db)
    assert da == pytest.approx(-3.7566091347200664e45, rel=1e-8, abs=0)
