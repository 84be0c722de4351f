"""Accuracy of the derivatives of the Bessel functions in the order v, against mpmath.

The derivatives of ``jv yv iv kv`` in a real order have no closed form: the rules compute them
from the power series differentiated term by term (J and I, x <= 4) or by quadrature of
differentiated integral representations (DLMF 10.9.6, 10.9.7, 10.32.4, 10.32.9), to about
1e-10. Checked at the orders 0, 1/2, 1, 5/2 (and either side of 1) for x = 0.1, 1, 4, 5, 30;
the first derivative here (the second, now given, at fewer points in
test_special_parameters.py: each costs several quadratures).
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

from chainrules.engines import call

M = mpmath
ORDERS = (0.0, 0.5, 1.0, 2.5, 0.999, 1.001)
# x = 4 is where J and I switch from the series to quadrature.
ARGUMENTS = (0.1, 1.0, 4.0, 4.001, 5.0, 30.0)
MPMATH = {sc.jv: M.besselj, sc.yv: M.bessely, sc.iv: M.besseli, sc.kv: M.besselk}
# The quadratures are asked for 1e-12 relative (1e-15 absolute), the series is exact to
# rounding: stated 1e-11, what the quadrature promises, though measured far better: 7e-15 (jv),
# 3e-15 (yv), 9e-16 (kv), and 4e-11 for iv at x = 30,
# v = 0, where the derivative (-K_0(30) = -2e-14) is 1e-25 of I_0(30): the quadrature of
# the scaled function is accurate relative to the function, not to its tiny derivative.
RTOL = {sc.jv: 1e-11, sc.yv: 1e-11, sc.iv: 1e-9, sc.kv: 1e-11}
WHY = "second derivatives in the order are checked in the parameters' table, at fewer points"


def _in_order(f, x):
    return lambda v: call(f, v, x)


def _mp_in_order(g, x):
    return lambda v: g(v, x)


def _mp_derivative(g, x):
    # mpmath.diff at the reference's 50 digits, its default step: 25 digits or more here. K_v
    # is even in v, its derivative at 0 exactly 0 (which the adaptive reference would chase to
    # 1600 digits).
    def derivative(v):
        if g is M.besselk and v == 0:
            return M.mpf(0)
        return M.diff(lambda w: g(w, x), v)

    return derivative


ROWS = [
    Sweep(
        f"{f.__name__} (in v, x = {x})",
        _in_order(f, x),
        _mp_in_order(g, x),
        points=ORDERS,
        rtol=(RTOL[f], RTOL[f]),
        order=1,
        mp1=_mp_derivative(g, x),
        why=WHY,
    )
    for f, g in MPMATH.items()
    for x in ARGUMENTS
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_bessel_order_accuracy(row):
    assert failures(row) == []
