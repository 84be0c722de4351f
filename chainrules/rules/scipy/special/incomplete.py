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
beta function's lower tail at a < 1 is the exception: there E[log t | t < x] is about
log x - 1/a, which digamma(a) would cancel, and its derivatives come from its series instead
(``_betainc_lower_series``).

Second derivatives: the logarithm of the tail has the Hessian Cov[log t, log(1 - t) | tail]
minus that of log beta(a, b) (trigamma), so d2I/da2 = I * ((d log I/da)**2 + Var[log t |
tail] - trigamma(a) + trigamma(a + b)), and likewise in (a, b), in b, and d2P/da2 for gamma;
the covariances are integrals of products of centred logarithms, so a narrow tail does not
cancel them. The derivatives in x of the shape derivatives are the density's derivatives in
a and b, in closed form: density * (log x - digamma(a) + digamma(a + b)), and so on.

Orders: ``gammainc_da`` and ``betainc_da_db`` are functions with rules of their own, and the
pullbacks call them through ``call``, so on an engine's tracked values (a second derivative,
in JAX, PyTorch, autograd or the reference engines) they are recorded as those calls and
differentiated by those rules. Every second derivative exists, of these functions and of the
inverses. A third derivative exists where it never differentiates a second-derivative
quadrature again (in x only); otherwise it is ``NotImplementedTangent``, whose reason names
``gammainc_da`` or ``betainc_da_db``.

Accuracy and cost: the quadrature's relative tolerance is 1e-12. Against mpmath, first and
second derivatives reach 3e-13 on the accuracy rows (a, b from 0.1 to 50, x from 1e-3 to
0.999), and the second ones 1e-9 at worst on a grid of a, b in {0.1, 1, 2.5, 50} and x from
1e-6 to 1 - 1e-6, where the square of the log-derivative and the curvature of log I cancel
(the tail's derivative being nearly the whole function's: b = 50, x = 1e-6). First
derivatives cost two (gamma) or three (beta) quadratures per element, second ones three or
six, computed only when a cotangent asks: they are thunked. Beyond a or b = 1e3 the beta rules
are written with the exact offset of x from the mean (``large beta shapes`` below): 2e-13 at
worst against mpmath from there to a = b = 1e300, in the tails too.

These rules use SciPy's quadrature and serve NumPy inputs only.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.gammainc, 1.0, 2.0)
>>> _, da, dx = pullback(1.0)
>>> round(float(dx), 12)  # exp(-2)
0.135335283237
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.parametric import SharedPartial, parametric_rule
from ....core.primals import plain
from .large_shapes import (
    LARGE_BETA_SHAPE,
    LARGE_SHAPE,
    STIRLING_SHAPE,
    beta_lower_tail,
    betainc_large_scalar,
    gamma_tail_large,
    log_beta_density_large,
    log_gamma_density_large,
    log_minus_digamma,
    log_or_minus_inf,
    mean_offset,
    shape_log_slopes,
)
from .moments import moments
from .parameter_gradients import gradient_rules

__all__ = [
    "beta_x_density",
    "betainc_da_db",
    "betainc_shape_hessian",
    "gamma_x_density",
    "gammainc_da",
    "gammainc_da2",
]


def _gamma_tail(a: float, x: float) -> tuple[Any, Any, float, float, float]:
    """The density of the smaller tail of gamma(a) beyond ``x`` after a change of variables,
    ``g`` with log t = log x + g, and the logarithm of the scale that turns the weight's
    integral into that of t**(a-1) exp(-t) over the tail: (weight, g, lo, hi, log_scale)."""
    log_x = math.log(x)
    if x >= a:
        # t = x (1 + u): density (1 + u)**(a-1) exp(-x u), at most 1 on [0, inf) when x > a - 1.
        weight = lambda u: np.exp(sc.xlog1py(a - 1, u) - x * u)
        return weight, np.log1p, 0.0, np.inf, a * log_x - x
    if a < 1:
        # t = x u**(1/a): the density becomes exp(-t), bounded, and log t = log x + log(u)/a.
        weight = lambda u: np.exp(-x * u ** (1 / a))
        return weight, (lambda u: np.log(u) / a), 0.0, 1.0, a * log_x - math.log(a)
    # t = x s, density s**(a-1) exp(-x s) scaled by its maximum on [0, 1].
    mode = min((a - 1) / x, 1.0)
    peak = sc.xlogy(a - 1, mode) - x * mode
    weight = lambda s: np.exp(sc.xlogy(a - 1, s) - x * s - peak)
    return weight, np.log, 0.0, 1.0, a * log_x + peak


