"""Rules for the parabolic cylinder functions ``pbdv pbvv pbwa``: value and derivative.

Each returns ``(w, w')``; ``w'' = (x^2/4 - v - 1/2) w`` (``a - x^2/4`` for ``pbwa``, DLMF
12.2.2, 12.14.1), which gives the derivative in ``x``. In the order, on jets (``jets``):

* ``pbdv(v, x) = D_v(x) = U(-v - 1/2, x)``: for ``v < 0`` the integral (DLMF 12.5.1)
  ``U(a, x) = exp(-x^2/4) / gamma(a + 1/2) int_0^inf t^(a-1/2) exp(-t^2/2 - x t) dt``, whose
  derivatives in ``a`` are the mean and variance of ``log t`` under its integrand
  (``moments``, adaptive quadrature at 1e-12); for ``v >= 0``, from the two orders below 0 with
  the same fraction, the recurrence ``D_(v+1) = x D_v - v D_(v-1)`` (DLMF 12.8.1) upwards,
  where ``D`` grows;
* ``pbvv(v, x) = V(-v - 1/2, x)`` and ``pbwa(a, x) = W(a, x)``: the even and odd power series
  solutions of Weber's equation (coefficients by its recurrence, DLMF 12.4, 12.14.4) times the
  values and slopes at 0 (DLMF 12.2.8, 12.2.9, 12.14.3), whose derivatives in the order come
  from gamma functions (complex ones for ``W``).

The order derivatives are thunked, and functions with rules of their own (``pbdv_dv``, ...),
so they differentiate again: in the order, the second derivative from the same jets; in ``x``,
from Weber's equation differentiated in the order.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> (w, wp), pullback = rrule(sc.pbdv, 0.0, 1.0)
>>> bool(pullback((1.0, 0.0))[2] == wp)
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.define import fit_to_output
from ....core.names import short_name
from ....core.namespace import is_numpy
from ....core.parametric import numpy_only
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.structure import is_differentiable_leaf
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import Thunk, unthunk
from ....core.zeros import is_zero, vanishes
from .jets import (
    Jet,
    broadcast_jets,
    jet_exp,
    jet_power,
    jet_rgamma,
    jet_where,
    parameter_jets,
)
from .moments import moments

__all__ = ["pbdv_dv", "pbvv_dv", "pbwa_da", "weber_order_jets"]

# ---- D_v: the integral below order 0, the recurrence above ------------------------------------

_GRID = np.linspace(-30.0, 10.0, 401)


def _log_u(a: float, x: float, second: bool) -> tuple[float, float, float]:
    """log U(a, x) for a > -1/2 with its two derivatives in a (in u = log t)."""
    s = a + 0.5

    def phi(u: Any) -> Any:
        with np.errstate(over="ignore"):  # exp(2u) far out, where the integrand is exp(-inf)
            t = np.exp(u)
            return s * u - t * (t / 2 + x)

    peak = float(np.log((-x + np.sqrt(x * x + 4 * s)) / 2))
    top = phi(peak)
    weight = lambda u: np.exp(phi(u) - top)
    total, means, covariances = moments(
        weight, (lambda u: u,), ((-np.inf, peak), (peak, np.inf)), second
    )
    log_u = top + np.log(total) - x * x / 4 - sc.gammaln(s)
    first = means[0] - sc.digamma(s)
    return log_u, first, covariances[0] - sc.polygamma(1, s) if second else np.nan


def _d_below_zero(nu: Jet, x: Any) -> Jet:
    """D_nu(x) for nu < 0 (elsewhere NaN), on jets, from the integral of U(-nu - 1/2, x)."""
    second = nu.order >= 2
    found = np.full((3, *x.shape), np.nan)
    for index in np.ndindex(x.shape):
        v = float(nu.value[index])
        if v < 0 and np.isfinite(x[index]):
            found[(slice(None), *index)] = _log_u(-v - 0.5, float(x[index]), second)
    # a = -nu - 1/2: the derivatives in nu are those in a with the signs of odd orders turned
    return jet_exp(nu.chain(found[0], -found[1], found[2]))


def _pbdv_jets(nu: Jet, x: Any) -> tuple[Jet, Jet, Jet]:
    """(D_nu, D_(nu-1), D_nu') on jets: the integral below 0, the recurrence above."""
    nu, x = broadcast_jets(nu, x)
    steps = np.where(nu.value >= 0, np.floor(nu.value) + 1, 0.0)
    base = nu - steps
    below = _d_below_zero(base - 1, x)
    value = _d_below_zero(base, x)
    for j in range(int(np.max(steps, initial=0))):
        order = base + j  # D_(order+1) = x D_order - order D_(order-1)
        higher = value * x - order * below
        moving = j < steps
        below, value = jet_where(moving, value, below), jet_where(moving, higher, value)
    return value, below, nu * below - value * (x / 2)


# ---- V and W: power series times their values at 0 ---------------------------------------------


def _weber_series(c: Jet, x: Any, start: Jet, slope: Jet, sign: float = 1.0) -> tuple[Jet, Jet]:
    """The solution of ``w'' = (sign x^2/4 + c) w`` with ``w(0) = start``, ``w'(0) = slope``,
    and its derivative, summed on jets: ``(k+1)(k+2) a_(k+2) = c a_k + sign a_(k-2)/4``."""
    terms = int(60 + 2 * np.max(np.abs(x), initial=0.0) ** 2)
    zero = start * 0.0
    value, derivative = start + slope * x, slope
    # a_(k-2), a_(k-1), a_k, a_(k+1), from k = 0
    window = [zero, zero, start, slope]
    power = x  # x^(k+1)
    for k in range(terms):
        new = (c * window[2] + window[0] * (sign / 4)) * (1 / ((k + 1) * (k + 2)))  # a_(k+2)
        derivative = derivative + new * ((k + 2) * power)
        power = power * x
        value = value + new * power
        window = [window[1], window[2], window[3], new]
    return value, derivative


def _complex_trigamma(z: Any) -> Any:
    """psi'(z) for complex z off the poles: recurrence up to Re z >= 12, then the asymptotic
    series (DLMF 5.15.8); 1e-16 relative."""
    z = np.asarray(z, dtype=complex)
    total = np.zeros_like(z)
    while np.any(np.real(z) < 12):
        low = np.real(z) < 12
        total = total + np.where(low, 1 / (z * z), 0)
        z = np.where(low, z + 1, z)
    inverse = 1 / z
    square = inverse * inverse
    bernoulli = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)
    series = np.zeros_like(z)
    power = inverse * square
    for b in bernoulli:
        series = series + b * power
        power = power * square
    return total + inverse + square / 2 + series


