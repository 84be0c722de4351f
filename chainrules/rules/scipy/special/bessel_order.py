"""Derivatives of the Bessel functions J, Y, I, K in their order, first and second.

They have no closed form. For real ``x > 0`` they are computed from

* the power series of J and I (``bessel_series``) at ``x <= 4``, where quadrature of the
  integral forms cancels, and beyond, where the function is small beside its integrals: I
  from ``v^2 >= 4 x``, J from ``v >= x``, see ``_series_beyond``; I at negative orders there
  by its reflection (``_mirrored_i``);
* otherwise the integral representations (DLMF 10.9.6, 10.9.7, 10.32.4, 10.32.9)
  differentiated under the integral sign, once or twice in the order, by adaptive quadrature
  (``scipy.integrate.quad``, relative tolerance 1e-12). The scaled ``ive`` and ``kve`` are
  integrated scaled.

At ``x < 0`` they are NaN (the functions are complex-valued off the integer orders), and at
``x = 0`` too, except for J and I at ``v > 0``, which vanish there for every such ``v``: their
derivatives are 0. So are those of J, I and K where the function underflows to 0 (``_flat``).
At negative integer orders where the series or integrals overflow (far beyond ``x``), the first
derivative comes from the reflection formulas (``_reflection``), a signed infinity there. From
``x = 200`` with ``x >= v^2`` they are the Hankel expansions in ``1/x``
(``_hankel_asymptotic``); beyond ``x = 1000`` outside that range, NaN: the quadrature is not
resolved there. Accuracy against mpmath: about 1e-11 for moderate ``x`` (below a few hundred,
where the oscillatory integrals stay resolved), 1e-13 on the expansions (the second derivative
of ``ive`` 3e-9 at ``x = v^2 = 1e8``); the derivative of ``iv`` is accurate relative to ``iv``
itself, which at order 0 and large ``x`` is 1e25 times larger than the derivative
``-kv(0, x)``.

``order_derivative(name)`` is the first derivative as a function with rules of its own
(``jv_dv`` for ``jv``, ...): its derivative in the order is the second derivative, computed
here on NumPy values only; in ``x``, the recurrences applied to the order derivatives at the
neighbouring orders, so that an engine differentiates it again.

>>> round(float(bessel_order_derivative("kv", 0.0, 1.0)), 12)  # K_v is even in v
0.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc
from numpy.polynomial import chebyshev

from ....core.calls import call
from .bessel_series import SERIES_END, power_series
from .jets import Jet
from .parameter_gradients import derivative_rules
from .sinpi import sin_cos_pi

__all__ = [
    "bessel_order_derivative",
    "bessel_order_jet",
    "bessel_order_second",
    "chebyshev_order_derivatives",
    "order_derivative",
]

_QUAD = {"epsabs": 1e-15, "epsrel": 1e-12, "limit": 400}


def _quad(f: Callable[[float], float], lo: float, hi: float) -> float:
    # scipy.integrate (and scipy.optimize, which it imports) loads at the first quadrature:
    # loading it with the rules took most of the time scipy.special's rules take to load.
    from scipy.integrate import quad

    # sinh and cosh overflow far out on [0, inf), where exp(-inf) = 0 is the right integrand.
    with np.errstate(over="ignore"):
        return quad(f, lo, hi, **_QUAD)[0]


def _reflected_tail(v: float, moments: Callable[[int], float], second: bool) -> tuple:
    """The derivatives in ``v`` of ``-sin(v pi)/pi T_0(v)``, where ``T_m(v)`` is the integral
    of ``t^m exp(-v t)`` times a weight, so ``T_m' = -T_(m+1)``."""
    pi = np.pi
    s, c = np.sin(v * pi), np.cos(v * pi)
    t0, t1 = moments(0), moments(1)
    first = -c * t0 + s / pi * t1
    if not second:
        return first, np.nan
    return first, pi * s * t0 + 2 * c * t1 - s / pi * moments(2)


def _j_order(v: float, x: float, second: bool) -> tuple:
    """DLMF 10.9.6: J_v = (1/pi) int_0^pi cos(v t - x sin t) - sin(v pi)/pi int_0^inf
    exp(-x sinh t - v t)."""
    pi = np.pi
    head = -_quad(lambda t: t * np.sin(v * t - x * np.sin(t)), 0.0, pi) / pi
    moments = lambda m: _quad(lambda t: t**m * np.exp(-x * np.sinh(t) - v * t), 0.0, np.inf)
    first, tail2 = _reflected_tail(v, moments, second)
    if not second:
        return head + first, np.nan
    head2 = -_quad(lambda t: t * t * np.cos(v * t - x * np.sin(t)), 0.0, pi) / pi
    return head + first, head2 + tail2


