"""The hypergeometric functions with their derivatives in the parameters, as jets.

``hyp2f1_jet(a, b, c, z)``, ``hyp1f1_jet(a, b, x)`` and ``hyp0f1_jet(v, z)`` take their
parameters as ``Jet``\\s (``jets``) and return the function's value with its gradient and
Hessian in whatever those jets are derivatives in: the power series summed term by term on jets
is the series differentiated term by term.

* ``1F1`` and ``0F1`` are entire: their series converge everywhere. ``1F1`` is summed after
  Kummer's transformation ``M(a, b, x) = exp(x) M(b - a, b, -x)`` (DLMF 13.2.39) where
  ``Re x < 0``, so that on the real line its terms never alternate once ``n > -a``.
* ``2F1`` is summed where ``|z| <= 1/2`` (terms at most halving), after Pfaff's transformation
  ``F(a, b; c; z) = (1 - z)^(-a) F(a, c - b; c; z/(z - 1))`` (DLMF 15.8.1) where
  ``|1 - z| > 1`` (the negative real axis, down to -inf). Beyond, up to ``z = 1``, it is
  continued from ``z = 1/2`` by its differential equation (DLMF 15.10.1) written on jets and
  integrated in ``t = -log(1 - z)``, where the two solutions near ``z = 1`` are ``1`` and
  ``(1 - z)^(c - a - b) = exp((a + b - c) t)``: smooth exponentials, with no special case when
  ``c - a - b`` is an integer. The faster exponential is divided out, and SciPy's eighth-order
  Runge-Kutta method (DOP853) integrates at the relative tolerance 1e-11; measured against
  mpmath, values and derivatives reach about 1e-11. At ``z = 1`` itself, Gauss's sum
  ``gamma(c) gamma(c - a - b) / (gamma(c - a) gamma(c - b))`` where ``c > a + b``.

>>> from chainrules.rules.scipy.special.jets import Jet
>>> a = Jet.seed(1.0, 0, 1)
>>> y = hyp2f1_jet(a, Jet.constant(1.0, 1), Jet.constant(2.0, 1), 0.5)  # -log(1 - z)/z, d/da
>>> round(float(y.value), 12), round(float(y.gradient[0]), 12)
(1.38629436112, 0.480453013918)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jets import (
    Jet,
    as_array,
    as_jet,
    broadcast_jets,
    jet_power,
    jet_rgamma,
    jet_where,
    sum_series,
)

__all__ = ["hyp0f1_jet", "hyp1f1_jet", "hyp2f1_jet"]

# The ODE's tolerance (relative, and absolute on the scale of the starting values).
_RTOL = 1e-11
_ATOL = 1e-16
# 2F1's series is summed up to |z| = 1/2; the ODE starts there.
_SERIES_RADIUS = 0.5
# Right-hand sides the ODE may take (a few seconds) before its result is NaN: parameters so
# far apart (|c - a - b| in the hundreds) that steps become tiny.
_MAX_EVALUATIONS = 50000


class _Unresolved(Exception):
    """The ODE needs more steps than it may take."""


# ---- 2F1 ----------------------------------------------------------------------------------


def _hyp2f1_series(a: Jet, b: Jet, c: Jet, z: Any) -> Jet:
    one = Jet.constant(np.ones(z.shape, dtype=z.dtype), a.k, a.order)
    return sum_series(one, lambda n: (a + n) * (b + n) / ((c + n) * (n + 1)) * z)


def _flatten(j: Jet) -> Any:
    parts = [j.value[None], j.gradient]
    if j.hessian is not None:
        parts.append(j.hessian.reshape((-1, *j.value.shape)))
    return np.concatenate(parts)


def _unflatten(y: Any, k: int, order: int) -> Jet:
    hessian = y[1 + k :].reshape((k, k, *y.shape[1:])) if order == 2 else None
    return Jet(y[0], y[1 : 1 + k], hessian)


def _hyp2f1_continued(a: Jet, b: Jet, c: Jet, w: Any) -> Jet:
    """2F1 at ``|w| > 1/2`` from its values at ``w0 = 1/2`` by its differential equation in
    ``t = -log(1 - z)``: ``z F_tt + (c - (a + b) z) F_t - a b (1 - z) F = 0``.

    ``G = F exp(-lam (t - t0))``, ``lam = max(0, a + b - c)``, leaves the solutions ``exp(-lam
    t)`` and ``exp((a + b - c - lam) t)``, neither growing. The path is the straight line from
    ``t0 = log 2`` to ``-log(1 - w)`` (complex ``w``: inside the strip ``|Im t| < pi``, away
    from the cut ``z >= 1``).
    """
    k, order = a.k, a.order
    shape = w.shape
    half = np.full(shape, _SERIES_RADIUS, dtype=w.dtype)
    start = _hyp2f1_series(a, b, c, half)
    slope = _hyp2f1_series(a + 1, b + 1, c + 1, half) * (a * b / c) * (1 - _SERIES_RADIUS)
    lam = np.maximum(0.0, np.real(a.value + b.value - c.value))
    ab, apb = a * b, a + b
    t0 = -np.log1p(-_SERIES_RADIUS)
    span = -np.log1p(-w) - t0
    begin = np.stack([_flatten(start), _flatten(slope - start * lam)])
    finite = np.all(np.isfinite(begin), axis=(0, 1))
    begin = np.where(finite, begin, 0.0)
    count = begin.shape[1]

    from scipy.integrate import solve_ivp  # loaded when first needed (bessel_order._quad)

    evaluations = [0]

    def equation(tau: float, y: Any) -> Any:
        evaluations[0] += 1
        if evaluations[0] > _MAX_EVALUATIONS:
            raise _Unresolved
        y = y.reshape((2, count, *shape))
        g, dg = _unflatten(y[0], k, order), _unflatten(y[1], k, order)
        z = -np.expm1(-(t0 + tau * span))
        p = apb - c * (1 / z)
        q = ab * ((1 - z) / z)
        ddg = (p - 2 * lam) * dg + (p * lam + q - lam * lam) * g
        return (np.stack([_flatten(dg), _flatten(ddg)]) * span).ravel()

    scale = np.max(np.abs(begin), axis=(0, 1))
    atol = np.broadcast_to(_ATOL * np.where(scale > 0, scale, 1.0), begin.shape).ravel()
    try:
        solution = solve_ivp(
            equation, (0.0, 1.0), begin.ravel(), method="DOP853", rtol=_RTOL, atol=atol
        )
    except _Unresolved:
        return Jet.nan(shape, k, order)
    end = solution.y[:, -1].reshape(begin.shape)
    end = np.where(finite & (solution.status == 0), end, np.nan)
    return _unflatten(end[0], k, order) * np.exp(lam * span)


def _gauss_sum(a: Jet, b: Jet, c: Jet) -> Jet:
    """``F(a, b; c; 1) = gamma(c) gamma(c - a - b) / (gamma(c - a) gamma(c - b))`` (c > a + b)."""
    numerator = jet_rgamma(c) * jet_rgamma(c - a - b)
    return jet_rgamma(c - a) * jet_rgamma(c - b) / numerator


def hyp2f1_jet(a: Any, b: Any, c: Any, z: Any) -> Jet:
    """``2F1(a, b; c; z)`` with its derivatives in what the jets ``a``, ``b``, ``c`` hold.

    Real ``z`` up to 1 (NaN beyond, and at 1 unless ``c > a + b``), complex ``z`` off the cut
    ``[1, inf)``.
    """
    k, order = a.k, a.order
    a, b, c = (as_jet(p, k, order) for p in (a, b, c))
    a, b, c, z = broadcast_jets(a, b, c, z)
    z = as_array(z)
    at_one = z == 1
    # on the cut (real z > 1) and at z = 1, nothing is summed or integrated
    outside = at_one | (np.isreal(z) & (np.real(z) > 1)) | ~np.isfinite(z)
    z = np.where(outside, 0.0, z)
    # Pfaff's transformation keeps the smaller of a, b: F ~ (-z)^(-min(a, b)) at -inf.
    pfaff = np.abs(1 - z) > 1
    keep_a = a.value <= b.value
    a_in = jet_where(pfaff & ~keep_a, c - a, a)
    b_in = jet_where(pfaff & keep_a, c - b, b)
    kept = jet_where(keep_a, a, b)
    w = np.where(pfaff, z / np.where(pfaff, z - 1, -1.0), z)
    near = np.abs(w) <= _SERIES_RADIUS
    value = _hyp2f1_series(a_in, b_in, c, np.where(near, w, 0.0))
    if not np.all(near):
        far = _hyp2f1_continued(a_in, b_in, c, np.where(near, 0.75, w))
        value = jet_where(near, value, far)
    factor = jet_power(np.where(pfaff, 1 - z, 1.0), -kept)
    value = jet_where(pfaff, factor * value, value)
    if np.any(outside):
        convergent = at_one & ((c.value - a.value - b.value) > 0)
        # Gauss's sum where it converges, at parameters where it is finite elsewhere
        safe = [
            jet_where(convergent, p, Jet.constant(q, k, order))
            for p, q in ((a, 0.5), (b, 0.5), (c, 2.0))
        ]
        gauss = _gauss_sum(*safe)
        nan = Jet.nan(z.shape, k, order)
        value = jet_where(outside, jet_where(convergent, gauss, nan), value)
    return value


# ---- 1F1 and 0F1 ----------------------------------------------------------------------------


def hyp1f1_jet(a: Any, b: Any, x: Any) -> Jet:
    """``1F1(a; b; x)`` with its derivatives in what the jets ``a``, ``b`` hold."""
    k, order = a.k, a.order
    a, b = (as_jet(p, k, order) for p in (a, b))
    a, b, x = broadcast_jets(a, b, x)
    x = as_array(x)
    kummer = np.real(x) < 0
    a_in = jet_where(kummer, b - a, a)
    x_in = np.where(kummer, -x, x)
    one = Jet.constant(np.ones(x.shape, dtype=x.dtype), k, order)
    series = sum_series(one, lambda n: (a_in + n) / ((b + n) * (n + 1)) * x_in)
    return jet_where(kummer, series * np.exp(np.where(kummer, x, 0.0)), series)


def hyp0f1_jet(v: Jet, z: Any) -> Jet:
    """``0F1(; v; z)`` with its derivatives in what the jet ``v`` holds, by its series."""
    v, z = broadcast_jets(v, z)
    z = as_array(z)
    one = Jet.constant(np.ones(z.shape, dtype=z.dtype), v.k, v.order)
    return sum_series(one, lambda n: (v + n).reciprocal() * (z / (n + 1)))
