"""Rules for the noncentral chi-squared, F and t distribution functions.

``chndtr(x, df, nc)``, ``ncfdtr(dfn, dfd, nc, f)`` and ``nctdtr(df, nc, t)`` have closed-form
densities (through ``ive`` and ``hyp1f1``); as Poisson mixtures in ``nc / 2``, the first two
have the derivative in ``nc`` of half the difference with the law of two more degrees of
freedom; ``nctdtr_dnc`` is a closed form in two ``hyp1f1``; the derivatives in the degrees of
freedom, ``chndtr_ddf``, ``ncfdtr_ddfn_ddfd`` and ``nctdtr_ddf``, are Poisson mixtures of the
central laws' quadratures (thunked, NumPy values only); nctdtr's, in a small tail at t and nc
of opposite signs, where the mixture's terms alternate, is one quadrature over the chi-squared
law. The inverses' rules (``inverses``) use them.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.chndtr, 1.0, 2.0, 0.0)  # the central law: 1 - exp(-x/2)
>>> round(float(pullback(1.0)[1]), 12)
0.303265329856
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc
from scipy import integrate

from ....core.parametric import SharedPartial, parametric_rule
from ....core.primals import plain
from .bessel_series import log_iv
from .distributions import chi2_density, f_density, log1p_square_ratio
from .incomplete import betainc_da_db, gammainc_da
from .large_degrees import (
    expansion_holds,
    gamma_average_slope,
    masked,
    normal_average_slope,
    normal_holds,
)
from .large_shapes import (
    STIRLING_SHAPE,
    log_gamma_density_large,
    log_gamma_half_ratio,
    log_minus_digamma,
)


def noncentral_chi2_density(x: Any, df: Any, nc: Any) -> Any:
    """0.5 exp(-(x + nc)/2) (x/nc)**(df/4 - 1/2) I_{df/2-1}(sqrt(nc x)), through ``ive``, or
    the logarithm of I's series where ``ive`` underflows (at a large order beside
    sqrt(nc x), where the power is huge: the density at x = df = 3000, nc = 0.3 came out 0 for
    0.00515)."""
    central = np.equal(nc, 0)
    nc_safe = np.where(central, 1.0, nc)
    root = np.sqrt(nc_safe * x)
    order = np.divide(df, 2) - 1
    with np.errstate(divide="ignore"):
        log_scaled = np.log(sc.ive(order, root))  # log I - root
    lost = (log_scaled == -np.inf) & (root > 0) & np.isfinite(root) & (order > -1) & ~central
    if np.any(lost):
        series = log_iv(np.where(lost, order, 0.0), np.where(lost, root, 1.0)) - root
        log_scaled = np.where(lost, series, log_scaled)
    log_density = (
        -((np.sqrt(x) - np.sqrt(nc_safe)) ** 2) / 2
        + (np.divide(df, 4) - 0.5) * (np.log(x) - np.log(nc_safe))
        + log_scaled
        - np.log(2.0)
    )
    return np.where(central, chi2_density(df, x), np.exp(log_density))


def chndtr_dnc(x: Any, df: Any, nc: Any, y: Any) -> Any:
    # a Poisson(nc/2) mixture of chi-squared laws with df + 2j degrees of freedom
    return (sc.chndtr(x, np.add(df, 2), nc) - y) / 2


def noncentral_f_density(dfn: Any, dfd: Any, nc: Any, f: Any) -> Any:
    """The central F density times exp(-nc/2) 1F1((dfn + dfd)/2; dfn/2; nc w/2)."""
    w = dfn * f / (dfd + dfn * f)
    a, b = np.divide(dfn, 2), np.divide(dfd, 2)
    return f_density(dfn, dfd, f) * np.exp(-nc / 2) * sc.hyp1f1(a + b, a, nc * w / 2)


def ncfdtr_dnc(dfn: Any, dfd: Any, nc: Any, f: Any, y: Any) -> Any:
    # the Poisson components are betainc(dfn/2 + j, dfd/2, w): shifting j keeps w fixed
    shifted = sc.ncfdtr(np.add(dfn, 2), dfd, nc, dfn * f / (dfn + 2))
    return (shifted - y) / 2


# From this z on, the noncentral t's hyp1f1(., ., z) are taken divided by e^z (see _scaled_hyp1f1)
_KUMMER_FROM = 100.0


def _scaled_hyp1f1(a: Any, b: Any, z: Any, large: Any) -> Any:
    """hyp1f1(a, b, z), divided by e^z where ``large``: there as hyp1f1(b - a, b, -z), by
    Kummer's transformation (DLMF 13.2.39), which stays in the float range where e^z leaves it
    (the noncentral t's factor e^(-nc^2 / 2) underflows from nc = 38.6, and its hyp1f1
    overflow: every partial of nctdtr(10, 38, 40) = 0.53 was NaN)."""
    return np.where(
        large,
        _hyp1f1(b - a, b, -np.where(large, z, 0.0)),
        _hyp1f1(a, b, np.where(large, 0.0, z)),
    )


def _hyp1f1(a: Any, b: Any, z: Any) -> Any:
    """hyp1f1(a, b, z), as e^z where a = b: SciPy's hyp1f1(0.5, 0.5, -5e15) does not return
    (reached by nctdtr's nc-partial at (1e-300, 1e8, 0.5), where b - a rounds to b)."""
    same = np.equal(a, b)
    return np.where(same, np.exp(z), sc.hyp1f1(a, b, np.where(same, 0.0, z)))


def _decay(nc: Any, df: Any, s: Any, large: Any) -> Any:
    """-nc^2 / 2, plus z = nc^2 t^2 / (2 s) where ``large``: there -nc^2 df / (2 s), formed
    without the cancellation of the two (s = df + t^2)."""
    return np.where(large, -nc * nc * df / (2 * s), -nc * nc / 2)


def noncentral_t_density(df: Any, nc: Any, t: Any) -> Any:
    """The noncentral t density in closed form, through two ``hyp1f1``:

    r / sqrt(pi s) (df / s)^(df/2) e^(-nc^2/2) (M((df + 1)/2, 1/2, z)
    + nc t df / (r sqrt(2 s)) M(df/2 + 1, 3/2, z)), with s = df + t^2, z = nc^2 t^2 / (2 s)
    and r = gamma((df + 1)/2) / gamma(df/2): the gamma functions of the textbook form
    (gamma(df + 1) / (2^df gamma(df/2) gamma(df/2 + 1)), and 1/gamma of (df + 1)/2 and
    df/2 + 1) joined by the duplication formula into r, which neither over- nor underflows
    (their product came out inf from df = 342), the power formed as
    exp(-df/2 log1p(t^2 / df)), and the M divided by e^z where z is large (``_decay``).
    """
    s = df + t * t
    z = nc * nc * t * t / (2 * s)
    large = z > _KUMMER_FROM
    ratio = np.sqrt(df / 2) * np.exp(log_gamma_half_ratio(df / 2))
    odd = nc * t * df / (ratio * np.sqrt(2 * s)) * _scaled_hyp1f1(df / 2 + 1, 1.5, z, large)
    even = _scaled_hyp1f1((df + 1) / 2, 0.5, z, large)
    log_scale = -df / 2 * log1p_square_ratio(t, df) + _decay(nc, df, s, large)
    density = ratio / np.sqrt(np.pi * s) * np.exp(log_scale) * (odd + even)
    return _where_not_finite(density, df, nc, t, 1, 1.0)


# ---- noncentral laws: derivatives in the degrees of freedom, and nctdtr's in nc --------------
# Each noncentral law is a Poisson mixture of central ones; a derivative in a degree of freedom
# is the mixture of the central laws' derivatives (quadrature, on NumPy values only), summed
# over the terms whose weight times size is within e^-40 of the largest (_poisson_mixture).


# The largest Poisson mean summed: about 800 terms of a quadrature each (measured: 3 s for
# chndtr, 16 s for nctdtr).
_LARGEST_MEAN = 2e3

# The most terms a mixture's selection looks at (see _poisson_mixture)
_MOST_TERMS = 4096


def _bulk_end(mean: Any) -> Any:
    """Past the Poisson weights' bulk: where a mixture's terms end unless their sizes say more."""
    return mean + 10 * np.sqrt(np.abs(mean)) + 13


def _poisson_mixture(
    mean: Any, term: Callable[..., Any], *args: Any, size: Callable[..., Any] | None = None
) -> Any:
    """sum_j Poisson(j; mean) term(j, *args) elementwise; ``term`` may return a tuple of terms.

    The terms summed are those of weight above 1e-18 (the terms are bounded, so what is left
    out is below 1e-17), or, given ``size(j, *args)``, the terms' size up to a modest factor,
    those whose weight times size is within e^-40 of the largest such product: in a far tail,
    the sum is tiny and made of terms of small weight (chndtr's df-derivative at x = 3000,
    df = nc = 3000 came out 2e-183 for -8.7e-163). NaN where the mean is beyond
    ``_LARGEST_MEAN`` (nctdtr's df-derivative at nc = 3000 took minutes)."""
    means, *values = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (mean, *args)))
    shape = means.shape
    means = means.reshape(-1, 1)
    # beyond, about 18 sqrt(mean) terms of a quadrature each would take minutes: NaN
    beyond = np.abs(means) > _LARGEST_MEAN
    means = np.where(beyond, 0.0, means)
    finite = means[np.isfinite(means)]
    count = int(np.ceil(np.max(_bulk_end(finite), initial=13.0)))
    while True:
        j = np.arange(count)
        log_weights = sc.xlogy(j, means) - means - sc.gammaln(j + 1)
        weights = np.exp(log_weights)
        if size is None:
            summed = weights > 1e-18
            break
        with np.errstate(divide="ignore"):
            scores = log_weights + np.log(size(j, *(v.reshape(-1, 1) for v in values)))
        # (products below e^-750 are below the smallest float)
        summed = scores > np.maximum(np.max(scores, axis=1, keepdims=True) - 40, -750)
        # in a far tail the terms that count may lie beyond the weights' bulk, where the sizes
        # grow faster than the weights fall (ncfdtr's df-derivatives at (271, 3.3e10, 26, 4.6),
        # which end near j = 100 of a mean of 13, came out 1.4e-3 off): on until they end
        if not np.any(summed[:, -1]) or count >= _MOST_TERMS:
            break
        count = min(2 * count, _MOST_TERMS)
    rows, columns = np.nonzero(summed)
    terms = term(j[columns], *(v.reshape(-1)[rows] for v in values))

    def mix(values: Any) -> Any:
        full = np.zeros(weights.shape)
        full[rows, columns] = values
        total = np.where(beyond[:, 0], np.nan, (weights * full).sum(axis=1))
        return total.reshape(shape)[()]

    return tuple(map(mix, terms)) if isinstance(terms, tuple) else mix(terms)