def _y_order(v: float, x: float, second: bool) -> tuple:
    """DLMF 10.9.7: Y_v = (1/pi) int_0^pi sin(x sin t - v t) - (1/pi) int_0^inf
    (exp(v t) + exp(-v t) cos(v pi)) exp(-x sinh t)."""
    pi = np.pi
    s, c = np.sin(v * pi), np.cos(v * pi)
    head = -_quad(lambda t: t * np.cos(x * np.sin(t) - v * t), 0.0, pi) / pi

    def parts(t: float) -> tuple:
        decay = -x * np.sinh(t)
        return np.exp(v * t + decay), np.exp(-v * t + decay)

    def tail1(t: float) -> float:
        grow, shrink = parts(t)
        return t * grow - t * shrink * c - pi * s * shrink

    integral = _split_at_peak(v, x)  # the tails grow as exp(|v| t) up to their peak
    first = head - integral(tail1) / pi
    if not second:
        return first, np.nan

    def tail2(t: float) -> float:
        grow, shrink = parts(t)
        return t * t * (grow + shrink * c) + (2 * pi * t * s - pi * pi * c) * shrink

    head2 = -_quad(lambda t: t * t * np.sin(x * np.sin(t) - v * t), 0.0, pi) / pi
    return first, head2 - integral(tail2) / pi


def _ive_order(v: float, x: float, second: bool) -> tuple:
    """DLMF 10.32.4 scaled by exp(-x): (1/pi) int_0^pi exp(x (cos t - 1)) cos(v t) -
    sin(v pi)/pi int_0^inf exp(-x (cosh t + 1) - v t)."""
    pi = np.pi
    head = -_quad(lambda t: t * np.exp(x * (np.cos(t) - 1)) * np.sin(v * t), 0.0, pi) / pi
    moments = lambda m: _quad(lambda t: t**m * np.exp(-x * (np.cosh(t) + 1) - v * t), 0.0, np.inf)
    first, tail2 = _reflected_tail(v, moments, second)
    if not second:
        return head + first, np.nan
    head2 = -_quad(lambda t: t * t * np.exp(x * (np.cos(t) - 1)) * np.cos(v * t), 0.0, pi) / pi
    return head + first, head2 + tail2


def _split_at_peak(v: float, x: float) -> Callable[[Callable[[float], float]], float]:
    """The integral over [0, inf) of an integrand like exp(|v| t - x cosh t) (or sinh), which
    grows up to about t = log(2 (|v| + 1) / x) and falls at once beyond: split there, or at
    small x the quadrature finds none of its mass (x = 1e-100)."""
    peak = max(1.0, float(np.log(2 * (abs(v) + 1) / x)))

    def integral(f: Callable[[float], float]) -> float:
        return _quad(f, 0.0, peak) + _quad(f, peak, peak + 40.0) + _quad(f, peak + 40.0, np.inf)

    return integral


def _kve_order(v: float, x: float, second: bool) -> tuple:
    """DLMF 10.32.9 scaled by exp(x): int_0^inf cosh(v t) exp(-x (cosh t - 1)), split at its
    peak (``_split_at_peak``)."""
    decay = lambda t: -x * (np.cosh(t) - 1)
    integral = _split_at_peak(v, x)
    first = integral(lambda t: t * (np.exp(v * t + decay(t)) - np.exp(-v * t + decay(t))) / 2)
    if not second:
        return first, np.nan
    return first, integral(
        lambda t: t * t * (np.exp(v * t + decay(t)) + np.exp(-v * t + decay(t))) / 2
    )


