"""Rules for distribution functions built on the incomplete gamma and beta functions.

``chdtr(v, x) = gammainc(v/2, x/2)``, ``gdtr(a, b, x) = gammainc(b, a x)``,
``pdtr(k, m) = gammaincc(floor(k) + 1, m)`` and ``stdtr(df, t)`` (through ``betainc``), with
their complements. Derivatives in the argument are densities; derivatives in the shape
parameters come from ``incomplete`` (quadrature on NumPy values, thunked). ``pdtr`` takes the
integer part of ``k``, so its derivative in ``k`` is 0. ``scipy.special`` computes on NumPy
arrays only.

``fdtr(dfn, dfd, x)`` has the F density in ``x`` and, through ``betainc``'s shape
derivatives (quadrature on NumPy values, thunked), derivatives in both degrees of freedom.
An inverse ``x = g(..., y)`` (``pdtri fdtri stdtrit chdtri``) has derivative
``1 / density(x)`` in ``y``, evaluated at its own result, and ``-dF/dtheta / density(x)`` in a
continuous parameter ``theta`` (implicit function theorem). ``tklmbda`` has the density
``1/Q'(F)`` of the quantile ``Q`` in ``x``, and the shape by implicit differentiation of
``Q(F) = x``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.chdtr, 2.0, 1.0)  # 1 - exp(-x/2)
>>> round(float(pullback(1.0)[2]), 12)
0.303265329856
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import ignore_derivatives
from ....core.parametric import SharedPartial, parametric_rule
from ....core.primals import plain
from .incomplete import beta_x_density, betainc_da_db, gamma_x_density, gammainc_da
from .large_degrees import LIMIT_FROM, expansion_holds, gamma_average_slope, masked
from .large_shapes import STIRLING_SHAPE, log_gamma_half_ratio


def gamma_density(a: Any, x: Any) -> Any:
    # the incomplete gamma function's, in products of powers where they are in range
    return gamma_x_density(a, x)


def log1p_square_ratio(t: Any, df: Any) -> Any:
    """log(1 + t^2 / df), also where t^2 / df overflows: there 2 log|t| - log df (the
    Student and noncentral t densities at df = 1e-300, t = 1e5: 0 for 5e-306; nctdtr's
    derivative in nc at t = 1e8: 0 for -phi(nc))."""
    with np.errstate(over="ignore"):
        ratio = t * t / df
    far = np.isinf(ratio) & np.isfinite(t)
    t_far, df_far = np.where(far, t, 1.0), np.where(far, df, 1.0)
    near = np.log1p(np.where(far, 1.0, ratio))
    return np.where(far, 2 * np.log(np.abs(t_far)) - np.log(df_far), near)


def student_density(df: Any, t: Any) -> Any:
    # infinitely many degrees of freedom: the normal density, the limit
    normal = np.isposinf(df)
    df = np.where(normal, 1.0, df)
    # gamma((df + 1)/2) / (gamma(df/2) sqrt(df pi)), whose log-gammas cancel at large df (2e-4
    # off at df = 1e12, 5.25 for 0.242 at 1e15): log_gamma_half_ratio takes them apart
    log_norm = log_gamma_half_ratio(df / 2) - np.log(2 * np.pi) / 2
    student = np.exp(log_norm - (df + 1) / 2 * log1p_square_ratio(t, df))
    t_normal = np.where(normal, t, 0.0)
    return np.where(normal, np.exp(-np.square(t_normal) / 2) / np.sqrt(2 * np.pi), student)


# 1 - w = df / (df + t^2) below which stdtr_ddf takes the tail's leading term
_FAR = 1e-250


def stdtr_ddf(df: Any, t: Any, y: Any) -> Any:
    """The derivative of ``stdtr(df, t)`` in ``df``.

    For ``t >= 0``, ``stdtr = 1/2 + betainc(1/2, df/2, w) / 2`` with ``w = t^2/(df + t^2)``
    (and ``1 - betainc(df/2, 1/2, 1 - w) / 2``, the same): both forms are differentiated, each
    where its incomplete beta function is accurate, ``w`` small (small ``|t|``) or ``1 - w``
    small (large ``|t|``). ``w`` and ``1 - w = df/(df + t^2)`` are formed apart, so that
    neither rounds to 1; the density's inverse square root is cancelled by hand against
    ``dw/d(df) = -t^2/(df + t^2)^2``. At ``t = 0``, 1/2 for every ``df``, and at ``t = +-inf``,
    1 or 0: 0. At ``df = inf``, the limit: 0 (the distance to the normal law falls as 1/df).
    Where ``1 - w`` is below 1e-250 (``t^2`` may overflow), the tail beyond ``|t|`` is its
    leading term ``z^(df/2) / (df B(df/2, 1/2))`` (relative error ``O(z)``), differentiated in
    logarithms.
    """
    zero = np.equal(t, 0) | np.isinf(t) | np.isposinf(df)
    t = np.where(zero, 1.0, t)
    df = np.where(np.isposinf(df), 1.0, df)
    ratio = np.abs(df / t / t)  # z / (1 - z), formed without t^2
    far = ~zero & ~(ratio > _FAR)
    far_t, far_df = np.where(far, t, 1.0), np.where(far, df, 1.0)
    log_z = np.log(far_df) - 2 * np.log(np.abs(far_t)) - np.log1p(np.where(far, ratio, 1.0))
    log_tail = far_df / 2 * log_z - np.log(far_df) - sc.betaln(far_df / 2, 0.5)
    # -1/df - digamma(df/2) / 2 as -digamma(df/2 + 1) / 2: the two are 1/df apart from that
    # (they cancelled to 0 at df = 1e-20, t = 1e200, for 242)
    d_log_tail = log_z / 2 + 0.5 - (sc.digamma(far_df / 2 + 1) - sc.digamma((far_df + 1) / 2)) / 2
    far_slope = -np.sign(far_t) * np.exp(log_tail) * d_log_tail
    t = np.where(far, 1.0, t)
    t2 = t * t
    w, z = t2 / (df + t2), df / (df + t2)  # z = 1 - w
    half, w, z = np.broadcast_arrays(np.divide(df, 2), w, z)
    small = w < 0.5
    d_parameter = np.empty(w.shape)
    d_parameter[small] = betainc_da_db(0.5, half[small], w[small])[1]
    d_parameter[~small] = -betainc_da_db(half[~small], 0.5, z[~small])[0]
    # the density of w times dw/d(df): -|t| z^(df/2 - 1) / (B(df/2, 1/2) (df + t^2)^(3/2))
    with np.errstate(over="ignore"):  # df beyond 1e205: the expansion's side, below
        slope = (
            np.exp(sc.xlogy(df / 2 - 1, z) - sc.betaln(df / 2, 0.5)) * np.abs(t) / (df + t2) ** 1.5
        )
    near = np.sign(t) * (d_parameter / 2 - slope) / 2
    large = ~zero & ~far & (df >= np.maximum(3e4, 1e3 * np.square(1 + t2)))
    if np.any(large):
        near = np.where(large, _stdtr_ddf_large(np.where(large, df, 1e300), t), near)
    return np.where(zero, 0.0, np.where(far, far_slope, near))


def _stdtr_ddf_large(df: Any, t: Any) -> Any:
    """d stdtr(df, t) / d(df) for large df, from the expansion of stdtr in powers of 1/df about
    the normal law: phi(t) t / df^2 times (t^2 + 1) / 4 + (3 t^6 - 7 t^4 - 5 t^2 - 3) / (48 df)
    + (3 t^10 - 33 t^8 + 42 t^6 + 18 t^4 - 9 t^2 - 45) / (384 df^2) (the coefficients of
    1/df^3 and 1/df^4 fitted to mpmath's derivative at df = 1e8 and 1e9, rationals of 48ths
    and 384ths). It is taken where df >= 3e4 and df >= 1e3 (1 + t^2)^2: there the terms left
    out are below 2e-12 relative, and 2e-15 from df = 1e4 (1 + t^2)^2 on (measured against
    mpmath), while the difference of the two terms of ``stdtr_ddf`` cancels to 1/df of their
    size (20% off at df = 1e8, the wrong sign from 1e12; up to 4e-6 relative below the
    threshold, at df = 1e6, t = 10)."""
    u = np.square(t)
    phi = np.exp(-u / 2) / np.sqrt(2 * np.pi)  # 0 from |t| = 39 on, where u^5 is finite
    bracket = (
        (u + 1) / 4
        + (((3 * u - 7) * u - 5) * u - 3) / (48 * df)
        + (((((3 * u - 33) * u + 42) * u + 18) * u - 9) * u - 45) / (384 * df) / df
    )
    return phi * t / df / df * bracket


# ---- chi-squared and gamma ------------------------------------------------------------------

parametric_rule(
    sc.chdtr,
    lambda v, x, y: gammainc_da(np.divide(v, 2), np.divide(x, 2)) / 2,
    lambda v, x, y: gamma_density(np.divide(v, 2), np.divide(x, 2)) / 2,
    costly=(0,),
)
parametric_rule(
    sc.chdtrc,
    lambda v, x, y: -gammainc_da(np.divide(v, 2), np.divide(x, 2)) / 2,
    lambda v, x, y: -gamma_density(np.divide(v, 2), np.divide(x, 2)) / 2,
    costly=(0,),
)


def scaled_gamma_density(scale: Any, a: Any, b: Any, x: Any) -> Any:
    """``scale`` times the gamma(b) density at ``a x``: ``x`` for d/da, ``a`` for d/dx.

    Where ``scale`` is 0 or ``a x`` infinite, gdtr is 0 or 1 in a neighbourhood of the other
    argument (``x = 0``: 0 for every ``a``; ``a = 0``: 0 for every ``x``; ``a x = inf``: 1),
    and the product ``0 * inf`` or ``inf * 0`` with the density (infinite at 0 for ``b < 1``)
    stands for 0.
    """
    ax = np.multiply(a, x)
    end = np.equal(scale, 0) | np.isinf(ax)
    return np.where(end, 0.0, np.where(end, 1.0, scale) * gamma_density(b, np.where(end, 1.0, ax)))


parametric_rule(
    sc.gdtr,
    lambda a, b, x, y: scaled_gamma_density(x, a, b, x),
    lambda a, b, x, y: gammainc_da(b, np.multiply(a, x)),
    lambda a, b, x, y: scaled_gamma_density(a, a, b, x),
    costly=(1,),
)
parametric_rule(
    sc.gdtrc,
    lambda a, b, x, y: -scaled_gamma_density(x, a, b, x),
    lambda a, b, x, y: -gammainc_da(b, np.multiply(a, x)),
    lambda a, b, x, y: -scaled_gamma_density(a, a, b, x),
    costly=(1,),
)

# ---- Poisson: the integer part of k ---------------------------------------------------------

parametric_rule(
    sc.pdtr,
    lambda k, m, y: 0.0 * y,
    lambda k, m, y: -gamma_density(np.floor(k) + 1, m),
)
parametric_rule(
    sc.pdtrc,
    lambda k, m, y: 0.0 * y,
    lambda k, m, y: gamma_density(np.floor(k) + 1, m),
)

# ---- Student's t ----------------------------------------------------------------------------

parametric_rule(
    sc.stdtr,
    stdtr_ddf,
    lambda df, t, y: student_density(df, t),
    costly=(0,),
)


def beta_density(a: Any, b: Any, x: Any) -> Any:
    return beta_x_density(a, b, x)


def _log_f_kernel(dfn: Any, dfd: Any, z: Any, w: Any) -> Any:
    """log(z^(dfn/2) w^(dfd/2) / B(dfn/2, dfd/2)), z = dfn x / s and w = 1 - z = dfd / s
    (s = dfn x + dfd) formed apart, the logarithm of the one nearer 1 as log1p of the other: at
    dfd = 1e300, 1 - z rounds to 1, and dfd/2 log(1 - z) = -dfn x / 2 would be lost."""
    small = z < 0.5
    log_z = np.where(small, sc.xlogy(dfn / 2, z), sc.xlog1py(dfn / 2, -w))
    log_w = np.where(small, sc.xlog1py(dfd / 2, -z), sc.xlogy(dfd / 2, w))
    return log_z + log_w - sc.betaln(np.divide(dfn, 2), np.divide(dfd, 2))


def f_density(dfn: Any, dfd: Any, x: Any) -> Any:
    """The F density, z^(dfn/2) (1 - z)^(dfd/2) / (x B(dfn/2, dfd/2)) with z and 1 - z as in
    ``_log_f_kernel``; the textbook form's logarithms, of size dfn log dfn, cancelled (5e299
    for 0.54 at dfn = 1e300, dfd = 2, x = 0.5)."""
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        s = np.multiply(dfn, x) + dfd
        z, w = np.multiply(dfn, x) / s, np.divide(dfd, s)
        # z^(dfn/2) / x as x^(dfn/2 - 1) (dfn / s)^(dfn/2) where z is small: inf, 1 or 0 at x = 0
        # (each side on arguments of its own, so that the other side's derivatives, which an
        # engine multiplies by 0, stay finite)
        small = z < 0.5
        z_small, w_large = np.where(small, z, 0.5), np.where(small, 0.5, w)
        log_power = np.where(
            small,
            sc.xlogy(np.divide(dfn, 2) - 1, x) + sc.xlogy(np.divide(dfn, 2), np.divide(dfn, s)),
            sc.xlog1py(np.divide(dfn, 2), -w_large) - np.log(np.where(small, 1.0, x)),
        )
        log_w = np.where(
            small, sc.xlog1py(np.divide(dfd, 2), -z_small), sc.xlogy(np.divide(dfd, 2), w_large)
        )
        density = np.exp(log_power + log_w - sc.betaln(np.divide(dfn, 2), np.divide(dfd, 2)))
    # a large degree of freedom on NumPy's values: the beta density of z (of 1 - z, mirrored,
    # near 1) in large_shapes' form, where no term of the size of a shape is left to cancel,
    # times dz/dx = z (1 - z) / x (above, logarithms of size df cancelled: 2.3e-7 off at
    # dfn = dfd = 1e8)
    if plain((dfn, dfd, x)):
        large = (np.maximum(dfn, dfd) > 2 * STIRLING_SHAPE) & (np.asarray(x) > 0) & np.isfinite(x)
        if np.any(large):
            a, b = (np.where(large, np.divide(v, 2), 1.0) for v in (dfn, dfd))
            z, w, x = (np.where(large, v, 0.5) for v in (z, w, x))
            near = w < 0.5
            beta = np.where(near, beta_x_density(b, a, w), beta_x_density(a, b, z))
            with np.errstate(invalid="ignore", over="ignore"):
                product = beta * z * w / x
            # (not where z or 1 - z underflows to 0 beside an infinite beta density: there the
            # form above, which keeps x^(dfn/2 - 1) apart)
            density = np.where(large & np.isfinite(product), product, density)
        # at x = inf, where fdtr is 1 for every degree of freedom (NaN at an infinite one)
        density = np.where(_beyond_all_mass(dfn, dfd, x), 0.0, density)
    return density


def _beyond_all_mass(dfn: Any, dfd: Any, x: Any) -> Any:
    """Where x = inf with positive degrees of freedom: fdtr is 1 there whatever they are, and
    its partials are 0."""
    with np.errstate(invalid="ignore"):
        return np.isposinf(x) & (np.asarray(dfn) > 0) & (np.asarray(dfd) > 0)


def fdtr_ddf(dfn: Any, dfd: Any, x: Any, *rest: Any) -> tuple[Any, Any]:
    # fdtr = betainc(dfn/2, dfd/2, z) with z = dfn x / (dfn x + dfd)
    dfn, dfd, x = (np.asarray(v, dtype=np.result_type(v, float)) for v in (dfn, dfd, x))
    s = dfn * x + dfd
    z = dfn * x / s
    # where z is near 1, 1 - fdtr = betainc(dfd/2, dfn/2, 1 - z), with 1 - z = dfd / s formed
    # apart: z itself may round to 1 (x = 1e300), where betainc's derivatives vanish
    half_n, half_d, z, w = np.broadcast_arrays(dfn / 2, dfd / 2, z, dfd / s)
    near = w < 0.5
    da, db = np.empty(z.shape), np.empty(z.shape)
    da[~near], db[~near] = betainc_da_db(half_n[~near], half_d[~near], z[~near])
    db_near, da_near = betainc_da_db(half_d[near], half_n[near], w[near])
    da[near], db[near] = -da_near, -db_near
    # the density at z as the mirrored one at 1 - z formed apart where z is near 1: 1 - z from
    # a rounded z had lost its digits (fdtr(1e15, 3, 2)'s derivative in dfd came out 0.0634
    # for 0.0623, at dfn = 1e300 0.090 for -0.024)
    density = np.empty(z.shape)
    density[~near] = beta_density(half_n[~near], half_d[~near], z[~near])
    density[near] = beta_density(half_d[near], half_n[near], w[near])
    # density dz/d(dfn) = density z (1 - z) / dfn, and -density z (1 - z) / dfd in dfd; where
    # s^2 leaves the float range or the density is infinite (z = 0 or, rounded, 1), the
    # product z^(dfn/2) (1 - z)^(dfd/2) / B in logarithms, with 1 - z = dfd / s formed apart
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        n_term, d_term = density * x * dfd / (s * s), density * dfn * x / (s * s)
        bad = ~(np.isfinite(n_term) & np.isfinite(d_term))
        # (fdtr(0.5, 1e300, 0.5)'s derivative in dfn came out -0.290 for -0.329, where the
        # logarithm of 1 - z was taken of its rounding to 1)
        z_in, w_in = np.where(bad, z, 0.5), np.where(bad, dfd / s, 0.5)
        shape = np.exp(_log_f_kernel(dfn, dfd, z_in, w_in))
        n_term = np.where(bad, shape / np.where(bad, dfn, 1.0), n_term)
        d_term = np.where(bad, shape / np.where(bad, dfd, 1.0), d_term)
    dn, dd = da / 2 + n_term, db / 2 - d_term
    # a huge degree of freedom: its derivative, of the order of 1/df^2, from the expansion in
    # 1/df (large_degrees), where the two terms above, of the order of 1/df, cancel
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a, m = dfn / 2, dfd / 2
        huge_d = expansion_holds(a, a * x, 0.0, dfd)
        huge_n = expansion_holds(m, m / x, 0.0, dfn)
        if np.any(huge_d):
            dd = np.where(huge_d, gamma_average_slope(*masked(huge_d, a, a * x, 0.0, dfd)), dd)
            limit = expansion_holds(a, a * x, 0.0, dfd, start=LIMIT_FROM)
            if np.any(limit):
                dn = np.where(limit, _chi2_limit_slope(*masked(limit, a, x)), dn)
        if np.any(huge_n):
            dn = np.where(huge_n, -gamma_average_slope(*masked(huge_n, m, m / x, 0.0, dfn)), dn)
            limit = expansion_holds(m, m / x, 0.0, dfn, start=LIMIT_FROM)
            if np.any(limit):
                dd = np.where(limit, -_chi2_limit_slope(*masked(limit, m, 1 / x)), dd)
    beyond = _beyond_all_mass(dfn, dfd, x)
    return np.where(beyond, 0.0, dn)[()], np.where(beyond, 0.0, dd)[()]


def _chi2_limit_slope(a: Any, x: Any) -> Any:
    """d/d(dfn) gammainc(dfn/2, dfn x/2), a = dfn/2: fdtr's derivative in dfn where dfd is so
    large that fdtr is chdtr(dfn, dfn x) to within rounding, from the tails' own derivatives,
    so that the smaller tail keeps its digits (fdtrc(2.5, 1e300, 30)'s, -1.8e-15, came out
    -4.4e-14, the rounding of the general form's terms of the order of 1)."""
    return (gammainc_da(a, a * x) + x * gamma_density(a, a * x)) / 2


def _fdtrc_ddf(dfn: Any, dfd: Any, x: Any, y: Any) -> tuple[Any, Any]:
    dn, dd = fdtr_ddf(dfn, dfd, x)
    return -dn, -dd


def _fdtri_ddf(dfn: Any, dfd: Any, p: Any, x: Any) -> tuple[Any, Any]:
    # at p = 0 or 1 the inverse is 0 or inf for all degrees of freedom, where the density may
    # be 0 or infinite too (the quotient was NaN)
    # (where they solve fdtr = p: SciPy 1.16 gives fdtri(1e-300, 0.5, 0.5) = 0, which does not)
    at_end = (np.asarray(x) == 0) | np.isposinf(x)
    x_in = np.where(at_end, 1.0, x)
    dn, dd = fdtr_ddf(dfn, dfd, x_in)
    density = f_density(dfn, dfd, x_in)
    with np.errstate(invalid="ignore"):
        solved = _fdtri_solved(dfn, dfd, p, x, np.where(at_end, 0.0, density), 1.0)
    factor = np.where(at_end, 0.0 * solved, -solved / density)
    return dn * factor, dd * factor


def _fdtri_slope(dfn: Any, dfd: Any, p: Any, x: Any) -> Any:
    density = f_density(dfn, dfd, x)
    return _fdtri_solved(dfn, dfd, p, x, density, 1 / density)


def chi2_density(v: Any, x: Any) -> Any:
    return gamma_density(np.divide(v, 2), np.divide(x, 2)) / 2


# ---- F distribution -------------------------------------------------------------------------

parametric_rule(
    sc.fdtr,
    SharedPartial(fdtr_ddf, 0),
    SharedPartial(fdtr_ddf, 1),
    lambda dfn, dfd, x, y: f_density(dfn, dfd, x),
    costly=(0, 1),
)
parametric_rule(
    sc.fdtrc,
    SharedPartial(_fdtrc_ddf, 0),
    SharedPartial(_fdtrc_ddf, 1),
    lambda dfn, dfd, x, y: -f_density(dfn, dfd, x),
    costly=(0, 1),
)

# ---- inverses: 1 / density at the result -----------------------------------------------------


def _where_solved(forward: Any, args: tuple, p: Any, x: Any, density: Any, derivative: Any) -> Any:
    """``derivative`` where SciPy's inverse ``x`` solves ``forward(*args, x) = p``, NaN elsewhere.

    Solved: to a relative 1e-6 of the nearer tail, or within what ``forward`` moves, at the
    slope ``density``, across the rounding of ``x`` (at dfn = dfd = 1e300 the F quantile is 1
    for every p, where SciPy's fdtr gives 1/2). SciPy returns finite results that are none
    where the solution leaves its search: ``stdtrit(0.5, 1e-300)``, where ``stdtr`` gives 5e-78,
    ``fdtri(1e-300, 0.5, 0.5)`` = 1.1e-8, where ``fdtr`` gives 1."""
    *values, p, x, density = (
        np.asarray(ignore_derivatives(v), dtype=float) for v in (*args, p, x, density)
    )
    with np.errstate(invalid="ignore", over="ignore"):
        residual = np.abs(forward(*values, x) - p)
        rounding = 4 * np.finfo(float).eps * np.abs(x * density)
        solved = (residual <= 1e-6 * np.minimum(p, 1 - p)) | (residual <= rounding)
    return np.where(solved, derivative, np.nan)


def _fdtri_solved(dfn: Any, dfd: Any, p: Any, x: Any, density: Any, derivative: Any) -> Any:
    return _where_solved(sc.fdtr, (dfn, dfd), p, x, density, derivative)


def _stdtrit_ddf(df: Any, p: Any, t: Any) -> Any:
    density = student_density(df, t)
    return _where_solved(sc.stdtr, (df,), p, t, density, -stdtr_ddf(df, t, p) / density)


def _stdtrit_slope(df: Any, p: Any, t: Any) -> Any:
    density = student_density(df, t)
    return _where_solved(sc.stdtr, (df,), p, t, density, 1 / density)


parametric_rule(sc.pdtri, None, lambda k, y, m: -1 / gamma_density(np.floor(k) + 1, m))
parametric_rule(
    sc.fdtri,
    SharedPartial(_fdtri_ddf, 0),
    SharedPartial(_fdtri_ddf, 1),
    _fdtri_slope,
    costly=(0, 1),
)
parametric_rule(
    sc.stdtrit,
    _stdtrit_ddf,
    _stdtrit_slope,
    costly=(0,),
)
# chdtri inverts the complement chdtrc
# at p = 1 the result is 0 for every v: 0 there
parametric_rule(
    sc.chdtri,
    lambda v, p, x: np.where(
        np.equal(p, 1),
        0.0,
        -gammainc_da(np.divide(v, 2), np.divide(x, 2))
        / 2
        / chi2_density(v, np.where(p == 1, 1.0, x)),
    ),
    lambda v, p, x: -1 / chi2_density(v, x),
    costly=(0,),
)

# ---- Tukey lambda distribution --------------------------------------------------------------


def _exprel_slope(t: Any) -> Any:
    """d/dt of ``(exp(t) - 1)/t``: ``(t exp(t) - expm1(t))/t^2``, by its series near 0."""
    small = np.abs(t) < 0.05
    u = np.where(small, 1.0, t)
    direct = (u * np.exp(u) - np.expm1(u)) / (u * u)
    series = 1 / 2 + t * (
        1 / 3 + t * (1 / 8 + t * (1 / 30 + t * (1 / 144 + t * (1 / 840 + t / 5760))))
    )
    return np.where(small, series, direct)


def _tukey_lambda_density(x: Any, lmbda: Any, y: Any) -> Any:
    """The density ``1 / Q'(F)``, with ``Q(p) = (p^l - (1-p)^l)/l``; 0 outside the support."""
    inside = (y > 0) & (y < 1)
    p = np.where(inside, y, 0.5)
    slope = p ** np.subtract(lmbda, 1) + (1 - p) ** np.subtract(lmbda, 1)
    return np.where(inside, 1 / slope, 0.0)


def _tukey_lambda_shape(x: Any, lmbda: Any, y: Any) -> Any:
    """``-dQ/dl(F) / Q'(F)``: ``Q = log(p) exprel(l log p) - log(q) exprel(l log q)``.

    From |l| = 1 on, the two exprel slopes, each about 1/l^2 where l log p and l log q are
    large and negative, cancel to what p^l and q^l leave (tklmbda(1e-300, 1e4)'s derivative
    in l came out -1.5e272 for 6e-6): there ``dQ/dl = (p^l log p - q^l log q)/l -
    (p^l - q^l)/l^2`` and ``Q' = p^(l-1) + q^(l-1)``, both divided by the larger of p^l and
    q^l, which neither underflows nor overflows."""
    inside = (y > 0) & (y < 1)
    p = np.where(inside, y, 0.5)
    log_p, log_q = np.log(p), np.log1p(-p)
    dq = log_p**2 * _exprel_slope(lmbda * log_p) - log_q**2 * _exprel_slope(lmbda * log_q)
    # F = 1/2 at x = 0 for every lambda: dq = 0 there, also where the density overflows
    near = np.where(inside & (dq != 0), -dq, 0.0) * np.where(
        dq != 0, _tukey_lambda_density(x, lmbda, y), 1.0
    )
    far = np.abs(lmbda) >= 1
    if not np.any(far):
        return near
    lp, lq = lmbda * log_p, lmbda * log_q
    top = np.maximum(lp, lq)
    a, b = np.exp(lp - top), np.exp(lq - top)  # p^l and q^l over the larger
    scaled_dq = (a * log_p - b * log_q) / lmbda - (a - b) / lmbda**2
    scaled_slope = a / p + b / (1 - p)
    return np.where(far, np.where(inside, -scaled_dq / scaled_slope, 0.0), near)


parametric_rule(sc.tklmbda, _tukey_lambda_density, _tukey_lambda_shape)
