"""The power series of the Bessel functions J and I, summed with their first and second
derivatives in the order.

At ``x <= 4`` (``SERIES_END``) the series is summed on jets in the order, 40 terms
(``_SERIES_TERMS``), which are plenty there. Beyond, its terms are summed at once in NumPy as
running products of their ratios, with their binary exponents summed apart so that none
overflows (``_series_terms``), and the derivatives in the order are sums of the same terms
times the derivatives of their logarithms (``_series_beyond_x4``). ``log_iv`` is the logarithm
of I from the same terms, where ``ive`` under- or overflows.

Where each is used, and why it is accurate there, is decided in ``bessel_order``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from .jets import Jet, jet_power, jet_rgamma

__all__ = ["SERIES_END", "log_iv", "power_series"]

SERIES_END = 4.0
_SERIES_TERMS = 40


def power_series(v: Any, x: Any, alternating: bool, scaled: bool = False) -> Jet:
    """sum_k (+-1)^k (x/2)^(2k+v) / (k! gamma(k+v+1)), the series of J_v or I_v, on a jet in
    ``v`` (1/gamma and its derivatives stay finite at the poles of gamma); ``scaled``, I_v
    times exp(-x). Beyond x = 4, ``_series_beyond_x4``."""
    if not np.all(x <= SERIES_END):
        return _series_beyond_x4(v, x, alternating, scaled)
    nu = Jet.seed(v, 0, 1)
    sign = -1.0 if alternating else 1.0
    terms = [
        jet_power(x / 2, nu + 2 * k) * jet_rgamma(nu + (k + 1)) * (sign**k / sc.gamma(k + 1))
        for k in range(_SERIES_TERMS)
    ]
    return sum(terms[1:], terms[0]) * (np.exp(-x) if scaled else 1.0)


def _series_terms(v: Any, x: Any, alternating: bool) -> tuple[Any, Any, Any]:
    """The terms t_k / t_0 of J_v's (``alternating``) or I_v's series at ``x``, divided by
    2^top, and ``top``, with ``v + k + 1``: x / 2 + 6 sqrt(x) + 40 of them, enough beyond
    the largest, at k(v + k) = x^2 / 4, k <= x / 2. They are the running products of the
    ratios (rounding k 1e-16 at the k-th), their binary exponents summed apart, so that none
    overflows."""
    half = (x / 2)[..., None]
    k = np.arange(_SERIES_TERMS + int(np.max(x) / 2 + 6 * np.sqrt(np.max(x))), dtype=float)
    nu = v[..., None] + k + 1
    ratios = half * half / (k[1:] * nu[..., :-1])
    if alternating:
        ratios = -ratios
    mantissas, exponents = np.frexp(ratios)  # mantissas of at least 1/2: no underflow here
    ones = np.ones((*v.shape, 1))
    running = np.concatenate([ones, np.cumprod(mantissas, axis=-1)], axis=-1)
    powers = np.concatenate([0 * ones, np.cumsum(exponents, axis=-1)], axis=-1)
    top = np.max(powers, axis=-1)
    return np.ldexp(running, (powers - top[..., None]).astype(int)), top, nu


def _settled(weights: Any, growth: Any) -> Any:
    """Where the last term, times ``growth``, no longer counts in the sum."""
    return np.abs(weights[..., -1]) * growth <= 1e-17 * np.sum(np.abs(weights), axis=-1)


def log_iv(v: Any, x: Any) -> Any:
    """log I_v(x) for v > -1 and x > 0 from its series, where ``ive`` under- or overflows
    (``ive(1499, 30)`` is 0 while I_1499(30) = 1e-2348 is a factor of a density of order
    0.005); NaN where the series' terms do not settle.

    >>> round(float(log_iv(np.array(1499.0), np.array(30.0))), 6)  # mpmath
    -5407.575721
    """
    v, x = np.broadcast_arrays(np.asarray(v, dtype=float), np.asarray(x, dtype=float))
    weights, top, _ = _series_terms(v, x, False)
    total = np.sum(weights, axis=-1)
    log_first = v * np.log(x / 2) - sc.gammaln(v + 1) + top * np.log(2)
    return np.where(_settled(weights, 1.0), log_first + np.log(total), np.nan)[()]


def _series_beyond_x4(v: Any, x: Any, alternating: bool, scaled: bool) -> Jet:
    """The series beyond x = 4 (``_series_terms``) and its derivatives in ``v``: d/dv log
    t_k = log(x/2) - digamma(k + v + 1), and the derivatives are the sums of the terms times
    that, and times its square less trigamma(k + v + 1). The common factor t_0 and the terms'
    scale join in a logarithm, with -x for the scaled one, where exp(-x) and the sum would
    underflow and overflow apart. NaN where the last term still counts."""
    weights, top, nu = _series_terms(v, x, alternating)
    # d/dv log t_k = c - D_k with c = log(x/2) - digamma(v + 1) common to all terms (its
    # rounding is not amplified where J's terms cancel) and D_k = sum_(j<=k) 1/(v + j); the
    # second derivative of log t_k, -trigamma(v + 1) + sum_(j<=k) 1/(v + j)^2
    c = np.log(x / 2) - sc.digamma(v + 1)
    inverse = 1 / nu[..., :-1]
    zero = np.zeros((*v.shape, 1))
    d = np.concatenate([zero, np.cumsum(inverse, axis=-1)], axis=-1)
    e = np.concatenate([zero, np.cumsum(inverse * inverse, axis=-1)], axis=-1)
    s0, sd, sdd = (np.sum(weights * g, axis=-1) for g in (1.0, d, d * d + e))
    sums = (s0, c * s0 - sd, (c * c - sc.polygamma(1, v + 1)) * s0 - 2 * c * sd + sdd)
    settled = _settled(weights, (1 + d[..., -1]) ** 2)
    log_scale = v * np.log(x / 2) - sc.gammaln(v + 1) + top * np.log(2) - (x if scaled else 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        scale = np.exp(log_scale)
        value, first, second = (np.where(settled, total * scale, np.nan) for total in sums)
    return Jet(value, first[None], second[None, None])
