"""Rules for Legendre functions: ``lpmv``, and ``legendre_p assoc_legendre_p sph_legendre_p``.

``lpmv`` is differentiated in ``x`` by DLMF 14.10.5, in the degree ``v`` on jets: ``2F1`` at
small degrees, the recurrence in the degree above (``lpmv_dv``, a function with rules); the
order ``m`` is an integer. ``legendre_p``,
``assoc_legendre_p``, ``sph_legendre_p`` stack the value and its ``diff_n`` derivatives: their
rows differentiate into the rows of ``diff_n + 1``, and at ``diff_n = 2`` the third derivative
is exact, as for the ``*_all`` functions (``harmonics``): ``P_n''' = 15 C_{n-3}^{(7/2)}``,
Legendre's equation differentiated once, the ladder relation in the order. These rules call
SciPy as ``call(f, ...)``, so pullbacks differentiate again.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.lpmv, 0, 1, 0.5)  # P_1(x) = x
>>> float(pullback(1.0)[3])
1.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from .harmonics import assoc_legendre_third, ladder_slope, legendre_third, stacked_rules
from .hypergeometric import hyp2f1_gradient
from .hypergeometric_jets import hyp2f1_jet
from .jets import (
    Jet,
    broadcast_jets,
    gradient_of,
    hessian_of,
    jet_rgamma,
    jet_where,
    parameter_jets,
)
from .parameter_gradients import parameter_derivative_rules

# Closer to +-1 than this, lpmv's derivative comes from its hypergeometric series.
_NEAR_ONE = 0.9

# ---- Legendre functions: lpmv, and legendre_p family with its diff_n keyword ----------------


def _lpmv_partial(m: Any, v: Any, x: Any, y: Any) -> Any:
    """DLMF 14.10.5: ``(1 - x^2) P' = (m + v) P^m_{v-1} - v x P``, away from ``x = +-1``.

    Near ``x = 1`` (and ``x = -1`` for integer degrees, by ``P_n(-x) = (-1)^n P_n(x)``) the
    quotient cancels, and at the points its limit is no derivative of the rest: for ``m = 0``
    the rule differentiates ``P_v(x) = 2F1(-v, v + 1; 1; (1 - x)/2)`` (DLMF 14.3.1) instead,
    ``P_v' = v (v + 1)/2 2F1(1 - v, v + 2; 2; (1 - x)/2)``, which an engine differentiates again.
    """
    order_zero = np.equal(m, 0)
    integer = np.equal(v, np.floor(v))
    right = np.logical_and(order_zero, x > _NEAR_ONE)
    left = np.logical_and(np.logical_and(order_zero, integer), x < -_NEAR_ONE)
    near = np.logical_or(right, left)
    t = np.where(right, x, np.where(left, -x, 1.0))
    series = v * np.add(v, 1) / 2 * sc.hyp2f1(np.subtract(1, v), np.add(v, 2), 2.0, (1 - t) / 2)
    parity = np.where(np.remainder(np.where(integer, v, 0), 2) == 0, -1.0, 1.0)
    series = np.where(left, parity * series, series)
    edge = np.abs(x) == 1
    safe = np.where(near, 0.0, np.where(edge, 0.0, x))
    lower = sc.lpmv(m, np.subtract(v, 1), safe)
    inner = (np.add(m, v) * lower - v * safe * np.where(near, 0.0, y)) / (1 - safe * safe)
    end = np.where(
        order_zero, np.where(edge, x, 1.0) ** np.add(v, 1) * v * np.add(v, 1) / 2, np.nan
    )
    return np.where(near, series, np.where(edge, end, inner))


# ---- lpmv in its degree ----------------------------------------------------------------------

# Degrees up to this are summed as 2F1 directly; above, the recurrence in the degree from there.
_DIRECT_DEGREES = 3


def _lpmv_direct(m: Any, v: Jet, x: Any) -> Jet:
    """P_v^m(x) = (1 - x^2)^(m/2) 2^-m (-v)_m (v+1)_m / m! 2F1(m - v, m + v + 1; m + 1; (1-x)/2)
    for m >= 0 (DLMF 14.3.1 differentiated m times, Condon-Shortley phase as SciPy's)."""
    top = int(np.max(m, initial=0))
    pochhammer = Jet.constant(np.ones(x.shape), v.k, v.order)
    for j in range(top):
        factor = (j - v) * (v + (j + 1)) / (2.0 * (j + 1))
        pochhammer = jet_where(j < m, pochhammer * factor, pochhammer)
    series = hyp2f1_jet(m - v, m + v + 1, Jet.constant(m + 1.0, v.k, v.order), (1 - x) / 2)
    return pochhammer * series * np.power(1 - x * x, m / 2)


def _lpmv_order(m: Any, v: Any, x: Any, order: int) -> Jet:
    """P_v^m(x) with its derivatives in v, for integer m and -1 < x <= 1."""
    (nu,) = parameter_jets(v, order=order)
    nu, m, x = broadcast_jets(nu, np.asarray(m, dtype=float), np.asarray(x, dtype=float))
    # P_v = P_(-v-1) (DLMF 14.9.5), and P_v^(-m) = (-1)^m gamma(v-m+1)/gamma(v+m+1) P_v^m (14.9.3)
    nu = jet_where(nu.value < -0.5, -nu - 1, nu)
    order_m = np.abs(m)
    inside = (np.abs(x) <= 1) & (x != -1) & (m == np.floor(m))
    x_in = np.where(inside, x, 0.0)
    # from the degrees base, base + 1 (at least m + 1, so that the recurrence never divides
    # by 0) up to v: (mu - m + 1) P_(mu+1) = (2 mu + 1) x P_mu - (mu + m) P_(mu-1) (14.10.3)
    steps = np.maximum(0.0, np.floor(nu.value - order_m - _DIRECT_DEGREES))
    base = nu - (steps + 1)
    lower = _lpmv_direct(order_m, base, x_in)
    upper = _lpmv_direct(order_m, base + 1, x_in)
    for j in range(1, int(np.max(steps, initial=0)) + 1):
        mu = base + (j + 1)
        higher = ((2 * mu - 1) * x_in * upper - (mu - 1 + order_m) * lower) / (mu - order_m)
        moving = j <= steps
        lower, upper = jet_where(moving, upper, lower), jet_where(moving, higher, upper)
    value = upper
    negative = m < 0
    if np.any(negative):
        sign = np.where(np.remainder(order_m, 2) == 0, 1.0, -1.0)
        ratio = jet_rgamma(nu + order_m + 1) / jet_rgamma(nu - order_m + 1) * sign
        value = jet_where(negative, value * ratio, value)
    return jet_where(inside, value, Jet.nan(x.shape, 1, order))


def lpmv_dv(m: Any, v: Any, x: Any) -> Any:
    """The derivative of ``lpmv(m, v, x)`` in the degree ``v``, for ``-1 < x <= 1``.

    >>> round(float(lpmv_dv(0, 0.5, 0.3)), 10)  # mpmath.diff
    -0.7355842139
    """
    return gradient_of(_lpmv_order(m, v, x, 1))[0]


def _lpmv_dv_dx(m: Any, v: Any, x: Any, y: Any) -> Any:
    """d/dv of ``(1 - x^2) P' = (m + v) P^m_(v-1) - v x P`` (DLMF 14.10.5); for ``m = 0`` near
    ``x = 1``, where that cancels, d/dv of ``P_v' = v (v + 1)/2 2F1(1 - v, v + 2; 2; (1-x)/2)``
    as in ``_lpmv_partial``."""
    near = np.logical_and(np.equal(m, 0), x > _NEAR_ONE)
    far = np.where(near, 0.0, x)
    lower = np.subtract(v, 1)
    d_lower = call(lpmv_dv, m, lower, far)
    numerator = sc.lpmv(m, lower, far) + np.add(m, v) * d_lower
    numerator = numerator - far * sc.lpmv(m, v, far) - v * far * np.where(near, 0.0, y)
    w = (1 - np.where(near, x, 1.0)) / 2
    a, b = np.subtract(1, v), np.add(v, 2)
    da, db, _ = call(hyp2f1_gradient, a, b, 2.0, w)
    scale = v * np.add(v, 1) / 2
    series = (v + 0.5) * sc.hyp2f1(a, b, 2.0, w) + scale * (db - da)
    return np.where(near, series, numerator / (1 - far * far))


parameter_derivative_rules(
    sc.lpmv,
    lpmv_dv,
    lambda m, v, x: hessian_of(_lpmv_order(m, v, x, 2))[0],
    _lpmv_dv_dx,
    None,
    _lpmv_partial,
    position=1,
)


def _legendre_p_third(args: tuple, options: dict, out: Any) -> Any:
    n, z = args
    return legendre_third(z, np.asarray(n))


def _assoc_legendre_p_third(args: tuple, options: dict, out: Any) -> Any:
    n, m, z = args
    return assoc_legendre_third(z, np.asarray(n), np.asarray(m), out, options.get("norm", False))


def _sph_legendre_p_third(args: tuple, options: dict, out: Any) -> Any:
    n, m, theta = args
    up, down = (call(sc.sph_legendre_p, n, np.add(m, k), theta, diff_n=2)[2] for k in (1, -1))
    return ladder_slope(n, m, up, down)


stacked_rules(sc.legendre_p, 1, _legendre_p_third)
stacked_rules(sc.assoc_legendre_p, 1, _assoc_legendre_p_third, ("branch_cut", "norm"))
stacked_rules(sc.sph_legendre_p, 1, _sph_legendre_p_third)
