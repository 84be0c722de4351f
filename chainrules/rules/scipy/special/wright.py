"""Rules for Wright's generalized Bessel function ``wright_bessel`` and ``log_wright_bessel``.

``Phi(a, b, x) = sum_k x^k / (k! gamma(a k + b))`` (DLMF 10.46.1), for ``a, b, x >= 0``. In
``x``, ``Phi'(a, b, x) = Phi(a, a + b, x)``, and ``log Phi``'s derivative is the ratio. In ``a``
and ``b``, the series differentiated term by term: each term's ``1/gamma(a k + b)`` has the
derivatives ``-psi`` and ``psi^2 - psi'`` times ``(k, 1)`` in ``(a, b)`` (relative to itself;
at a pole of gamma, ``1`` and ``2 gamma_E``). Every term is positive, so nothing cancels; they
are summed around their largest, in logarithms (``x^k / k!`` overflows where ``1/gamma``
underflows), from ``k = 0`` until they fall below ``e^-40`` of it: about ``x^(1/(1+a))``
terms, which caps the arguments at ``x^(1/(1+a)) <= 1e6`` (NaN beyond).

The parameter derivatives are thunked, and ``wright_bessel_gradient`` and
``log_wright_bessel_gradient`` are functions with rules of their own (second derivatives from
the same series; in ``x``, the gradient at ``(a, a + b)``), so pullbacks differentiate again.
SciPy computes on NumPy arrays only.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> from chainrules.core.thunks import unthunk
>>> y, pullback = rrule(sc.wright_bessel, 0.0, 1.0, 1.0)  # exp(x) / gamma(b)
>>> round(float(unthunk(pullback(1.0)[2])), 12)  # -e psi(1) = e gamma_E
1.569034853004
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from .jets import Jet, broadcast_jets, compose, gradient_of, hessian_of, jet_log, parameter_jets
from .parameter_gradients import parameter_gradient_rules

__all__ = ["log_wright_bessel_gradient", "wright_bessel_gradient"]

_EULER = float(np.euler_gamma)
_BELOW_PEAK = 40.0
_MAX_TERMS = 10**6


def _log_terms(a: float, b: float, x: float, k: Any) -> Any:
    """``log(x^k / (k! gamma(a k + b)))`` for ``k`` where ``a k + b > 0`` (-inf at poles)."""
    arg = a * k + b
    pole = arg <= 0
    power = np.where(k == 0, 0.0, k * np.log(np.where(x > 0, x, 1.0)))
    power = np.where((k > 0) & (x == 0), -np.inf, power)
    return power - sc.gammaln(k + 1) - np.where(pole, np.inf, sc.gammaln(np.where(pole, 1, arg)))


def _count(a: float, b: float, x: float) -> int:
    """Terms enough that the last are below ``e^-40`` of the largest and falling."""
    count = 64
    while count <= _MAX_TERMS:
        k = np.arange(count, dtype=float)
        logs = _log_terms(a, b, x, k)
        logs = np.where(a * k + b <= 0, _log_terms(0.0, 1.0, x, k), logs)  # poles: derivatives
        if logs[-1] < np.max(logs) - _BELOW_PEAK and logs[-1] <= logs[-2]:
            return count
        count *= 4
    return 0


def _scaled_sum(a: float, b: float, x: float, second: bool) -> tuple[float, Any, Any, float]:
    """``(S, dS, d2S, M)`` with ``Phi = e^M S`` and the derivatives of ``S e^M`` in (a, b)
    divided by ``e^M``."""
    count = _count(a, b, x)
    if not count:
        return np.nan, np.full(2, np.nan), np.full((2, 2), np.nan), 0.0
    k = np.arange(count, dtype=float)
    logs = _log_terms(a, b, x, k)
    arg = a * k + b
    pole = arg <= 0  # then arg == 0: a k + b with a, b >= 0
    top = float(np.max(logs)) if np.any(np.isfinite(logs)) else 0.0
    scale = np.exp(logs - top)  # the terms over e^M; 0 at the poles
    safe = np.where(pole, 1.0, arg)
    psi = sc.digamma(safe)
    # at a pole, 1/gamma has derivative 1 and second derivative 2 gamma_E: x^k / k! times those
    pole_scale = np.exp(np.where(pole, _log_terms(0.0, 1.0, x, k) - top, -np.inf))
    first = np.where(pole, pole_scale, -psi * scale)
    curvature = np.where(pole, 2 * _EULER * pole_scale, (psi * psi - sc.polygamma(1, safe)) * scale)
    value = float(np.sum(scale))
    gradient = np.array([np.sum(first * k), np.sum(first)])
    hessian = np.full((2, 2), np.nan)
    if second:
        hessian = np.array(
            [
                [np.sum(curvature * k * k), np.sum(curvature * k)],
                [np.sum(curvature * k), np.sum(curvature)],
            ]
        )
    return value, gradient, hessian, top


def _wright(a: Any, b: Any, x: Any, order: int, log: bool) -> Jet:
    """``Phi(a, b, x)`` (or ``log Phi``) with its derivatives in ``a`` and ``b``, on jets."""
    a_jet, b_jet, xv = broadcast_jets(*parameter_jets(a, b, order=order), np.asarray(x))
    shape = xv.shape
    av, bv = a_jet.value, b_jet.value
    values, tops = np.full(shape, np.nan), np.zeros(shape)
    gradients, hessians = np.full((2, *shape), np.nan), np.full((2, 2, *shape), np.nan)
    for index in np.ndindex(shape):
        a_e, b_e, x_e = float(av[index]), float(bv[index]), float(xv[index])
        if a_e >= 0 and b_e >= 0 and x_e >= 0:
            s, g, h, top = _scaled_sum(a_e, b_e, x_e, order >= 2)
            values[index], tops[index] = s, top
            gradients[(slice(None), *index)] = g
            hessians[(slice(None), slice(None), *index)] = h
    scaled = compose(values, gradients, hessians if order >= 2 else None, [a_jet, b_jet])
    if log:
        return jet_log(scaled) + tops
    return scaled * np.exp(tops)


def wright_bessel_gradient(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``wright_bessel(a, b, x)`` in ``a`` and ``b``.

    >>> [round(float(d), 10) for d in wright_bessel_gradient(0.5, 1.0, 2.0)]  # mpmath.diff
    [-5.6987642763, -1.4741710191]
    """
    return gradient_of(_wright(a, b, x, 1, False))


