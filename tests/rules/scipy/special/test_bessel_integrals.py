"""Tests of the rules for integrals of Bessel functions (itj0y0, it2j0y0, iti0k0, it2i0k0) and
besselpoly."""

import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, output_derivative, table_tests

import chainrules as cr

XI = (0.5, 4.5)
X = (XI,)
FIRST3 = (((3,), (3,), (3,)),)

INTEGRALS = [sc.itj0y0, sc.it2j0y0, sc.iti0k0, sc.it2i0k0]

ROWS = [
    *(Row(f, X) for f in INTEGRALS),
    Row(sc.besselpoly, (XI, (0.0, 2.0), (0.0, 3.0))),
    Row(sc.besselpoly, (XI, (0, 2), (0, 3)), integer=(1, 2), shapes=FIRST3),
]
CASES = cases(ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(CASES)


@pytest.mark.parametrize("f", INTEGRALS, ids=repr)
def test_scalar_special_more_outputs(f):
    test_scalar(f, 1.3, complex_point=False)


# ---- hard points and exact values -----------------------------------------------------------


def test_integrands_are_derivatives():
    x = 1.7
    assert output_derivative(sc.itj0y0, x, 0, 2) == sc.j0(x)
    assert output_derivative(sc.itj0y0, x, 1, 2) == sc.y0(x)
    assert output_derivative(sc.iti0k0, x, 0, 2) == sc.i0(x)
    assert output_derivative(sc.iti0k0, x, 1, 2) == sc.k0(x)
    assert output_derivative(sc.it2i0k0, x, 1, 2) == pytest.approx(-sc.k0(x) / x)
    assert output_derivative(sc.itairy, x, 3, 4) == sc.airy(-x)[2]
    assert cr.rrule(sc.itstruve0, x)[1](1.0)[1] == sc.struve(0, x)


def test_removable_integrands_second_derivative_at_zero():
    # (1 - J0(x))/x = x/4 - ... and (I0(x) - 1)/x = x/4 + ...: their slopes at 0 are 1/4, not
    # the 0 of a constant limit; at 1e-9 the quotient's slope would cancel.
    from chainrules.engines import reverse

    for f in (sc.it2j0y0, sc.it2i0k0):
        second = reverse.grad(reverse.grad(lambda x, f=f: f(x)[0]))
        assert second(0.0) == 0.25
        assert second(1e-9) == pytest.approx(0.25, rel=1e-15, abs=0)
