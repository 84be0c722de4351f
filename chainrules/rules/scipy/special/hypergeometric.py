"""Rules for the hypergeometric functions ``hyp0f1 hyp1f1 hyp2f1``, in every argument.

Derivatives in the argument are hypergeometric functions again (DLMF 16.3.1, 13.3.15,
15.5.1): ``d/dz 0F1(; v; z) = 0F1(; v+1; z) / v``, ``d/dx 1F1(a; b; x) = a/b 1F1(a+1; b+1;
x)`` and ``d/dz 2F1(a, b; c; z) = ab/c 2F1(a+1, b+1; c+1; z)``, holomorphic in complex ``z``.

Derivatives in the parameters have no closed form. They are computed on jets
(``hypergeometric_jets``): the power series differentiated term by term, after Kummer's
(1F1) or Pfaff's (2F1) transformation, and for 2F1 towards ``z = 1`` its differential
equation, integrated on jets at the relative tolerance 1e-11; ``0F1`` at ``z < -30`` and
``v < -z``, where its series cancels, is ``gamma(v) (-z)^((1-v)/2) J_(v-1)(2 sqrt(-z))``
(DLMF 10.16.9) with the order derivatives of J (``bessel_order``). Where the lower parameter
is below 1e-100 in size, the function is ``1 + z/c U`` to double precision, with ``U`` at
ordinary parameters (``_with_tiny_lower``). They are thunked, and are functions with rules of
their own (``hyp2f1_gradient``, ``hyp1f1_gradient``, ``hyp0f1_dv``): in the parameters, their
derivatives are the Hessian, from the same jets at second order; in the argument, the
gradient at shifted parameters, so pullbacks differentiate again (second derivatives in every
pair of arguments; a third in the parameters only is not given). Real and complex arguments;
``scipy.special`` computes on NumPy arrays only.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.hyp1f1, 1.0, 1.0, 0.5)  # exp(x)
>>> round(float(pullback(1.0)[3]), 12)
1.6487212707
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from .bessel_order import bessel_order_jet
from .hypergeometric_jets import hyp0f1_jet, hyp1f1_jet, hyp2f1_jet
from .jets import (
    Jet,
    broadcast_jets,
    gradient_of,
    hessian_of,
    jet_power,
    jet_rgamma,
    jet_where,
    parameter_jets,
)
from .parameter_gradients import parameter_derivative_rules, parameter_gradient_rules

__all__ = ["hyp0f1_dv", "hyp1f1_gradient", "hyp2f1_gradient"]

# Below, 1/c^3 (in the second derivatives) overflows in the series' jets; there
# pFq(a, ...; c; z) = 1 + z/c U, U = (a ...) pFq(a + 1, ...; 2; z) (1 + O(c)), to double precision.
_TINY_LOWER = 1e-100


def _with_tiny_lower(params: list[Jet], z: Any, jet: Callable[..., Jet]) -> Jet:
    """``jet(*params, z)``, a hypergeometric function whose last parameter is its lower one
    (``v`` of 0F1, ``b`` of 1F1, ``c`` of 2F1); where that is below 1e-100 in size, from
    ``1 + z/c U`` (``U`` on jets at ordinary parameters): its derivatives ``z/c U'``,
    ``-z/c^2 U`` (in ``c``), ``z/c U''``, ``-z/c^2 U'`` and ``2 z/c^3 U`` are signed infinities
    where they overflow and 0 at ``z = 0``, where the series' jets give NaN (inf - inf) and
    run to their last term.

    Each branch is evaluated at safe parameters where the other is taken: ``c = 1`` and
    ``z = 0`` in the series, the upper parameters 0 and ``z = 0`` in ``U``.
    """
    *params, z = broadcast_jets(*params, np.asarray(z))
    *upper, c = params
    tiny = np.abs(c.value) < _TINY_LOWER
    if not np.any(tiny):
        return jet(*params, z)
    k, order = c.k, c.order
    one = Jet.constant(np.ones(tiny.shape), k, order)
    regular = jet(*upper, jet_where(tiny, one, c), np.where(tiny, 0.0, z))
    w = np.where(tiny, z, 0.0)
    two = Jet.constant(np.full(tiny.shape, 2.0), k, order)
    u = jet(*(jet_where(tiny, p, one * 0.0) + 1 for p in upper), two, w)
    for p in upper:
        u = u * p
    c_value = np.where(tiny, c.value, 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        s, over = w / c_value, u.value / c_value  # z/c and U/c, each finite where z/c^2 U is
        gradient = s * u.gradient
        gradient[-1] = -s * over
        hessian = None
        if u.hessian is not None:
            hessian = s * u.hessian
            cross = -s * (u.gradient / c_value)
            hessian[-1], hessian[:, -1] = cross, cross
            hessian[-1, -1] = 2 * s * over / c_value
        near = Jet(1 + s * u.value, gradient, hessian)
    return jet_where(tiny, near, regular)


# ---- Gauss: 2F1(a, b; c; z) -----------------------------------------------------------------


def _hyp2f1(a: Any, b: Any, c: Any, z: Any, order: int) -> Jet:
    return _with_tiny_lower(parameter_jets(a, b, c, order=order), z, hyp2f1_jet)


def hyp2f1_gradient(a: Any, b: Any, c: Any, z: Any) -> tuple[Any, Any, Any]:
    """The derivatives of ``hyp2f1(a, b, c, z)`` in ``a``, ``b`` and ``c``.

    >>> [round(float(d), 10) for d in hyp2f1_gradient(1.0, 1.0, 2.0, 0.5)]
    [0.4804530139, 0.4804530139, -0.2586397057]
    """
    return gradient_of(_hyp2f1(a, b, c, z, 1))


def _hyp2f1_slopes(a: Any, b: Any, c: Any, z: Any) -> tuple:
    # d/dz F_p = d/dp (ab/c F(a+1, b+1; c+1; z)), the gradient at the shifted parameters.
    a1, b1, c1 = np.add(a, 1), np.add(b, 1), np.add(c, 1)
    shifted = sc.hyp2f1(a1, b1, c1, z)
    ga, gb, gc = call(hyp2f1_gradient, a1, b1, c1, z)
    scale = np.multiply(a, b) / c
    return (
        (
            np.divide(b, c) * shifted + scale * ga,
            np.divide(a, c) * shifted + scale * gb,
            -scale / c * shifted + scale * gc,
        ),
    )


parameter_gradient_rules(
    sc.hyp2f1,
    hyp2f1_gradient,
    lambda a, b, c, z: hessian_of(_hyp2f1(a, b, c, z, 2)),
    _hyp2f1_slopes,
    lambda a, b, c, z, y: (
        np.multiply(a, b) / c * sc.hyp2f1(np.add(a, 1), np.add(b, 1), np.add(c, 1), z)
    ),
)

# ---- confluent: 1F1(a; b; x) ----------------------------------------------------------------


def _hyp1f1(a: Any, b: Any, x: Any, order: int) -> Jet:
    return _with_tiny_lower(parameter_jets(a, b, order=order), x, hyp1f1_jet)


def hyp1f1_gradient(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``hyp1f1(a, b, x)`` in ``a`` and ``b``.

    >>> da, db = hyp1f1_gradient(1.0, 1.0, 0.5)
    >>> round(float(da), 12), round(float(db), 12)
    (0.731771876673, -0.731771876673)
    """
    return gradient_of(_hyp1f1(a, b, x, 1))


