"""Rules for the regularized incomplete gamma and beta functions, in every argument.

The derivatives in ``x`` are the integrands: for P(a, x) = gammainc(a, x),
``x**(a-1) exp(-x) / gamma(a)``, and for I_x(a, b) = betainc(a, b, x),
``x**(a-1) (1-x)**(b-1) / beta(a, b)`` (``xlogy`` keeps x = 0 exact when a = 1).

The derivatives in the shape parameters have no closed form. Each is the tail probability
times a difference of expectations of a logarithm: for the lower tail t < x of the gamma
density, dP/da = P * (E[log t | t < x] - digamma(a)), and for the beta density
dI/da = I * (E[log t | t < x] - digamma(a) + digamma(a + b)),
dI/db = I * (E[log(1 - t) | t < x] - digamma(b) + digamma(a + b)). The conditional
expectations are ratios of two integrals over the tail, computed by adaptive quadrature
(``scipy.integrate.quad``) after a change of variables that keeps the integrand bounded; the
smaller tail is always the one integrated (the upper tail via Q = 1 - P and the symmetry
I_x(a, b) = 1 - I_{1-x}(b, a)), so no result comes from cancelling two numbers near 1. The
relative accuracy is about 1e-10, at some tens of microseconds per element, which is why
these cotangents are thunked.

These rules use SciPy's quadrature and serve NumPy inputs only.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.gammainc, 1.0, 2.0)
>>> _, da, dx = pullback(1.0)
>>> round(float(dx), 12)  # exp(-2)
0.135335283237
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.integrate
import scipy.special as sc

from ....core.parametric import SharedPartial, parametric_rule

__all__ = ["beta_x_density", "betainc_da_db", "gamma_x_density", "gammainc_da"]

_QUAD = {"epsabs": 0.0, "epsrel": 1e-12, "limit": 200}


def _ratio(weight: Any, g: Any, lo: float, hi: float) -> float:
    """E[g] under the (unnormalized) density ``weight`` on [lo, hi], by quadrature."""
    den = scipy.integrate.quad(weight, lo, hi, **_QUAD)[0]
    num = scipy.integrate.quad(lambda t: weight(t) * g(t), lo, hi, **_QUAD)[0]
    return num / den


def _gamma_lower_log_mean(a: float, x: float) -> float:
    """E[log t | t < x] under the gamma(a) density, for x below about a."""
    if a < 1:
        # t = x u**(1/a): the density becomes exp(-t), bounded, and log t = log x + log(u)/a.
        weight = lambda u: np.exp(-x * u ** (1 / a))
        return np.log(x) + _ratio(weight, lambda u: np.log(u) / a, 0.0, 1.0)
    # t = x s, density s**(a-1) exp(-x s) scaled by its maximum on [0, 1].
    mode = min((a - 1) / x, 1.0) if x > 0 else 1.0
    peak = sc.xlogy(a - 1, mode) - x * mode
    weight = lambda s: np.exp(sc.xlogy(a - 1, s) - x * s - peak)
    return np.log(x) + _ratio(weight, np.log, 0.0, 1.0)


def _gamma_upper_log_mean(a: float, x: float) -> float:
    """E[log t | t > x] under the gamma(a) density, for x above about a."""
    # t = x (1 + u): density (1 + u)**(a-1) exp(-x u), at most 1 on [0, inf) when x > a - 1.
    weight = lambda u: np.exp(sc.xlog1py(a - 1, u) - x * u)
    return np.log(x) + _ratio(weight, np.log1p, 0.0, np.inf)


def _gammainc_da_scalar(a: float, x: float) -> float:
    if not (a > 0 and x >= 0) or np.isinf(x):
        return 0.0 if (a > 0 and np.isinf(x)) else np.nan
    if x == 0:
        return 0.0
    if x < a:
        return sc.gammainc(a, x) * (_gamma_lower_log_mean(a, x) - sc.digamma(a))
    return -sc.gammaincc(a, x) * (_gamma_upper_log_mean(a, x) - sc.digamma(a))


def gammainc_da(a: Any, x: Any) -> Any:
    """The derivative of ``gammainc(a, x)`` in ``a`` (that of ``gammaincc`` is its negative).

    >>> round(float(gammainc_da(1.0, 1.0)), 10)
    -0.4317297106
    """
    a, x = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(x, dtype=float))
    out = np.array([_gammainc_da_scalar(ai, xi) for ai, xi in zip(a.flat, x.flat, strict=True)])
    return out.reshape(a.shape)[()] if a.ndim == 0 else out.reshape(a.shape)


def _beta_lower_log_means(a: float, b: float, x: float) -> tuple[float, float]:
    """E[log t] and E[log(1 - t)] given t < x under the beta(a, b) density."""
    log1m = lambda s: np.log1p(-x * s)
    if a < 1:
        # t = x u**(1/a): density (1 - t)**(b-1), bounded by its value at one end.
        peak = max(0.0, (b - 1) * np.log1p(-x))
        weight = lambda u: np.exp((b - 1) * np.log1p(-x * u ** (1 / a)) - peak)
        mean_log_t = np.log(x) + _ratio(weight, lambda u: np.log(u) / a, 0.0, 1.0)
        mean_log_1m = _ratio(weight, lambda u: np.log1p(-x * u ** (1 / a)), 0.0, 1.0)
        return mean_log_t, mean_log_1m
    # t = x s: density s**(a-1) (1 - x s)**(b-1), scaled by its maximum on [0, 1].
    mode = 1.0
    if b > 1 and a + b > 2:
        mode = min((a - 1) / (x * (a + b - 2)), 1.0)
    log_density = lambda s: sc.xlogy(a - 1, s) + sc.xlog1py(b - 1, -x * s)
    peak = log_density(mode)
    weight = lambda s: np.exp(log_density(s) - peak)
    mean_log_t = np.log(x) + _ratio(weight, np.log, 0.0, 1.0)
    return mean_log_t, _ratio(weight, log1m, 0.0, 1.0)


def _betainc_da_db_scalar(a: float, b: float, x: float) -> tuple[float, float]:
    if not (a > 0 and b > 0 and 0 <= x <= 1):
        return np.nan, np.nan
    if x == 0 or x == 1:
        return 0.0, 0.0
    if x > (a + 1) / (a + b + 2):
        # I_x(a, b) = 1 - I_{1-x}(b, a): integrate the upper tail, the smaller one.
        db, da = _betainc_da_db_scalar_lower(b, a, 1 - x)
        return -da, -db
    return _betainc_da_db_scalar_lower(a, b, x)


def _betainc_da_db_scalar_lower(a: float, b: float, x: float) -> tuple[float, float]:
    tail = sc.betainc(a, b, x)
    mean_log_t, mean_log_1m = _beta_lower_log_means(a, b, x)
    both = sc.digamma(a + b)
    return tail * (mean_log_t - sc.digamma(a) + both), tail * (mean_log_1m - sc.digamma(b) + both)


def betainc_da_db(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``betainc(a, b, x)`` in ``a`` and in ``b``.

    >>> da, db = betainc_da_db(1.0, 1.0, 0.5)  # x log x and -(1 - x) log(1 - x)
    >>> round(float(da), 10), round(float(db), 10)
    (-0.3465735903, 0.3465735903)
    """
    a, b, x = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, x)))
    pairs = [_betainc_da_db_scalar(*v) for v in zip(a.flat, b.flat, x.flat, strict=True)]
    da = np.array([p[0] for p in pairs]).reshape(a.shape)
    db = np.array([p[1] for p in pairs]).reshape(a.shape)
    return (da[()], db[()]) if a.ndim == 0 else (da, db)


