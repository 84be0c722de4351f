"""Accuracy of the derivatives of the Legendre function ``lpmv`` (order 0) in x, against mpmath.

Its rule divides ``(m + v) P_(v-1) - v x P_v`` by ``1 - x^2``, which cancels near ``x = +-1``;
closer than 0.9 to them it differentiates the hypergeometric series instead. mpmath's
references are that series, ``P_v' = v (v+1)/2 2F1(1 - v, v + 2; 2; (1 - x)/2)`` and its
derivative, valid on all of (-1, 1]. SciPy's own lpmv is inaccurate near 0 (relative error
about 1e-16 / x: lpmv(0, 1, 1e-8) is off by 6e-9, lpmv(0, 1, 1e-20) is 0), so the sweeps
start at 0.01.
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

EDGE = 1 - 1e-8
# Not 0, where the odd derivatives of even degrees vanish (mpmath does not converge there).
POINTS = (1.0, EDGE, 0.95, 0.9 + 1e-12, 0.9, 0.9 - 1e-12, 0.5, -0.5, -0.9, -0.95)
INTEGER_POINTS = (-EDGE, -1.0)


def _mp(v):
    def first(x):
        return v * (v + 1) / 2 * mpmath.hyp2f1(1 - v, v + 2, 2, (1 - x) / 2)

    def second(x):
        scale = -v * (v + 1) * (1 - v) * (v + 2) / 8
        return scale * mpmath.hyp2f1(2 - v, v + 3, 3, (1 - x) / 2)

    return first, second


def _lpmv(v):
    return lambda x: sc.lpmv(0, v, x)


ROWS = [
    Sweep(
        f"lpmv (in x, m = 0, v = {v})",
        _lpmv(v),
        None,
        points=POINTS + (INTEGER_POINTS if v == int(v) else (-EDGE,)),
        ranges=((0.01, 0.99),),
        per_decade=0.05,
        mp1=_mp(v)[0],
        mp2=_mp(v)[1],
        # Non-integer degrees are log-singular at -1: at -1 + 1e-8 the quotient keeps 1e-9.
        rtol=(1e-12, 1e-12) if v == int(v) else (1e-8, 1e-8),
        why="from 0.01, below which SciPy's own lpmv loses relative accuracy like 1e-16/x"
        + ("" if v == int(v) else "; log-singular at x = -1, where the quotient cancels"),
    )
    for v in (2.0, 3.0, 20.0, 2.5)
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_lpmv_accuracy(row):
    assert failures(row) == []
