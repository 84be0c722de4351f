"""Rules for the error-function family of ``scipy.special`` and the normal distribution.

erf, erfc, erfcx, erfi, dawsn, wofz, ndtr and log_ndtr take complex input and are
holomorphic, so their pullbacks are ``conj(f'(z)) * dy``; erfinv, erfcinv, ndtri and owens_t
are real. Partials go through functions with rules of their own, so pullbacks differentiate
again; ``scipy.special`` computes on NumPy arrays only.

Accuracy far out: beyond |x| = 7 ``dawsn'`` and ``erfcx'`` are their asymptotic series (the
closed forms cancel to 0); ``log_ndtr'`` in the left tail is ``sqrt(2/pi) / erfcx(-x/sqrt 2)``;
the inverses' ``exp(y**2)`` is divided through by the exactly known tail probability with
``erfcx`` in the tails, so that it does not amplify the rounding of ``y``.

``voigt_profile(x, sigma, gamma)`` is the real part of Faddeeva's ``wofz`` scaled,
differentiated through ``wofz' = 2i/sqrt(pi) - 2 z wofz``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.erf, 0.0)
>>> float(pullback(1.0)[1])  # 2 / sqrt(pi)
1.1283791670955126
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import scalar_rule
from ....core.dtypes import is_complex
from ....core.parametric import SharedPartial, parametric_rule

_TWO_OVER_SQRT_PI = 2 / np.sqrt(np.pi)
_SQRT_PI_OVER_TWO = np.sqrt(np.pi) / 2
_SQRT_TWO_PI = np.sqrt(2 * np.pi)
_LOG_SQRT_TWO_PI = np.log(_SQRT_TWO_PI)

# ---- error functions ------------------------------------------------------------------------

scalar_rule(sc.erf, lambda x, y: _TWO_OVER_SQRT_PI * np.exp(-x * x))
scalar_rule(sc.erfc, lambda x, y: -_TWO_OVER_SQRT_PI * np.exp(-x * x))
# Beyond |x| = 7 the closed forms of dawsn' and erfcx' cancel (2x y tends to 1, resp. 2/sqrt(pi)),
# losing all digits by 1e8; their asymptotic series, 30 terms, are exact to 1e-17 there.
_FAR = 7.0


def _far_tail(x: Any, sign: float) -> Any:
    """sum_{n=1..30} sign**n (2n-1)!! / (2 x**2)**n, the asymptotic tail of 2x dawsn(x) - 1."""
    inverse = 1 / x  # through 1/x, so that 1/x**2 underflows to 0 instead of x**2 overflowing
    q = inverse * inverse / 2
    term = sign * q
    total = term
    for n in range(2, 31):
        term = term * (sign * (2 * n - 1)) * q
        total = total + term
    return total


def _dawsn_derivative(x: Any, y: Any) -> Any:
    far = np.abs(x) > _FAR
    tail = _far_tail(np.where(far, x, _FAR), 1.0)
    return np.where(far, -tail, 1 - 2 * x * y)


def _erfcx_derivative(x: Any, y: Any) -> Any:
    if is_complex(x):
        return 2 * x * y - _TWO_OVER_SQRT_PI
    far = x > _FAR  # for x < 0, erfcx grows like 2 exp(x**2): no cancellation
    tail = _far_tail(np.where(far, x, _FAR), -1.0)
    return np.where(far, _TWO_OVER_SQRT_PI * tail, 2 * x * y - _TWO_OVER_SQRT_PI)


# The inverses' derivatives are 1 / f'(y), an exp(y**2) that amplifies y's rounding y**2-fold
# far out; there exp(-y**2) = erfc(|y|) / erfcx(|y|) with erfc(|y|) known exactly (the
# argument's distance to the end of the domain), and erfcx is smooth. Below 1e-150 that
# quotient's own derivative would overflow in its parts (erfcx / p**2), where the second
# derivative is an honest infinity: exp(y**2) again there.
_TINY_TAIL = 1e-150


def _erfinv_derivative(p: Any, y: Any) -> Any:
    inner = np.abs(p) < 0.5
    edge = np.where(inner, 0.75, np.abs(p))
    far = sc.erfcx(np.where(inner, sc.erfinv(0.75), np.abs(y))) / (1 - edge)
    return _SQRT_PI_OVER_TWO * np.where(inner, np.exp(y * y), far)


def _erfcinv_derivative(p: Any, y: Any) -> Any:
    tail = np.minimum(p, 2 - p)
    inner = (np.abs(1 - p) < 0.5) | ~(tail >= _TINY_TAIL)
    edge = np.where(inner, 0.25, tail)
    far = sc.erfcx(np.where(inner, sc.erfcinv(0.25), np.abs(y))) / edge
    return -_SQRT_PI_OVER_TWO * np.where(inner, np.exp(y * y), far)


scalar_rule(sc.erfcx, _erfcx_derivative)
scalar_rule(sc.erfi, lambda x, y: _TWO_OVER_SQRT_PI * np.exp(x * x))
scalar_rule(sc.dawsn, _dawsn_derivative)
scalar_rule(sc.wofz, lambda z, y: _TWO_OVER_SQRT_PI * 1j - 2 * z * y)
scalar_rule(sc.erfinv, _erfinv_derivative)
scalar_rule(sc.erfcinv, _erfcinv_derivative)

# ---- the normal distribution ----------------------------------------------------------------

scalar_rule(sc.ndtr, lambda x, y: np.exp(-x * x / 2) / _SQRT_TWO_PI)
_ROOT_HALF = np.sqrt(0.5)


def _ndtri_derivative(p: Any, y: Any) -> Any:
    # 1 / phi(y), with exp(-y**2 / 2) = 2 min(p, 1 - p) / erfcx(|y| / sqrt(2)) in the tails
    tail = np.minimum(p, 1 - p)
    inner = (np.abs(p - 0.5) < 0.25) | ~(tail >= _TINY_TAIL)
    tail = np.where(inner, 0.25, tail)
    far = sc.erfcx(np.where(inner, 0.5, np.abs(y) * _ROOT_HALF)) / (2 * tail)
    return _SQRT_TWO_PI * np.where(inner, np.exp(y * y / 2), far)


def _ndtri_exp_derivative(t: Any, y: Any) -> Any:
    # p / phi(y) for p = exp(t): exp(t + y**2 / 2) cancels in both tails, where t + y**2 / 2
    # is small against t; there the tail p or 1 - p = -expm1(t) is divided out exactly.
    # (Within 1e-150 of t = 0 the quotient's derivative would overflow in its parts.)
    left = y < -0.675
    right = (y > 0.675) & (t <= -_TINY_TAIL)
    inner = ~(left | right)
    t_right = np.where(right, t, -1.0)
    far_left = sc.erfcx(np.where(left, -y, 1.0) * _ROOT_HALF) / 2
    far_right = (
        np.exp(t_right) * sc.erfcx(np.where(right, y, 1.0) * _ROOT_HALF) / (-2 * np.expm1(t_right))
    )
    t_inner, y_inner = np.where(inner, t, np.log(0.5)), np.where(inner, y, 0.0)
    return _SQRT_TWO_PI * np.where(
        left, far_left, np.where(right, far_right, np.exp(t_inner + y_inner * y_inner / 2))
    )


def _log_ndtr_derivative(x: Any, y: Any) -> Any:
    # phi(x) / Phi(x): for x < 0 this is sqrt(2/pi) / erfcx(-x / sqrt(2)) with no cancellation,
    # where exp(-x**2/2 - log(sqrt(2 pi)) - y) would subtract two huge numbers; beyond
    # x = -7 sqrt(2) erfcx's asymptotic series itself, -x / (1 + tail), whose derivative
    # does not underflow in its parts as erfcx' / erfcx**2 does.
    if is_complex(x):
        return np.exp(-x * x / 2 - _LOG_SQRT_TWO_PI - y)
    far = x < -_FAR / _ROOT_HALF
    left = (x < 0) & ~far
    x_right = np.where(x < 0, 0.0, x)
    right = np.exp(-x_right * x_right / 2 - _LOG_SQRT_TWO_PI - np.where(x < 0, np.log(0.5), y))
    x_left = np.where(left, x, -1.0)
    x_far = np.where(far, x, -_FAR / _ROOT_HALF)
    asymptotic = -x_far / (1 + _far_tail(-x_far * _ROOT_HALF, -1.0))
    near = np.sqrt(2 / np.pi) / sc.erfcx(-x_left * _ROOT_HALF)
    return np.where(far, asymptotic, np.where(left, near, right))


scalar_rule(sc.ndtri, _ndtri_derivative)
scalar_rule(sc.ndtri_exp, _ndtri_exp_derivative)
scalar_rule(sc.log_ndtr, _log_ndtr_derivative)

# ---- Owen's T: T(h, a) = (1/2pi) integral_0^a exp(-h^2 (1 + t^2) / 2) / (1 + t^2) dt ------------


def _owens_t_da(h: Any, a: Any) -> Any:
    """exp(-h**2 (1 + a**2) / 2) / (2 pi (1 + a**2)), the exponent as h**2 + (h a)**2: not
    0 * inf where h**2 underflows and a**2 overflows (the quotient is 0 there, as its limit)."""
    with np.errstate(over="ignore"):  # NumPy's products: a Python float's would raise
        return np.exp(-(np.square(h) + np.square(np.multiply(h, a))) / 2) / (
            2 * np.pi * (1 + np.square(a))
        )


scalar_rule(
    sc.owens_t,
    lambda h, a, y: -np.exp(-h * h / 2) * sc.erf(h * a / np.sqrt(2)) / (2 * _SQRT_TWO_PI),
    lambda h, a, y: _owens_t_da(h, a),
)

# ---- Voigt profile: the real part of the scaled Faddeeva function ------------------------

_SQRT_PI = float(np.sqrt(np.pi))


def _voigt_parts(x: Any, sigma: Any, gamma: Any) -> tuple[Any, Any, Any]:
    """z, w(z) and w'(z) of ``voigt_profile``, whose value is Re w(z) / (sigma sqrt(2 pi))."""
    root2_sigma = np.sqrt(2.0) * sigma
    z = (x + 1j * gamma) / root2_sigma
    w = sc.wofz(z)
    return z, w, 2j / _SQRT_PI - 2 * z * w