def log_wright_bessel_gradient(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``log_wright_bessel(a, b, x)`` in ``a`` and ``b``."""
    return gradient_of(_wright(a, b, x, 1, True))


def _wright_slopes(a: Any, b: Any, x: Any) -> tuple:
    # d/dx Phi_p = d/dp Phi(a, a + b, x)
    ga, gb = call(wright_bessel_gradient, a, np.add(a, b), x)
    return ((ga + gb, gb),)


def _log_wright_slopes(a: Any, b: Any, x: Any) -> tuple:
    # d/dx L_p = d/dp exp(L(a, a + b, x) - L(a, b, x))
    shifted = np.add(a, b)
    ratio = np.exp(sc.log_wright_bessel(a, shifted, x) - sc.log_wright_bessel(a, b, x))
    ha, hb = call(log_wright_bessel_gradient, a, shifted, x)
    la, lb = call(log_wright_bessel_gradient, a, b, x)
    return ((ratio * (ha + hb - la), ratio * (hb - lb)),)


parameter_gradient_rules(
    sc.wright_bessel,
    wright_bessel_gradient,
    lambda a, b, x: hessian_of(_wright(a, b, x, 2, False)),
    _wright_slopes,
    lambda a, b, x, y: sc.wright_bessel(a, np.add(a, b), x),
)
parameter_gradient_rules(
    sc.log_wright_bessel,
    log_wright_bessel_gradient,
    lambda a, b, x: hessian_of(_wright(a, b, x, 2, True)),
    _log_wright_slopes,
    lambda a, b, x, y: np.exp(sc.log_wright_bessel(a, np.add(a, b), x) - y),
)
