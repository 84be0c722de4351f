"""Rules for the binomial, negative binomial, F and Kolmogorov-Smirnov distributions and inverses.

``bdtr(k, n, p) = betainc(n - k, k + 1, 1 - p)`` and ``nbdtr(k, n, p) = betainc(n, k + 1, p)``
(with their complements) have integer ``k`` and ``n`` (no tangent) and a beta density as
derivative in ``p``. ``fdtr(dfn, dfd, x)`` has the F density in ``x`` and, through
``betainc``'s shape derivatives (quadrature on NumPy values, thunked), derivatives in both
degrees of freedom. An inverse ``x = g(..., y)`` has derivative ``1 / density(x)`` in ``y``,
evaluated at its own result, and ``-dF/dtheta / density(x)`` in a continuous parameter
``theta`` (implicit function theorem). ``smirnov`` and ``kolmogorov`` use SciPy's own density
ufuncs. ``voigt_profile(x, sigma, gamma)`` is the real part of Faddeeva's ``wofz`` scaled,
differentiated through ``wofz``' = ``2i/sqrt(pi) - 2 z wofz``; ``softplus' = expit``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.bdtr, 0, 1, 0.25)  # 1 - p
>>> float(y), pullback(1.0)
(0.75, (NoTangent(), NoTangent(), NoTangent(), -1.0))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc
import scipy.special._ufuncs as scipy_ufuncs

from ...core.define import scalar_rule
from .distributions import _gamma_density, _stdtr_ddf, _student_density
from .incomplete import betainc_da_db, gammainc_da
from .parametric import SharedPartial, parametric_rule

_SQRT_PI = float(np.sqrt(np.pi))


def _beta_density(a: Any, b: Any, x: Any) -> Any:
    return np.exp(
        sc.xlogy(np.subtract(a, 1), x) + sc.xlog1py(np.subtract(b, 1), -x) - sc.betaln(a, b)
    )


def _bdtr_dp(k: Any, n: Any, p: Any) -> Any:
    k = np.floor(k)
    # k >= n: bdtr is 1 for every p; betaln(0, .) would be infinite
    full = np.greater_equal(k, n)
    a = np.where(full, 1.0, np.subtract(n, k))
    return np.where(full, 0.0, -_beta_density(k + 1, a, p))


def _nbdtr_dp(k: Any, n: Any, p: Any) -> Any:
    return _beta_density(n, np.floor(k) + 1, p)


def _f_density(dfn: Any, dfd: Any, x: Any) -> Any:
    half_n, half_d = np.divide(dfn, 2), np.divide(dfd, 2)
    ratio = np.divide(dfn, dfd)
    log_density = (
        sc.xlogy(half_n, ratio)
        + sc.xlogy(half_n - 1, x)
        - (half_n + half_d) * np.log1p(ratio * x)
        - sc.betaln(half_n, half_d)
    )
    return np.exp(log_density)


def _fdtr_ddf(dfn: Any, dfd: Any, x: Any, *rest: Any) -> tuple[Any, Any]:
    # fdtr = betainc(dfn/2, dfd/2, z) with z = dfn x / (dfn x + dfd)
    dfn, dfd, x = (np.asarray(v, dtype=np.result_type(v, float)) for v in (dfn, dfd, x))
    s = dfn * x + dfd
    z = dfn * x / s
    da, db = betainc_da_db(dfn / 2, dfd / 2, z)
    density = _beta_density(dfn / 2, dfd / 2, z)
    return da / 2 + density * x * dfd / (s * s), db / 2 - density * dfn * x / (s * s)


def _fdtrc_ddf(dfn: Any, dfd: Any, x: Any, y: Any) -> tuple[Any, Any]:
    dn, dd = _fdtr_ddf(dfn, dfd, x)
    return -dn, -dd


def _fdtri_ddf(dfn: Any, dfd: Any, p: Any, x: Any) -> tuple[Any, Any]:
    dn, dd = _fdtr_ddf(dfn, dfd, x)
    density = _f_density(dfn, dfd, x)
    return -dn / density, -dd / density


def _chi2_density(v: Any, x: Any) -> Any:
    return _gamma_density(np.divide(v, 2), np.divide(x, 2)) / 2


def _smirnov_dd(n: Any, d: Any, y: Any) -> Any:
    return scipy_ufuncs._smirnovp(n, d)


def _kolmogorov_dx(x: Any, y: Any) -> Any:
    return scipy_ufuncs._kolmogp(x)


def _voigt_parts(x: Any, sigma: Any, gamma: Any) -> tuple[Any, Any, Any]:
    """z, w(z) and w'(z) of ``voigt_profile``, whose value is Re w(z) / (sigma sqrt(2 pi))."""
    root2_sigma = np.sqrt(2.0) * sigma
    z = (x + 1j * gamma) / root2_sigma
    w = sc.wofz(z)
    return z, w, 2j / _SQRT_PI - 2 * z * w