def _voigt_partials(x: Any, sigma: Any, gamma: Any, y: Any) -> tuple[Any, Any, Any]:
    # |z| >= 30, told without dividing by sigma (0 in the Lorentzian's limit); at sigma < 0,
    # where SciPy's value is the same formula, not there (it was 9.7e7 for 0.64 at (0.3, -0.7,
    # 0.3), the series taken at every z)
    far = (np.abs(x + 1j * gamma) >= _FAR_Z * np.sqrt(2.0) * sigma) & (sigma >= 0)
    if np.any(far):
        x_far, sigma_far, gamma_far = (np.where(far, v, 1.0) for v in (x, sigma, gamma))
        x, sigma, gamma, y = (np.where(far, 1.0, v) for v in (x, sigma, gamma, y))
    z, _, dw = _voigt_parts(x, sigma, gamma)
    scale = 1 / (2 * _SQRT_PI * sigma * sigma)  # dz/dx / (sigma sqrt(2 pi))
    dx = np.real(dw) * scale
    dgamma = -np.imag(dw) * scale
    dsigma = -np.real(dw * z) * np.sqrt(2.0) * scale - y / sigma
    if np.any(far):
        far_partials = _voigt_far_partials(x_far, sigma_far, gamma_far)
        dx, dsigma, dgamma = (
            np.where(far, f, n) for f, n in zip(far_partials, (dx, dsigma, dgamma), strict=True)
        )
    return dx, dsigma, dgamma