def _beta_tail_size(a: Any, b: Any, x: Any, xc: Any) -> Any:
    """The smaller of I_x(a, b) and 1 - I_x(a, b), with xc = 1 - x formed apart: about the size
    of their derivatives in a and b, which is what a mixture's term selection needs
    (``_poisson_mixture``'s ``size``)."""
    near = xc < 0.5  # the mirrored tail I_xc(b, a) (see _betainc_da_db)
    a, b, x = np.where(near, b, a), np.where(near, a, b), np.where(near, xc, x)
    return np.minimum(sc.betainc(a, b, x), sc.betaincc(a, b, x))


def _betainc_da_db(a: Any, b: Any, x: Any, xc: Any) -> tuple[Any, Any]:
    """betainc_da_db(a, b, x) on 1-d arrays, with xc = 1 - x formed apart: where x is near 1,
    from 1 - I_xc(b, a), as x rounded to 1 loses the digits of xc (at x = t^2 / (t^2 + df) for
    nctdtr(0.5, 0, -1e9), whose df-derivative came out 5.1e-6 for -2.1e-4; ncfdtr 3% off at
    (1e15, 3, 2, 2))."""
    near = xc < 0.5
    da, db = np.empty(x.shape), np.empty(x.shape)
    da[~near], db[~near] = betainc_da_db(a[~near], b[~near], x[~near])
    db_near, da_near = betainc_da_db(b[near], a[near], xc[near])
    da[near], db[near] = -da_near, -db_near
    return da, db