# Up to this shape (the first, for beta), a lower tail's derivatives come from its series:
# E[log t | t < x] is about log x - 1/a there, and cancelled digamma(a) to the quadrature's
# 1e-12 of 1/a (betainc(5e-21, 0.5, 0.1)'s derivative in a came out 65534 for -3.64, 7% off at
# a = 1e-10; gammainc(1e-20, 1e-30)'s -32768 for -68.5).
_SERIES_SHAPE = 1.0
_SERIES_TERMS = 100_000

# Below this shape a derivative can be far larger than its tail: the log-derivative holds
# 1/shape (the upper tail of gamma(a) is about a E1(x), its derivative E1(x)). Where the tail
# is below the smallest normal float there, the derivatives come from its logarithm
# (``_times_tail``): gammaincc(1e-300, 30) is 3e-315, SciPy's 0, and its derivative in a
# 3.0e-15 came out 0; betainc(2, 1e-310, 0.5)'s in b 0 for 0.19.
_TINY_SHAPE = 1e-3
_SMALLEST_NORMAL = float(np.finfo(float).tiny)


def _times_tail(tail: float, log_tail: float, factors: Iterable[float]) -> tuple:
    """Each factor (a derivative of the tail's logarithm) times the tail: from the tail's
    logarithm ``log_tail`` where the tail is below the smallest normal float (rounded to 0 or
    to a few digits) and the product need not be."""
    if tail >= _SMALLEST_NORMAL:
        return tuple(tail * f for f in factors)
    with np.errstate(divide="ignore", invalid="ignore"):
        return tuple(float(np.sign(f) * np.exp(log_tail + np.log(np.abs(f)))) for f in factors)


def _gammainc_shape_scalar(a: float, x: float, second: bool) -> tuple[float, float]:
    """dP/da and, when ``second``, d2P/da2: the tail T has d log T/da = E[log t | tail] -
    digamma(a) and d2 log T/da2 = Var[log t | tail] - trigamma(a)."""
    if not (a > 0 and x >= 0):
        return np.nan, np.nan
    if x == 0 or np.isinf(x):
        return 0.0, 0.0
    sign, tail = (1.0, sc.gammainc(a, x)) if x < a else (-1.0, sc.gammaincc(a, x))
    if tail == 0 and (a >= _TINY_SHAPE or x > _LOG_RANGE + 50):
        # the derivatives underflow with the tail (at a tiny shape, with e^-x); far beyond a,
        # exp(-x u) would also be too narrow for the quadrature to find (x = 1e300)
        return 0.0, 0.0
    if x < a <= _SERIES_SHAPE:
        return _gammainc_lower_series(a, x, tail, second)
    if a > LARGE_SHAPE:
        weight, g, lo, hi = gamma_tail_large(a, x)
        _, means, covariances = moments(weight, (g,), ((lo, hi),), second)
        slope = np.log1p((x - a) / a) + means[0] + log_minus_digamma(a)
        log_tail = math.log(tail) if tail > 0 else -math.inf
    else:
        weight, g, lo, hi, log_scale = _gamma_tail(a, x)
        mass, means, covariances = moments(weight, (g,), ((lo, hi),), second)
        slope = np.log(x) + means[0] - sc.digamma(a)
        log_tail = log_scale + log_or_minus_inf(mass) - sc.gammaln(a)
    curvature = np.nan
    if second and a < _TINY_SHAPE:
        u = np.log(x) + means[0] - sc.digamma(a + 1)  # slope less 1/a
        curvature = _square_less_trigamma(a, u, covariances[0])
    elif second:
        curvature = slope * slope + covariances[0] - sc.polygamma(1, a)
    return tuple(sign * d for d in _times_tail(tail, log_tail, (slope, curvature)))


