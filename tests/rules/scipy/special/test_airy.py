"""Tests of the rules for the Airy functions airy, airye and their integrals itairy."""

import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, table_tests

import chainrules as cr

AIRY = "SciPy's itairy is off by up to 5e-7 (against quadrature): its finite differences by 1e-5"

ROWS = [
    Row(sc.airy, ((-2.5, 2.5),), complex=True),
    # eBi = Bi exp(-|Re 2/3 z^(3/2)|) is not holomorphic: complex input is not supported.
    Row(sc.airye, ((0.2, 3.0),)),
]
CASES = cases(ROWS)

test_rrule_bessel_more, test_frule_bessel_more = table_tests(CASES)


@pytest.mark.parametrize("f", [sc.airy, sc.airye], ids=repr)
def test_scalar_airy(f):
    # The harness's holomorphy probe takes one output; complex airy is tested by its row.
    test_scalar(f, 0.7, complex_point=False)


# ---- the integrals of Ai and Bi -------------------------------------------------------------

INTEGRAL_ROWS = [
    Row(sc.itairy, ((-2.5, 2.5),), rtol=1e-4, atol=1e-5, reason=AIRY),
]
INTEGRAL_CASES = cases(INTEGRAL_ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(INTEGRAL_CASES)


# ---- hard points and exact values -----------------------------------------------------------


def test_airy_values():
    (_, aip, _, bip), pullback = cr.rrule(sc.airy, 0.0)
    assert pullback((1.0, 0.0, 0.0, 0.0))[1] == aip
    assert pullback((0.0, 1.0, 0.0, 0.0))[1] == 0.0  # Ai''(0) = 0 Ai(0)
    assert pullback((0.0, 0.0, 1.0, 0.0))[1] == bip
    assert pullback((0.0, 0.0, 0.0, 1.0))[1] == 0.0
    _, pullback = cr.rrule(sc.airy, 2.0)
    assert pullback((0.0, 1.0, 0.0, 0.0))[1] == pytest.approx(2 * sc.airy(2.0)[0])