def chndtr_ddf(x: Any, df: Any, nc: Any) -> Any:
    """The derivative of ``chndtr(x, df, nc)`` in the degrees of freedom ``df``.

    ``chndtr`` mixes ``gammainc(df/2 + j, x/2)`` with Poisson(nc/2) weights in j.

    >>> round(float(chndtr_ddf(2.0, 2.0, 0.0)), 10)  # gammainc_da(1, 1) / 2
    -0.2158648553
    """

    def central(j: Any, x: Any, df: Any) -> Any:
        return gammainc_da(df / 2 + j, x / 2) / 2

    def size(j: Any, x: Any, df: Any) -> Any:  # the derivative of P or Q is about its size
        return np.minimum(sc.gammainc(df / 2 + j, x / 2), sc.gammaincc(df / 2 + j, x / 2))

    return _poisson_mixture(np.divide(nc, 2), central, x, df, size=size)


def ncfdtr_ddfn_ddfd(dfn: Any, dfd: Any, nc: Any, f: Any) -> tuple[Any, Any]:
    """The derivatives of ``ncfdtr(dfn, dfd, nc, f)`` in ``dfn`` and in ``dfd``.

    ``ncfdtr`` mixes ``betainc(dfn/2 + j, dfd/2, w)``, w = dfn f / (dfn f + dfd), with
    Poisson(nc/2) weights; moving w with a degree of freedom adds the density times
    ``f / dfn`` (or ``-f / dfd``).

    >>> from chainrules.rules.scipy.special.distributions import fdtr_ddf
    >>> ddfn, ddfd = ncfdtr_ddfn_ddfd(3.0, 5.0, 0.0, 1.3)  # central: fdtr's
    >>> bool(np.allclose((ddfn, ddfd), fdtr_ddf(3.0, 5.0, 1.3), rtol=1e-12))
    True
    """
    dfn, dfd, nc, f = (np.asarray(v, dtype=float) for v in (dfn, dfd, nc, f))
    # w and 1 - w formed apart: where w is near 1, each term from the mirrored betainc
    s = dfn * f + dfd
    w, wc = dfn * f / s, dfd / s

    def central(j: Any, a: Any, b: Any, w: Any, wc: Any) -> tuple[Any, Any]:
        return _betainc_da_db(a + j, b, w, wc)

    def size(j: Any, a: Any, b: Any, w: Any, wc: Any) -> Any:
        return _beta_tail_size(a + j, b, w, wc)

    # in a far tail, made of terms of small weight (2.9% off at (3, 5, 100, 0.2) by weight alone)
    da, db = _poisson_mixture(nc / 2, central, dfn / 2, dfd / 2, w, wc, size=size)
    density = noncentral_f_density(dfn, dfd, nc, f)
    return _at_a_huge_df(dfn, dfd, nc, f, da / 2 + density * f / dfn, db / 2 - density * f / dfd)


