"""Tests of the rules for the derivatives jvp, yvp, ivp, kvp, h1vp, h2vp of Bessel functions."""

import math

import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent

X = (0.5, 4.5)
ORDER = (-1.7, 2.6)
INTEGER = (0, 3)
FIRST = (((3,), (3,)),)
NUMERIC = "the derivative in the order is computed numerically, on NumPy values only"

DERIVATIVES = [sc.jvp, sc.yvp, sc.ivp, sc.kvp, sc.h1vp, sc.h2vp]

ROWS = [
    *(
        Row(f, (ORDER, X), float32=False, second_order=False, reason=NUMERIC, shapes=FIRST)
        for f in DERIVATIVES
    ),
    *(
        Row(f, (INTEGER, X), integer=(0,), complex=True, kwargs={"n": n}, shapes=FIRST)
        for f in DERIVATIVES
        for n in (0, 2)
    ),
]
CASES = cases(ROWS)

test_rrule_bessel_more, test_frule_bessel_more = table_tests(CASES)


# ---- hard points and exact values -----------------------------------------------------------


def test_bessel_derivative_orders():
    # The derivative in z of jvp(v, z, n) is jvp(v, z, n + 1), by position or keyword.
    assert cr.rrule(sc.jvp, 1, 1.5, 2)[1](1.0)[2] == pytest.approx(sc.jvp(1, 1.5, 3))
    assert cr.rrule(sc.kvp, 1, 1.5, n=3)[1](1.0)[2] == pytest.approx(sc.kvp(1, 1.5, 4))
    assert cr.rrule(sc.jvp, 1, 1.5, 0)[0] == sc.jv(1, 1.5)
    assert cr.rrule(sc.jvp, 1, 1.5, 2)[1](1.0)[3] is NoTangent()


def test_order_cotangent_at_large_negative_integer_orders():
    # d/dv of ivp(v, x) at v = -n is d/dx of -I_n' - 2 (-1)^n K_n(x) (reflection), -2 K_n' > 0
    # for even n: +inf at n = 1e4, x = 0.5 (K_n overflows); the sum of the order derivatives
    # at v - 1 and v + 1 (odd orders) gives it.
    dv = cr.unthunk(cr.rrule(sc.ivp, -1e4, 0.5)[1](1.0)[1])
    assert dv == math.inf
    # below -2**53, v - 1 and v + 1 round to v (even), and the sum took their signs from it:
    # -inf, the wrong sign. No derivative there.
    for f in (sc.jvp, sc.ivp):
        dv = cr.unthunk(cr.rrule(f, -1e300, 0.5)[1](1.0)[1])
        assert math.isnan(dv)
