"""Tests of the rules for hyperu in every argument."""

import mpmath
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
