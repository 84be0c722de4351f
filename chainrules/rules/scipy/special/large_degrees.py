"""The F laws' derivatives in a huge degree of freedom, from their expansion in its inverse.

fdtr(dfn, dfd, x) and ncfdtr are averages of an incomplete gamma function over a chi-squared
variable divided by its degrees of freedom, V = chi2(df, nc) / df, which closes in on 1 as df
grows: fdtr = E[gammainc(a, c V)] over the denominator's V (a = dfn/2, c = a x), and
ncfdtr = E[gammaincc(m, c U)] over the numerator's U (m = dfd/2, c = m / f), and nctdtr =
E[ndtr(t sqrt(V) - nc)] (``normal_average_slope``, with a scale of its own). Expanded about
1 in the moments of V - 1, the average is a series in 1/df whose derivative in df is of the
order of 1/df^2; the rules' general form is the difference of two terms of the order of 1/df,
which cancel (fdtr(2.5, 1e14, 3)'s derivative in dfd came out 1.5% off, at (7.5e9, 176, 8.3)
in dfn with the wrong sign).

The k-th derivative of G(v) = gammainc(a, c v) at v = 1 is c^a e^(-c) / gamma(a) times Q(k-1),
with Q(0) = 1, Q(1) = a - 1 - c and Q(j+1) = (a - 1 - j - c) Q(j) - j c Q(j-1) (from
v f' = (a - 1 - c v) f, f = v^(a-1) e^(-c v)). V - 1 has the cumulants nc e and
2^(r-1) (r-1)! (e^(r-1) + r nc e^r) for r >= 2, e = 1/df; the moments follow from them. The
series is kept to e^6; its terms fall as the scale (1 + a + (a - c)^2 + nc (1 + |a - c|)) e,
and from ``EXPANSION_FROM`` times that scale on, the truncation is below 1e-11 relative
(against mpmath at random points at the threshold: 2.5e-12 the worst of 100 at nc = 0, 6.9e-13
of 40 with nc from 0.1 to 100; kept to e^4 it was 1.1e-8), where the general form loses up to
about 1e-12 df (the shape derivatives' quadrature, 1e-12, times the cancellation).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

__all__ = [
    "EXPANSION_FROM",
    "LIMIT_FROM",
    "expansion_holds",
    "gamma_average_slope",
    "masked",
    "normal_average_slope",
    "normal_holds",
]

# df / 2 from this many times the scale on: the expansion (see the module's docstring)
EXPANSION_FROM = 100.0

# the powers of 1/df kept in the average
_ORDER = 6


# df / 2 from this many times the scale on, the average is its limit gammainc(a, c) to within
# rounding (its first correction is 1e-17 of it)
LIMIT_FROM = 1e17


def expansion_holds(a: Any, c: Any, nc: Any, df: Any, start: float = EXPANSION_FROM) -> Any:
    """Where the expansion in 1/df of E[gammainc(a, c V)] holds to 1e-11 (shape ``a`` > 0,
    ``c`` > 0, V's degrees of freedom ``df`` finite); with ``start=LIMIT_FROM``, where the
    average is its limit."""
    gap = np.abs(np.subtract(a, c))
    scale = 1 + a + gap * gap + nc * (1 + gap)
    holds = np.isfinite(df) & np.isfinite(scale) & (a > 0) & (c > 0)
    return holds & (df / 2 >= start * scale)


def masked(mask: Any, *values: Any) -> tuple[Any, ...]:
    """The values where ``mask``, 1 elsewhere: the expansions' arguments, harmless where another
    form is taken."""
    return tuple(np.where(mask, v, 1.0) for v in values)


def _times(p: list, q: list, cut: int = _ORDER) -> list:
    """The product of two polynomials in e (coefficient lists), cut beyond e^cut."""
    out = [0.0] * (cut + 1)
    for i, pi in enumerate(p[: cut + 1]):
        for j in range(min(cut + 1 - i, len(q))):
            out[i + j] = out[i + j] + pi * q[j]
    return out


def _moments(nc: Any) -> list[list]:
    """The moments of V - 1 about 0 as polynomials in e = 1/df, up to the (2 _ORDER)-th."""
    top = 2 * _ORDER
    cumulants: list[list] = [[]]
    for r in range(1, top + 1):
        poly: list = [0.0] * (_ORDER + 1)
        if r == 1:
            poly[1] = nc
        else:
            size = 2 ** (r - 1) * math.factorial(r - 1)
            if r - 1 <= _ORDER:
                poly[r - 1] = size
            if r <= _ORDER:
                poly[r] = size * r * nc
        cumulants.append(poly)
    moments = [[1.0] + [0.0] * _ORDER]
    for k in range(1, top + 1):
        total: list = [0.0] * (_ORDER + 1)
        for i in range(1, k + 1):
            term = _times(cumulants[i], moments[k - i])
            total = [t + math.comb(k - 1, i - 1) * u for t, u in zip(total, term, strict=True)]
        moments.append(total)
    return moments


def _average_slope(derivatives: list, nc: Any, df: Any) -> Any:
    """d/d(df) E[G(V)] from ``derivatives``, G's k-th derivative at 1 for k = 1 ... 2 _ORDER."""
    moments = _moments(nc)
    # the average's coefficients of e^r, then d/d(df) = -e^2 d/de
    coefficients = [
        sum(
            derivatives[k - 1] * moments[k][r] / math.factorial(k) for k in range(1, 2 * _ORDER + 1)
        )
        for r in range(_ORDER + 1)
    ]
    e = 1 / df
    return -sum(r * coefficients[r] * e ** (r + 1) for r in range(1, _ORDER + 1))


def gamma_average_slope(a: Any, c: Any, nc: Any, df: Any) -> Any:
    """d/d(df) E[gammainc(a, c V)], V = chi2(df, nc) / df, from the series in 1/df (where
    ``expansion_holds``; elsewhere any finite number)."""
    a, c, nc, df = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, c, nc, df)))
    q = [np.ones_like(c), a - 1 - c]
    for j in range(1, 2 * _ORDER - 1):
        q.append((a - 1 - j - c) * q[j] - j * c * q[j - 1])
    return np.exp(sc.xlogy(a, c) - c - sc.gammaln(a)) * _average_slope(q, nc, df)