# The densities as products of powers wherever every factor is within the float range: exp of
# the log-density amplifies rounding |log-density|-fold (1e-13 at x = 1e-116), and underflows
# with it where the density's derivative is still representable (x**2 at x = 1e-300). In log
# space beyond, where the density is at the ends of the float range itself.
_LOG_RANGE = 700.0


def _gammainc_dx(a: Any, x: Any, y: Any) -> Any:
    a1 = np.subtract(a, 1)
    log_power = sc.xlogy(a1, x)
    log_gamma = sc.gammaln(a)
    log_density = log_power - x - log_gamma
    # x**(a-1) may underflow: 1/gamma(a) <= 1.13 and exp(-x) <= 1 keep the product below
    # the smallest normal float then, and its derivative (a-1) x**(a-2) is right.
    inside = (log_power < _LOG_RANGE) & (x < _LOG_RANGE) & (log_gamma < _LOG_RANGE)
    x_in = np.where(inside, x, 1.0)
    a_in = np.where(inside, a, 1.0)
    products = np.power(x_in, np.subtract(a_in, 1)) * np.exp(-x_in) / sc.gamma(a_in)
    return np.where(inside, products, np.exp(np.where(inside, 0.0, log_density)))


def _betainc_dx(a: Any, b: Any, x: Any, y: Any) -> Any:
    log_left = sc.xlogy(np.subtract(a, 1), x)
    log_right = sc.xlog1py(np.subtract(b, 1), -x)
    log_beta = sc.betaln(a, b)
    log_density = log_left + log_right - log_beta
    # the powers may underflow where 1/beta(a, b) cannot lift them back above the
    # smallest normal float by more than e**30
    inside = (
        (log_left < _LOG_RANGE)
        & (log_right < _LOG_RANGE)
        & (np.abs(log_beta) < _LOG_RANGE)
        & ((log_left + log_right > -_LOG_RANGE) | (log_beta > -30))
    )
    x_in = np.where(inside, x, 0.5)
    a_in, b_in = np.where(inside, a, 1.0), np.where(inside, b, 1.0)
    products = (
        np.power(x_in, np.subtract(a_in, 1))
        * np.power(1 - x_in, np.subtract(b_in, 1))
        / sc.beta(a_in, b_in)
    )
    return np.where(inside, products, np.exp(np.where(inside, 0.0, log_density)))


