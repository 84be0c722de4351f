"""Accuracy of the derivatives of the Bessel functions J and Y in x, against mpmath.

SciPy computes J and Y for large x from an asymptotic form whose phase ``x - (2v+1) pi/4`` is
rounded in double: its relative error grows like ``1e-16 x`` (measured: 3e-13 at 1e4, 2e-8 at
1e8, no correct digit from 1e15 on), so the sweeps stop at 1e4, where SciPy's values are still
good to about 1e-12; the derivatives, combinations of the same functions, cannot be better.
Close to a zero of the derivative its relative error grows, as every value's does there; the
log-spaced grids do not land on zeros.
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

# Points on both sides of |x| = 1 and of the switch to asymptotics; negative ones for integer
# orders, where J_n is defined on the whole line.
POINTS = (1e-300, 1e-30, 1e-8, 0.01, 0.5, 1.0, 2.0, 5.0, 8.0, 10.0, 25.0, 100.0, 1e3)
NEGATIVE = (-1e-8, -0.5, -1.0, -5.0, -25.0)
UP_TO = 1e4
# SciPy's values are good to ~1e-13 up to 1e3 and ~1e-12 up to 1e4 (measured), and a
# derivative of a combination of them by a few ulps more.
RTOL = (1e-11, 1e-11)
WHY = "SciPy's own J and Y lose relative accuracy like 1e-16 x (3e-13 at 1e4)"
ORDERS = (1, 0.5, 2.5, 10.0, -0.5)
# jv and yv (AMOS) keep their phase: worst measured 8e-14 up to 1e4.
ORDER_RTOL = (1e-12, 1e-12)
ORDER_WHY = "for v > 2 from 1e-200^(1/(v-1)) on, where SciPy's jv of order v-1 does not underflow"


def _mp_j(v):
    return (
        lambda x: mpmath.besselj(v, x),
        lambda x: mpmath.besselj(v, x, derivative=1),
        lambda x: mpmath.besselj(v, x, derivative=2),
    )


def _mp_y(v):
    return (
        lambda x: mpmath.bessely(v, x),
        lambda x: mpmath.bessely(v, x, derivative=1),
        lambda x: mpmath.bessely(v, x, derivative=2),
    )


def _y_lowest(v):
    return 10 ** (-300 / (abs(v) + 2))


def _row(name, f, mps, points, ranges, why=WHY, rtol=RTOL):
    mp, mp1, mp2 = mps
    return Sweep(
        name,
        f,
        mp,
        points=points,
        ranges=ranges,
        per_decade=0.05,
        mp1=mp1,
        mp2=mp2,
        rtol=rtol,
        why=why,
    )


def _jv(v):
    return lambda x: sc.jv(v, x)


def _yv(v):
    return lambda x: sc.yv(v, x)


def _jv_lowest(v):
    # SciPy's jv flushes values below about 1e-260 to 0 (jv(10, 1e-28) = 0; true 2.7e-290):
    # the sweep starts where J_(v-1) ~ x^(v-1), in the derivative, is still above 1e-200.
    return 1e-300 if v <= 2 else 10 ** (-200 / (v - 1))


def _jvp(v):
    return lambda x: sc.jvp(v, x)


BOTH_SIGNS = ((-UP_TO, -1e-300), (1e-300, UP_TO))
POSITIVE = ((1e-300, UP_TO),)

FIXED_ORDER_ROWS = [
    _row("scipy.special.j0", sc.j0, _mp_j(0), (0.0, *POINTS, *NEGATIVE), BOTH_SIGNS),
    _row("scipy.special.j1", sc.j1, _mp_j(1), (0.0, *POINTS, *NEGATIVE), BOTH_SIGNS),
    _row("scipy.special.y0", sc.y0, _mp_y(0), POINTS, POSITIVE),
    _row("scipy.special.y1", sc.y1, _mp_y(1), POINTS, POSITIVE),
]

# Non-integer orders at x > 0 only (J_v, Y_v are complex for x < 0); J_v and Y_v of order
# -1/2 and 1/2 are elementary, and v = 10 turns from series to asymptotics late.
ORDER_ROWS = [
    *(
        _row(
            f"jv (in x, v = {v})",
            _jv(v),
            _mp_j(v),
            tuple(x for x in POINTS if x >= _jv_lowest(v)),
            ((_jv_lowest(v), UP_TO),),
            rtol=ORDER_RTOL,
            why=ORDER_WHY,
        )
        for v in ORDERS
    ),
    *(
        _row(
            f"yv (in x, v = {v})",
            _yv(v),
            _mp_y(v),
            tuple(x for x in POINTS if x >= _y_lowest(v)),
            ((_y_lowest(v), UP_TO),),
            why=f"{WHY}; below 1e-300^(1/(|v| + 2)) Y_(v+-1), Y_(v+-2) overflow and the "
            "recurrences give NaN (the derivatives overflow too), and SciPy's yv(-1.5, 1e-300) "
            "is inf (true: J_1.5(1e-300), 1e-450)",
            rtol=ORDER_RTOL,
        )
        for v in ORDERS
    ),
    *(
        _row(
            f"jvp (in x, v = {v})",
            _jvp(v),
            (_mp_j(v)[1], _mp_j(v)[2], lambda x, v=v: mpmath.besselj(v, x, derivative=3)),
            POINTS,
            POSITIVE,
        )
        for v in (0, 2.5)
    ),
]

ROWS = FIXED_ORDER_ROWS + ORDER_ROWS


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_bessel_accuracy(row):
    assert failures(row) == []
