"""Rules for Mathieu functions: characteristic values, Fourier coefficients, ce, se, Mc, Ms.

* **In the argument.** ``mathieu_cem(m, q, x)`` and ``mathieu_sem`` return ``(w, dw/dt)``
  where ``t`` is the angle in radians and ``x`` the same angle in degrees, so
  ``dw/dx = (pi/180) dw/dt``, and Mathieu's equation ``w'' = (2 q cos 2t - a) w`` gives
  ``d(dw/dt)/dx`` (``a = mathieu_a(m, q)`` for ``ce``, ``mathieu_b`` for ``se``). The modified
  functions ``mathieu_modcem1 modcem2 modsem1 modsem2`` return ``(w, dw/du)`` in their own
  argument ``u`` (not degrees, whatever SciPy's docstrings say), with
  ``w'' = (a - 2 q cosh 2u) w``. These pullbacks are written through rules of the table and
  differentiate again.
* **In q: characteristic values.** The Fourier coefficients of ``ce_m``/``se_m`` form an
  eigenvector ``v`` of a symmetric tridiagonal matrix ``D + q T`` (DLMF 28.4, with the first
  coefficient of ``ce_2n`` scaled by ``sqrt(2)``) for the eigenvalue ``a``, so
  ``da/dq = v' T v / v' v`` (Hellmann-Feynman), exact in the coefficients SciPy computes.
* **In q: coefficients and functions.** The eigenvector's derivative solves the bordered
  system ``[[D + q T - a, v], [v', 0]] [dv; mu] = [-(T - da/dq) v; 0]``, which keeps
  SciPy's normalization ``|v| = 1``. Then ``d ce_m/dq = sum dA_k cos(k t)`` (``sin`` for
  ``se_m``), and the modified functions follow from their series of Bessel products
  (DLMF 28.24, the sum normalized by the first coefficient, as SciPy computes them), with
  ``d/dq [J_a(u1) C_b(u2)]`` from Bessel's equation (``u1 = sqrt(q) exp(-u)``,
  ``u2 = sqrt(q) exp(u)``). For ``q < 0`` the angular functions use the symmetries
  DLMF 28.2.34-37; the modified functions are defined by SciPy for ``q > 0`` only (the
  derivative in q is NaN elsewhere).

The derivatives in q are computed on NumPy values by small linear solves: their cotangents
are thunked, and they are ``NotImplementedTangent`` on an engine's tracked arrays (second
derivatives in q). The order ``m`` is an integer and has no tangent. ``pair_rules`` also
serves the spheroidal functions.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> from chainrules.core.thunks import unthunk
>>> (w, dw), pullback = rrule(sc.mathieu_cem, 1, 0.0, 60.0)   # ce_1 = cos t at q = 0
>>> round(float(pullback((1.0, 0.0))[3]), 12)   # -(pi/180) sin(60 degrees)
-0.015114994702
>>> round(float(unthunk(rrule(sc.mathieu_a, 1, 0.0)[1](1.0)[2])), 12)   # a_1 = 1 + q - ...
1.0
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import fit_to_output
from ....core.namespace import is_numpy, require_numpy
from ....core.parametric import numpy_only, parametric_rule
from ....core.projection import ProjectTo
from ....core.registry import frule, function_name, rrule
from ....core.structure import is_differentiable_leaf
from ....core.tangents import (
    NO_TANGENT,
    ZERO_TANGENT,
    NotImplementedTangent,
    Tangent,
)
from ....core.thunks import Thunk, unthunk
from ....core.zeros import is_zero, vanishes

__all__ = [
    "elementwise",
    "fourier_slopes",
    "linear_pair",
    "pair_rules",
    "perturbed_eigenvector",
    "vector_in_last_rules",
]

_ROOT2 = np.sqrt(2.0)
_DEGREE = np.pi / 180
# Beyond SciPy's coefficients the eigenvector is below rounding; a few more rows let its
# derivative settle as well.
_PAD = 8


# ---- value-and-slope functions: rules for f(*p, x) = (w, dw/dx) --------------------------------


def linear_pair(a: Any, b: Any, dw: Any, dwp: Any) -> Any:
    """``a dw + b dwp``, skipping zero tangents (``ZeroTangent()`` when both are zero).

    >>> linear_pair(2.0, 3.0, 1.0, ZERO_TANGENT)
    2.0
    """
    total: Any = ZERO_TANGENT
    if not is_zero(dw):
        total = total + a * dw
    if not is_zero(dwp):
        total = total + b * dwp
    return total


def pair_rules(
    f: Any,
    curvature: Callable[..., Any],
    parameters: Sequence[Any],
    *,
    scale: float = 1.0,
) -> None:
    """Register the rrule and frule of an elementwise ``f(*p, x) = (w, dw/dt)``, ``t = scale x``.

    ``curvature(*args, y)`` is ``d^2 w / dt^2`` from the differential equation ``w`` solves,
    written in operations that have rules. ``parameters`` has one entry per leading argument:
    ``None`` (an integer, no tangent), a ``NotImplementedTangent`` (a derivative not given), or
    ``slopes(*args, y) -> (dw/dp, d(dw/dt)/dp)`` computed on NumPy values: its cotangent is
    thunked, and ``NotImplementedTangent`` on an engine's tracked arrays. The frule gives
    ``NotImplementedTangent`` when a non-zero tangent meets an argument without derivative.

    >>> def harmonic(k, x):
    ...     return np.cos(k * x), -k * np.sin(k * x)
    >>> pair_rules(harmonic, lambda k, x, y: -k * k * y[0], (None,))
    >>> y, pullback = rrule(harmonic, 2, 0.0)
    >>> pullback((1.0, 1.0))
    (NoTangent(), NoTangent(), -4.0)
    """
    name = function_name(f)

    def refused_on_tracked(i: int, args: tuple, *tangents: Any) -> Any:
        if not is_numpy(*args, *(t for t in tangents if not is_zero(t))):
            return numpy_only(name, i)
        return None

    def pair_rrule(*args: Any) -> tuple[Any, Any]:
        y = f(*args)
        x = args[-1]
        project_x = ProjectTo(x) if is_differentiable_leaf(x) else None
        projectors: list[Any] = [
            ProjectTo(a) if p is not None and is_differentiable_leaf(a) else None
            for a, p in zip(args[:-1], parameters, strict=True)
        ]
        memo: dict[int, Any] = {}

        def parameter_cotangent(i: int, dw: Any, dwp: Any) -> Any:
            refused = refused_on_tracked(i, args, dw, dwp)
            if refused is not None:
                return refused
            if i not in memo:
                memo[i] = parameters[i](*args, y)
            slope, bend = memo[i]
            return projectors[i](linear_pair(slope, bend, dw, dwp))

        def pair_pullback(dy: Any) -> tuple[Any, ...]:
            dw, dwp = (unthunk(d) for d in dy)
            grads: list[Any] = [NO_TANGENT]
            for i, project in enumerate(projectors):
                if project is None:
                    grads.append(NO_TANGENT)
                elif is_zero(dw) and is_zero(dwp):
                    grads.append(ZERO_TANGENT)
                elif isinstance(parameters[i], NotImplementedTangent):
                    grads.append(parameters[i])
                else:
                    grads.append(Thunk(functools.partial(parameter_cotangent, i, dw, dwp)))
            if project_x is None:
                grads.append(NO_TANGENT)
            else:
                slope = scale * y[1] if not is_zero(dw) else None
                bend = scale * curvature(*args, y) if not is_zero(dwp) else None
                grads.append(project_x(linear_pair(slope, bend, dw, dwp)))
            return tuple(grads)

        return y, pair_pullback

    def pair_frule(tangents: tuple, *args: Any) -> tuple[Any, Any]:
        y = f(*args)
        dw: Any = ZERO_TANGENT
        dwp: Any = ZERO_TANGENT
        for i, (p, dp) in enumerate(zip(parameters, tangents[1:-1], strict=True)):
            if p is None or is_zero(dp):
                continue
            if not is_differentiable_leaf(args[i]) or vanishes(dp):
                continue
            if isinstance(p, NotImplementedTangent):
                return y, p
            refused = refused_on_tracked(i, args, dp)
            if refused is not None:
                return y, refused
            sw, swp = p(*args, y)
            dw, dwp = dw + sw * dp, dwp + swp * dp
        dx = tangents[-1]
        if is_differentiable_leaf(args[-1]) and not is_zero(dx):
            dw = dw + scale * y[1] * dx
            dwp = dwp + scale * curvature(*args, y) * dx
        return y, Tangent(tuple, fit_to_output(dw, y[0]), fit_to_output(dwp, y[1]))

    rrule.register(f)(pair_rrule)
    frule.register(f)(pair_frule)


def elementwise(scalar: Callable[..., tuple], outputs: int, *arrays: Any) -> tuple:
    """``scalar`` applied to each element of the broadcast ``arrays``: ``outputs`` arrays.

    ``scalar`` takes Python floats and returns ``outputs`` floats; NumPy values only.

    >>> elementwise(lambda a, b: (a + b, a * b), 2, [1.0, 2.0], 3.0)
    (array([4., 5.]), array([3., 6.]))
    """
    values = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in arrays))
    shape = values[0].shape
    results = [np.empty(shape) for _ in range(outputs)]
    for index in np.ndindex(shape):
        for out, r in zip(results, scalar(*(float(v[index]) for v in values)), strict=True):
            out[index] = r
    return tuple(r[()] if shape == () else r for r in results)


def perturbed_eigenvector(
    matrix: np.ndarray, coupling: np.ndarray, eigenvalue: float, v: np.ndarray
) -> tuple[float, np.ndarray]:
    """``(dλ, dv)`` for a unit eigenvector ``v`` of a symmetric ``matrix(s)`` with derivative
    ``coupling``, at the simple eigenvalue ``λ``.

    Hellmann-Feynman gives ``dλ = v' coupling v``; ``dv`` solves the bordered system
    ``[[matrix - λ, v], [v', 0]] [dv; mu] = [-(coupling - dλ) v; 0]``, so ``v' dv = 0``.

    >>> d, dv = perturbed_eigenvector(np.diag([1.0, 3.0]), np.ones((2, 2)), 1.0, np.eye(2)[0])
    >>> float(d), dv.tolist()
    (1.0, [0.0, -0.5])
    """
    size = len(v)
    pushed = coupling @ v
    slope = float(v @ pushed)
    bordered = np.zeros((size + 1, size + 1))
    bordered[:size, :size] = matrix - eigenvalue * np.eye(size)
    bordered[:size, size] = v
    bordered[size, :size] = v
    rhs = np.zeros(size + 1)
    rhs[:size] = slope * v - pushed
    return slope, np.linalg.solve(bordered, rhs)[:size]


# ---- Fourier coefficients of ce_m and se_m and their derivatives in q ---------------------------


def _family(even: bool, m: int) -> tuple[int, float]:
    """The first frequency of ce_m (``even``) or se_m, and the corner ``T[0, 0]`` of its matrix."""
    if even:
        return (0, 0.0) if m % 2 == 0 else (1, 1.0)
    return (1, -1.0) if m % 2 else (2, 0.0)


# SciPy computes at most 251 Fourier coefficients (the arrays of its ``fcoef``), and predicts
# how many it needs from m and |q|: beyond 251 (|q| above about 2,100) it warns, returns them
# cut short, and from about q = 1e8 on crashes the process.
_MOST_COEFFICIENTS = 251


def _predicted_coefficients(m: int, q: float) -> float:
    """How many Fourier coefficients SciPy predicts ce_m or se_m at ``q`` needs (its formula)."""
    q = abs(q)
    root = math.sqrt(q)
    if q <= 1:
        return 7.5 + 56.1 * root - 134.7 * q + 90.7 * root * q + 0.5 * m
    return 17.0 + 3.1 * root - 0.126 * q + 0.0037 * root * q + 0.5 * m


def _refused(m: int, q: float, why: str) -> ValueError:
    return ValueError(
        f"the derivatives of the Mathieu functions of order {m} at q = {q} are not computed: "
        f"they take SciPy's Fourier coefficients there, and {why}"
    )


def _coefficients(even: bool, m: int, q: float) -> np.ndarray:
    """SciPy's Fourier coefficients of ce_m (``even``) or se_m at any real ``q``.

    For ``q < 0``, ``ce_2n(t, q) = (-1)^n ce_2n(pi/2 - t, -q)`` and its three companions
    (DLMF 28.2.34-37) turn the coefficients at ``-q`` of ``ce`` or ``se`` into these. Where
    SciPy would need more than it computes, the derivatives are refused, not given wrong.
    """
    if not _predicted_coefficients(m, q) <= _MOST_COEFFICIENTS:
        raise _refused(
            m, q, f"SciPy computes {_MOST_COEFFICIENTS}, too few from |q| of about 2,100"
        )
    if q >= 0:
        return (sc.mathieu_even_coef if even else sc.mathieu_odd_coef)(m, q)
    swapped = even == (m % 2 == 0)  # ce_2n and se_2n+1 at -q come from the even coefficients
    source = sc.mathieu_even_coef if swapped else sc.mathieu_odd_coef
    n = m // 2 if (even or m % 2) else m // 2 - 1
    coefficients = source(m, -q)
    return (-1.0) ** (n + np.arange(len(coefficients))) * coefficients


@functools.lru_cache(maxsize=1024)
def fourier_slopes(even: bool, m: int, q: float) -> tuple[np.ndarray, ...]:
    """``(frequencies, coefficients, their q-derivatives, (da/dq,))`` of ce_m or se_m at q.

    The coefficients are SciPy's (``mathieu_even_coef`` for ce_m, ``mathieu_odd_coef`` for
    se_m, turned by the symmetries for ``q < 0``); ``ce_m(t) = sum A_k cos(f_k t)``,
    ``se_m(t) = sum B_k sin(f_k t)``. Cached: the arrays must not be modified.

    >>> f, a, da, (slope,) = fourier_slopes(True, 0, 0.0)
    >>> f[:3].tolist(), round(float(a[0]) ** 2, 12), float(slope)
    ([0, 2, 4], 0.5, 0.0)
    """
    first, corner = _family(even, m)
    coefficients = _coefficients(even, m, q)
    size = len(coefficients) + _PAD
    frequencies = first + 2 * np.arange(size)
    coupling = np.diag(np.ones(size - 1), 1) + np.diag(np.ones(size - 1), -1)
    coupling[0, 0] = corner
    v = np.zeros(size)
    v[: len(coefficients)] = coefficients
    if first == 0:  # ce_2n: the coefficient of cos 0 counts twice in the norm
        coupling[0, 1] = coupling[1, 0] = _ROOT2
        v[0] *= _ROOT2
    if not abs(v @ v - 1.0) < 1e-6:  # SciPy's are normalized where it computed them
        raise _refused(m, q, "SciPy's are not a unit vector (all 0 at q = 1,800 for m = 0)")
    matrix = np.diag(frequencies**2.0) + q * coupling
    eigenvalue = (sc.mathieu_a if even else sc.mathieu_b)(m, q)
    slope, dv = perturbed_eigenvector(matrix, coupling, eigenvalue, v)
    if first == 0:
        v[0] /= _ROOT2
        dv[0] /= _ROOT2
    return frequencies, v, dv, np.array([slope])


def _order(m: float) -> int | None:
    """``m`` as an int, or None when it is not a non-negative integer (SciPy gives NaN)."""
    if not (np.isfinite(m) and m >= 0 and m == int(m)):
        return None
    return int(m)


# ---- characteristic values ------------------------------------------------------------------


def _characteristic_slope_scalar(even: bool, m: float, q: float) -> tuple[float]:
    order = _order(m)
    if order is None or not np.isfinite(q) or (not even and order == 0):
        return (np.nan,)
    return (float(fourier_slopes(even, order, q)[3][0]),)


def _characteristic_slope(even: bool) -> Callable[..., Any]:
    def slope(m: Any, q: Any, y: Any) -> Any:
        return elementwise(functools.partial(_characteristic_slope_scalar, even), 1, m, q)[0]

    return slope


parametric_rule(sc.mathieu_a, None, _characteristic_slope(True), costly=(1,))
parametric_rule(sc.mathieu_b, None, _characteristic_slope(False), costly=(1,))

# ---- Fourier coefficients -------------------------------------------------------------------


def vector_in_last_rules(f: Any, slopes: Callable[..., Any]) -> None:
    """Rules for ``y = f(*integers, p)``, a vector of values at scalar arguments that is
    differentiable in its last argument ``p`` only, with ``dy/dp = slopes(*args, y)``.

    The slopes come from NumPy linear algebra: the cotangent of ``p`` is thunked, and on an
    engine's tracked values it is ``NotImplementedTangent`` (``numpy_only``).
    """
    name = f.__name__

    def vector_rrule(*args: Any) -> tuple[Any, Any]:
        require_numpy(f, *args)  # SciPy takes scalars only: adapters run it on the host
        y = f(*args)
        p = args[-1]
        project: Any = ProjectTo(p) if is_differentiable_leaf(p) else None
        integers = (NO_TANGENT,) * len(args)

        def vector_cotangent(dy: Any) -> Any:
            if not is_numpy(p, dy):
                return numpy_only(name, len(args) - 1)
            return project(np.sum(slopes(*args, y) * dy))

        def vector_pullback(dy: Any) -> tuple[Any, ...]:
            if project is None:
                return (*integers, NO_TANGENT)
            return (*integers, Thunk(functools.partial(vector_cotangent, dy)))

        return y, vector_pullback

    def vector_frule(tangents: tuple, *args: Any) -> tuple[Any, Any]:
        require_numpy(f, *args)
        y = f(*args)
        p, dp = args[-1], tangents[len(args)]
        if is_zero(dp) or not is_differentiable_leaf(p):
            return y, ZERO_TANGENT
        if not is_numpy(p, dp):
            return y, numpy_only(name, len(args) - 1)
        return y, slopes(*args, y) * dp

    rrule.register(f)(vector_rrule)
    frule.register(f)(vector_frule)


def _coefficient_slopes(even: bool) -> Callable[..., Any]:
    """``dA/dq`` of SciPy's vector ``A`` of Fourier coefficients at scalars m and q >= 0."""

    def slopes(m: Any, q: Any, y: Any) -> Any:
        return fourier_slopes(even, int(m), float(q))[2][: len(y)]

    return slopes


vector_in_last_rules(sc.mathieu_even_coef, _coefficient_slopes(True))
vector_in_last_rules(sc.mathieu_odd_coef, _coefficient_slopes(False))

# ---- ce_m and se_m: x in degrees, the derivative in radians ------------------------------------


def _angular_slopes_scalar(even: bool, m: float, q: float, x: float) -> tuple[float, float]:
    order = _order(m)
    if order is None or not np.isfinite(q):
        return np.nan, np.nan
    if not even and order == 0:  # se_0 vanishes identically
        return 0.0, 0.0
    frequencies, _, dv, _ = fourier_slopes(even, order, q)
    phase = frequencies * (x * _DEGREE)
    if even:
        return float(dv @ np.cos(phase)), float(-(dv * frequencies) @ np.sin(phase))
    return float(dv @ np.sin(phase)), float((dv * frequencies) @ np.cos(phase))


def _angular_slopes(even: bool) -> Callable[..., Any]:
    def slopes(m: Any, q: Any, x: Any, y: Any) -> tuple[Any, Any]:
        return elementwise(functools.partial(_angular_slopes_scalar, even), 2, m, q, x)

    return slopes


def _cem_curvature(m: Any, q: Any, x: Any, y: tuple) -> Any:
    return (2 * q * np.cos(2 * _DEGREE * x) - sc.mathieu_a(m, q)) * y[0]


def _sem_curvature(m: Any, q: Any, x: Any, y: tuple) -> Any:
    # se_0 = 0, and b_0 is NaN: a harmless order stands in where the result is masked.
    order = np.where(np.equal(m, 0), 2, m)
    bend = (2 * q * np.cos(2 * _DEGREE * x) - sc.mathieu_b(order, q)) * y[0]
    return np.where(np.equal(m, 0), 0.0, bend)


pair_rules(sc.mathieu_cem, _cem_curvature, (None, _angular_slopes(True)), scale=_DEGREE)
pair_rules(sc.mathieu_sem, _sem_curvature, (None, _angular_slopes(False)), scale=_DEGREE)

# ---- modified (radial) functions: series of Bessel products --------------------------------------

# (index shift of J, index shift of C, sign) of each Bessel product, by family (DLMF 28.24)
_PRODUCTS = {
    (True, 0): ((0, 0, 1.0),),
    (True, 1): ((0, 1, 1.0), (1, 0, 1.0)),
    (False, 1): ((0, 1, 1.0), (1, 0, -1.0)),
    (False, 0): ((0, 2, 1.0), (2, 0, -1.0)),
}


def _modified_slopes_scalar(
    even: bool, kind: int, m: float, q: float, u: float
) -> tuple[float, float]:
    order = _order(m)
    if order is None or not 0 < q < np.inf or np.isnan(u) or (not even and order == 0):
        return np.nan, np.nan
    _, a, da, _ = fourier_slopes(even, order, q)
    k = np.arange(len(a))
    half = order // 2 if (even or order % 2) else order // 2 - 1
    signs = (-1.0) ** (k + half)
    ratio = signs * a / a[0]
    dratio = signs * (da * a[0] - a * da[0]) / a[0] ** 2
    root = np.sqrt(q)
    u1, u2 = root * np.exp(-u), root * np.exp(u)
    second = sc.yv if kind == 2 else sc.jv
    second_slope = (lambda v, z: sc.yvp(v, z)) if kind == 2 else (lambda v, z: sc.jvp(v, z))
    value_q: Any = 0.0
    slope_q: Any = 0.0
    for shift_j, shift_c, sign in _PRODUCTS[(even, order % 2)]:
        p, r = k + shift_j, k + shift_c
        j, jp = sc.jv(p, u1), sc.jvp(p, u1)
        c, cp = second(r, u2), second_slope(r, u2)
        product = sign * j * c
        product_q = sign * (u1 * jp * c + u2 * j * cp) / (2 * q)
        product_u = sign * (u2 * j * cp - u1 * jp * c)
        product_uq = (u1 * u1 - u2 * u2 + r * r - p * p) / (2 * q) * product
        value_q = value_q + dratio @ product + ratio @ product_q
        slope_q = slope_q + dratio @ product_u + ratio @ product_uq
    return float(value_q), float(slope_q)


def _modified_slopes(even: bool, kind: int) -> Callable[..., Any]:
    def slopes(m: Any, q: Any, u: Any, y: Any) -> tuple[Any, Any]:
        scalar = functools.partial(_modified_slopes_scalar, even, kind)
        return elementwise(scalar, 2, m, q, u)

    return slopes


def _modcem_curvature(m: Any, q: Any, u: Any, y: tuple) -> Any:
    return (sc.mathieu_a(m, q) - 2 * q * np.cosh(2 * u)) * y[0]


def _modsem_curvature(m: Any, q: Any, u: Any, y: tuple) -> Any:
    return (sc.mathieu_b(m, q) - 2 * q * np.cosh(2 * u)) * y[0]


for _f, _even, _kind in (
    (sc.mathieu_modcem1, True, 1),
    (sc.mathieu_modcem2, True, 2),
    (sc.mathieu_modsem1, False, 1),
    (sc.mathieu_modsem2, False, 2),
):
    _curvature = _modcem_curvature if _even else _modsem_curvature
    pair_rules(_f, _curvature, (None, _modified_slopes(_even, _kind)))