def _series_beyond(v: Any, x: Any, alternating: bool) -> Any:
    """Where J_v's (``alternating``) or I_v's series is summed beyond x = 4.

    I's terms are all positive: it is summed from v = 2 sqrt(x) on, where the quadrature of
    I's integrals, of order 1 / sqrt(x), cancels to I e^-x, about e^(-v^2 / 2x) of them
    (iv(140, 150)'s derivative came out 1e10 times too large, iv(90, 100)'s 21% off). Its
    derivative, sum_k t_k (log(x/2) - digamma(k+v+1)), has terms of both signs, whose spread
    of about 1 / sqrt(x) beside I'/I ~ -v/x loses at most sqrt(x)/v of the terms' rounding.
    J's terms alternate, and grow by at most x^2 / (4 v) a step before they fall, so its sum
    loses about e^(x^2 / (4 v)) of its first term's rounding: it is summed at v >= x, where J
    is small beside its integrals' parts (jv(150, 41)'s derivative came out 0.135 for
    -3e-65), where that is at most e^10 (4e-9 at v = 150, x = 77, the worst measured against
    mpmath; 1e-13 where x^2 / (4 v) is below 3)."""
    if not alternating:
        return (v > 0) & (v * v >= 4 * x) & (x <= _QUADRATURE_END)
    return (v >= x) & (x <= _QUADRATURE_END) & (x * x <= 40 * v)


# From here on (and x >= v^2) the Hankel expansions in 1/x: the integrals oscillate too fast
# for the quadrature beyond a few hundred (jv(0.5, 1e4)'s derivative came out -0.037 for
# 0.0119), while the expansions' k-th term is at most 1/(2^k k!) of the first.
_ASYMPTOTIC_X = 200.0
_HANKEL_TERMS = 40
# Beyond this x, outside the expansions' range, the quadrature is not resolved: NaN, not a guess.
_QUADRATURE_END = 1000.0