def _gammainc_lower_series(a: float, x: float, tail: float, second: bool) -> tuple:
    """dP/da and d2P/da2 at x < a <= 1 from P(a, x) = x^a H / gamma(a + 1), where
    H = M(a, a + 1, -x) = 1 + a G, G = sum_(n>=1) (-x)^n / (n! (a + n)) (DLMF 8.5.1), as
    ``_betainc_lower_series``: d log P / da = log x - digamma(a + 1) + H_a / H, without the 1/a
    that the quadrature's E[log t | t < x] and digamma(a) cancelled (-32768 for -68.5 at
    a = 1e-20, x = 1e-30)."""

    def terms() -> Iterator[list[float]]:
        q = 1.0
        for n in range(1, _SERIES_TERMS):
            q *= -x / n
            yield _terms_in_a(q, a + n)

    log_h_a, log_h_aa, _ = _log_h_in_a(a, *_settled_sums(terms()))
    slope = np.log(x) - sc.digamma(a + 1) + log_h_a
    if not second:
        return tail * slope, np.nan
    curvature = -sc.polygamma(1, a + 1) + log_h_aa
    return tail * slope, tail * (slope * slope + curvature)


def _terms_in_a(q: float, a_n: float) -> list[float]:
    """A term q / (a + n) of G = sum_n q_n / (a + n) and its first two derivatives in a."""
    r = 1.0 / a_n
    return [q * r, -q * r * r, 2 * q * r**3]


def _settled_sums(terms: Iterable[list[float]]) -> np.ndarray:
    """The sums of a series' terms, each component summed until its term is below 1e-17 of the
    sum of its terms' sizes (a term at a time, all components at once)."""
    sums = scale = None
    for term in terms:
        values = np.array(term)
        sums = values if sums is None else sums + values
        scale = np.abs(values) if scale is None else scale + np.abs(values)
        if np.all(np.abs(values) <= 1e-17 * scale):
            break
    assert sums is not None
    return sums


def _log_h_in_a(a: float, g: float, g_a: float, g_aa: float) -> tuple[float, float, float]:
    """For H = 1 + a G: d log H / da, d2 log H / da2, and H."""
    h = 1 + a * g
    log_h_a = (g + a * g_a) / h
    return log_h_a, (2 * g_a + a * g_aa) / h - log_h_a * log_h_a, h


def _elementwise(scalar: Any, outputs: int, *arrays: Any) -> tuple:
    values = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in arrays))
    shape = values[0].shape
    found = [scalar(*v) for v in zip(*(v.flat for v in values), strict=True)]
    results = [np.array([r[k] for r in found]).reshape(shape) for k in range(outputs)]
    return tuple(r[()] if shape == () else r for r in results)


def gammainc_da(a: Any, x: Any) -> Any:
    """The derivative of ``gammainc(a, x)`` in ``a`` (that of ``gammaincc`` is its negative).

    >>> round(float(gammainc_da(1.0, 1.0)), 10)
    -0.4317297106
    """
    return _elementwise(lambda a, x: _gammainc_shape_scalar(a, x, False), 1, a, x)[0]


def gammainc_da2(a: Any, x: Any) -> Any:
    """The second derivative of ``gammainc(a, x)`` in ``a``, on NumPy values.

    >>> round(float(gammainc_da2(1.0, 1.0)), 8)  # mpmath.diff(..., 2)
    0.03361804
    """
    return _elementwise(lambda a, x: _gammainc_shape_scalar(a, x, True), 2, a, x)[1]


def _betainc_shape_scalar(a: float, b: float, x: float, second: bool) -> tuple:
    """(dI/da, dI/db) and, when ``second``, (d2I/da2, d2I/dadb, d2I/db2)."""
    if not (a > 0 and b > 0 and 0 <= x <= 1):
        return (np.nan,) * 5
    if x == 0 or x == 1 or a == np.inf or b == np.inf:
        return (0.0,) * 5  # an infinite shape: I is 0 or 1 on 0 < x < 1 for every a and b
    upper = x > (a + 1) / (a + b + 2)
    if _beyond_float(*((b, a, 1 - x) if upper else (a, b, x))):
        return (0.0,) * 5
    # the large shapes' expansions, but for a tail whose series (below) takes a small shape
    # (betainc(1e-300, 1e8, 1e-300)'s derivative in a came out 1.5e284 for -672 there)
    small = (b if upper else a) <= _SERIES_SHAPE
    if max(a, b) > LARGE_BETA_SHAPE and not small:
        return betainc_large_scalar(a, b, x, second)
    if upper:
        # I_x(a, b) = 1 - I_{1-x}(b, a): integrate the upper tail, the smaller one.
        db, da, dbb, dab, daa = _betainc_lower_scalar(b, a, 1 - x, second)
        return -da, -db, -daa, -dab, -dbb
    return _betainc_lower_scalar(a, b, x, second)


