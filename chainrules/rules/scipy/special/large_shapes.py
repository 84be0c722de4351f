"""The incomplete gamma and beta functions' shape derivatives at large shapes.

Beyond a shape of 1e5 (gamma) or 1e3 (beta) the density is a peak too narrow beside x for the
variables of ``incomplete``, and the digammas of the shape derivatives cancel to the tail's
slope. Here the densities are Stirling's form, the tails are integrated in the scale of the
density at x, and the beta family is written with the exact offset of x from the mean, so
that no term of the size of a shape is left to cancel. Also the small-shape substitution of
the beta tail (``beta_lower_tail``), which both sides use.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.special as sc

from .moments import moments

__all__ = [
    "LARGE_BETA_SHAPE",
    "LARGE_SHAPE",
    "STIRLING_SHAPE",
    "beta_lower_tail",
    "betainc_large_scalar",
    "gamma_tail_large",
    "log_beta_density_large",
    "log_gamma_half_ratio",
    "log_gamma_density_large",
    "log_minus_digamma",
    "log_or_minus_inf",
    "mean_offset",
    "shape_log_slopes",
]


# Beyond this shape the tail's width, sqrt(a), is too narrow beside x for the variables above:
# the quadrature would find nothing to integrate (a = x = 1e8), and log x - digamma(a) would
# cancel to the tail's slope, of order 1/sqrt(a).
LARGE_SHAPE = 1e5


def _log1pmx(u: Any) -> Any:
    """log(1 + u) - u, accurate to its own size as u goes to 0 (where the two terms cancel)."""
    if isinstance(u, float):  # a quadrature's point: the same, without the arrays' overhead
        if u <= -1:  # as NumPy's log1p: -inf at -1, NaN below
            return -math.inf if u == -1 else math.nan
        if abs(u) > 0.25:
            return math.log1p(u) - u
        s = u / (2 + u)
        return 2 * s * _odd_series(s * s) - u * u / (2 + u)
    near = np.abs(u) <= 0.25
    u_near = np.where(near, u, 0.0)
    u_far = np.where(near, 0.0, u)
    # log(1 + u) = 2 atanh(s) with s = u / (2 + u), and 2 s - u = -u**2 / (2 + u)
    s = u_near / (2 + u_near)
    series = _odd_series(s * s)
    return np.where(near, 2 * s * series - u_near * u_near / (2 + u_near), np.log1p(u_far) - u_far)


def _odd_series(s2: Any) -> Any:
    """sum_(k >= 1) s2**k / (2k + 1): atanh(s) / s - 1. For s**2 <= 1/49 (|u| <= 1/4), ten
    terms reach 1e-17 of the sum."""
    series = 0.0 * s2
    for k in range(21, 1, -2):
        series = s2 * (1 / k + series)
    return series


def log_minus_digamma(a: float) -> float:
    """log(a) - digamma(a); beyond STIRLING_SHAPE by its asymptotic series (the two cancel),
    whose next term, 1/(240 a**8), is below 1e-16 of the sum there."""
    if a <= STIRLING_SHAPE:
        return math.log(a) - float(sc.digamma(a))
    inv2 = (1 / a) ** 2  # not 1 / a**2, whose square overflows from a = 1e154
    return 1 / (2 * a) + inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 / 252))


# From here on the series of log gamma(a) less Stirling's approximation below is exact to
# 1/(1680 a**7) < 1e-17, and the plain log-density, of size a, would lose a * 1e-16.
STIRLING_SHAPE = 100.0


def _stirling_tail(a: Any) -> Any:
    """log gamma(a) less Stirling's approximation (a - 1/2) log a - a + log(2 pi) / 2, for
    a > STIRLING_SHAPE."""
    inv = 1 / a
    inv2 = inv * inv  # not 1 / a**2, which overflows at a = 1e300
    return (1 / 12 - inv2 * (1 / 360 - inv2 / 1260)) * inv


def log_gamma_half_ratio(z: Any) -> Any:
    """log gamma(z + 1/2) - log gamma(z) - log(z) / 2, about -1/(8 z) for large z. Beyond
    STIRLING_SHAPE from Stirling's form, ``z log1p(1/(2 z)) - 1/2`` and the tails' difference,
    where the two log-gammas, of size z log z, would cancel (their rounding is 1e-16 z log z:
    all of the result's digits from z = 1e15 on)."""
    large = np.greater(z, STIRLING_SHAPE)
    z_small, z_large = np.where(large, 1.0, z), np.where(large, z, 2 * STIRLING_SHAPE)
    tails = _stirling_tail(z_large + 0.5) - _stirling_tail(z_large)
    stirling = z_large * np.log1p(0.5 / z_large) - 0.5 + tails
    plain = sc.gammaln(z_small + 0.5) - sc.gammaln(z_small) - np.log(z_small) / 2
    return np.where(large, stirling, plain)


def log_gamma_density_large(a: Any, x: Any) -> Any:
    """log of the gamma(a) density at ``x`` for a > STIRLING_SHAPE, in Stirling's form.

    With r = (x - a) / a, (a-1) log x - x - log gamma(a) = (a-1) (log(1+r) - r) - r
    - log(2 pi a) / 2 - (log gamma(a) - its Stirling approximation): no term of size a is left
    to cancel (at a = 1e8 the plain form loses 2e-7 of the density, at 1e300 all of it)."""
    r = (x - a) / a
    return (a - 1) * _log1pmx(r) - r - 0.5 * np.log(2 * np.pi * a) - _stirling_tail(a)


def gamma_tail_large(a: float, x: float) -> tuple[Any, Any, float, float]:
    """The smaller tail of gamma(a) beyond ``x`` for a large shape: t = x (1 + u) with
    u = +-v / sqrt(a), toward the tail, and ``g`` with log t = log x + g: (weight, g, lo, hi).

    The density is then (1 + u)**(a-1) exp(-x u) = exp((a-1) (log(1+u) - u) - (x-a+1) u),
    at most about 1 on the tail and below exp(-(a-1) u**2 / 2.3) for |u| < 0.2: beyond
    v = 60 it is under exp(-1500), and the interval stops there, where the quadrature still
    sees a decay as fast as exp(-38 v) (the steepest with a tail above the smallest float)."""
    step = (1.0 if x >= a else -1.0) / math.sqrt(a)
    excess = x - a + 1

    def weight(v: float) -> float:
        u = step * v
        return math.exp((a - 1) * float(_log1pmx(u)) - excess * u)

    return weight, (lambda v: math.log1p(step * v)), 0.0, 60.0


def beta_lower_tail(a: float, b: float, x: float) -> tuple[Any, tuple, float, float, float]:
    """The beta(a, b) density below ``x`` after a change of variables, with ``g1``, ``g2``:
    log t = log x + g1 and log(1 - t) = g2, and the logarithm of the scale that turns the
    weight's integral into that of t**(a-1) (1 - t)**(b-1) below x:
    (weight, (g1, g2), lo, hi, log_scale)."""
    if a < 1:
        # t = x u**(1/a): density (1 - t)**(b-1), bounded by its value at one end.
        peak = max(0.0, (b - 1) * np.log1p(-x))
        weight = lambda u: np.exp((b - 1) * np.log1p(-x * u ** (1 / a)) - peak)
        gs = ((lambda u: np.log(u) / a), lambda u: np.log1p(-x * u ** (1 / a)))
        return weight, gs, 0, 1, a * math.log(x) - math.log(a) + peak
    # t = x s: density s**(a-1) (1 - x s)**(b-1), scaled by its maximum on [0, 1].
    mode = 1.0
    if b > 1 and a + b > 2:
        mode = min((a - 1) / (x * (a + b - 2)), 1.0)
    log_density = lambda s: sc.xlogy(a - 1, s) + sc.xlog1py(b - 1, -x * s)
    peak = log_density(mode)
    weight = lambda s: np.exp(log_density(s) - peak)
    return weight, (np.log, lambda s: np.log1p(-x * s)), 0.0, 1.0, a * math.log(x) + peak


# ---- large beta shapes ----------------------------------------------------------------------
# Beyond LARGE_BETA_SHAPE in a or b the density is a peak of width sqrt(a b) / (a + b)**1.5,
# too narrow beside x for the variables above (no mass found: NaN at a = b = 1e12, and at
# (99990, 3, 0.99997), where the peak is 1/a wide), and
# log x - digamma(a) + digamma(a + b) cancels to the tail's slope (2.8e-5 at a = b = 1e8,
# x = 1/2, from terms of size 18: 7e-11 of it lost). Here everything is written with the
# offset d = x (a + b) - a of x from the mean m = a / (a + b), exact: x / m = 1 + d / a and
# (1 - x) / (1 - m) = 1 - d / b, so that no term of the size of a shape is left to cancel.


# From here the variables below are as accurate as those above (2e-13 against mpmath at
# a = 1e3, b = 3) and beyond it those above lose 2e-11 to the digammas (a = b = 1e4).
LARGE_BETA_SHAPE = 1e3


def mean_offset(a: float, b: float, x: float) -> float:
    """x (a + b) - a in rational arithmetic, rounded once: beside the mean it is of the order
    of sqrt(a), below the rounding of x (a + b) in floats (1e-16 a) from a = 1e32 on."""
    return float(Fraction(x) * (Fraction(a) + Fraction(b)) - Fraction(a))


def _log_mean_ratios(a: float, b: float, x: float, offset: float) -> tuple[float, float]:
    """log(x / m) and log((1 - x) / (1 - m)): log1p of the offset's ratios beside the mean,
    logs of x and 1 - x away from it (where 1 + d / a would lose the digits of a small x / m)."""
    ra, rb = offset / a, -offset / b
    log_a = math.log1p(ra) if abs(ra) <= 0.5 else math.log(x) + math.log1p(b / a)
    log_b = math.log1p(rb) if abs(rb) <= 0.5 else math.log1p(-x) + math.log1p(a / b)
    return log_a, log_b


def shape_log_slopes(a: float, b: float, x: float, offset: float) -> tuple[float, float]:
    """log x - digamma(a) + digamma(a + b) and log(1 - x) - digamma(b) + digamma(a + b),
    as log(x / m) + (log a - digamma(a)) - (log(a + b) - digamma(a + b)) and likewise."""
    log_a, log_b = _log_mean_ratios(a, b, x, offset)
    both = log_minus_digamma(a + b)
    return log_a + log_minus_digamma(a) - both, log_b + log_minus_digamma(b) - both


def _trigamma_gap(z: float, w: float) -> float:
    """trigamma(z) - trigamma(z + w); beyond LARGE_SHAPE, where both are near 1/z, from
    1/z + 1/(2 z**2) + 1/(6 z**3) (the next term is 1e-21 of the first) as differences of
    powers, each a multiple of 1/z - 1/(z + w)."""
    if z <= LARGE_SHAPE:
        return float(sc.polygamma(1, z) - sc.polygamma(1, z + w))
    c = z + w
    iz, ic = 1 / z, 1 / c
    return w * iz * ic * (1 + (iz + ic) / 2 + (iz * iz + iz * ic + ic * ic) / 6)


def _beta_tail_large(a: float, b: float, x: float, xc: float, offset: float) -> tuple:
    """The beta(a, b) density below ``x`` (``xc`` = 1 - x), a >= 1, in t = x - h v relative
    to its value at x, with log(t / x) and log((1 - t) / (1 - x)): (weight, gs, pieces, h).

    At x the log-density has the slope s = (a-1)/x - (b-1)/(1-x) = (2x - 1 - d) / (x (1-x))
    and the curvature -c, c = (a-1)/x**2 + (b-1)/(1-x)**2; h = 1 / (|s| + sqrt(|c|)) is its
    scale there, and the weight is exp((a-1) log1pmx(-h v/x) + (b-1) log1pmx(h v/(1-x)) - s h v),
    with no term of the size of a shape. It is log-concave for b >= 1 and falls all the way to
    t = 0 for b < 1, so the pieces [0, 4], [4, 8], [8, 16], ... end where it is below e**-60,
    or at t = 0."""
    slope = (2 * x - 1 - offset) / x / xc
    # h in units of k = min(x, 1 - x), where x**2 or (1 - x)**2 would underflow below 1e-154
    k = min(x, xc)
    scaled_curvature = (a - 1) * (k / x) ** 2 + (b - 1) * (k / xc) ** 2
    h = k / (abs(2 * x - 1 - offset) * (k / x / xc) + math.sqrt(abs(scaled_curvature)))
    end = x / h

    def log_weight(v: float) -> float:
        u = h * v
        return float((a - 1) * _log1pmx(-u / x) + (b - 1) * _log1pmx(u / xc)) - slope * u

    pieces, lo, hi = [], 0.0, 4.0
    while hi < end and log_weight(hi) > -60:
        pieces.append((lo, hi))
        lo, hi = hi, 2 * hi
    pieces.append((lo, min(hi, end)))
    gs = (lambda v: math.log1p(-h * v / x), lambda v: math.log1p(h * v / xc))
    return (lambda v: math.exp(log_weight(v))), gs, pieces, h


def _beta_tail_moments_large(
    a: float, b: float, x: float, xc: float, offset: float, second: bool
) -> tuple[float, float, float, list[float]]:
    """log(T / f), E[log(t / x)], E[log((1 - t) / (1 - x))] and their covariances, for the
    tail T below x and the density f at x."""
    if a < 1:  # t = x u**(1/a) as for small shapes: b is the large shape, x of order 1/b
        weight, gs, lo, hi, log_scale = beta_lower_tail(a, b, x)
        mass, (m1, m2), covariances = moments(weight, gs, ((lo, hi),), second)
        # T / f: the tail's integral over the density's power factors at x
        log_ratio = log_scale - (a - 1) * math.log(x) - (b - 1) * math.log1p(-x)
        return log_ratio + log_or_minus_inf(mass), m1, m2 - math.log1p(-x), covariances
    weight, gs, pieces, h = _beta_tail_large(a, b, x, xc, offset)
    mass, (m1, m2), covariances = moments(weight, gs, pieces, second)
    return log_or_minus_inf(h * mass), m1, m2, covariances


def log_or_minus_inf(mass: float) -> float:
    """log(mass), -inf where the mass underflows (x within 1e-300 of an end, a shape 1e300):
    the tail, and the derivatives with it, are 0 there."""
    return math.log(mass) if mass > 0 else -math.inf


def betainc_large_scalar(a: float, b: float, x: float, second: bool) -> tuple:
    """As _betainc_lower_scalar, for max(a, b) > LARGE_BETA_SHAPE, on the tail beyond x from the
    mean. The tail is the density at x times the quadrature's mass: SciPy's betainc is off by
    1e-4 there (I + Q = 0.99993 at a = b = 1e12, x = 0.4999998)."""
    offset = mean_offset(a, b, x)
    # the tail beyond x from the mean; but within 1e-150 of an end, the tail toward that end,
    # whose scale there (a fraction of x or of 1 - x) squared would underflow in the other
    upper = offset > 0 if min(x, 1 - x) > 1e-150 else x > 0.5
    if upper != (offset > 0) and _beyond_underflows(a, b, x, offset):
        return (0.0,) * 5
    if not upper:
        sign = 1.0
        log_mass, m1, m2, covariances = _beta_tail_moments_large(a, b, x, 1 - x, offset, second)
    else:  # the upper tail is the lower one of beta(b, a) below 1 - x
        sign = -1.0
        log_mass, m2, m1, covariances = _beta_tail_moments_large(b, a, 1 - x, x, -offset, second)
        covariances = covariances[::-1]
    tail = math.exp(log_beta_density_large(a, b, x, offset) + log_mass)
    if tail == 0:
        return (0.0,) * 5  # the derivatives underflow with the tail
    slope_a, slope_b = shape_log_slopes(a, b, x, offset)
    ga, gb = slope_a + m1, slope_b + m2
    if not second:
        return sign * tail * ga, sign * tail * gb, np.nan, np.nan, np.nan
    v11, v12, v22 = covariances
    return (
        sign * tail * ga,
        sign * tail * gb,
        sign * tail * (ga * ga + v11 - _trigamma_gap(a, b)),
        sign * tail * (ga * gb + v12 + sc.polygamma(1, a + b)),
        sign * tail * (gb * gb + v22 - _trigamma_gap(b, a)),
    )


# below this log, the tail beyond x from the mean is taken as 0 (it is below 1e-304)
_LOG_NEGLIGIBLE = -700.0


def _beyond_underflows(a: float, b: float, x: float, offset: float) -> bool:
    """Whether the tail beyond x from the mean is negligible, where x within 1e-150 of an end
    is beyond the mean: the tail toward that end then holds the bulk, and in the quadrature the
    density rose from x by more than the float range (OverflowError at a = 1.25, b = 5e299,
    x = 2.5e-292). The tail beyond x is at most the density at x times x / (1 + |offset|) (or
    1 - x), the density being log-concave and falling there with the slope (1 + |offset|) / x;
    where that bound is negligible, I is 0 or 1 to it and its derivatives 0."""
    bound = log_beta_density_large(a, b, x, offset) + math.log(min(x, 1 - x) / (1 + abs(offset)))
    return bound < _LOG_NEGLIGIBLE


def _kappa(z: float) -> float:
    """(z - 1/2) log z - z - log gamma(z), -log(2 pi) / 2 less the Stirling tail for large z."""
    if z > STIRLING_SHAPE:
        return -0.5 * math.log(2 * math.pi) - _stirling_tail(z)
    return (z - 0.5) * math.log(z) - z - float(sc.gammaln(z))


def log_beta_density_large(a: float, b: float, x: float, offset: float) -> float:
    """log of the beta(a, b) density at x, 0 < x < 1, for max(a, b) > STIRLING_SHAPE.

    With the offset d and k(z) = (z - 1/2) log z - z - log gamma(z), log beta(a, b) =
    a log(a/(a+b)) + b log(b/(a+b)) + log(a b/(a+b)) / 2 - k(a) - k(b) + k(a+b), so the
    log-density is a (log(x/m) - d/a) + b (log((1-x)/(1-m)) + d/b) - log x - log(1-x)
    + log(a b/(a+b)) / 2 + k(a) + k(b) - k(a+b): the terms d of size sqrt(a) cancel
    exactly, inside log1pmx beside the mean (at a = b = 1e8 the plain form loses 2e-7 of
    the density, at 1e300 all of it)."""
    ra, rb = offset / a, -offset / b
    log_a, log_b = _log_mean_ratios(a, b, x, offset)
    part_a = a * float(_log1pmx(ra)) if abs(ra) <= 0.5 else a * log_a - offset
    part_b = b * float(_log1pmx(rb)) if abs(rb) <= 0.5 else b * log_b + offset
    small, large = min(a, b), max(a, b)
    spread = 0.5 * (math.log(small) - math.log1p(small / large))
    kappas = _kappa(a) + _kappa(b) - _kappa(a + b)
    return part_a + part_b - math.log(x) - math.log1p(-x) + spread + kappas
