"""Rules for integrals of Bessel functions, Kelvin, parabolic cylinder and Legendre functions.

* The integrals ``itj0y0 it2j0y0 iti0k0 it2i0k0 itstruve0 it2struve0 itmodstruve0 itairy``
  have their integrands as derivatives, e.g. ``itj0y0(x) = (int_0^x J0, int_0^x Y0)`` has
  ``(j0(x), y0(x))``; the integrands ``(1 - J0(t))/t``, ``(I0(t) - 1)/t``, ``H0(t)/t`` take
  their limits 0, 0, ``2/pi`` at 0.
* ``modfresnelp(x) = (fp, kp)`` with ``fp = int_x^inf exp(i t^2) dt`` and
  ``kp = exp(-i (x^2 + pi/4)) fp / sqrt(pi)``: ``fp' = -exp(i x^2)``,
  ``kp' = -2 i x kp - exp(-i pi/4) / sqrt(pi)``; ``modfresnelm`` likewise with ``-i``. The
  argument is real and the outputs complex: the cotangent is the real part of
  ``conj(d) * dy``. (SciPy's values follow this definition for ``x >= 0``.)
* Kelvin functions: ``ber' = berp`` and so on; ``w = ber + i bei`` (and ``ker + i kei``)
  solves ``w'' = i w - w'/x`` (DLMF 10.61, order 0), which gives the derivatives of
  ``berp beip kerp keip`` and of ``kelvin(x) = (Be, Ke, Bep, Kep)``; at ``x = 0`` the
  limits ``ber''(0) = 0``, ``bei''(0) = 1/2``.
* ``pbdv pbvv pbwa`` return ``(w, w')``; ``w'' = (x^2/4 - v - 1/2) w`` (``a - x^2/4`` for
  ``pbwa``, DLMF 12.2.2, 12.14.1). ``riccati_jn riccati_yn lmbda`` return ``(w, w')`` over a
  sequence of orders at one scalar ``x``, with ``w'' = (k (k+1)/x^2 - 1) w`` and
  ``x w'' + (2v + 1) w' + x w = 0``.
* ``hyperu'(x) = -a U(a+1, b+1, x)`` (DLMF 13.3.22), ``wright_bessel'(x) = Phi(a, a+b, x)``,
  ``besselpoly`` in ``a`` from ``2 J_v' = J_{v-1} - J_{v+1}``, ``diric`` (0 at its extrema
  ``+-1``), ``tklmbda`` (the density ``1/Q'(F)`` of the quantile ``Q``, and the shape by
  implicit differentiation of ``Q(F) = x``), ``lpmv`` (DLMF 14.10.5).
* ``legendre_p``, ``assoc_legendre_p``, ``sph_legendre_p`` stack the value and its ``diff_n``
  derivatives: their rows differentiate into the rows of ``diff_n + 1``, and at ``diff_n = 2``
  the third derivative is exact, as for the ``*_all`` functions (``harmonics``):
  ``P_n''' = 15 C_{n-3}^{(7/2)}``, Legendre's equation differentiated once, the ladder
  relation in the order. These rules call SciPy as ``call(f, ...)``, so pullbacks
  differentiate again.

Derivatives in orders, degrees and shape parameters without closed form are
``NotImplementedTangent``; integer ones have no tangent. Elementwise derivatives are written
through functions that have rules, so pullbacks differentiate again. ``scipy.special``
computes on NumPy arrays only.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.itj0y0, 1.0)
>>> bool(pullback((1.0, 0.0))[1] == sc.j0(1.0))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ...core.calls import call
from ...core.define import fit_to_output, scalar_rule
from ...core.names import short_name
from ...core.namespace import array_namespace
from ...core.parametric import parametric_rule
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.structure import is_differentiable_leaf
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent, not_implemented
from ...core.thunks import unthunk
from ...core.zeros import vanishes
from .harmonics import assoc_legendre_third, ladder_slope, legendre_third, stacked_rules

__all__: list[str] = []

_ROOT_PI = np.sqrt(np.pi)
_NO_FORMULA = "no closed form, not implemented"


def _over_x(x: Any, numerator: Any, at_zero: Any) -> Any:
    """``numerator / x``, with the value ``at_zero`` (its limit) where ``x`` is 0."""
    zero = x == 0
    return np.where(zero, at_zero, numerator / np.where(zero, 1, x))


# ---- integrals of Bessel, Struve and Airy functions -----------------------------------------

scalar_rule(sc.itj0y0, (lambda x, y: sc.j0(x),), (lambda x, y: sc.y0(x),))
scalar_rule(
    sc.it2j0y0,
    (lambda x, y: _over_x(x, 1 - sc.j0(x), 0.0),),
    (lambda x, y: -sc.y0(x) / x,),
)
scalar_rule(sc.iti0k0, (lambda x, y: sc.i0(x),), (lambda x, y: sc.k0(x),))
scalar_rule(
    sc.it2i0k0,
    (lambda x, y: _over_x(x, sc.i0(x) - 1, 0.0),),
    (lambda x, y: -sc.k0(x) / x,),
)
scalar_rule(sc.itstruve0, lambda x, y: sc.struve(0, x))
scalar_rule(sc.it2struve0, lambda x, y: -_over_x(x, sc.struve(0, x), 2 / np.pi))
scalar_rule(sc.itmodstruve0, lambda x, y: sc.modstruve(0, x))
scalar_rule(
    sc.itairy,
    (lambda x, y: sc.airy(x)[0],),
    (lambda x, y: sc.airy(x)[2],),
    (lambda x, y: sc.airy(-x)[0],),
    (lambda x, y: sc.airy(-x)[2],),
)

# ---- modified Fresnel integrals -------------------------------------------------------------

scalar_rule(
    sc.modfresnelp,
    (lambda x, y: -np.exp(1j * x * x),),
    (lambda x, y: -2j * x * y[1] - np.exp(-0.25j * np.pi) / _ROOT_PI,),
)
scalar_rule(
    sc.modfresnelm,
    (lambda x, y: -np.exp(-1j * x * x),),
    (lambda x, y: 2j * x * y[1] - np.exp(0.25j * np.pi) / _ROOT_PI,),
)

# ---- Kelvin functions -----------------------------------------------------------------------

scalar_rule(sc.ber, lambda x, y: sc.berp(x))
scalar_rule(sc.bei, lambda x, y: sc.beip(x))
scalar_rule(sc.ker, lambda x, y: sc.kerp(x))
scalar_rule(sc.kei, lambda x, y: sc.keip(x))
scalar_rule(sc.berp, lambda x, y: -_over_x(x, y, 0.0) - sc.bei(x))
scalar_rule(sc.beip, lambda x, y: -_over_x(x, y, 0.5) + sc.ber(x))
scalar_rule(sc.kerp, lambda x, y: -y / x - sc.kei(x))
scalar_rule(sc.keip, lambda x, y: -y / x + sc.ker(x))
scalar_rule(
    sc.kelvin,
    (lambda x, y: y[2],),
    (lambda x, y: y[3],),
    (lambda x, y: 1j * y[0] - _over_x(x, y[2], 0.5j),),
    (lambda x, y: 1j * y[1] - y[3] / x,),
)

# ---- parabolic cylinder functions: value and derivative ---------------------------------------


def _weber_rules(f: Any, coefficient: Any) -> None:
    """Rules for ``f(v, x) = (w, w')``, where ``w'' = coefficient(v, x) w`` (Weber's equation).

    The derivative in the order ``v`` has no closed form: ``NotImplementedTangent``.
    """
    name = short_name(f)
    reason = f"derivative of {name} in its order: no closed form, not implemented"

    def weber_rrule(v: Any, x: Any) -> tuple[Any, Any]:
        y = f(v, x)
        project = ProjectTo(x)
        order = not_implemented(reason) if is_differentiable_leaf(v) else NO_TANGENT

        def weber_pullback(dy: Any) -> tuple[Any, Any, Any]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                zero_order = NO_TANGENT if order is NO_TANGENT else ZERO_TANGENT
                return NO_TANGENT, zero_order, project(dy)
            dw, dwp = (unthunk(d) for d in dy)
            total: Any = ZERO_TANGENT
            if not isinstance(dw, AbstractZero):
                total = total + y[1] * dw
            if not isinstance(dwp, AbstractZero):
                total = total + coefficient(v, x) * y[0] * dwp
            return NO_TANGENT, order, project(total)

        return y, weber_pullback

    def weber_frule(tangents: tuple, v: Any, x: Any) -> tuple[Any, Any]:
        y = f(v, x)
        dv, dx = (unthunk(t) for t in tangents[1:3])
        if is_differentiable_leaf(v) and dv is not None and not vanishes(dv):
            return y, not_implemented(reason)
        if isinstance(dx, AbstractZero):
            return y, Tangent(tuple, ZERO_TANGENT, ZERO_TANGENT)
        dw = fit_to_output(y[1] * dx, y[0])
        dwp = fit_to_output(coefficient(v, x) * y[0] * dx, y[1])
        return y, Tangent(tuple, dw, dwp)

    weber_rrule.__qualname__ = f"rrule[{name}]"
    weber_frule.__qualname__ = f"frule[{name}]"
    rrule.register(f)(weber_rrule)
    frule.register(f)(weber_frule)


_weber_rules(sc.pbdv, lambda v, x: x * x / 4 - v - 0.5)
_weber_rules(sc.pbvv, lambda v, x: x * x / 4 - v - 0.5)
_weber_rules(sc.pbwa, lambda a, x: a - x * x / 4)

# ---- sequences of orders: riccati_jn, riccati_yn, lmbda ---------------------------------------


def _sequence_rules(f: Any, orders: Any, curvature: Any, order_reason: str | None) -> None:
    """Rules for ``f(v, x) = (w, w')``, both over a sequence of orders, at one real ``x``.

    ``orders(v, w)`` gives the sequence of orders; ``curvature(k, x, w, wp)`` is ``w''``.
    ``order_reason`` is the reason of the ``NotImplementedTangent`` in a real ``v`` (None:
    integer orders, no tangent).
    """
    name = short_name(f)

    def order_tangent(v: Any) -> Any:
        if order_reason is None or not is_differentiable_leaf(v):
            return NO_TANGENT
        return not_implemented(order_reason)

    def sequence_rrule(v: Any, x: Any) -> tuple[Any, Any]:
        y = f(v, x)
        project = ProjectTo(x)
        order = order_tangent(v)

        def sequence_pullback(dy: Any) -> tuple[Any, Any, Any]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                zero_order = NO_TANGENT if order is NO_TANGENT else ZERO_TANGENT
                return NO_TANGENT, zero_order, ZERO_TANGENT
            dw, dwp = (unthunk(d) for d in dy)
            total: Any = ZERO_TANGENT
            if not isinstance(dw, AbstractZero):
                total = total + np.sum(y[1] * dw)
            if not isinstance(dwp, AbstractZero):
                total = total + np.sum(curvature(orders(v, y[0]), x, *y) * dwp)
            return NO_TANGENT, order, project(total)

        return y, sequence_pullback

    def sequence_frule(tangents: tuple, v: Any, x: Any) -> tuple[Any, Any]:
        y = f(v, x)
        dv, dx = (unthunk(t) for t in tangents[1:3])
        order = order_tangent(v)
        if order is not NO_TANGENT and dv is not None and not vanishes(dv):
            return y, order
        if dx is None or isinstance(dx, AbstractZero):
            return y, Tangent(tuple, ZERO_TANGENT, ZERO_TANGENT)
        dwp = curvature(orders(v, y[0]), x, *y) * dx
        return y, Tangent(tuple, fit_to_output(y[1] * dx, y[0]), fit_to_output(dwp, y[1]))

    sequence_rrule.__qualname__ = f"rrule[{name}]"
    sequence_frule.__qualname__ = f"frule[{name}]"
    rrule.register(f)(sequence_rrule)
    frule.register(f)(sequence_frule)


def _riccati_curvature(k: Any, x: Any, w: Any, wp: Any) -> Any:
    """``w'' = (k (k+1)/x^2 - 1) w``; at 0, ``x j_k(x)`` has ``w''(0) = 2/3`` for k = 1, else 0."""
    at_zero = x == 0
    safe = np.where(at_zero, 1.0, x)
    return np.where(at_zero, np.where(k == 1, 2 / 3, 0.0), (k * (k + 1) / (safe * safe) - 1) * w)


def _lmbda_curvature(v: Any, x: Any, w: Any, wp: Any) -> Any:
    """``x w'' + (2v + 1) w' + x w = 0`` (``w`` is ``x^-v J_v`` scaled); ``-1/(2(v+1))`` at 0."""
    at_zero = x == 0
    inner = -(2 * v + 1) * wp / np.where(at_zero, 1.0, x) - w
    return np.where(at_zero, -1 / (2 * (v + 1)), inner)


def _integer_orders(n: Any, w: Any) -> Any:
    return np.arange(len(w))


def _lmbda_orders(v: Any, w: Any) -> Any:
    # SciPy's orders: v - int(v), ..., v (its lengths are Python values).
    return v - int(v) + np.arange(len(w))


_sequence_rules(sc.riccati_jn, _integer_orders, _riccati_curvature, None)
_sequence_rules(sc.riccati_yn, _integer_orders, _riccati_curvature, None)
_sequence_rules(
    sc.lmbda, _lmbda_orders, _lmbda_curvature, f"derivative of lmbda in the order: {_NO_FORMULA}"
)

# ---- confluent U, Wright's Bessel function, Bessel polynomial integral, Dirichlet kernel ------

parametric_rule(
    sc.hyperu,
    not_implemented(f"derivative of hyperu in a: {_NO_FORMULA}"),
    not_implemented(f"derivative of hyperu in b: {_NO_FORMULA}"),
    lambda a, b, x, y: -a * sc.hyperu(np.add(a, 1), np.add(b, 1), x),
)
parametric_rule(
    sc.wright_bessel,
    not_implemented(f"derivative of wright_bessel in a: {_NO_FORMULA}"),
    not_implemented(f"derivative of wright_bessel in b: {_NO_FORMULA}"),
    lambda a, b, x, y: sc.wright_bessel(a, np.add(a, b), x),
)
parametric_rule(
    sc.log_wright_bessel,
    not_implemented(f"derivative of log_wright_bessel in a: {_NO_FORMULA}"),
    not_implemented(f"derivative of log_wright_bessel in b: {_NO_FORMULA}"),
    lambda a, b, x, y: np.exp(sc.log_wright_bessel(a, np.add(a, b), x) - y),
)
parametric_rule(
    sc.besselpoly,
    lambda a, lmb, nu, y: (
        sc.besselpoly(a, np.add(lmb, 1), np.subtract(nu, 1))
        - sc.besselpoly(a, np.add(lmb, 1), np.add(nu, 1))
    ),
    not_implemented(f"derivative of besselpoly in lmb: {_NO_FORMULA}"),
    not_implemented(f"derivative of besselpoly in nu: {_NO_FORMULA}"),
)


def _diric_partial(x: Any, n: Any, y: Any) -> Any:
    # At multiples of 2 pi, diric is +-1, an extremum: the derivative is 0.
    half = np.sin(x / 2)
    at_pole = half == 0
    numerator = np.cos(np.multiply(n, x) / 2) - y * np.cos(x / 2)
    return np.where(at_pole, 0.0, numerator / (2 * np.where(at_pole, 1.0, half)))


def _diric_forward(x: Any, n: Any) -> Any:
    # sc.diric converts its input to NumPy; an engine's arrays take the same formula in ufuncs.
    if array_namespace(x) is np:
        return sc.diric(x, n)
    half = np.sin(x / 2)
    at_pole = half == 0
    ratio = np.sin(np.multiply(n, x) / 2) / (np.multiply(n, np.where(at_pole, 1.0, half)))
    return np.where(at_pole, 1.0, ratio)


parametric_rule(sc.diric, _diric_partial, None, forward=_diric_forward)

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

# ---- Legendre functions: lpmv, and legendre_p family with its diff_n keyword ----------------


def _lpmv_partial(m: Any, v: Any, x: Any, y: Any) -> Any:
    """DLMF 14.10.5: ``(1 - x^2) P' = (m + v) P^m_{v-1} - v x P``; ``v (v+1)/2`` at x = 1, m = 0."""
    edge = np.abs(x) == 1
    lower = sc.lpmv(m, np.subtract(v, 1), x)
    inner = (np.add(m, v) * lower - v * x * y) / np.where(edge, 1.0, 1 - x * x)
    end = np.where(
        np.equal(m, 0), np.where(edge, x, 1.0) ** np.add(v, 1) * v * np.add(v, 1) / 2, np.nan
    )
    return np.where(edge, end, inner)


parametric_rule(
    sc.lpmv,
    None,
    not_implemented(f"derivative of lpmv in the degree v: {_NO_FORMULA}"),
    _lpmv_partial,
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