def _at_a_huge_df(dfn: Any, dfd: Any, nc: Any, f: Any, ddfn: Any, ddfd: Any) -> tuple[Any, Any]:
    """ncfdtr's derivatives ``ddfn``, ``ddfd`` with the one in a huge degree of freedom from the
    expansion in 1/df (large_degrees), where the general form's two terms cancel (at (2.5,
    1e14, 3, 3) 61% off in dfd; at (1e12, 2.5, 1, 0.5) in dfn 2.9e-20 for -3.6e-25): in dfd,
    the Poisson mixture of the central laws' expansions, in dfn the average over the
    noncentral numerator."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a, m = dfn / 2, dfd / 2
        last = a + _bulk_end(nc / 2)  # the shape of the mixture's last term
        huge_d = expansion_holds(a, a * f, 0.0, dfd) & expansion_holds(last, a * f, 0.0, dfd)
        huge_n = expansion_holds(m, m / f, nc, dfn)
        if np.any(huge_d):

            def central(j: Any, a: Any, c: Any, df: Any) -> Any:
                return gamma_average_slope(a + j, c, 0.0, df)

            def size(j: Any, a: Any, c: Any, df: Any) -> Any:
                return np.abs(central(j, a, c, df))

            mean, *args = masked(huge_d, nc / 2, a, a * f, dfd)
            ddfd = np.where(huge_d, _poisson_mixture(mean, central, *args, size=size), ddfd)
        if np.any(huge_n):
            ddfn = np.where(huge_n, -gamma_average_slope(*masked(huge_n, m, m / f, nc, dfn)), ddfn)
    return ddfn, ddfd


def nctdtr_ddf(df: Any, nc: Any, t: Any) -> Any:
    """The derivative of ``nctdtr(df, nc, t)`` in the degrees of freedom ``df``.

    For t >= 0, nctdtr = ndtr(-nc) + sum_j (P_j I_x(j + 1/2, df/2) + Q_j I_x(j + 1, df/2)) / 2
    with x = t**2 / (t**2 + df), P_j the Poisson(nc**2 / 2) weights and
    Q_j = P_j nc j! / (sqrt(2) gamma(j + 3/2)); for t < 0, nctdtr(df, nc, t) =
    1 - nctdtr(df, -nc, -t). Moving x with df adds ``-t / (2 df)`` times the density. At many
    degrees of freedom, from the expansion in 1/df (``large_degrees``); in a tail below 1e-3 at
    t and nc of opposite signs, from the tail's quadrature (``_lower_tail_df_slope``).

    >>> round(float(nctdtr_ddf(3.0, 0.7, 0.0)), 12)  # nctdtr(df, nc, 0) = ndtr(-nc)
    0.0
    """
    df, nc, t = (np.asarray(v, dtype=float) for v in (df, nc, t))
    # many degrees of freedom: the expansion in 1/df of E[ndtr(t U - nc)] (large_degrees),
    # where the general form's two terms, of the order of 1/df, cancel (12% off at df = 4.8e4,
    # nc = 6.65, t = -1.77; 8e-8 at df = 1e8, nc = t = 1)
    with np.errstate(invalid="ignore", over="ignore"):
        many = normal_holds(t, nc, df)
    expansion = None
    if np.any(many):
        expansion = normal_average_slope(*masked(many, t, nc, df))
        if np.all(many):
            return expansion
    sign = np.sign(t)
    d = sign * nc
    # x and 1 - x formed apart: x rounds to 1 where t^2 is far above df (and t^2 may overflow)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r = df / t / t  # (1 - x) / x
        bounded = np.isfinite(r)
        x, xc = np.where(bounded, 1 / (1 + r), 0.0), np.where(bounded, r / (1 + r), 1.0)

    def odd(j: Any, d: Any) -> Any:
        return d * np.exp(sc.gammaln(j + 1) - sc.gammaln(j + 1.5)) / np.sqrt(2.0)

    def central(j: Any, df: Any, d: Any, x: Any, xc: Any) -> Any:
        even_db = _betainc_da_db(j + 0.5, df / 2, x, xc)[1]
        return even_db + odd(j, d) * _betainc_da_db(j + 1, df / 2, x, xc)[1]

    def size(j: Any, df: Any, d: Any, x: Any, xc: Any) -> Any:
        even = _beta_tail_size(j + 0.5, df / 2, x, xc)
        return even + np.abs(odd(j, d)) * _beta_tail_size(j + 1, df / 2, x, xc)

    density = noncentral_t_density(df, nc, t)
    # where t and nc are of opposite signs, the mixture's terms alternate, and in the smaller
    # tail cancel to it (1.5e-4 off at (1e3, 6, -1.5), where nctdtr is 3.3e-14; 6.4e3 times the
    # derivative at (50, 20, -1)): from the tail's quadrature there (_lower_tail_df_slope)
    with np.errstate(invalid="ignore"):
        alternating = (d < 0) & ~many & np.isfinite(df) & (df >= _SMALLEST_DF) & np.isfinite(t)
        alternating &= sc.nctdtr(df, np.abs(nc), -np.abs(t)) < _MIXED_TAIL
    # where the density is not found, neither is the derivative: no mixture (24 s at nc = 60)
    mean = np.where(np.isfinite(density) & ~alternating, d * d / 2, np.inf)
    # in a far tail, the terms that count are of small weight (at df = 10, nc = 20, t = 2, near
    # j = 50 of a mean of 200): chosen by their weight times their size, as in chndtr_ddf
    mixed = _poisson_mixture(mean, central, df, d, x, xc, size=size) / 4
    general = sign * mixed - density * t / (2 * df)
    if np.any(alternating):
        general = np.array(general, dtype=float)  # a writable copy, of the broadcast shape
        points = np.broadcast_arrays(df, nc, t)
        for i in np.argwhere(alternating):
            at = tuple(i)
            df_at, nc_at, t_at = (float(v[at]) for v in points)
            general[at] = -np.sign(t_at) * _lower_tail_df_slope(df_at, abs(nc_at), -abs(t_at))
        general = general[()]
    return general if expansion is None else np.where(many, expansion, general)


# Below this smaller tail, nctdtr's df-derivative at t and nc of opposite signs is taken from
# the tail's quadrature: above it, the mixture's alternating terms lose less than 1e-12 of it
# (against mpmath at 20 points: 3e-13 at worst from a tail of 1e-3, 3e-8 at 5e-11)
_MIXED_TAIL = 1e-3
# (below it, the law of log V is e^(df y / 2) wide toward y = -inf: past the float range)
_SMALLEST_DF = 1e-3
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _lower_tail_df_slope(df: float, nc: float, t: float) -> float:
    """d/d(df) E[ndtr(t U - nc)] for t < 0 < nc, U = sqrt(V), V = chi2_df / df, by quadrature
    in y = log V. V has the gamma(a) density with rate a (a = df/2), whose logarithm's
    derivative in df is (y + 1 - e^y + log a - digamma(a)) / 2: negative but within about
    1/sqrt(a) of V = 1, so in a far tail, where ndtr(t U - nc) tilts the mass toward small V,
    the integrand has one sign and nothing cancels. Density and ndtr are log-concave in y:
    one peak, found by bisection on the slope of their logarithm; the interval ends where they
    fall below e^-60 of it."""
    a = df / 2
    slack = log_minus_digamma(a)  # log a - digamma(a): Stirling's series for large a

    def log_weight(y: float) -> float:
        if y > 700:  # a e^y > 1e300: nothing left
            return -math.inf
        if a > STIRLING_SHAPE:  # no term of size a left to cancel
            x = a * math.exp(y)
            log_v = math.log(x) + float(log_gamma_density_large(a, x))
        else:
            log_v = a * (math.log(a) + y) - a * math.exp(y) - math.lgamma(a)
        return log_v + float(sc.log_ndtr(t * math.exp(y / 2) - nc))

    def slope(y: float) -> float:  # of log_weight
        z = t * math.exp(y / 2) - nc
        # phi(z) / ndtr(z), which is -z to within 1/z^2 below z = -1e8 (z^2 may overflow)
        mills = -z if z < -1e8 else math.exp(-z * z / 2 - _HALF_LOG_2PI - float(sc.log_ndtr(z)))
        return a - a * math.exp(y) + mills * t / 2 * math.exp(y / 2)

    lo, hi = -1.0, 0.0  # the slope is negative at y = 0 (t < 0) and tends to a as y -> -inf
    while slope(lo) <= 0:
        lo, hi = 2 * lo, lo
    while hi - lo > 1e-12 * max(1.0, -lo):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if slope(mid) > 0 else (lo, mid)
    center = (lo + hi) / 2
    step = 1e-4
    curvature = (slope(center - step) - slope(center + step)) / (2 * step)
    width = 1 / math.sqrt(max(curvature, 1e-6))
    peak = log_weight(center)

    # the interval in pieces doubling away from the peak (one quad over a slowly decaying
    # side, e^(a y) at a tiny df, stopped at its roundoff 1.6e-4 off)
    cuts = [center]
    for side in (-1.0, 1.0):
        reach = width
        while log_weight(center + side * reach) > peak - 60:
            cuts.append(center + side * reach)
            reach *= 2
        cuts.append(center + side * reach)
    cuts.sort()

    def integrand(y: float) -> float:
        return math.exp(log_weight(y) - peak) * (slack - (math.expm1(y) - y))

    total = sum(
        integrate.quad(integrand, lo, hi, epsabs=0.0, epsrel=1e-13, limit=200)[0]
        for lo, hi in itertools.pairwise(cuts)
    )
    return 0.5 * math.exp(peak) * total


def nctdtr_dnc(df: Any, nc: Any, t: Any) -> Any:
    """The derivative of ``nctdtr(df, nc, t)`` in the noncentrality ``nc``, in closed form.

    nctdtr = E[ndtr(t U - nc)] with U = sqrt(chi2_df / df), so the derivative is
    -E[exp(-(t U - nc)**2 / 2)] / sqrt(2 pi), a Gaussian moment of U that two ``hyp1f1`` give
    (as they give the density). Accuracy is lost where ``t nc`` is large and negative, where the
    two terms cancel.

    >>> round(float(nctdtr_dnc(3.0, 0.5, 0.0)), 12)  # nctdtr(df, nc, 0) = ndtr(-nc)
    -0.352065326764
    """
    s = df + t * t
    b = t * nc
    z = b * b / (2 * s)
    # gamma((df + 1)/2) / gamma(df/2), whose log-gammas cancel at large df (8e-5 of the
    # derivative lost at df = 1e12)
    ratio = np.sqrt(df / 2) * np.exp(log_gamma_half_ratio(df / 2))
    large = z > _KUMMER_FROM
    moment = _scaled_hyp1f1(df / 2, 0.5, z, large) + b * np.sqrt(2 / s) * ratio * _scaled_hyp1f1(
        (df + 1) / 2, 1.5, z, large
    )
    # log(df / s) as -log1p(t^2 / df): df / s rounds near 1, and df / 2 multiplies its error
    log_scale = -df / 2 * log1p_square_ratio(t, df) + _decay(nc, df, s, large)
    return _where_not_finite(-np.exp(log_scale) / np.sqrt(2 * np.pi) * moment, df, nc, t, 0, -1.0)


def _where_not_finite(value: Any, df: Any, nc: Any, t: Any, k: int, sign: float) -> Any:
    """``value``, a closed form in two hyp1f1, or where it is not finite at finite arguments
    (on NumPy values), ``sign`` E[U^k phi(t U - nc)] by quadrature: at many degrees of freedom
    with a large nc t the two hyp1f1 leave the float range even divided by e^z, and the density
    of nctdtr(1e3, 38, 38) came out inf, at 1e4 NaN."""
    if not plain((df, nc, t)):
        return value
    arrays = (np.asarray(v, dtype=float) for v in (value, df, nc, t))
    value, df, nc, t = np.broadcast_arrays(*arrays)
    missed = ~np.isfinite(value) & np.isfinite(df) & np.isfinite(nc) & np.isfinite(t) & (df > 0)
    if not np.any(missed):
        return value[()]
    value = value.copy()
    for i in np.argwhere(missed):
        at = tuple(i)
        value[at] = sign * _gaussian_moment(float(df[at]), float(nc[at]), float(t[at]), k)
    return value[()]


def _gaussian_moment(df: float, nc: float, t: float, k: int) -> float:
    """E[U^k phi(t U - nc)], U = sqrt(chi2_df / df), by quadrature in u: the density of U is
    2 a u times the gamma(a) density at a u^2 (a = df/2; Stirling's form for large a, where no
    term of size a cancels), and the integrand a peak about (2a + nc t) / (2a + t^2), of width
    1 / sqrt(2a + t^2), where its two Gaussian-like factors meet."""
    a = df / 2
    center = (2 * a + nc * t) / (2 * a + t * t)
    width = 1 / math.sqrt(2 * a + t * t)

    def log_integrand(u: float) -> float:
        x = a * u * u
        if a > STIRLING_SHAPE:
            log_gamma = float(log_gamma_density_large(a, x))
        else:
            log_gamma = (a - 1) * math.log(x) - x - math.lgamma(a)
        gauss = -((t * u - nc) ** 2) / 2 - _HALF_LOG_2PI
        return math.log(2 * a * u) + log_gamma + k * math.log(u) + gauss

    peak = log_integrand(center) if center > 0 else 0.0
    lo, hi = max(center - 60 * width, 0.0), center + 60 * width
    mass, _ = integrate.quad(
        lambda u: math.exp(log_integrand(u) - peak) if u > 0 else 0.0,
        lo,
        hi,
        points=[center] if lo < center < hi else None,
        epsabs=0.0,
        epsrel=1e-13,
        limit=200,
    )
    return mass * math.exp(peak)


# SciPy's private derivative ufuncs: the series behind smirnov and kolmogorov, differentiated
# where they are summed, are more accurate than any rewriting here.
# ---- noncentral chi-squared, F and t --------------------------------------------------------


# Degrees-of-freedom partials are Poisson mixtures of the central laws' quadratures (costly,
# NumPy values only); the noncentralities' are closed.
def _ncfdtr_ddf(dfn: Any, dfd: Any, nc: Any, f: Any, y: Any) -> tuple[Any, Any]:
    return ncfdtr_ddfn_ddfd(dfn, dfd, nc, f)


parametric_rule(
    sc.chndtr,
    lambda x, df, nc, y: noncentral_chi2_density(x, df, nc),
    lambda x, df, nc, y: chndtr_ddf(x, df, nc),
    chndtr_dnc,
    costly=(1,),
)
parametric_rule(
    sc.ncfdtr,
    SharedPartial(_ncfdtr_ddf, 0),
    SharedPartial(_ncfdtr_ddf, 1),
    ncfdtr_dnc,
    lambda dfn, dfd, nc, f, y: noncentral_f_density(dfn, dfd, nc, f),
    costly=(0, 1),
)
parametric_rule(
    sc.nctdtr,
    lambda df, nc, t, y: nctdtr_ddf(df, nc, t),
    lambda df, nc, t, y: nctdtr_dnc(df, nc, t),
    lambda df, nc, t, y: noncentral_t_density(df, nc, t),
    costly=(0,),
)
