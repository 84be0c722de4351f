"""Accuracy of the derivatives of the modified Bessel functions K and I in x, against mpmath.

``i0 i1 iv`` overflow past 713 and ``k0 k1 kv`` underflow past 705: swept to 690. The scaled
functions ``i0e i1e ive k0e k1e kve`` have their own page (test_special_bessel_scaled.py).
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

POINTS = (1e-300, 1e-30, 1e-8, 0.01, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 100.0, 500.0)
ORDERS = (1, 0.5, 2.5, 10.0, -0.5)
M = mpmath


def _mp_i(v):
    # The recurrences: mpmath's derivative= fails at 0; I_-n = I_n for integers (mpmath's
    # besseli(-2, 1e-300) does not converge).
    w = (lambda k: abs(v + k)) if v == int(v) else (lambda k: v + k)
    return (
        lambda x: (M.besseli(w(-1), x) + M.besseli(w(1), x)) / 2,
        lambda x: (M.besseli(w(-2), x) + 2 * M.besseli(v, x) + M.besseli(w(2), x)) / 4,
    )


def _mp_k(v):
    return (
        lambda x: -(M.besselk(v - 1, x) + M.besselk(v + 1, x)) / 2,
        lambda x: (M.besselk(v - 2, x) + 2 * M.besselk(v, x) + M.besselk(v + 2, x)) / 4,
    )


def _row(name, f, mps, points, ranges, rtol=(1e-13, 1e-12), why=""):
    return Sweep(
        name,
        f,
        None,
        points=points,
        ranges=ranges,
        per_decade=0.05,
        mp1=mps[0],
        mp2=mps[1],
        rtol=rtol,
        why=why,
    )


# k0(700) is 1e-306, next to the smallest normal float: the sweeps stop at 690.
UP_TO = ((1e-300, 690.0),)
UP_TO_BOTH = ((-690.0, -1e-300), (1e-300, 690.0))


def _iv_lowest(v):
    # SciPy's iv, like jv, flushes small values to 0 (iv(1.5, 5e-134) = 0, true 1e-200).
    return 1e-300 if v <= 2 else 10 ** (-150 / (v - 1))


# Worst measured 5e-14 (kv at 690).
RTOL = (5e-13, 5e-13)

FIXED_ROWS = [
    # I_0 and I_1 overflow past 713: to 690, and both signs (even and odd).
    _row("scipy.special.i0", sc.i0, _mp_i(0), (0.0, *POINTS, -1e-8, -1.0, -25.0), UP_TO_BOTH, RTOL),
    # i1's rule switches to I_0 - I_1/x below 1 and to its series below 0.1 (worst: 1e-13 there).
    _row(
        "scipy.special.i1",
        sc.i1,
        _mp_i(1),
        (0.0, *POINTS, -1e-8, -1.0, -25.0, -2.4e-260, 0.0999, 0.1001, 0.999, 1.001, -0.1001),
        UP_TO_BOTH,
        RTOL,
    ),
    _row("scipy.special.k0", sc.k0, _mp_k(0), POINTS, UP_TO, RTOL),
    _row("scipy.special.k1", sc.k1, _mp_k(1), POINTS, UP_TO, RTOL),
]

ORDER_ROWS = [
    *(
        _row(
            f"iv (in x, v = {v})",
            lambda x, v=v: sc.iv(v, x),
            _mp_i(v),
            tuple(x for x in POINTS if x >= _iv_lowest(v)),
            ((_iv_lowest(v), 690.0),),
            RTOL,
            "for v > 2 from 1e-150^(1/(v-1)) on, where SciPy's iv of order v-1 does not underflow",
        )
        for v in (0.5, 2.5, 10.0, -0.5)
    ),
    *(
        _row(f"kv (in x, v = {v})", lambda x, v=v: sc.kv(v, x), _mp_k(v), POINTS, UP_TO, RTOL)
        for v in ORDERS
    ),
]

ROWS = FIXED_ROWS + ORDER_ROWS


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_modified_bessel_accuracy(row):
    assert failures(row) == []
