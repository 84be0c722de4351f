"""Tests of the rules for the Kelvin functions ber, bei, ker, kei, their derivatives, kelvin."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, output_derivative, table_tests

import chainrules as cr
from chainrules import ZeroTangent

XI = (0.5, 4.5)
X = (XI,)

KELVIN = [sc.ber, sc.bei, sc.ker, sc.kei, sc.berp, sc.beip, sc.kerp, sc.keip]

ROWS = [
    *(Row(f, X) for f in KELVIN),
    Row(sc.kelvin, X),
]
CASES = cases(ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(CASES)


@pytest.mark.parametrize("f", KELVIN, ids=repr)
def test_scalar_special_more(f):
    # SciPy evaluates these at real arguments only.
    test_scalar(f, 1.3, complex_point=False)


@pytest.mark.parametrize("f", [sc.kelvin], ids=repr)
def test_scalar_special_more_outputs(f):
    test_scalar(f, 1.3, complex_point=False)


# ---- hard points and exact values -----------------------------------------------------------


def test_limits_at_zero():
    # (1 - J0(t))/t, (I0(t) - 1)/t and H0(t)/t tend to 0, 0 and 2/pi at t = 0.
    assert output_derivative(sc.it2j0y0, 0.0, 0, 2) == 0.0
    assert output_derivative(sc.it2i0k0, 0.0, 0, 2) == 0.0
    assert cr.rrule(sc.it2struve0, 0.0)[1](1.0)[1] == pytest.approx(-2 / np.pi)
    # ber'' (0) = 0 and bei'' (0) = 1/2, from w'' = i w - w'/x.
    assert cr.rrule(sc.berp, 0.0)[1](1.0)[1] == 0.0
    assert cr.rrule(sc.beip, 0.0)[1](1.0)[1] == 0.5
    assert output_derivative(sc.kelvin, 0.0, 2, 4) == 0.0
    assert cr.rrule(sc.kelvin, 0.0)[1]((ZeroTangent(), ZeroTangent(), 1j, ZeroTangent()))[1] == 0.5


def test_kelvin_second_derivatives_near_zero():
    # ber'' = -ber'/x - bei and bei'' = -bei'/x + ber: the quotients are taken from their
    # series near 0, so that their own slopes are exact: ber''' = -3x/8, bei''' = -x^3/32 ...
    from chainrules.engines import reverse

    berp2 = reverse.grad(reverse.grad(sc.berp))
    beip2 = reverse.grad(reverse.grad(sc.beip))
    assert berp2(1e-9) == pytest.approx(-3e-9 / 8, rel=1e-12)
    assert beip2(0.0) == 0.0
    assert berp2(0.0) == 0.0