def _log_abs_gamma(shift: float, a: Jet) -> Jet:
    """``log |gamma(shift + i a/2)|`` on a jet in real ``a``."""
    z = shift + 0.5j * a.value
    first = -np.imag(sc.digamma(z)) / 2
    second = -np.real(_complex_trigamma(z)) / 4
    return a.chain(np.real(sc.loggamma(z)), first, second)


def _sin_pi(a: Jet) -> Jet:
    angle = np.pi * a.value
    return a.chain(np.sin(angle), np.pi * np.cos(angle), -np.pi * np.pi * np.sin(angle))


def _pbvv_jets(nu: Jet, x: Any) -> tuple[Jet, Jet]:
    """V(a, x) and V'(a, x) at a = -nu - 1/2 (DLMF 12.2.8, 12.2.9 at x = 0)."""
    a = -nu - 0.5
    a, x = broadcast_jets(a, x)
    start = jet_power(2.0, a * 0.5 + 0.25) * _sin_pi(0.75 - a * 0.5) * jet_rgamma(0.75 - a * 0.5)
    slope = jet_power(2.0, a * 0.5 + 0.75) * _sin_pi(0.25 - a * 0.5) * jet_rgamma(0.25 - a * 0.5)
    return _weber_series(a, x, start, slope)


def _pbwa_jets(a: Jet, x: Any) -> tuple[Jet, Jet]:
    """W(a, x) and W'(a, x), ``W'' = (a - x^2/4) W`` (DLMF 12.14.3 at x = 0, where log W(a, 0)
    = -3/4 log 2 + (log |gamma(1/4 + ia/2)| - log |gamma(3/4 + ia/2)|)/2)."""
    a, x = broadcast_jets(a, x)
    half = (_log_abs_gamma(0.25, a) - _log_abs_gamma(0.75, a)) * 0.5
    start = jet_exp(half - 0.75 * np.log(2.0))
    slope = -jet_exp(-half - 0.25 * np.log(2.0))
    return _weber_series(a, x, start, slope, -1.0)