def normal_holds(t: Any, nc: Any, df: Any) -> Any:
    """Where the expansion in 1/df of E[ndtr(t sqrt(V) - nc)], V = chi2(df) / df (nctdtr)
    holds to 1e-10: df >= 200 and df >= 20 t^2 (1 + (t - nc)^2). Its terms in t fall as
    x^r / r!, x = t^2 (t - nc)^2 / (2 df) (V's even moments against ndtr's derivatives), so
    it holds far into the tails, where the general form loses everything (against mpmath at
    50 random points at this threshold: 8.5e-11 at worst, the general form 2.9e22 off there)."""
    spread = np.square(t) * (1 + np.square(np.subtract(t, nc)))
    holds = np.isfinite(df) & np.isfinite(spread)
    return holds & (df >= 200) & (df >= 20 * spread)


def normal_average_slope(t: Any, nc: Any, df: Any) -> Any:
    """d/d(df) E[ndtr(t sqrt(V) - nc)], V = chi2(df) / df: nctdtr's derivative in df from the
    series in 1/df (where ``normal_holds``). G(1 + e) = ndtr(y + d(e)) with y = t - nc and
    d = t (sqrt(1 + e) - 1) is the series sum_n ndtr^(n)(y) d^n / n!, where ndtr^(n)(y) =
    (-1)^(n-1) He(n-1, y) phi(y), He the probabilists' Hermite polynomials."""
    t, nc, df = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (t, nc, df)))
    top = 2 * _ORDER
    y = t - nc
    # d as a power series in e: t binom(1/2, n) e^n
    shift = [0.0] + [t * sc.binom(0.5, n) for n in range(1, top + 1)]
    hermite = [np.ones_like(y), y]
    for n in range(1, top):
        hermite.append(y * hermite[n] - n * hermite[n - 1])
    series = [np.zeros_like(y)] * (top + 1)
    power = [1.0] + [0.0] * top  # d^n, cut beyond e^top
    for n in range(1, top + 1):
        power = _times(power, shift, top)
        weight = (-1) ** (n - 1) * hermite[n - 1] / math.factorial(n)
        series = [g + weight * p for g, p in zip(series, power, strict=True)]
    derivatives = [math.factorial(k) * series[k] for k in range(1, top + 1)]
    return np.exp(-y * y / 2) / math.sqrt(2 * math.pi) * _average_slope(derivatives, 0.0, df)
