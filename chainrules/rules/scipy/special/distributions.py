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

from ....core.parametric import SharedPartial, parametric_rule
from .incomplete import beta_x_density, betainc_da_db, gamma_x_density, gammainc_da


def gamma_density(a: Any, x: Any) -> Any:
    # the incomplete gamma function's, in products of powers where they are in range
    return gamma_x_density(a, x)


def student_density(df: Any, t: Any) -> Any:
    log_norm = sc.gammaln((df + 1) / 2) - sc.gammaln(df / 2) - np.log(df * np.pi) / 2
    return np.exp(log_norm - (df + 1) / 2 * np.log1p(t * t / df))


def stdtr_ddf(df: Any, t: Any, y: Any) -> Any:
    """The derivative of ``stdtr(df, t)`` in ``df``.

    For ``t >= 0``, ``stdtr = 1/2 + betainc(1/2, df/2, w) / 2`` with ``w = t^2/(df + t^2)``
    (and ``1 - betainc(df/2, 1/2, 1 - w) / 2``, the same): both forms are differentiated, each
    where its incomplete beta function is accurate, ``w`` small (small ``|t|``) or ``1 - w``
    small (large ``|t|``). ``w`` and ``1 - w = df/(df + t^2)`` are formed apart, so that
    neither rounds to 1; the density's inverse square root is cancelled by hand against
    ``dw/d(df) = -t^2/(df + t^2)^2``. At ``t = 0``, 1/2 for every ``df``: 0.
    """
    zero = np.equal(t, 0)
    t = np.where(zero, 1.0, t)
    t2 = t * t
    w, z = t2 / (df + t2), df / (df + t2)  # z = 1 - w
    half, w, z = np.broadcast_arrays(np.divide(df, 2), w, z)
    small = w < 0.5
    d_parameter = np.empty(w.shape)
    d_parameter[small] = betainc_da_db(0.5, half[small], w[small])[1]
    d_parameter[~small] = -betainc_da_db(half[~small], 0.5, z[~small])[0]
    # the density of w times dw/d(df): -|t| z^(df/2 - 1) / (B(df/2, 1/2) (df + t^2)^(3/2))
    slope = np.exp(sc.xlogy(df / 2 - 1, z) - sc.betaln(df / 2, 0.5)) * np.abs(t) / (df + t2) ** 1.5
    return np.where(zero, 0.0, np.sign(t) * (d_parameter / 2 - slope) / 2)


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
parametric_rule(
    sc.gdtr,
    lambda a, b, x, y: x * gamma_density(b, np.multiply(a, x)),
    lambda a, b, x, y: gammainc_da(b, np.multiply(a, x)),
    lambda a, b, x, y: a * gamma_density(b, np.multiply(a, x)),
    costly=(1,),
)
parametric_rule(
    sc.gdtrc,
    lambda a, b, x, y: -x * gamma_density(b, np.multiply(a, x)),
    lambda a, b, x, y: -gammainc_da(b, np.multiply(a, x)),
    lambda a, b, x, y: -a * gamma_density(b, np.multiply(a, x)),
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


def f_density(dfn: Any, dfd: Any, x: Any) -> Any:
    half_n, half_d = np.divide(dfn, 2), np.divide(dfd, 2)
    ratio = np.divide(dfn, dfd)
    log_density = (
        sc.xlogy(half_n, ratio)
        + sc.xlogy(half_n - 1, x)
        - (half_n + half_d) * np.log1p(ratio * x)
        - sc.betaln(half_n, half_d)
    )
    return np.exp(log_density)


def fdtr_ddf(dfn: Any, dfd: Any, x: Any, *rest: Any) -> tuple[Any, Any]:
    # fdtr = betainc(dfn/2, dfd/2, z) with z = dfn x / (dfn x + dfd)
    dfn, dfd, x = (np.asarray(v, dtype=np.result_type(v, float)) for v in (dfn, dfd, x))
    s = dfn * x + dfd
    z = dfn * x / s
    da, db = betainc_da_db(dfn / 2, dfd / 2, z)
    density = beta_density(dfn / 2, dfd / 2, z)
    return da / 2 + density * x * dfd / (s * s), db / 2 - density * dfn * x / (s * s)


def _fdtrc_ddf(dfn: Any, dfd: Any, x: Any, y: Any) -> tuple[Any, Any]:
    dn, dd = fdtr_ddf(dfn, dfd, x)
    return -dn, -dd


def _fdtri_ddf(dfn: Any, dfd: Any, p: Any, x: Any) -> tuple[Any, Any]:
    dn, dd = fdtr_ddf(dfn, dfd, x)
    density = f_density(dfn, dfd, x)
    return -dn / density, -dd / density


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

parametric_rule(sc.pdtri, None, lambda k, y, m: -1 / gamma_density(np.floor(k) + 1, m))
parametric_rule(
    sc.fdtri,
    SharedPartial(_fdtri_ddf, 0),
    SharedPartial(_fdtri_ddf, 1),
    lambda dfn, dfd, p, x: 1 / f_density(dfn, dfd, x),
    costly=(0, 1),
)
parametric_rule(
    sc.stdtrit,
    lambda df, p, t: -stdtr_ddf(df, t, p) / student_density(df, t),
    lambda df, p, t: 1 / student_density(df, t),
    costly=(0,),
)
# chdtri inverts the complement chdtrc
parametric_rule(
    sc.chdtri,
    lambda v, p, x: -gammainc_da(np.divide(v, 2), np.divide(x, 2)) / 2 / chi2_density(v, x),
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
    """``-dQ/dl(F) / Q'(F)``: ``Q = log(p) exprel(l log p) - log(q) exprel(l log q)``."""
    inside = (y > 0) & (y < 1)
    p = np.where(inside, y, 0.5)
    log_p, log_q = np.log(p), np.log1p(-p)
    dq = log_p**2 * _exprel_slope(lmbda * log_p) - log_q**2 * _exprel_slope(lmbda * log_q)
    return np.where(inside, -dq, 0.0) * _tukey_lambda_density(x, lmbda, y)


parametric_rule(sc.tklmbda, _tukey_lambda_density, _tukey_lambda_shape)