# ---- incomplete gamma -----------------------------------------------------------------------

parametric_rule(sc.gammainc, lambda a, x, y: gammainc_da(a, x), _gammainc_dx, costly=(0,))
parametric_rule(
    sc.gammaincc,
    lambda a, x, y: -gammainc_da(a, x),
    lambda a, x, y: -_gammainc_dx(a, x, y),
    costly=(0,),
)

# ---- incomplete beta ------------------------------------------------------------------------


def _betainc_da_db(a: Any, b: Any, x: Any, y: Any) -> tuple[Any, Any]:
    return betainc_da_db(a, b, x)


def _betaincc_da_db(a: Any, b: Any, x: Any, y: Any) -> tuple[Any, Any]:
    da, db = betainc_da_db(a, b, x)
    return -da, -db


parametric_rule(
    sc.betainc,
    SharedPartial(_betainc_da_db, 0),
    SharedPartial(_betainc_da_db, 1),
    _betainc_dx,
    costly=(0, 1),
)
parametric_rule(
    sc.betaincc,
    SharedPartial(_betaincc_da_db, 0),
    SharedPartial(_betaincc_da_db, 1),
    lambda a, b, x, y: -_betainc_dx(a, b, x, y),
    costly=(0, 1),
)

# ---- inverses: x with gammainc(a, x) = p, betainc(a, b, x) = p ----------------------------------
# By the implicit function theorem, dx/dp = 1 / density and dx/da = -(dP/da) / density; the
# complemented inverses solve P = 1 - q, so only the sign of dx/dq changes.


def gamma_x_density(a: Any, x: Any) -> Any:
    """The gamma(a) density at ``x``, d/dx gammainc(a, x), accurate to the float range's ends."""
    return _gammainc_dx(a, x, None)


def beta_x_density(a: Any, b: Any, x: Any) -> Any:
    """The beta(a, b) density at ``x``, d/dx betainc(a, b, x), likewise."""
    return _betainc_dx(a, b, x, None)


_gamma_density = gamma_x_density
_beta_density = beta_x_density


parametric_rule(
    sc.gammaincinv,
    lambda a, p, x: -gammainc_da(a, x) / _gamma_density(a, x),
    lambda a, p, x: np.reciprocal(_gamma_density(a, x)),
    costly=(0,),
)
parametric_rule(
    sc.gammainccinv,
    lambda a, q, x: -gammainc_da(a, x) / _gamma_density(a, x),
    lambda a, q, x: -np.reciprocal(_gamma_density(a, x)),
    costly=(0,),
)


def _betaincinv_da_db(a: Any, b: Any, p: Any, x: Any) -> tuple[Any, Any]:
    da, db = betainc_da_db(a, b, x)
    density = _beta_density(a, b, x)
    return -da / density, -db / density


parametric_rule(
    sc.betaincinv,
    SharedPartial(_betaincinv_da_db, 0),
    SharedPartial(_betaincinv_da_db, 1),
    lambda a, b, p, x: np.reciprocal(_beta_density(a, b, x)),
    costly=(0, 1),
)
parametric_rule(
    sc.betainccinv,
    SharedPartial(_betaincinv_da_db, 0),
    SharedPartial(_betaincinv_da_db, 1),
    lambda a, b, q, x: -np.reciprocal(_beta_density(a, b, x)),
    costly=(0, 1),
)