def _pbdv_pair(nu: Jet, x: Any) -> tuple[Jet, Jet]:
    value, _, slope = _pbdv_jets(nu, x)
    return value, slope


_KERNELS: dict[Any, Callable[[Jet, Any], tuple[Jet, Jet]]] = {
    sc.pbdv: _pbdv_pair,
    sc.pbvv: _pbvv_jets,
    sc.pbwa: _pbwa_jets,
}


def weber_order_jets(f: Any, v: Any, x: Any, order: int) -> tuple[Jet, Jet]:
    """``(w, w')`` of ``f`` (pbdv, pbvv, pbwa) on jets in the order ``v`` (``a``), real ``x``;
    NaN beyond ``|a|, |x| <= 5`` for ``pbwa``, where SciPy's values are NaN too."""
    (nu,) = parameter_jets(v, order=order)
    nu, x = broadcast_jets(nu, np.asarray(x, dtype=float))
    inside = np.isfinite(x)
    if f is sc.pbwa:
        inside &= (np.abs(nu.value) <= 5) & (np.abs(x) <= 5)
    w, wp = _KERNELS[f](nu, np.where(inside, x, 0.0))
    nan = Jet.nan(x.shape, 1, order)
    return jet_where(inside, w, nan), jet_where(inside, wp, nan)


def _order_derivative(f: Any) -> Callable[..., Any]:
    def order_derivative(v: Any, x: Any) -> tuple[Any, Any]:
        w, wp = weber_order_jets(f, v, x, 1)
        return _first(w), _first(wp)

    order_derivative.__name__ = order_derivative.__qualname__ = f"{short_name(f)}_dv"
    order_derivative.__doc__ = (
        f"The derivatives of both outputs of ``{short_name(f)}(v, x)`` in its order."
    )
    return order_derivative


def _first(j: Jet) -> Any:
    d = j.gradient[0]
    return d[()] if d.ndim == 0 else d


def _second(j: Jet) -> Any:
    assert j.hessian is not None  # a jet of second order
    d = j.hessian[0, 0]
    return d[()] if d.ndim == 0 else d


pbdv_dv = _order_derivative(sc.pbdv)
pbvv_dv = _order_derivative(sc.pbvv)
pbwa_da = _order_derivative(sc.pbwa)

# ---- the rules ----------------------------------------------------------------------------------


def _pair(total: Any, first: Any, second: Any, dw: Any, dwp: Any) -> Any:
    """``first dw + second dwp`` added to ``total``, skipping zero cotangents."""
    if not is_zero(dw):
        total = total + first * dw
    if not is_zero(dwp):
        total = total + second * dwp
    return total