# From |z| = 30 on, w(z) = i / (sqrt(pi) z) sum_k (2k - 1)!! / (2 z^2)^k (Im z >= 0, where
# exp(-z^2) is below 1e-390; each term at most 1/600 of the one before, so eight reach 1e-22).
# There w'(z) = 2i/sqrt(pi) - 2 z w(z) cancels to about 1/z^2 = 2 sigma^2 / (x + i gamma)^2,
# and sigma^2 underflows for sigma below 1e-154: the partials are written in u = x + i gamma,
# without sigma's powers (the Lorentzian's at sigma -> 0).
_FAR_Z = 30.0
_FAR_TERMS = 8


def _voigt_far_partials(x: Any, sigma: Any, gamma: Any) -> tuple[Any, Any, Any]:
    """The partials of ``voigt_profile`` from the asymptotic series of w (``|z| >= 30``).

    With u = x + i gamma and q = 1/z^2 = 2 sigma^2 / u^2, w'(z) / (2 sqrt(pi) sigma^2) is
    -(i / pi) S / u^2, S = sum (2k + 1)!! / 2^k q^k (the x and gamma partials); the sigma
    partial is Re(i / pi (S - T) / u) / sigma with T = sum (2k - 1)!! / 2^k q^k the series of w,
    and (S - T) / sigma = (2 sigma / u^2) sum (k + 1) (2k + 1)!! / 2^k q^k.
    """
    u = x + 1j * gamma
    inv_u2 = 1 / (u * u)
    q = 2 * sigma * sigma * inv_u2
    s, e = np.zeros_like(u), np.zeros_like(u)
    c, power = 1.0, np.ones_like(u)  # (2k + 1)!! / 2^k and q^k
    for k in range(_FAR_TERMS):
        s = s + c * power
        e = e + (k + 1) * c * power
        c *= (2 * k + 3) / 2
        power = power * q
    slope = -1j / np.pi * s * inv_u2
    difference = 2 * sigma * inv_u2 * e
    return np.real(slope), np.real(1j / np.pi * difference / u), -np.imag(slope)


parametric_rule(
    sc.voigt_profile,
    SharedPartial(_voigt_partials, 0),
    SharedPartial(_voigt_partials, 1),
    SharedPartial(_voigt_partials, 2),
)