def _hankel_asymptotic(base: str, v: Any, x: Any) -> Jet:
    """J, Y (DLMF 10.17.3, 10.17.4), I e^-x and K e^x (10.40.1, 10.40.2) at large ``x`` on a jet
    in ``v``: sums of ``a_k(v) / x^k``, ``a_k = (4v^2 - 1)(4v^2 - 9)...(4v^2 - (2k-1)^2) / (k!
    8^k)``, the phase ``x - v pi/2 - pi/4`` taken apart (``cos x`` and ``sin x`` of the float
    ``x`` itself), so that no rounding of ``x`` enters it. I's second, exponentially small
    term is below 1e-170 of the first from x = 200 on."""
    nu = Jet.seed(v, 0, 1)
    mu = nu * nu * 4
    term = Jet.constant(np.ones(v.shape), 1)
    terms = [term]
    for k in range(1, _HANKEL_TERMS):
        term = term * (mu - (2 * k - 1) ** 2) * (1 / (8 * k) / x)
        terms.append(term)
    if base in ("ive", "kve"):
        signs = [(-1.0) ** k if base == "ive" else 1.0 for k in range(_HANKEL_TERMS)]
        total = sum((t * s for t, s in zip(terms[1:], signs[1:], strict=True)), terms[0])
        scale = 1 / np.sqrt(2 * np.pi * x) if base == "ive" else np.sqrt(np.pi / (2 * x))
        return total * scale
    p = sum((t * (-1.0) ** (k // 2) for k, t in enumerate(terms) if k % 2 == 0 and k), terms[0])
    odd = [t * (-1.0) ** (k // 2) for k, t in enumerate(terms) if k % 2 == 1]
    q = sum(odd[1:], odd[0])
    theta = nu * (np.pi / 2) + np.pi / 4
    cos_t = theta.chain(np.cos(theta.value), -np.sin(theta.value), -np.cos(theta.value))
    sin_t = theta.chain(np.sin(theta.value), np.cos(theta.value), -np.sin(theta.value))
    cos_x, sin_x = np.cos(x), np.sin(x)
    cos_w, sin_w = cos_t * cos_x + sin_t * sin_x, cos_t * sin_x - sin_t * cos_x
    scale = np.sqrt(2 / (np.pi * x))
    if base == "jv":
        return (p * cos_w - q * sin_w) * scale
    return (p * sin_w + q * cos_w) * scale


# The smallest |J_v(x)| at v > x whose order derivative the quadrature gives to 1e-9: its
# parts, of order 1, carry an absolute error of about 1e-12.
_J_RESOLVED = 1e-3

_QUADRATURES = {"jv": _j_order, "yv": _y_order, "ive": _ive_order, "kve": _kve_order}
_SERIES = {"jv": True, "ive": False}
_SCALED = {"iv": "ive", "kv": "kve"}


# Complex z: Chebyshev interpolation in the order over [v - 1/2, v + 1/2] at 16 points.
_NODES = 16
_HALF_WIDTH = 0.5


def chebyshev_order_derivatives(f: Any, v: Any, z: Any) -> tuple[Any, Any]:
    """The first and second derivatives of ``f(v, z)`` in ``v`` from its values at the
    Chebyshev points of ``[v - 1/2, v + 1/2]``: SciPy's Bessel functions of complex argument
    (AMOS) are entire in the order and accurate to about 1e-14 of their size there, which the
    differentiated interpolant keeps to about 1e-12 (first) and 1e-10 (second derivative) of the
    function's size over the interval (measured against mpmath); where the derivative is far
    smaller than that (``iv`` of order 0 at large ``z``), only its absolute error is small."""
    v, z = np.broadcast_arrays(np.asarray(v, dtype=float), np.asarray(z, dtype=complex))
    nodes = np.cos(np.pi * (np.arange(_NODES) + 0.5) / _NODES)
    values = f(v[..., None] + _HALF_WIDTH * nodes, z[..., None])
    flat = np.moveaxis(values.reshape(-1, _NODES), 0, 1)
    fit = chebyshev.chebfit(nodes, flat.real, _NODES - 1)
    fit = fit + 1j * chebyshev.chebfit(nodes, flat.imag, _NODES - 1)
    first = chebyshev.chebval(0.0, chebyshev.chebder(fit)) / _HALF_WIDTH
    second = chebyshev.chebval(0.0, chebyshev.chebder(fit, 2)) / _HALF_WIDTH**2
    first, second = first.reshape(v.shape), second.reshape(v.shape)
    return first[()] if first.ndim == 0 else first, second[()] if second.ndim == 0 else second


# Beyond -2**52 every float is an integer, and sin(v pi) in the integrals is rounding.
_HUGE_ORDER = -(2.0**52)


def _flat(name: str, v: Any, x: Any) -> Any:
    """Where the order derivative of ``name`` is 0, or below the smallest subnormal.

    At ``x = 0``, ``J_v`` and ``I_v`` are 0 for every ``v > 0``. Where the function's value
    underflows to 0 at ``x > 0`` (``J_v``, ``I_v`` for ``v > x``; ``K_v``), its derivative is
    that value times at most the logarithmic rate ``log(2 v / x)`` (under 1500 in double), so
    below the smallest subnormal too; the series and integrals there overflow into NaN.
    ``J_v`` has no zeros below ``x = v``, ``I_v`` and ``K_v`` none at all for ``v > 0``, so a 0
    there is an underflow. ``Y_v`` never underflows.
    """
    base = _SCALED.get(name, name)
    if base == "yv":
        return np.zeros(v.shape, dtype=bool)
    with np.errstate(all="ignore"):
        vanishes = _FUNCTIONS[name](v, x) == 0
    if base == "kve":
        return (x > 0) & vanishes
    return ((x == 0) & (v > 0)) | ((x > 0) & (v > x) & vanishes)


def _reflection(name: str, v: Any, x: Any) -> Any:
    """The order derivative of ``jv``, ``iv`` or ``ive`` at a negative integer ``v = -n``.

    From ``J_-v = cos(v pi) J_v - sin(v pi) Y_v`` and ``I_-v = I_v + 2/pi sin(v pi) K_v``
    (DLMF 10.4.7, 10.27.2) differentiated at ``v = n``: ``(-1)^n (pi Y_n - J_n')`` and
    ``-I_n' - 2 (-1)^n K_n``. Far beyond ``x`` the series overflow and ``Y_n``, ``K_n`` are
    infinite (SciPy's are NaN above about 1e16): the derivative is then a signed infinity. Only
    the first derivative is given.
    """
    n = -v
    parity = np.where(n % 2 == 1, -1.0, 1.0)
    far = n >= 2 * x  # Y_n, K_n ~ e^(n eta), eta > 0.45: overflow where SciPy's are NaN
    base = _SCALED.get(name, name)
    if base == "jv":
        y = sc.yv(n, x)
        y = np.where(np.isnan(y) & far, -np.inf, y)
        return parity * (np.pi * y - bessel_order_derivative("jv", n, x))
    k = sc.kv(n, x)
    k = np.where(np.isnan(k) & far, np.inf, k)
    if name == "ive":
        k = k * np.exp(-x)
    return -bessel_order_derivative(name, n, x) - 2 * parity * k


def _times(a: Any, b: Any) -> Any:
    """``a b``, 0 where ``a`` is 0 (also where ``b`` overflowed)."""
    with np.errstate(invalid="ignore"):
        return np.where(a == 0, 0.0, a * b)


def _mirrored_i(name: str, mu: Any, x: Any, second: bool) -> tuple[Any, Any]:
    """The order derivatives of ``iv`` or ``ive`` at the negative orders ``-mu``, from
    I_-mu = I_mu + 2/pi sin(mu pi) K_mu (DLMF 10.27.2) differentiated in the order:
    -(I_mu' + 2 cos(mu pi) K_mu + 2/pi sin(mu pi) K_mu') and I_mu'' - 2 pi sin(mu pi) K_mu +
    4 cos(mu pi) K_mu' + 2/pi sin(mu pi) K_mu''. The quadrature of I's integrals at -mu
    cancels where mu >= 2 sqrt(x) as it does at mu (iv(-300, 300)'s derivative came out
    -1.7e111 for 4.5e67), while these parts have no cancellation of their own: I_mu and K_mu
    are of different sizes except near where the two terms cross (a zero of the derivative)."""
    i1, i2 = _order_derivatives(name, mu, x, second)
    k1, k2 = _order_derivatives("kv", mu, x, second)
    k0 = sc.kv(mu, x)
    if name == "ive":
        k0, k1, k2 = (k * np.exp(-x) for k in (k0, k1, k2))
    s, c = sin_cos_pi(mu)
    with np.errstate(invalid="ignore", over="ignore"):
        first = -(i1 + _times(2 * c, k0) + _times(2 / np.pi * s, k1))
        curvature = i2 - _times(2 * np.pi * s, k0) + _times(4 * c, k1) + _times(2 / np.pi * s, k2)
    return first, curvature


def _order_derivatives(name: str, v: Any, x: Any, second: bool) -> tuple[Any, Any]:
    """The first and (when ``second``) second derivatives in the order, on NumPy arrays."""
    if np.iscomplexobj(x):
        return chebyshev_order_derivatives(_FUNCTIONS[name], v, x)
    base = _SCALED.get(name, name)
    v, x = np.broadcast_arrays(np.asarray(v, dtype=float), np.asarray(x, dtype=float))
    first = np.full(v.shape, np.nan)
    curvature = np.full(v.shape, np.nan)
    flat = _flat(name, v, x)
    huge = (x > 0) & (v <= _HUGE_ORDER) if base in _SERIES else np.zeros(v.shape, dtype=bool)
    inside = (x > 0) & ~flat & ~huge
    # I at negative orders -mu beyond I's series' start: by the reflection, from I and K at mu
    mirrored = inside & (v < 0) & (x > SERIES_END) & (v * v >= 4 * x) & (base == "ive")
    inside &= ~mirrored
    if base in _SERIES:
        series = inside & ((x <= SERIES_END) | _series_beyond(v, x, _SERIES[base]))
    else:
        series = np.zeros(v.shape, dtype=bool)
    for part in (series & (x <= SERIES_END), series & (x > SERIES_END)):
        if np.any(part):
            found = power_series(v[part], x[part], _SERIES[base], scaled=base == "ive")
            assert found.hessian is not None  # a seed of second order
            first[part], curvature[part] = found.gradient[0], found.hessian[0, 0]
    asymptotic = inside & ~series & (x >= _ASYMPTOTIC_X) & (x >= v * v)
    if np.any(asymptotic):
        found = _hankel_asymptotic(base, v[asymptotic], x[asymptotic])
        assert found.hessian is not None  # a seed of second order
        first[asymptotic], curvature[asymptotic] = found.gradient[0], found.hessian[0, 0]
    scalar = _QUADRATURES[base]
    quadrature = inside & ~series & ~asymptotic & (x <= _QUADRATURE_END)
    if base == "jv":
        # beyond the series' range at v > x, J is small beside its integrals' parts, which
        # cancel to it in the quadrature (jv(150, 100)'s derivative was 4x off): NaN there
        with np.errstate(all="ignore"):
            hidden = quadrature & (v > x) & (np.abs(sc.jv(v, x)) < _J_RESOLVED)
        quadrature &= ~hidden
    for index in np.ndindex(v.shape):
        if quadrature[index]:
            first[index], curvature[index] = scalar(v[index], x[index], second)
    if name != base:
        # in two halves: exp(x) overflows from x = 710, where iv itself need not (where the
        # derivative does, it is a signed infinity, as SciPy's iv is, without a warning)
        with np.errstate(over="ignore"):
            half = np.exp(x / 2) if name == "iv" else np.exp(-x / 2)
            first, curvature = first * half * half, curvature * half * half
    first, curvature = np.where(flat, 0.0, first), np.where(flat, 0.0, curvature)
    if np.any(mirrored):
        first[mirrored], curvature[mirrored] = _mirrored_i(name, -v[mirrored], x[mirrored], second)
    reflected = huge | ((v < 0) & (v == np.floor(v)) & inside & ~np.isfinite(first))
    if np.any(reflected):
        first[reflected] = _reflection(name, v[reflected], x[reflected])
    return first[()] if first.ndim == 0 else first, curvature[()] if first.ndim == 0 else curvature


def bessel_order_derivative(name: str, v: Any, x: Any) -> Any:
    """d/dv of the Bessel function ``name`` (jv, yv, iv, ive, kv, kve, hankel1, hankel2).

    At real ``x``: NaN where ``x <= 0``, and ``hankel1`` and ``hankel2`` are ``jv +- i yv``;
    at complex ``x``, ``chebyshev_order_derivatives`` of the function itself.

    >>> round(float(bessel_order_derivative("jv", 0.0, 1.0)), 12)  # pi/2 Y_0(1)
    0.138633715204
    """
    if name in ("hankel1", "hankel2") and np.iscomplexobj(x):
        return chebyshev_order_derivatives(getattr(sc, name), v, x)[0]
    if name in ("hankel1", "hankel2"):
        sign = 1j if name == "hankel1" else -1j
        return bessel_order_derivative("jv", v, x) + sign * bessel_order_derivative("yv", v, x)
    return _order_derivatives(name, v, x, False)[0]


def bessel_order_second(name: str, v: Any, x: Any) -> Any:
    """d2/dv2 of the Bessel function ``name`` (jv, yv, iv, ive, kv, kve) at real ``x``.

    >>> round(float(bessel_order_second("kv", 0.0, 1.0)), 10)  # mpmath.diff(besselk, 2)
    0.3078110431
    """
    return _order_derivatives(name, v, x, True)[1]


_FUNCTIONS = {"jv": sc.jv, "yv": sc.yv, "iv": sc.iv, "ive": sc.ive, "kv": sc.kv, "kve": sc.kve}


def bessel_order_jet(name: str, nu: Jet, x: Any) -> Jet:
    """``f_nu(x)`` for the Bessel function ``name``, with its derivatives in what the jet ``nu``
    holds (the chain rule through the order), at real ``x > 0``."""
    first, second = _order_derivatives(name, nu.value, x, nu.order >= 2)
    return nu.chain(_FUNCTIONS[name](nu.value, x), first, second)


# ---- the order derivatives as functions with rules -------------------------------------------


def _neighbours(g: Any, v: Any, x: Any) -> tuple[Any, Any]:
    return call(g, np.subtract(v, 1), x), call(g, np.add(v, 1), x)


def _slope(name: str, g: Any) -> Callable[..., Any]:
    """d/dx of ``g(v, x)``, the order derivative of ``name``, by its recurrence in x."""

    def order_derivative_slope(v: Any, x: Any, y: Any) -> Any:
        below, above = _neighbours(g, v, x)
        if name in ("jv", "yv"):
            return (below - above) / 2
        if name == "iv":
            return (below + above) / 2
        if name == "kv":
            return -(below + above) / 2
        if name == "ive":
            return (below + above) / 2 - y
        return y - (below + above) / 2  # kve

    return order_derivative_slope


def _make_order_derivative(name: str) -> Callable[..., Any]:
    def order_derivative(v: Any, x: Any) -> Any:
        return bessel_order_derivative(name, v, x)

    order_derivative.__name__ = order_derivative.__qualname__ = f"{name}_dv"
    order_derivative.__doc__ = f"The derivative of ``{name}(v, x)`` in ``v``, at real x > 0."
    derivative_rules(
        order_derivative,
        lambda v, x: bessel_order_second(name, v, x),
        _slope(name, order_derivative),
        2,
    )
    return order_derivative


_ORDER_DERIVATIVES = {name: _make_order_derivative(name) for name in _FUNCTIONS}


def order_derivative(name: str) -> Callable[..., Any]:
    """``name_dv(v, x)``: the derivative of ``name`` (jv yv iv ive kv kve) in the order, a
    function with rules.

    >>> round(float(order_derivative("jv")(0.0, 1.0)), 10)
    0.1386337152
    """
    return _ORDER_DERIVATIVES[name]
