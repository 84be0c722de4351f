"""Accuracy of the derivatives of jvp, yvp, ivp, kvp in x, against mpmath.

``jvp(v, x, n)`` is the n-th derivative of J_v, a binomial sum of J of orders ``v - n`` to
``v + n``; its derivative is that of order ``n + 1``. J and Y are swept to 1e4 (SciPy's own
values lose accuracy like 1e-16 x beyond), I and K to 690 (they overflow and underflow past
about 700).
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

M = mpmath
POINTS = (1e-8, 0.01, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 100.0, 500.0)


def _closed(f, v, n):
    return lambda x: f(v, x, derivative=n)


def _kd(v, n):
    # mpmath's besselk has no derivative=: the binomial sum of K (DLMF 10.29.5), exactly.
    def derivative(x):
        total = sum(M.binomial(n, i) * M.besselk(v - n + 2 * i, x) for i in range(n + 1))
        return (-1) ** n * total / 2**n

    return derivative


def _id(v, n):
    def derivative(x):
        w = (lambda k: abs(k)) if v == int(v) else (lambda k: k)
        return sum(M.binomial(n, i) * M.besseli(w(v - n + 2 * i), x) for i in range(n + 1)) / 2**n

    return derivative


def _bound(g, v, n):
    return lambda x: g(v, x, n)


def _lowest(v, n):
    # Near 0 the terms of orders up to |v| + n + 2 of the second derivative overflow, and
    # inf - inf is NaN: from 1e-300^(1/(|v| + n + 3)) on.
    return 10 ** (-300 / (abs(v) + n + 3))


def _row(g, v, n, mps, hi, rtol, why):
    lo = _lowest(v, n)
    return Sweep(
        f"{g.__name__} (in x, v = {v}, n = {n})",
        _bound(g, v, n),
        None,
        points=tuple(x for x in POINTS if lo <= x <= hi),
        ranges=((lo, hi),),
        per_decade=0.05,
        mp1=mps[0],
        mp2=mps[1],
        rtol=rtol,
        why=why,
    )


JY_WHY = (
    "from 1e-300^(1/(|v| + n + 3)) on, where the terms of the recurrences do not overflow; "
    "to 1e4: SciPy's own J and Y lose relative accuracy like 1e-16 x (3e-13 at 1e4)"
)
IK_WHY = (
    "from 1e-300^(1/(|v| + n + 3)) on, where the terms of the recurrences do not overflow; "
    "to 690: I and K overflow and underflow past about 700"
)
# Worst measured: 9e-15 (J, Y), 5e-14 (K at 690). J and Y are stated as SciPy's own values
# are good to 1e-12 near 1e4 (test_special_bessel.py).
RTOL = (1e-11, 1e-11)
IK_RTOL = (1e-12, 1e-12)

ROWS = [
    *(
        _row(
            sc.jvp,
            v,
            n,
            (_closed(M.besselj, v, n + 1), _closed(M.besselj, v, n + 2)),
            1e4,
            RTOL,
            JY_WHY,
        )
        for v in (0, 2.5)
        for n in (1, 2)
    ),
    *(
        _row(
            sc.yvp,
            v,
            n,
            (_closed(M.bessely, v, n + 1), _closed(M.bessely, v, n + 2)),
            1e4,
            RTOL,
            JY_WHY,
        )
        for v in (0, 2.5)
        for n in (1, 2)
    ),
    *(
        _row(sc.ivp, v, n, (_id(v, n + 1), _id(v, n + 2)), 690.0, IK_RTOL, IK_WHY)
        for v in (0, 2.5)
        for n in (1, 2)
    ),
    *(
        _row(sc.kvp, v, n, (_kd(v, n + 1), _kd(v, n + 2)), 690.0, IK_RTOL, IK_WHY)
        for v in (0, 2.5)
        for n in (1, 2)
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_bessel_derivative_accuracy(row):
    assert failures(row) == []
