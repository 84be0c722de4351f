"""Accuracy of the derivatives of the Hankel functions in x, against mpmath.

At real x, ``hankel1 = jv + i yv`` and ``hankel2 = jv - i yv``: their real and imaginary parts
are swept as real functions, to 1e4 as J and Y are (SciPy's own values lose accuracy like
1e-16 x beyond). The scaled ``hankel1e = hankel1 exp(-ix)`` behaves like ``x^(-1/2)`` at large
x, where the recurrences' two terms cancel: the rules switch to the asymptotic series there
(DLMF 10.17.5), and the sweep runs to 1e15 (SciPy's hankel1e is NaN from about 1e18).
"""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from reference import Sweep, failures

M = mpmath
POINTS = (1e-8, 0.01, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 100.0, 1e3)
SCALED_POINTS = (*POINTS, 19.9, 20.1, 22.1, 1e6, 1e9, 1e12)


def _digits(x):
    # The derivatives of the scaled functions are ~1/x smaller than their terms (1/x^2 for the
    # second): log10(x) digits of mpmath's difference cancel, given back.
    return 40 + 2 * max(0, int(M.log10(abs(x))))


def _h(kind, v, n, part, scaled):
    """The part (real or imaginary) of the n-th derivative of H(kind)_v, scaled by exp(-+ix)."""
    sign = 1 if kind == 1 else -1

    def derivative(x):
        with M.workdps(_digits(x)):
            x = M.mpf(x)
            h = [
                M.besselj(v, x, derivative=k) + sign * 1j * M.bessely(v, x, derivative=k)
                for k in range(n + 1)
            ]
            if scaled:
                # d^n/dx^n of H exp(-i s x): sum_k C(n, k) H^(k) (-i s)^(n-k), times exp(-i s x).
                w = -sign * 1j
                value = sum(M.binomial(n, k) * h[k] * w ** (n - k) for k in range(n + 1))
                value *= M.exp(w * x)
            else:
                value = h[n]
            return M.re(value) if part == "real" else M.im(value)

    return derivative


def _bound(f, v, part):
    take = np.real if part == "real" else np.imag
    return lambda x: take(f(v, x))


def _lowest(v):
    # Near 0, Y of order |v| + 2 in the recurrences of the second derivative overflows, and
    # inf - inf is NaN: from 1e-300^(1/(|v| + 3)) on.
    return 10 ** (-300 / (abs(v) + 3))


WHY = "to 1e4: SciPy's own J and Y lose relative accuracy like 1e-16 x (3e-13 at 1e4)"
SCALED_WHY = "to 1e15: SciPy's hankel1e and hankel2e are NaN from about 1e18"
# Worst measured: 1.3e-14 (hankel1), 2e-14 and 6e-13 (hankel1e, first and second, at 19.9 just
# below the switch to the asymptotic series at 20 + 2 v^2, where the recurrences lose digits).
RTOL = (1e-11, 1e-11)
SCALED_RTOL = (2e-13, 5e-12)


# The real part of hankel1e(1, x) is J_1 cos x + Y_1 sin x -> -2/pi at 0: its derivative, O(1),
# is the difference of terms like 2/(pi x) (Y_1' sin x and Y_1 cos x), and loses log10(1/x)
# digits: from 0.01 on.
CANCELS_NEAR_0 = 0.01
CANCELS_WHY = (
    "from 0.01 on: near 0 the derivative of J_1 cos x + Y_1 sin x is the difference of terms "
    "~2/(pi x), and loses log10(1/x) digits; " + SCALED_WHY
)


def _row(f, kind, v, part, scaled):
    cancels = scaled and v != 0 and part == "real"
    lo = CANCELS_NEAR_0 if cancels else _lowest(v)
    hi = 1e15 if scaled else 1e4
    points = SCALED_POINTS if scaled else POINTS
    return Sweep(
        f"{f.__name__} (in x, v = {v}, {part} part)",
        _bound(f, v, part),
        None,
        points=tuple(x for x in points if lo <= x <= hi),
        ranges=((lo, hi),),
        per_decade=0.1,
        mp1=_h(kind, v, 1, part, scaled),
        mp2=_h(kind, v, 2, part, scaled),
        rtol=SCALED_RTOL if scaled else RTOL,
        why=CANCELS_WHY if cancels else SCALED_WHY if scaled else WHY,
    )


ROWS = [
    *(_row(sc.hankel1, 1, v, part, False) for v in (0.0, 2.5) for part in ("real", "imag")),
    *(_row(sc.hankel2, 2, 0.0, part, False) for part in ("real", "imag")),
    *(_row(sc.hankel1e, 1, v, part, True) for v in (0.0, 1.0) for part in ("real", "imag")),
    *(_row(sc.hankel2e, 2, 0.0, part, True) for part in ("real", "imag")),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_hankel_accuracy(row):
    assert failures(row) == []
