"""Accuracy of the derivatives of the Struve functions and their integrals, against mpmath.

Each row differentiates a function of x (the order bound) through the engines, first and second
derivatives, and compares with mpmath's at its hard points (0, where the rules divide by x or
add terms that cancel) and over a log-spaced range. SciPy's own values of ``struve`` and
``modstruve`` agree with mpmath to about 1e-13 from 1e-300 to 1e3 (measured), so the stated
accuracies are those of the rules' formulas; ``modstruve`` grows like ``exp(x)`` and overflows
past 709.
"""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from reference import Sweep, failures

from chainrules.engines import reverse

# Arguments up to 1e3, swept densely where the functions turn from series to asymptotics.
POSITIVE = ((1e-300, 1e3),)
# The rules switch from series to recurrences at |x| = 1: both sides are points.
NEAR_ZERO = (1e-300, 1e-30, 1e-8, 0.01, 0.5, 0.999, 1.0, 1.001, 2.0)
SMALL = (3.0, 5.0, 20.0, 35.0, 100.0)
NEGATIVE = (-1e-8, -0.5, -0.999, -1.0, -1.001, -20.0)


def _h(v):
    return lambda x: sc.struve(v, x)


def _l(v):
    return lambda x: sc.modstruve(v, x)


def _mp_h(v):
    return lambda x: mpmath.struveh(v, x)


def _mp_l(v):
    return lambda x: mpmath.struvel(v, x)


# ---- struve, modstruve in x -------------------------------------------------------------

# Integer orders are odd or even in x, defined on the whole line; at v = 0 and v = -1 the
# recurrence H_v' = (H_{v-1} - H_{v+1} + (x/2)^v / (sqrt(pi) gamma(v + 3/2))) / 2 adds two
# terms of size 1/x whose sum is O(x): the rule takes the series there.
INTEGER_ORDER_ROWS = [
    Sweep(
        f"{name} (in x, v = {v})",
        f(v),
        mp(v),
        points=(0.0, *NEAR_ZERO, *NEGATIVE, *SMALL),
        ranges=POSITIVE,
        per_decade=0.05,
        rtol=(1e-13, 1e-12),
    )
    for name, f, mp in (("struve", _h, _mp_h), ("modstruve", _l, _mp_l))
    for v in (0, 1, -1)
]

# Non-integer orders: H_v is complex for x < 0; x^(v+1) at 0 has infinite derivatives there.
# (Half-integer orders below -1 are left out: mpmath's hypergeometric series degenerates there
# and takes minutes per point.)
REAL_ORDER_ROWS = [
    Sweep(
        f"{name} (in x, v = {v})",
        f(v),
        mp(v),
        points=tuple(x for x in (*NEAR_ZERO, *SMALL) if v > -1 or x > 1e-80),
        ranges=POSITIVE if v > -1 else ((1e-80, 1e3),),
        per_decade=0.05,
        rtol=(1e-13, 1e-12),
        why=""
        if v > -1
        else "below 1e-80 the second derivative's terms overflow with both signs and give NaN "
        "(its value is beyond the float range there too)",
    )
    for name, f, mp in (("struve", _h, _mp_h), ("modstruve", _l, _mp_l))
    for v in (0.5, 2.5, 10.0, -0.5, -1.25)
]


def test_struve_slope_beyond_the_float_range():
    # H_v'(x) ~ (v + 1)/2 (x/2)^v / (gamma(3/2) gamma(v + 3/2)) < 0 for v = -1.25 overflows.
    for f in (sc.struve, sc.modstruve):
        assert reverse.grad(lambda x, f=f: f(-1.25, x))(1e-300) == -np.inf


# ---- the integrals ----------------------------------------------------------------------

INTEGRAL_ROWS = [
    Sweep(
        "itstruve0",
        sc.itstruve0,
        None,
        points=(0.0, *NEAR_ZERO, *NEGATIVE, *SMALL),
        ranges=POSITIVE,
        per_decade=0.05,
        mp1=lambda x: mpmath.struveh(0, x),
        mp2=lambda x: mpmath.diff(lambda t: mpmath.struveh(0, t), x),
    ),
    Sweep(
        "itmodstruve0",
        sc.itmodstruve0,
        None,
        points=(0.0, *NEAR_ZERO, *NEGATIVE, *SMALL),
        ranges=((1e-300, 700.0),),
        per_decade=0.05,
        mp1=lambda x: mpmath.struvel(0, x),
        mp2=lambda x: mpmath.diff(lambda t: mpmath.struvel(0, t), x),
    ),
    # -H0(x)/x: its limit -2/pi at 0, where the quotient's derivatives cancel; the series
    # (2/pi) 1F2(1; 3/2, 3/2; -x^2/4) of H0(x)/x is the reference.
    Sweep(
        "it2struve0",
        sc.it2struve0,
        None,
        points=(0.0, *NEAR_ZERO, *NEGATIVE, *SMALL),
        ranges=POSITIVE,
        per_decade=0.05,
        mp1=lambda x: -2 / mpmath.pi * mpmath.hyp1f2(1, 1.5, 1.5, -(x**2) / 4),
        mp2=lambda x: 4 * x / (9 * mpmath.pi) * mpmath.hyp1f2(2, 2.5, 2.5, -(x**2) / 4),
    ),
]

ROWS = INTEGER_ORDER_ROWS + REAL_ORDER_ROWS + INTEGRAL_ROWS


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_struve_accuracy(row):
    assert failures(row) == []
