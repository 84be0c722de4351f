"""Accuracy of the error-function family's derivatives against mpmath, at hard points and far out.

Each row states the relative accuracy of the first and second derivative reached through
every engine route (``reference.measure``); the docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

WIDE = ((-1e300, -1e-300), (1e-300, 1e300))


def _root_pi():
    # at the working precision of the call (a module constant would have 15 digits)
    return mpmath.sqrt(mpmath.pi)


def _tail(x, sign):
    """sum_{n>=1} sign**n (2n-1)!! / (2x**2)**n and its derivative in x, for |x| > 1e4.

    The asymptotic series of ``2x dawsn(x) - 1`` (sign 1) and ``sqrt(pi) x erfcx(x) - 1``
    (sign -1): in mpmath the closed forms cancel hundreds of digits at huge x, and its erfc
    fails beyond 1e150.
    """
    q = 1 / (2 * x * x)
    total, derivative, term = 0, 0, 1
    for n in range(1, 14):
        term = term * sign * (2 * n - 1) * q
        total += term
        derivative += -2 * n * term / x  # d(q**n)/dx = -2n q**n / x
    return total, derivative


def _dawsn(x):
    if abs(x) > 1e4:
        return (1 + _tail(x, 1)[0]) / (2 * x)
    return _root_pi() / 2 * mpmath.exp(-x * x) * mpmath.erfi(x)


def _dawsn1(x):
    if abs(x) > 1e4:
        return -_tail(x, 1)[0]
    return 1 - 2 * x * _dawsn(x)


def _dawsn2(x):
    if abs(x) > 1e4:
        return -_tail(x, 1)[1]
    return -2 * _dawsn(x) - 2 * x * _dawsn1(x)


def _erfcx(x):
    if x > 1e4:
        return (1 + _tail(x, -1)[0]) / (_root_pi() * x)
    return mpmath.exp(x * x) * mpmath.erfc(x)


def _erfcx1(x):
    if x > 1e4:
        return 2 / _root_pi() * _tail(x, -1)[0]
    return 2 * x * _erfcx(x) - 2 / _root_pi()


def _erfcx2(x):
    if x > 1e4:
        return 2 / _root_pi() * _tail(x, -1)[1]
    return 2 * _erfcx(x) + 2 * x * _erfcx1(x)


def _gauss(x):
    return mpmath.exp(-x * x / 2) / mpmath.sqrt(2 * mpmath.pi)


def _ndtr(x):
    # through _erfcx: mpmath's ncdf fails beyond 1e150
    tail = mpmath.exp(-x * x / 2) * _erfcx(abs(x) / mpmath.sqrt(2)) / 2
    return tail if x < 0 else 1 - tail


def _log_ndtr(x):
    tail = mpmath.exp(-x * x / 2) * _erfcx(abs(x) / mpmath.sqrt(2)) / 2
    return mpmath.log(tail) if x < 0 else mpmath.log1p(-tail)


def _log_ndtr1(x):
    if x < -1e4:
        return -x / (1 + _tail(-x / mpmath.sqrt(2), -1)[0])
    if x < 0:
        return mpmath.sqrt(2 / mpmath.pi) / _erfcx(-x / mpmath.sqrt(2))
    return _gauss(x) / _ndtr(x)


def _log_ndtr2(x):
    r = _log_ndtr1(x)
    if x < -1e4:
        # x + r = x T / (1 + T): written so, as x + r cancels 2 log10|x| digits
        tail = _tail(-x / mpmath.sqrt(2), -1)[0]
        return -r * x * tail / (1 + tail)
    return -r * (x + r)


def _erfinv(p):
    return mpmath.erfinv(p)


def _erfinv1(p):
    return _root_pi() / 2 * mpmath.exp(mpmath.erfinv(p) ** 2)


def _erfinv2(p):
    y = mpmath.erfinv(p)
    return 2 * y * _erfinv1(p) ** 2


def _erfcinv(p):
    # Newton on log erfc from SciPy's value: mpmath's erfinv(1 - p) would need -log10(p)
    # more digits
    if p > 1:
        return -_erfcinv(2 - p)
    if p == 0:
        return mpmath.inf
    start = mpmath.mpf(float(sc.erfcinv(float(p))))
    return mpmath.findroot(lambda y: mpmath.log(mpmath.erfc(y)) - mpmath.log(p), start)


def _ndtri(p):
    return -mpmath.sqrt(2) * _erfcinv(2 * p)


def _ndtri_exp(t):
    # log ndtr(y) = t by Newton from SciPy's value; dy/dt = 1 / log_ndtr'(y)
    start = mpmath.mpf(float(sc.ndtri_exp(float(t))))
    return mpmath.findroot(lambda y: _log_ndtr(y) / t - 1, start)


def _ndtri_exp1(t):
    return 1 / _log_ndtr1(_ndtri_exp(t))


def _ndtri_exp2(t):
    y = _ndtri_exp(t)
    return -_log_ndtr2(y) / _log_ndtr1(y) ** 3


ROWS = [
    Sweep(
        "scipy.special.erf",
        sc.erf,
        mpmath.erf,
        rtol=(2e-14, 6e-14),
        points=(0.0, 1.0, -1.0, 5.9, 6.0, 26.0, 27.3),
        ranges=WIDE,
        mp1=lambda x: 2 / _root_pi() * mpmath.exp(-x * x),
        mp2=lambda x: -4 * x / _root_pi() * mpmath.exp(-x * x),
    ),
    Sweep(
        "scipy.special.erfc",
        sc.erfc,
        mpmath.erfc,
        rtol=(1e-15, 6e-14),
        points=(0.0, 1.0, -1.0, 26.0, 27.3),
        ranges=WIDE,
        mp1=lambda x: -2 / _root_pi() * mpmath.exp(-x * x),
        mp2=lambda x: 4 * x / _root_pi() * mpmath.exp(-x * x),
    ),
    Sweep(
        "scipy.special.erfi",
        sc.erfi,
        mpmath.erfi,
        rtol=(2e-13, 1e-14),
        points=(0.0, 1.0, -1.0, 26.0, 26.6),
        ranges=WIDE,
        mp1=lambda x: 2 / _root_pi() * mpmath.exp(x * x),
        mp2=lambda x: 4 * x / _root_pi() * mpmath.exp(x * x),
    ),
    Sweep(
        "scipy.special.erfcx",
        sc.erfcx,
        _erfcx,
        rtol=(3e-13, 2e-11),
        why=(
            "Below x = 7, where the asymptotic series takes over, 2x erfcx(x) - 2/sqrt(pi) "
            "cancels x**2-fold (x**4-fold in the second derivative)."
        ),
        points=(0.0, 1.0, -1.0, 5.0, 7.0, 1e7, 1e8, -26.0),
        ranges=WIDE,
        per_decade=0.2,  # the series of the far tail is slow to record
        mp1=_erfcx1,
        mp2=_erfcx2,
    ),
    Sweep(
        "scipy.special.dawsn",
        sc.dawsn,
        _dawsn,
        rtol=(2e-13, 5e-12),
        why=(
            "Below |x| = 7, where the asymptotic series takes over, 1 - 2x dawsn(x) cancels "
            "x**2-fold (x**4-fold in the second derivative)."
        ),
        points=(0.0, 1.0, -1.0, 5.0, 7.0, 1e7, 1e8),
        ranges=WIDE,
        per_decade=0.2,  # the series of the far tail is slow to record
        mp1=_dawsn1,
        mp2=_dawsn2,
    ),
    Sweep(
        "scipy.special.ndtr",
        sc.ndtr,
        _ndtr,
        rtol=(1e-15, 1e-13),
        points=(0.0, 1.0, -1.0, -38.0, 38.0),
        ranges=WIDE,
        mp1=_gauss,
        mp2=lambda x: -x * _gauss(x),
    ),
    Sweep(
        "scipy.special.log_ndtr",
        sc.log_ndtr,
        _log_ndtr,
        rtol=(1e-14, 1e-13),
        points=(0.0, 1.0, -1.0, -20.0, -38.0, -40.0, 6.0, 38.0),
        ranges=WIDE,
        per_decade=0.2,  # the series of the far tail is slow to record
        mp1=_log_ndtr1,
        mp2=_log_ndtr2,
    ),
    Sweep(
        "scipy.special.erfinv",
        sc.erfinv,
        _erfinv,
        rtol=(2e-15, 5e-15),
        points=(0.0, 0.5, -0.5, 0.999, 1 - 1e-15, -1 + 1e-15),
        ranges=((-1 + 1e-16, -1e-300), (1e-300, 1 - 1e-16)),
        mp1=_erfinv1,
        mp2=_erfinv2,
    ),
    Sweep(
        "scipy.special.erfcinv",
        sc.erfcinv,
        _erfcinv,
        rtol=(2e-12, 3e-12),
        why=(
            "Below 1e-150 the derivative is exp(y**2) of SciPy's y, which amplifies y's rounding "
            "2 y**2-fold (up to 1400)."
        ),
        points=(1.0, 0.5, 1.5, 1e-300, 2 - 1e-15),
        ranges=((1e-300, 2 - 1e-16),),
        per_decade=0.2,
        mp1=lambda p: -_root_pi() / 2 * mpmath.exp(_erfcinv(p) ** 2),
        mp2=lambda p: 2 * _erfcinv(p) * _root_pi() ** 2 / 4 * mpmath.exp(2 * _erfcinv(p) ** 2),
    ),
    Sweep(
        "scipy.special.ndtri",
        sc.ndtri,
        _ndtri,
        rtol=(2e-12, 1e-14),
        why=(
            "Below 1e-150 the derivative is exp(y**2 / 2) of SciPy's y, which amplifies y's "
            "rounding y**2-fold (up to 1400)."
        ),
        points=(0.5, 0.25, 0.75, 1e-300, 1 - 1e-16),
        ranges=((1e-300, 1 - 1e-16),),
        per_decade=0.2,
        mp1=lambda p: 1 / _gauss(_ndtri(p)),
        mp2=lambda p: _ndtri(p) / _gauss(_ndtri(p)) ** 2,
    ),
    Sweep(
        "scipy.special.ndtri_exp",
        sc.ndtri_exp,
        _ndtri_exp,
        rtol=(2e-12, 2e-14),
        why=(
            "Within 1e-150 of 0 the derivative is exp(t + y**2 / 2) of SciPy's y, which amplifies"
            " y's rounding y**2-fold."
        ),
        points=(-0.5, -0.6931471805599453, -1.0, -1e-300, -700.0, -1e10),
        # mpmath's root finding fails beyond -1e20
        ranges=((-1e20, -1e-300),),
        per_decade=0.1,
        mp1=_ndtri_exp1,
        mp2=_ndtri_exp2,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
