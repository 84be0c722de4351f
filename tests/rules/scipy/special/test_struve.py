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
STRUVE = "the derivative in the order is NotImplementedTangent; second order on integer orders"

ROWS = [
    Row(sc.struve, (ORDER, XI), second_order=False, reason=STRUVE),
    Row(sc.modstruve, (ORDER, XI), second_order=False, reason=STRUVE),
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