def _beyond_float(a: float, b: float, x: float) -> bool:
    """Whether the derivatives of the lower tail I_x(a, b), first and second, are all below the
    smallest float: its weight (beta_lower_tail) is at most 1 on an interval of length 1, and
    the derivatives of log I are at most about 1/shape beside the logarithms of x, 1 - x and
    a + b (each below 750), their squares for the second ones. Where a shape is tiny, the
    large shapes' variables overflow (inf at (1e300, 1e-300, 1/2), where the tail is 0)."""
    if min(a, b) >= _TINY_SHAPE or not 0 < x < 1:
        return False
    log_scale = beta_lower_tail(a, b, x)[-1]
    log_most = log_scale - sc.betaln(a, b) + 2 * math.log(1 / min(a, b) + 5 * _LOG_RANGE)
    return bool(log_most < -_LOG_RANGE - 50)


def _betainc_lower_scalar(a: float, b: float, x: float, second: bool) -> tuple:
    # log I has the gradient (E[log t], E[log(1-t)]) - (digamma(a), digamma(b)) + digamma(a+b)
    # and the Hessian Cov[log t, log(1-t)] - diag(trigamma(a), trigamma(b)) + trigamma(a+b),
    # expectations given t < x.
    tail = sc.betainc(a, b, x)
    if tail == 0 and min(a, b) >= _TINY_SHAPE:
        return (0.0,) * 5  # the derivatives underflow with the tail
    if a <= _SERIES_SHAPE:
        log_tail, factors = _betainc_lower_series(a, b, x, second)
        return _times_tail(tail, log_tail, factors)
    weight, gs, lo, hi, log_scale = beta_lower_tail(a, b, x)
    mass, (m1, m2), covariances = moments(weight, gs, ((lo, hi),), second)
    log_tail = log_scale + log_or_minus_inf(mass) - sc.betaln(a, b)
    both = sc.digamma(a + b)
    ga = np.log(x) + m1 - sc.digamma(a) + both
    gb = m2 - sc.digamma(b) + both
    if not second:
        return _times_tail(tail, log_tail, (ga, gb, np.nan, np.nan, np.nan))
    v11, v12, v22 = covariances
    both1 = sc.polygamma(1, a + b)
    haa = v11 - sc.polygamma(1, a) + both1
    if b < _TINY_SHAPE:
        fbb = _square_less_trigamma(b, m2 + both - sc.digamma(b + 1), v22 + both1)
    else:
        fbb = gb * gb + v22 - sc.polygamma(1, b) + both1
    factors = (ga, gb, ga * ga + haa, ga * gb + v12 + both1, fbb)
    return _times_tail(tail, log_tail, factors)


def _betainc_lower_series(a: float, b: float, x: float, second: bool) -> tuple[float, tuple]:
    """The lower tail's derivatives from I_x(a, b) = x^a H / (a B(a, b)), where
    H = 2F1(a, 1 - b; a + 1; x) = 1 + a G, G = sum_(n>=1) q_n / (a + n) and
    q_n = (1 - b)_n x^n / n! (DLMF 8.17.7). Then d log I / da = log x - digamma(a + 1)
    + digamma(a + b) + H_a / H and d log I / db = digamma(a + b) - digamma(b) + H_b / H: the
    1/a of digamma(a) is inside digamma(a + 1), and H_b = a G_b is of the size of the
    derivative in b, which vanishes with a. q_n's derivatives in b come from its recurrence
    (a Pochhammer symbol that is 0 at an integer b has derivatives that are not). Here
    x <= (a + 1) / (a + b + 2) < 2 / (b + 2): the terms fall at least as x^n, and alternate
    (b > 1) with at most e^(b x) < e^2 of their sum. Returns log I and the derivatives of I
    over I."""
    c = 1.0 - b

    def terms() -> Iterator[list[float]]:
        q, q1, q2 = 1.0, 0.0, 0.0  # q_n and its first two derivatives in b, from n = 0
        for n in range(_SERIES_TERMS):
            q, q1, q2 = q * (c + n), q1 * (c + n) - q, q2 * (c + n) - 2 * q1
            step = x / (n + 1)
            q, q1, q2 = q * step, q1 * step, q2 * step
            r = 1.0 / (a + n + 1)
            yield [*_terms_in_a(q, a + n + 1), q1 * r, -q1 * r * r, q2 * r]

    g, g_a, g_aa, g_b, g_ab, g_bb = _settled_sums(terms())
    h_a, log_h_aa, h = _log_h_in_a(a, g, g_a, g_aa)
    h_b = a * g_b / h
    log_tail = a * math.log(x) + math.log(h) - math.log(a) - sc.betaln(a, b)
    ga = np.log(x) - sc.digamma(a + 1) + sc.digamma(a + b) + h_a
    gb = _polygamma_step(0, b, a) + h_b
    if not second:
        return log_tail, (ga, gb, np.nan, np.nan, np.nan)
    both1 = sc.polygamma(1, a + b)
    haa = -sc.polygamma(1, a + 1) + both1 + log_h_aa
    hab = both1 + (g_b + a * g_ab) / h - h_a * h_b
    rest = a * g_bb / h - h_b * h_b
    if b < _TINY_SHAPE * a:
        u = sc.digamma(b + a) - sc.digamma(b + 1) + h_b
        fbb = _square_less_trigamma(b, u, sc.polygamma(1, b + a) + rest)
    else:
        fbb = gb * gb + _polygamma_step(1, b, a) + rest
    return log_tail, (ga, gb, ga * ga + haa, ga * gb + hab, fbb)


