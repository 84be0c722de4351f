"""Rules for the Bessel functions of ``scipy.special``: J, Y, I, K and their scaled forms.

Derivatives in the argument come from the recurrences (DLMF 10.6.2, 10.29.2), e.g.
``jv'(v, z) = (jv(v-1, z) - jv(v+1, z)) / 2``, which hold for complex ``z`` (holomorphic) and
need no division by ``z``. The exponentially scaled ``ive(v, z) = iv(v, z) exp(-|Re z|)`` is not
holomorphic for complex ``z``; its pullback comes from its real Jacobian.

Derivatives in the order ``v`` have no closed form: ``bessel_order`` computes them (series,
quadrature of differentiated integral representations, Chebyshev interpolation in the order at
complex ``z``), thunked because they cost a quadrature per element, as functions with rules of
their own, so second derivatives in the order exist; at real ``x < 0`` they are NaN (the
functions are complex-valued off the integer orders), at ``x = 0`` as well except for J and I
at ``v > 0``, which are 0 for every such order. An integer order has no tangent.

``scipy.special`` computes on NumPy arrays only.

``jve yve`` (``jv``, ``yv`` times ``exp(-|Im z|)``) likewise: holomorphic part plus the real
direction of ``Im z``, from the real Jacobian.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.j0, 0.0)
>>> pullback(1.0)[1]
-0.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.define import fit_to_output, scalar_rule
from ....core.dtypes import is_complex
from ....core.lazy import is_lazy, per_block
from ....core.namespace import is_numpy
from ....core.parametric import numpy_only, parametric_rule
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.structure import is_differentiable_leaf
from ....core.tangents import (
    NO_TANGENT,
    ZERO_TANGENT,
    NotImplementedTangent,
)
from ....core.thunks import Thunk
from ....core.zeros import is_zero, vanishes
from .bessel_order import bessel_order_derivative, chebyshev_order_derivatives, order_derivative

__all__ = ["asymptotic_slope", "near_zero", "power_series"]


def power_series(x: Any, coefficients: Sequence[float], power: int = 0, step: int = 2) -> Any:
    """``sum_k coefficients[k] x^(power + step k)``, by Horner's rule in ``x^step``.

    Multiplications and additions only, so that an engine differentiates it exactly at 0.

    >>> float(power_series(2.0, (1.0, 3.0), power=1))  # 2 + 3 * 2**3
    26.0
    """
    lift = x
    for _ in range(step - 1):
        lift = lift * x
    total = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        total = total * lift + c
    for _ in range(power):
        total = total * x
    return total


def near_zero(
    x: Any,
    radius: float,
    coefficients: Sequence[float],
    formula: Callable[[Any], Any],
    power: int = 0,
    step: int = 2,
) -> Any:
    """``formula(x)`` where ``|x| >= radius``; closer to 0, its power series (``power_series``).

    For a function whose formula divides by ``x`` (a removable singularity) or cancels near 0.
    Each branch is evaluated at arguments where it is finite (the series at 0, the formula at
    ``radius``) wherever the other one is taken, so that neither leaks NaN or inf into the
    derivatives of the other's points.

    >>> float(near_zero(0.0, 1.0, (1.0, -1 / 6), lambda x: np.sin(x) / x))  # sin(x)/x at 0
    1.0
    """
    small = np.abs(x) < radius
    inner = power_series(np.where(small, x, 0.0), coefficients, power, step)
    return np.where(small, inner, formula(np.where(small, radius, x)))


def _order_partial(name: str) -> Callable[..., Any]:
    derivative = order_derivative(name)

    def order_partial(v: Any, z: Any, y: Any) -> Any:
        if is_lazy(v) or is_lazy(z):  # computed on NumPy values: block by block
            return per_block(derivative, v, z)
        return call(derivative, v, z)

    order_partial.__qualname__ = f"{name}_order_partial"
    return order_partial


def _sign(x: Any) -> Any:
    return np.sign(np.real(x))


# ---- the scaled functions at large x: asymptotic forms ---------------------------------------

_TERMS = 32


def asymptotic_slope(v: Any, t: Any, step: complex) -> Any:
    """d/dt of ``t^(-1/2) sum_k step^k a_k(v) t^-k`` (DLMF 10.40.1, 10.40.2, 10.17.5-6).

    ``kve`` is this series (``step`` 1) times ``sqrt(pi/2)``, ``ive`` (``step`` -1) times
    ``1/sqrt(2 pi)``, ``hankel1e`` (``step`` i) times ``sqrt(2/pi) exp(-i (v pi/2 + pi/4))``.
    Their derivatives by the recurrences are differences of two terms ~1/x apart
    (``k0e' = k0e - k1e``), which lose ``log10(x)`` digits, all of them by 1e16; the series
    differentiated term by term has no cancellation. Beyond ``20 + 2 v^2`` its 32 terms are
    below 1e-16 of the first.
    """
    mu = 4 * (v * v)
    a: Any = 1.0
    coefficients: list[Any] = [-0.5]
    for k in range(1, _TERMS):
        a = a * (mu - (2 * k - 1) ** 2) / (8 * k) * step
        coefficients.append(-(k + 0.5) * a)
    u = 1 / t
    return power_series(u, coefficients, step=1) * u * np.sqrt(u)


def _large_x(
    v: Any, x: Any, formula: Callable[[Any], Any], alternating: bool, even: bool = False
) -> Any:
    """``formula(x)`` (the derivative of ``ive`` or ``kve`` in x) where ``|x| < 20 + 2 v^2``;
    beyond, the asymptotic series of its derivative.

    Each branch is evaluated at a safe argument where the other is taken: SciPy's ``ive`` and
    ``kve`` are NaN beyond about 1e9, which would leak into the derivatives through the unused
    branch.

    ``even``: the function is ``ive(v, |x|)`` times a sign that makes it odd (``v`` = 0, for
    ``i0e``) or even (``v`` = 1); otherwise only ``x > 0`` takes the series.
    """
    if is_complex(x):
        return formula(x)
    threshold = 20 + 2 * (v * v)
    t = np.abs(x) if even else x
    big = t >= threshold
    scale = 1 / np.sqrt(2 * np.pi) if alternating else np.sqrt(np.pi / 2)
    slope = scale * asymptotic_slope(v, np.where(big, t, threshold), -1 if alternating else 1)
    if even and v == 0:
        slope = _sign(x) * slope
    return np.where(big, slope, formula(np.where(big, threshold, x)))


def _kve_derivative(v: Any, x: Any) -> Any:
    return sc.kve(v, x) - (sc.kve(np.subtract(v, 1), x) + sc.kve(np.add(v, 1), x)) / 2


def _ive_derivative(v: Any, x: Any) -> Any:
    """The derivative of ``ive`` in real ``x``."""
    return _ive_holomorphic_part(v, x) - _sign(x) * sc.ive(v, x)


# ---- integer orders -------------------------------------------------------------------------

scalar_rule(sc.j0, lambda x, y: -sc.j1(x))
scalar_rule(sc.j1, lambda x, y: (sc.j0(x) - sc.jv(2, x)) / 2)
scalar_rule(sc.y0, lambda x, y: -sc.y1(x))
scalar_rule(sc.y1, lambda x, y: (sc.y0(x) - sc.yv(2, x)) / 2)
scalar_rule(sc.i0, lambda x, y: sc.i1(x))


# I_1'(x) = sum_k (2k + 1) / 2 (x/2)^(2k) / (k! (k+1)!): 8 terms reach 1e-20 below 0.1.
_I1_SLOPE = tuple(
    (2 * k + 1)
    / 2
    / 4**k
    / (float(np.prod(np.arange(1, k + 1))) * float(np.prod(np.arange(1, k + 2))))
    for k in range(8)
)


def _i1_derivative(x: Any) -> Any:
    """``I_1' = (I_0 + I_2) / 2``; below 1, ``I_0 - I_1 / x`` (DLMF 10.29.2), and below 0.1 its
    series: the derivative of ``iv(2, x)`` uses ``iv(1, x)``, which SciPy flushes to 0 below
    about 1e-250, and ``I_1'' = 3x/8`` would come out ``x/4``.
    """
    middle = lambda w: near_zero(w, 0.1, _I1_SLOPE, lambda u: sc.i0(u) - sc.i1(u) / u)
    small = np.abs(x) < 1
    return np.where(
        small,
        middle(np.where(small, x, 0.5)),
        (sc.i0(np.where(small, 1.0, x)) + sc.iv(2, np.where(small, 1.0, x))) / 2,
    )


scalar_rule(sc.i1, lambda x, y: _i1_derivative(x))
scalar_rule(
    sc.i0e, lambda x, y: _large_x(0, x, lambda w: sc.i1e(w) - _sign(w) * sc.i0e(w), True, True)
)
scalar_rule(
    sc.i1e,
    lambda x, y: _large_x(
        1, x, lambda w: (sc.i0e(w) + sc.ive(2, w)) / 2 - _sign(w) * sc.i1e(w), True, True
    ),
)
scalar_rule(sc.k0, lambda x, y: -sc.k1(x))
scalar_rule(sc.k1, lambda x, y: -(sc.k0(x) + sc.kv(2, x)) / 2)
scalar_rule(sc.k0e, lambda x, y: _large_x(0, x, lambda w: sc.k0e(w) - sc.k1e(w), False))
scalar_rule(
    sc.k1e,
    lambda x, y: _large_x(1, x, lambda w: sc.k1e(w) - (sc.k0e(w) + sc.kve(2, w)) / 2, False),
)


def _kn_dx(n: Any, x: Any, y: Any) -> Any:
    n = np.trunc(n)  # SciPy's order: a float n truncated toward 0 (kn(0.5, x) is kn(0, x))
    return -(sc.kn(n - 1, x) + sc.kn(n + 1, x)) / 2


def _yn_dx(n: Any, x: Any, y: Any) -> Any:
    n = np.trunc(n)  # as _kn_dx
    return (sc.yn(n - 1, x) - sc.yn(n + 1, x)) / 2


parametric_rule(sc.kn, None, _kn_dx)
parametric_rule(sc.yn, None, _yn_dx)

# ---- real orders: recurrences in z, quadrature in v ------------------------------------------

parametric_rule(
    sc.jv,
    _order_partial("jv"),
    lambda v, z, y: (sc.jv(np.subtract(v, 1), z) - sc.jv(np.add(v, 1), z)) / 2,
    costly=(0,),
    traceable=(0,),
)
parametric_rule(
    sc.yv,
    _order_partial("yv"),
    lambda v, z, y: (sc.yv(np.subtract(v, 1), z) - sc.yv(np.add(v, 1), z)) / 2,
    costly=(0,),
    traceable=(0,),
)
parametric_rule(
    sc.iv,
    _order_partial("iv"),
    lambda v, z, y: (sc.iv(np.subtract(v, 1), z) + sc.iv(np.add(v, 1), z)) / 2,
    costly=(0,),
    traceable=(0,),
)
parametric_rule(
    sc.kv,
    _order_partial("kv"),
    lambda v, z, y: -(sc.kv(np.subtract(v, 1), z) + sc.kv(np.add(v, 1), z)) / 2,
    costly=(0,),
    traceable=(0,),
)
parametric_rule(
    sc.kve,
    _order_partial("kve"),
    lambda v, z, y: _large_x(v, z, lambda w: _kve_derivative(v, w), False),
    costly=(0,),
    traceable=(0,),
)

# ---- ive: exp(-|Re z|) makes it non-holomorphic ---------------------------------------------


def _scaled(f: Any, unscaled: Any, v: Any, z: Any, scale: Any) -> Any:
    """``f(v, z)``, the function ``unscaled(v, z)`` times ``scale``; where SciPy's ``f`` is
    NaN (``ive`` and ``jve`` overflow into NaN near ``z = 0`` at negative orders, where ``iv``
    and ``jv`` are a signed inf), ``unscaled(v, z) * scale``."""
    y = f(v, z)
    lost = np.isnan(y)
    return np.where(lost, unscaled(v, np.where(lost, z, 1.0)) * scale, y)


def _ive_holomorphic_part(v: Any, z: Any) -> Any:
    """The derivative of ``iv(v, z)`` scaled by ``exp(-|Re z|)``."""
    scale = np.exp(-np.abs(np.real(z)))
    below = _scaled(sc.ive, sc.iv, np.subtract(v, 1), z, scale)
    return (below + _scaled(sc.ive, sc.iv, np.add(v, 1), z, scale)) / 2


@rrule.register(sc.ive)
def _ive_rrule(v: Any, z: Any) -> tuple[Any, Any]:
    y = sc.ive(v, z)
    project_v, project_z = ProjectTo(v), ProjectTo(z)
    v_active = is_differentiable_leaf(v)
    conjugate = is_complex(z) or is_complex(y)

    def ive_pullback(dy: Any) -> tuple[Any, ...]:
        holomorphic = _ive_holomorphic_part(v, z)
        if conjugate:
            # d/dz of iv * exp(-|Re z|): the holomorphic part plus a real direction in Re z.
            dz = np.conj(holomorphic) * dy - _sign(z) * np.real(np.conj(y) * dy)
        else:
            dz = _large_x(v, z, lambda w: _ive_derivative(v, w), True) * dy
        dv: Any = NO_TANGENT
        if v_active:
            dv = Thunk(lambda: project_v(np.conj(_IVE_ORDER_PARTIAL(v, z, y)) * dy))
        return NO_TANGENT, dv, project_z(dz)

    return y, ive_pullback


@frule.register(sc.ive)
def _ive_frule(tangents: tuple, v: Any, z: Any) -> tuple[Any, Any]:
    y = sc.ive(v, z)
    dv, dz = tangents[1], tangents[2]
    total: Any = ZERO_TANGENT
    if is_differentiable_leaf(v) and not vanishes(dv):
        d = _IVE_ORDER_PARTIAL(v, z, y)
        if isinstance(d, NotImplementedTangent):
            return y, d
        total = total + d * dv
    if not is_zero(dz):
        if is_complex(z) or is_complex(dz):
            total = total + _ive_holomorphic_part(v, z) * dz - _sign(z) * y * np.real(dz)
        else:
            total = total + _large_x(v, z, lambda w: _ive_derivative(v, w), True) * dz
    if is_zero(total):
        return y, total
    return y, fit_to_output(total, y)


_IVE_ORDER_PARTIAL = _order_partial("ive")

# ---- jve, yve: exp(-|Im z|) makes them non-holomorphic ---------------------------------------


def _scaled_rules(f: Any, unscaled: Any, order: str) -> None:
    """The rrule and frule of ``f(v, z) = g(v, z) exp(-|Im z|)`` with ``g`` (``unscaled``)
    holomorphic in z."""
    name = f"scipy.special.{f.__name__}"

    def holomorphic_part(v: Any, z: Any) -> Any:
        scale = np.exp(-np.abs(np.imag(z)))
        below = _scaled(f, unscaled, np.subtract(v, 1), z, scale)
        return (below - _scaled(f, unscaled, np.add(v, 1), z, scale)) / 2

    def order_partial(v: Any, z: Any) -> Any:
        if is_complex(z):
            return chebyshev_order_derivatives(f, v, z)[0]
        return bessel_order_derivative(order, v, z)

    def scaled_rrule(v: Any, z: Any) -> tuple[Any, Any]:
        y = f(v, z)
        project_v, project_z = ProjectTo(v), ProjectTo(z)
        v_active = is_differentiable_leaf(v)

        def scaled_pullback(dy: Any) -> tuple[Any, ...]:
            # The real Jacobian: g' in both directions, and -sign(Im z) y in the direction Im z.
            sign = np.sign(np.imag(z))
            dz = np.conj(holomorphic_part(v, z)) * dy - 1j * sign * np.real(np.conj(y) * dy)
            if not is_complex(z):
                dz = np.real(dz)
            dv: Any = NO_TANGENT
            if v_active and not is_numpy(v, z, dy):
                dv = numpy_only(name, 0)
            elif v_active:
                dv = Thunk(lambda: project_v(np.conj(order_partial(v, z)) * dy))
            return NO_TANGENT, dv, project_z(dz)

        return y, scaled_pullback

    def scaled_frule(tangents: tuple, v: Any, z: Any) -> tuple[Any, Any]:
        y = f(v, z)
        dv, dz = tangents[1], tangents[2]
        total: Any = ZERO_TANGENT
        if is_differentiable_leaf(v) and not vanishes(dv):
            if not is_numpy(v, z, dv):
                return y, numpy_only(name, 0)
            total = total + order_partial(v, z) * dv
        if not is_zero(dz):
            sign = np.sign(np.imag(z))
            total = total + holomorphic_part(v, z) * dz - sign * y * np.imag(dz)
        if is_zero(total):
            return y, total
        return y, fit_to_output(total, y)

    rrule.register(f)(scaled_rrule)
    frule.register(f)(scaled_frule)


_scaled_rules(sc.jve, sc.jv, "jv")
_scaled_rules(sc.yve, sc.yv, "yv")