def _voigt_partials(x: Any, sigma: Any, gamma: Any, y: Any) -> tuple[Any, Any, Any]:
    z, _, dw = _voigt_parts(x, sigma, gamma)
    scale = 1 / (2 * _SQRT_PI * sigma * sigma)  # dz/dx / (sigma sqrt(2 pi))
    dx = np.real(dw) * scale
    dgamma = -np.imag(dw) * scale
    dsigma = -np.real(dw * z) * np.sqrt(2.0) * scale - y / sigma
    return dx, dsigma, dgamma


# ---- binomial and negative binomial: derivative in p ----------------------------------------

parametric_rule(sc.bdtr, None, None, lambda k, n, p, y: _bdtr_dp(k, n, p))
parametric_rule(sc.bdtrc, None, None, lambda k, n, p, y: -_bdtr_dp(k, n, p))
parametric_rule(sc.nbdtr, None, None, lambda k, n, p, y: _nbdtr_dp(k, n, p))
parametric_rule(sc.nbdtrc, None, None, lambda k, n, p, y: -_nbdtr_dp(k, n, p))

# ---- F distribution -------------------------------------------------------------------------

parametric_rule(
    sc.fdtr,
    SharedPartial(_fdtr_ddf, 0),
    SharedPartial(_fdtr_ddf, 1),
    lambda dfn, dfd, x, y: _f_density(dfn, dfd, x),
    costly=(0, 1),
)
parametric_rule(
    sc.fdtrc,
    SharedPartial(_fdtrc_ddf, 0),
    SharedPartial(_fdtrc_ddf, 1),
    lambda dfn, dfd, x, y: -_f_density(dfn, dfd, x),
    costly=(0, 1),
)

# ---- inverses: 1 / density at the result -----------------------------------------------------

parametric_rule(sc.bdtri, None, None, lambda k, n, y, p: 1 / _bdtr_dp(k, n, p))
parametric_rule(sc.nbdtri, None, None, lambda k, n, y, p: 1 / _nbdtr_dp(k, n, p))
parametric_rule(sc.pdtri, None, lambda k, y, m: -1 / _gamma_density(np.floor(k) + 1, m))
parametric_rule(
    sc.fdtri,
    SharedPartial(_fdtri_ddf, 0),
    SharedPartial(_fdtri_ddf, 1),
    lambda dfn, dfd, p, x: 1 / _f_density(dfn, dfd, x),
    costly=(0, 1),
)
parametric_rule(
    sc.stdtrit,
    lambda df, p, t: -_stdtr_ddf(df, t, p) / _student_density(df, t),
    lambda df, p, t: 1 / _student_density(df, t),
    costly=(0,),
)
# chdtri inverts the complement chdtrc
parametric_rule(
    sc.chdtri,
    lambda v, p, x: -gammainc_da(np.divide(v, 2), np.divide(x, 2)) / 2 / _chi2_density(v, x),
    lambda v, p, x: -1 / _chi2_density(v, x),
    costly=(0,),
)

# ---- Kolmogorov-Smirnov ---------------------------------------------------------------------

parametric_rule(sc.smirnov, None, _smirnov_dd)
scalar_rule(sc.kolmogorov, _kolmogorov_dx)

# ---- Voigt profile and softplus -------------------------------------------------------------

parametric_rule(
    sc.voigt_profile,
    SharedPartial(_voigt_partials, 0),
    SharedPartial(_voigt_partials, 1),
    SharedPartial(_voigt_partials, 2),
)
scalar_rule(sc.softplus, lambda x, y: sc.expit(x))