def _square_less_trigamma(shape: float, u: float, rest: float) -> float:
    """(1/c + u)**2 + rest - trigamma(c) for a tiny shape c, as 2 u / c + u**2 + rest
    - trigamma(c + 1): the two 1/c**2 cancelled exactly (a second derivative in a tiny shape,
    the square of a log-derivative 1/c less trigamma(c), came out -2.9e133 for 0.28 at
    betainc(2, 1e-150, 0.5), and NaN at 1e-300)."""
    return 2 * u / shape + u * u + rest - float(sc.polygamma(1, shape + 1))


def _polygamma_step(m: int, b: float, a: float) -> float:
    """polygamma(m, b + a) - polygamma(m, b); for a <= 1e-3 b its Taylor series in a to a^5,
    whose remainder is below (a / b)^5 of it: the two would round to each other."""
    if a > 1e-3 * b:
        return float(sc.polygamma(m, b + a) - sc.polygamma(m, b))
    total, power = 0.0, 1.0
    for k in range(1, 6):
        power *= a / k
        total += power * sc.polygamma(m + k, b)
    return float(total)


def betainc_da_db(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``betainc(a, b, x)`` in ``a`` and in ``b``.

    >>> da, db = betainc_da_db(1.0, 1.0, 0.5)  # x log x and -(1 - x) log(1 - x)
    >>> round(float(da), 10), round(float(db), 10)
    (-0.3465735903, 0.3465735903)
    """
    return _elementwise(lambda a, b, x: _betainc_shape_scalar(a, b, x, False), 2, a, b, x)


def betainc_shape_hessian(a: Any, b: Any, x: Any) -> tuple[Any, Any, Any]:
    """The second derivatives of ``betainc(a, b, x)``: in ``a`` twice, in ``a`` and ``b``, in
    ``b`` twice; on NumPy values.

    >>> daa, dab, dbb = betainc_shape_hessian(2.0, 3.0, 0.4)
    >>> round(float(daa), 7)  # mpmath.diff(..., (2, 0))
    0.0583966
    """
    return _elementwise(lambda a, b, x: _betainc_shape_scalar(a, b, x, True), 5, a, b, x)[2:]


# The densities as products of powers wherever every factor is within the float range: exp of
# the log-density amplifies rounding |log-density|-fold (1e-13 at x = 1e-116), and underflows
# with it where the density's derivative is still representable (x**2 at x = 1e-300). In log
# space beyond, where the density is at the ends of the float range itself.
_LOG_RANGE = 700.0


def _gammainc_dx(a: Any, x: Any, y: Any) -> Any:
    infinite = a == np.inf  # P(inf, x) = 0 for every finite x
    a = np.where(infinite, 1.0, a)
    a1 = np.subtract(a, 1)
    log_power = sc.xlogy(a1, x)
    log_gamma = sc.gammaln(a)
    # x**(a-1) may underflow: 1/gamma(a) <= 1.13 and exp(-x) <= 1 keep the product below
    # the smallest normal float then, and its derivative (a-1) x**(a-2) is right.
    inside = (log_power < _LOG_RANGE) & (x < _LOG_RANGE) & (log_gamma < _LOG_RANGE) & ~infinite
    # beyond, a large shape's log-density in Stirling's form, where no term of size a cancels
    stirling = ~inside & ~infinite & (a > STIRLING_SHAPE)
    a_stirling = np.where(stirling, a, 2 * STIRLING_SHAPE)
    log_density = np.where(
        stirling,
        log_gamma_density_large(a_stirling, np.where(stirling, x, a_stirling)),
        log_power - x - log_gamma,
    )
    log_density = np.where(infinite, -np.inf, log_density)
    x_in = np.where(inside, x, 1.0)
    a_in = np.where(inside, a, 1.0)
    products = np.power(x_in, np.subtract(a_in, 1)) * np.exp(-x_in) / sc.gamma(a_in)
    return np.where(inside, products, np.exp(np.where(inside, 0.0, log_density)))


def _betainc_dx(a: Any, b: Any, x: Any, y: Any) -> Any:
    on_values = plain((a, b, x))
    # an infinite shape puts all the mass at an end: I is 0 or 1 on 0 < x < 1
    infinite = ((a == np.inf) | (b == np.inf)) & (x > 0) & (x < 1)
    a, b = np.where(infinite, 1.0, a), np.where(infinite, 1.0, b)
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
    inside = inside & ~infinite
    log_density = np.where(infinite, -np.inf, log_density)
    # a large shape's log-density with the offset from the mean, where no term of the size of
    # a shape cancels, in place of both: the products lose 2e-13 at a = b = 200 through
    # beta(a, b), 4e-5 at (2.5, 1e12); elementwise, so that only such shapes pay for it, and
    # on NumPy values only (an engine's tracked values keep the form above, which it follows)
    large = ~infinite & (np.maximum(a, b) > STIRLING_SHAPE) & (np.minimum(a, b) > 0)
    large &= (x > 0) & (x < 1) & on_values
    inside = inside & ~large
    if np.any(large):
        log_density = np.array(log_density)
        points = [v.reshape(-1) for v in np.broadcast_arrays(a, b, x, large)]
        where = np.flatnonzero(points.pop())
        for k in where:
            ak, bk, xk = (float(v[k]) for v in points)
            log_density.reshape(-1)[k] = log_beta_density_large(ak, bk, xk, mean_offset(ak, bk, xk))
    x_in = np.where(inside, x, 0.5)
    a_in, b_in = np.where(inside, a, 1.0), np.where(inside, b, 1.0)
    products = (
        np.power(x_in, np.subtract(a_in, 1))
        * np.power(1 - x_in, np.subtract(b_in, 1))
        / sc.beta(a_in, b_in)
    )
    return np.where(inside, products, np.exp(np.where(inside, 0.0, log_density)))


# ---- the shape derivatives' own rules ----------------------------------------------------------
# The pullbacks below call gammainc_da and betainc_da_db through ``call``, so that on an engine's
# tracked values they are recorded as calls of these functions and differentiated by these rules.
# In x their derivatives are the density's derivatives in a and b, in closed form, written with
# functions that have rules; in a and b, the quadratures above, on NumPy values only.


def _gammainc_da_dx(a: Any, x: Any, y: Any) -> Any:
    density = _gammainc_dx(a, x, None)
    return sc.xlogy(density, x) - density * sc.digamma(a)


parametric_rule(
    gammainc_da,
    lambda a, x, y: gammainc_da2(a, x),
    _gammainc_da_dx,
    costly=(0,),
    forward=functools.partial(call, gammainc_da),
)


def _betainc_shape_dx(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    density = _betainc_dx(a, b, x, None)
    both = sc.digamma(np.add(a, b))
    da = sc.xlogy(density, x) + density * (both - sc.digamma(a))
    db = sc.xlog1py(density, -x) + density * (both - sc.digamma(b))
    if not plain((a, b, x)):
        return da, db  # an engine's tracked values: the form above, which it follows
    # a large shape's slopes without the cancellation of the digammas (shape_log_slopes)
    finite = np.isfinite(a) & np.isfinite(b) & (x > 0) & (x < 1) & (np.minimum(a, b) > 0)
    large = finite & (np.maximum(a, b) > LARGE_BETA_SHAPE)
    if not np.any(large):
        return da, db
    da, db = np.array(da), np.array(db)
    points = [v.reshape(-1) for v in np.broadcast_arrays(a, b, x, density, large)]
    for k in np.flatnonzero(points.pop()):
        ak, bk, xk, dk = (float(v[k]) for v in points)
        slope_a, slope_b = shape_log_slopes(ak, bk, xk, mean_offset(ak, bk, xk))
        da.reshape(-1)[k], db.reshape(-1)[k] = dk * slope_a, dk * slope_b
    return da[()], db[()]


gradient_rules(
    betainc_da_db,
    betainc_shape_hessian,
    lambda a, b, x: (_betainc_shape_dx(a, b, x),),
    2,
)


# ---- incomplete gamma -----------------------------------------------------------------------


def _gammainc_da(a: Any, x: Any, y: Any) -> Any:
    return call(gammainc_da, a, x)


parametric_rule(sc.gammainc, _gammainc_da, _gammainc_dx, costly=(0,), traceable=(0,))
parametric_rule(
    sc.gammaincc,
    lambda a, x, y: -_gammainc_da(a, x, y),
    lambda a, x, y: -_gammainc_dx(a, x, y),
    costly=(0,),
    traceable=(0,),
)

# ---- incomplete beta ------------------------------------------------------------------------


def _betainc_da_db(a: Any, b: Any, x: Any, y: Any) -> tuple[Any, Any]:
    return call(betainc_da_db, a, b, x)


def _betaincc_da_db(a: Any, b: Any, x: Any, y: Any) -> tuple[Any, Any]:
    da, db = call(betainc_da_db, a, b, x)
    return -da, -db


parametric_rule(
    sc.betainc,
    SharedPartial(_betainc_da_db, 0),
    SharedPartial(_betainc_da_db, 1),
    _betainc_dx,
    costly=(0, 1),
    traceable=(0, 1),
)
parametric_rule(
    sc.betaincc,
    SharedPartial(_betaincc_da_db, 0),
    SharedPartial(_betaincc_da_db, 1),
    lambda a, b, x, y: -_betainc_dx(a, b, x, y),
    costly=(0, 1),
    traceable=(0, 1),
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


def _gammaincinv_da(a: Any, p: Any, x: Any) -> Any:
    # at p = 0 (q = 1) the inverse is 0 for every a, where the density may be 0 too
    # (gammainc_da is 0 there without a quadrature)
    at_zero = x == 0
    density = gamma_x_density(a, np.where(at_zero, 1.0, x))
    return np.where(at_zero, 0.0, -call(gammainc_da, a, x) / density)


parametric_rule(
    sc.gammaincinv,
    _gammaincinv_da,
    lambda a, p, x: np.reciprocal(gamma_x_density(a, x)),
    costly=(0,),
    traceable=(0,),
)
parametric_rule(
    sc.gammainccinv,
    _gammaincinv_da,
    lambda a, q, x: -np.reciprocal(gamma_x_density(a, x)),
    costly=(0,),
    traceable=(0,),
)


def _betaincinv_da_db(a: Any, b: Any, p: Any, x: Any) -> tuple[Any, Any]:
    # at p = 0 or 1 the inverse is 0 or 1 for every a and b, where the density may be 0 too
    # (betainc_da_db is 0 there without a quadrature)
    at_end = (x == 0) | (x == 1)
    da, db = call(betainc_da_db, a, b, x)
    density = beta_x_density(a, b, np.where(at_end, 0.5, x))
    return np.where(at_end, 0.0, -da / density), np.where(at_end, 0.0, -db / density)


def _betaincinv_dp(a: Any, b: Any, p: Any, x: Any) -> Any:
    # an infinite shape makes the inverse an end, 0 or 1, for every p
    infinite = (a == np.inf) | (b == np.inf)
    density = beta_x_density(np.where(infinite, 1.0, a), np.where(infinite, 1.0, b), x)
    return np.where(infinite, 0.0, np.reciprocal(density))


parametric_rule(
    sc.betaincinv,
    SharedPartial(_betaincinv_da_db, 0),
    SharedPartial(_betaincinv_da_db, 1),
    _betaincinv_dp,
    costly=(0, 1),
    traceable=(0, 1),
)
parametric_rule(
    sc.betainccinv,
    SharedPartial(_betaincinv_da_db, 0),
    SharedPartial(_betaincinv_da_db, 1),
    lambda a, b, q, x: -_betaincinv_dp(a, b, q, x),
    costly=(0, 1),
    traceable=(0, 1),
)