def _weber_rules(f: Any, coefficient: Any, sign: float, derivative: Any) -> None:
    """Rules for ``f(v, x) = (w, w')``, where ``w'' = coefficient(v, x) w`` (Weber's equation,
    ``d coefficient / dv = sign``), and for ``derivative(v, x) = (dw/dv, dw'/dv)``."""
    name = short_name(f)

    def order_cotangent(v: Any, x: Any, dw: Any, dwp: Any, project: Any) -> Any:
        dv, dvp = call(derivative, v, x)
        return project(_pair(ZERO_TANGENT, dv, dvp, dw, dwp))

    def weber_rrule(v: Any, x: Any) -> tuple[Any, Any]:
        y = f(v, x)
        project, project_v = ProjectTo(x), ProjectTo(v)
        v_active = is_differentiable_leaf(v)

        def weber_pullback(dy: Any) -> tuple[Any, Any, Any]:
            dw, dwp = (unthunk(d) for d in dy)
            total = _pair(ZERO_TANGENT, y[1], coefficient(v, x) * y[0], dw, dwp)
            order: Any = NO_TANGENT
            if v_active:
                order = Thunk(functools.partial(order_cotangent, v, x, dw, dwp, project_v))
            return NO_TANGENT, order, project(total)

        return y, weber_pullback

    def weber_frule(tangents: tuple, v: Any, x: Any) -> tuple[Any, Any]:
        y = f(v, x)
        dv, dx = tangents[1:3]
        out_w: Any = ZERO_TANGENT
        out_wp: Any = ZERO_TANGENT
        if is_differentiable_leaf(v) and not vanishes(dv):
            order, order_p = call(derivative, v, x)
            out_w, out_wp = order * dv, order_p * dv
        if not is_zero(dx):
            out_w, out_wp = out_w + y[1] * dx, out_wp + coefficient(v, x) * y[0] * dx
        return y, Tangent(tuple, fit_to_output(out_w, y[0]), fit_to_output(out_wp, y[1]))

    rrule.register(f)(weber_rrule)
    frule.register(f)(weber_frule)
    _derivative_rules(f, derivative, coefficient, sign, name)


def _derivative_rules(f: Any, derivative: Any, coefficient: Any, sign: float, name: str) -> None:
    """The rules of ``derivative(v, x) = (p, q)``: in ``v`` the second derivatives (NumPy
    values), in ``x`` ``p' = q`` and ``q' = sign w + coefficient p`` (Weber's equation
    differentiated in the order)."""
    label = f"{name}_dv"

    def second(v: Any, x: Any, dp: Any, dq: Any, project: Any) -> Any:
        if not is_numpy(v, x, *(t for t in (dp, dq) if not is_zero(t))):
            return numpy_only(label, 0)
        w, wp = weber_order_jets(f, v, x, 2)
        return project(_pair(ZERO_TANGENT, _second(w), _second(wp), dp, dq))

    def slopes(v: Any, x: Any, p: Any) -> tuple[Any, Any]:
        return sign * f(v, x)[0] + coefficient(v, x) * p

    def derivative_rrule(v: Any, x: Any) -> tuple[Any, Any]:
        y = call(derivative, v, x)
        project_v, project_x = ProjectTo(v), ProjectTo(x)
        v_active, x_active = is_differentiable_leaf(v), is_differentiable_leaf(x)

        def derivative_pullback(dy: Any) -> tuple[Any, Any, Any]:
            dp, dq = (unthunk(d) for d in dy)
            dv: Any = NO_TANGENT
            if v_active:
                dv = Thunk(functools.partial(second, v, x, dp, dq, project_v))
            dx: Any = NO_TANGENT
            if x_active:
                dx = project_x(_pair(ZERO_TANGENT, y[1], slopes(v, x, y[0]), dp, dq))
            return NO_TANGENT, dv, dx

        return y, derivative_pullback

    def derivative_frule(tangents: tuple, v: Any, x: Any) -> tuple[Any, Any]:
        y = call(derivative, v, x)
        dv, dx = tangents[1:3]
        out_p: Any = ZERO_TANGENT
        out_q: Any = ZERO_TANGENT
        if is_differentiable_leaf(v) and not vanishes(dv):
            if not is_numpy(v, x, dv):
                return y, numpy_only(label, 0)
            w, wp = weber_order_jets(f, v, x, 2)
            out_p, out_q = _second(w) * dv, _second(wp) * dv
        if is_differentiable_leaf(x) and not is_zero(dx):
            out_p, out_q = out_p + y[1] * dx, out_q + slopes(v, x, y[0]) * dx
        return y, Tangent(tuple, fit_to_output(out_p, y[0]), fit_to_output(out_q, y[1]))

    rrule.register(derivative)(derivative_rrule)
    frule.register(derivative)(derivative_frule)


_weber_rules(sc.pbdv, lambda v, x: x * x / 4 - v - 0.5, -1.0, pbdv_dv)
_weber_rules(sc.pbvv, lambda v, x: x * x / 4 - v - 0.5, -1.0, pbvv_dv)
_weber_rules(sc.pbwa, lambda a, x: a - x * x / 4, 1.0, pbwa_da)