def _hyp1f1_slopes(a: Any, b: Any, x: Any) -> tuple:
    # d/dx M_p = d/dp (a/b M(a+1, b+1, x))
    a1, b1 = np.add(a, 1), np.add(b, 1)
    shifted = sc.hyp1f1(a1, b1, x)
    ga, gb = call(hyp1f1_gradient, a1, b1, x)
    scale = np.divide(a, b)
    return ((shifted / b + scale * ga, -scale / b * shifted + scale * gb),)


parameter_gradient_rules(
    sc.hyp1f1,
    hyp1f1_gradient,
    lambda a, b, x: hessian_of(_hyp1f1(a, b, x, 2)),
    _hyp1f1_slopes,
    lambda a, b, x, y: np.divide(a, b) * sc.hyp1f1(np.add(a, 1), np.add(b, 1), x),
)

# ---- 0F1(; v; z) ----------------------------------------------------------------------------

# Below z = -30 the series' terms reach exp(2 sqrt(30)) ~ 6e4 times the sum, unless v > -z,
# where they never grow.
_BESSEL_SIDE = -30.0


def _hyp0f1(v: Any, z: Any, order: int) -> Jet:
    (nu,) = parameter_jets(v, order=order)
    return _with_tiny_lower([nu], z, _hyp0f1_jet)


def _hyp0f1_jet(nu: Jet, z: Any) -> Jet:
    bessel = np.isreal(z) & (np.real(z) < _BESSEL_SIDE) & (nu.value < -np.real(z))
    series = hyp0f1_jet(nu, np.where(bessel, 0.0, z))
    if not np.any(bessel):
        return series
    # 0F1(; v; z) = gamma(v) (-z)^((1-v)/2) J_(v-1)(2 sqrt(-z)) for z < 0
    t = np.where(bessel, -np.real(z), 1.0)
    j = bessel_order_jet("jv", nu - 1, 2 * np.sqrt(t))
    far = jet_power(t, (1 - nu) * 0.5) * j / jet_rgamma(nu)
    return jet_where(bessel, far, series)


def hyp0f1_dv(v: Any, z: Any) -> Any:
    """The derivative of ``hyp0f1(v, z)`` in ``v``.

    >>> round(float(hyp0f1_dv(1.0, 1.0)), 10)  # mpmath.diff
    -1.4297062187
    """
    return gradient_of(_hyp0f1(v, z, 1))[0]


def _hyp0f1_dv_dz(v: Any, z: Any, y: Any) -> Any:
    # d/dz F_v = d/dv (F(v+1, z) / v)
    v1 = np.add(v, 1)
    return (call(hyp0f1_dv, v1, z) - sc.hyp0f1(v1, z) / v) / v


parameter_derivative_rules(
    sc.hyp0f1,
    hyp0f1_dv,
    lambda v, z: hessian_of(_hyp0f1(v, z, 2))[0],
    _hyp0f1_dv_dz,
    lambda v, z, y: sc.hyp0f1(np.add(v, 1), z) / v,
)
