"""Rules for spherical harmonics and Legendre functions of all degrees.

SciPy's ``sph_harm_y``, ``sph_harm_y_all``, ``legendre_p_all``, ``assoc_legendre_p_all`` and
``sph_legendre_p_all`` return derivatives themselves: with ``diff_n = d`` (0, 1 or 2), the
value and its derivatives up to order ``d``. Each output is a linear arrangement of the
derivatives ``0..d`` in the argument, so its derivative is the same arrangement of the
derivatives ``1..d+1``: the rule for ``diff_n = d`` calls SciPy with ``diff_n = d + 1``, and
for ``diff_n = 2`` adds the third derivative, exactly:

* spherical functions ``S_n^m(theta)`` (and ``Y = S e^{i m phi}``), by the ladder relation
  ``2 S' = sqrt((n-m)(n+m+1)) S^{m+1} - sqrt((n+m)(n-m+1)) S^{m-1}`` applied to the second
  derivatives of the neighbouring orders (with ``e^{-+i phi}`` for ``Y``): no division, so
  the poles ``theta = 0, pi`` are regular. In ``phi``, ``dY/dphi = i m Y``, which is 0
  wherever ``Y`` is, as at the poles for ``m != 0``;
* Legendre polynomials: ``P_n''' = 15 C_{n-3}^{(7/2)}`` (Gegenbauer, DLMF 18.9.19);
* associated Legendre functions: Legendre's equation differentiated once,
  ``(1-z^2) y''' = 4 z y'' + (2 - n(n+1) + m^2/(1-z^2)) y' + 2 m^2 z y/(1-z^2)^2``, with
  order 0 by Gegenbauer. At ``z = +-1`` exactly the equation degenerates: there the third
  derivative of an order other than 0 is NaN (SciPy's own first and second derivatives of
  odd orders are infinite there).

The same helpers (``stacked_rules``, ``legendre_third``, ``assoc_legendre_third``,
``ladder_slope``) give the rules of ``legendre_p``, ``assoc_legendre_p`` and
``sph_legendre_p``, one degree and order at a time (module ``legendre``).

The integer degrees and orders have no tangent; ``norm`` and ``branch_cut`` pass through
(the equations hold on both branches), any other keyword raises ``RuleKeywordError``.
SciPy computes on NumPy values only: the rules call it as ``call(f, ...)``
(``chainrules.core.calls``), so that an engine applies these same rules to its tracked
values, and pullbacks differentiate again.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.sph_harm_y, 1, 0, 0.5, 0.0)  # Y_1^0 = sqrt(3/pi) cos(theta)/2
>>> bool(np.isclose(pullback(1.0)[3], -np.sqrt(3 / np.pi) * np.sin(0.5) / 2))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.define import fit_to_output
from ....core.dtypes import conj
from ....core.names import short_name
from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.structure import is_differentiable_leaf
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import unthunk
from ....core.zeros import is_zero

__all__ = [
    "assoc_legendre_third",
    "ladder_slope",
    "legendre_third",
    "scaled",
    "stacked_rules",
]


def scaled(slope: Any, d: Any) -> Any:
    """``slope * d``, and 0 where ``d`` is 0 even if ``slope`` is infinite there.

    At the edges of their domains SciPy's derivatives can be infinite (Legendre functions at
    ``z = +-1``); a zero tangent of such an output must not turn the others into NaN.

    >>> scaled(np.array([np.inf, 2.0]), np.array([0.0, 3.0]))
    array([0., 6.])
    """
    xp = array_namespace(slope, d)
    with np.errstate(invalid="ignore"):
        return xp.where(d == 0, 0.0, slope * d)


def _ndim(x: Any) -> int:
    return len(getattr(x, "shape", ()))


def _checked_order(f: Any, args: tuple, diff_n: Any, options: dict) -> int:
    """``diff_n`` as 0, 1 or 2; any other value gets SciPy's own error."""
    if diff_n in (0, 1, 2):
        return int(diff_n)
    f(*args, diff_n=diff_n, **options)
    raise ValueError(f"{short_name(f)}: diff_n must be 0, 1 or 2, not {diff_n!r}")


def _projector(x: Any) -> Any:
    return ProjectTo(x) if is_differentiable_leaf(x) else None


def ladder_slope(n: Any, m: Any, up: Any, down: Any) -> Any:
    """``S'`` of a spherical function of degree ``n``, order ``m``, from its neighbours.

    ``2 S' = sqrt((n-m)(n+m+1)) up - sqrt((n+m)(n-m+1)) down``, where ``up`` and ``down``
    are the functions of orders ``m + 1`` and ``m - 1`` (or any derivative of theirs, which
    gives the next derivative of ``S``); a coefficient is 0 where the neighbour is beyond
    ``n``. No division: exact at the poles.

    >>> import scipy.special as sc
    >>> up, down = sc.sph_legendre_p(2, 2, 0.7), sc.sph_legendre_p(2, 0, 0.7)
    >>> bool(np.isclose(ladder_slope(2, 1, up, down), sc.sph_legendre_p(2, 1, 0.7, diff_n=1)[1]))
    True
    """
    n, m = np.asarray(n), np.asarray(m)
    raising = np.sqrt(np.maximum((n - m) * (n + m + 1), 0))
    lowering = np.sqrt(np.maximum((n + m) * (n - m + 1), 0))
    return (raising * up - lowering * down) / 2


def _all_orders(m: int) -> np.ndarray:
    """The orders along the second axis of SciPy's ``*_all`` functions: 0..m, then -m..-1."""
    m = abs(int(m))
    return np.concatenate([np.arange(m + 1), np.arange(-m, 0)])


def _grid(n: int, m: int, trailing: int) -> tuple[np.ndarray, np.ndarray]:
    """Degrees ``0..n`` and the orders of ``_all_orders(m)``, shaped for the output's axes."""
    ones = (1,) * trailing
    orders = _all_orders(m)
    return np.arange(n + 1).reshape((n + 1, 1, *ones)), orders.reshape((1, orders.size, *ones))


def _neighbour_orders(table: Any, m: int) -> tuple[Any, Any]:
    """The entries of orders ``k + 1`` and ``k - 1``, for each order ``k`` of ``_all_orders(m)``.

    ``table`` runs over the orders of ``_all_orders(|m| + 1)`` on its second axis.
    """
    k = _all_orders(m)
    width = 2 * (abs(int(m)) + 1) + 1
    return table[:, (k + 1) % width], table[:, (k - 1) % width]


# ---- spherical harmonics: outputs built from the theta derivatives ----------------------------


def _sph_parts(d: int, t: list, ik: Any) -> list:
    """The components of ``sph_harm_y(..., diff_n=d)`` from the theta derivatives ``t``.

    ``Y``; the gradient ``(Y_theta, Y_phi)``; the Hessian row by row. Every phi derivative
    is a factor ``i m``, so ``t = [Y, Y_theta, ...]`` determines all of them.
    """
    parts = [t[0]]
    if d >= 1:
        parts += [t[1], ik * t[0]]
    if d >= 2:
        parts += [t[2], ik * t[1], ik * t[1], ik * ik * t[0]]
    return parts


def _sph_cotangent_parts(d: int, dy: Any) -> list:
    """The cotangent of each component of ``_sph_parts`` (``None`` where it is zero)."""
    if d == 0:
        return [dy]
    dy = [unthunk(c) for c in dy]
    parts = [None if is_zero(dy[0]) else dy[0]]
    gradient = dy[1]
    if is_zero(gradient):
        parts += [None, None]
    else:
        parts += [gradient[..., 0], gradient[..., 1]]
    if d == 2:
        hessian = dy[2]
        if is_zero(hessian):
            parts += [None] * 4
        else:
            parts += [hessian[..., i, j] for i in (0, 1) for j in (0, 1)]
    return parts


def _sph_assemble(d: int, parts: list, like: Any) -> Any:
    """The output tangent with the structure of ``like`` (SciPy's output) from components."""
    if d == 0:
        return fit_to_output(parts[0], like)
    xp = array_namespace(*parts)
    gradient = xp.stack(parts[1:3], axis=-1)
    fields = [fit_to_output(parts[0], like[0]), fit_to_output(gradient, like[1])]
    if d == 2:
        rows = [xp.stack(parts[3:5], axis=-1), xp.stack(parts[5:7], axis=-1)]
        fields.append(fit_to_output(xp.stack(rows, axis=-2), like[2]))
    return Tangent(tuple, *fields)


def _theta_derivatives(f: Any, args: tuple, d: int, third: Any) -> tuple[Any, list]:
    """SciPy's output for ``diff_n = d``, and the theta derivatives ``0..d+1``."""
    top = min(d + 1, 2)
    out = call(f, *args, diff_n=top)
    t = [out[0], out[1][..., 0]]
    if top == 2:
        t.append(out[2][..., 0, 0])
    if d == 2:
        t.append(third(*args))
        return out, t
    return (out[0] if d == 0 else out[: d + 1]), t


def _real_inner(parts: list, cotangents: list) -> Any:
    total: Any = ZERO_TANGENT
    for p, c in zip(parts, cotangents, strict=True):
        if c is not None:
            total = total + conj(p) * c
    return total if is_zero(total) else array_namespace(total).real(total)


def _spherical_rules(f: Any, orders: Any, third: Any) -> None:
    """Rules for ``f(n, m, theta, phi, *, diff_n=0)``, a spherical harmonic family.

    ``orders(n, m, y)`` gives ``i m`` shaped for the output ``y``; ``third(n, m, theta,
    phi)`` is the third theta derivative of the value.
    """

    def spherical_rrule(n: Any, m: Any, theta: Any, phi: Any, *, diff_n: Any = 0) -> Any:
        d = _checked_order(f, (n, m, theta, phi), diff_n, {})
        y, t = _theta_derivatives(f, (n, m, theta, phi), d, third)
        ik = 1j * orders(n, m, t[0])
        project_theta, project_phi = _projector(theta), _projector(phi)

        def spherical_pullback(dy: Any) -> tuple:
            integers = (NO_TANGENT, NO_TANGENT, NO_TANGENT)
            cotangents = _sph_cotangent_parts(d, dy)
            dtheta = dphi = NO_TANGENT
            if project_theta is not None:
                dtheta = project_theta(_real_inner(_sph_parts(d, t[1:], ik), cotangents))
            if project_phi is not None:
                values = [ik * p for p in _sph_parts(d, t[:-1], ik)]
                dphi = project_phi(_real_inner(values, cotangents))
            return (*integers, dtheta, dphi)

        return y, spherical_pullback

    def spherical_frule(tangents: tuple, n: Any, m: Any, theta: Any, phi: Any, *, diff_n: Any = 0):
        d = _checked_order(f, (n, m, theta, phi), diff_n, {})
        y, t = _theta_derivatives(f, (n, m, theta, phi), d, third)
        ik = 1j * orders(n, m, t[0])
        dtheta, dphi = (tangents[i] for i in (3, 4))
        total: list = [ZERO_TANGENT] * len(_sph_parts(d, t, ik))
        if is_differentiable_leaf(theta) and not is_zero(dtheta):
            total = [a + p * dtheta for a, p in zip(total, _sph_parts(d, t[1:], ik), strict=True)]
        if is_differentiable_leaf(phi) and not is_zero(dphi):
            slopes = _sph_parts(d, t[:-1], ik)
            total = [a + ik * p * dphi for a, p in zip(total, slopes, strict=True)]
        if all(is_zero(a) for a in total):
            return y, ZERO_TANGENT if d == 0 else Tangent(tuple, *([ZERO_TANGENT] * (d + 1)))
        parts = [a + 0 * t[0] if is_zero(a) else a for a in total]
        return y, _sph_assemble(d, parts, y)

    for rule, table in ((spherical_rrule, rrule), (spherical_frule, frule)):
        table.register(f)(rule)


def _sph_harm_y_orders(n: Any, m: Any, y: Any) -> Any:
    return np.asarray(m)


def _sph_harm_y_third(n: Any, m: Any, theta: Any, phi: Any) -> Any:
    up = call(sc.sph_harm_y, n, np.add(m, 1), theta, phi, diff_n=2)[2][..., 0, 0]
    down = call(sc.sph_harm_y, n, np.subtract(m, 1), theta, phi, diff_n=2)[2][..., 0, 0]
    return ladder_slope(n, m, np.exp(-1j * phi) * up, np.exp(1j * phi) * down)


def _sph_harm_y_all_orders(n: Any, m: Any, y: Any) -> Any:
    return _grid(int(n), m, _ndim(y) - 2)[1]


def _sph_harm_y_all_third(n: Any, m: Any, theta: Any, phi: Any) -> Any:
    table = call(sc.sph_harm_y_all, n, abs(int(m)) + 1, theta, phi, diff_n=2)[2][..., 0, 0]
    up, down = _neighbour_orders(table, m)
    degrees, orders = _grid(int(n), m, _ndim(up) - 2)
    return ladder_slope(degrees, orders, np.exp(-1j * phi) * up, np.exp(1j * phi) * down)


_spherical_rules(sc.sph_harm_y, _sph_harm_y_orders, _sph_harm_y_third)
_spherical_rules(sc.sph_harm_y_all, _sph_harm_y_all_orders, _sph_harm_y_all_third)

# ---- Legendre functions of all degrees: derivatives stacked on a leading axis ----------------


def _stacked_derivatives(f: Any, args: tuple, options: dict, d: int, third: Any) -> tuple:
    """SciPy's output for ``diff_n = d`` and its derivative: the stack of rows ``1..d+1``."""
    out = call(f, *args, diff_n=min(d + 1, 2), **options)
    if d < 2:
        return out[: d + 1], out[1:]
    xp = array_namespace(out)
    return out, xp.stack([out[1], out[2], third(args, options, out)])


def stacked_rules(f: Any, lead: int, third: Any, keywords: tuple[str, ...] = ()) -> None:
    """Registers the rrule and frule of ``f(*integers, z, *, diff_n=0, **options)``.

    Its output stacks the derivatives in ``z`` on the first axis, then ``lead - 1`` axes of
    degrees and orders; ``third(args, options, out)`` is the third derivative, from the
    output ``out`` of ``diff_n = 2``. ``keywords`` names the options, which pass through to
    SciPy; any other keyword raises ``RuleKeywordError``.

    >>> import scipy.special as sc
    >>> from chainrules.core.registry import rrule
    >>> y, pullback = rrule(sc.legendre_p_all, 2, 0.5)  # P_0, P_1, P_2 = (3 z^2 - 1)/2
    >>> float(pullback(np.ones((1, 3)))[2])  # the tangents of f, n, z: 0 + 1 + 3 z
    2.5
    """

    def stacked_rrule(*args: Any, diff_n: Any = 0, **options: Any) -> tuple[Any, Any]:
        d = _checked_order(f, args, diff_n, options)
        y, slope = _stacked_derivatives(f, args, options, d, third)
        project = _projector(args[-1])
        integers = (NO_TANGENT,) * len(args)

        def stacked_pullback(dy: Any) -> tuple:
            if project is None:
                return (*integers, NO_TANGENT)
            xp = array_namespace(slope, dy)
            total = xp.sum(scaled(conj(slope), dy), axis=tuple(range(lead)))
            return (*integers, project(total))

        return y, stacked_pullback

    def stacked_frule(tangents: tuple, *args: Any, diff_n: Any = 0, **options: Any) -> Any:
        d = _checked_order(f, args, diff_n, options)
        y, slope = _stacked_derivatives(f, args, options, d, third)
        dz = tangents[len(args)]
        if is_zero(dz) or not is_differentiable_leaf(args[-1]):
            return y, ZERO_TANGENT
        return y, fit_to_output(scaled(slope, dz), y)

    rules: tuple[tuple[Any, Any], ...] = ((stacked_rrule, rrule), (stacked_frule, frule))
    for rule, table in rules:
        table.register(f, keywords=("diff_n", *keywords))(rule)


def _degrees(n: int, trailing: int) -> np.ndarray:
    return np.arange(n + 1).reshape((n + 1,) + (1,) * trailing)


def legendre_third(z: Any, degrees: Any) -> Any:
    """``P_n''' = 15 C_{n-3}^{(7/2)}`` (DLMF 18.9.19), 0 below degree 3.

    >>> float(legendre_third(0.5, 3))  # P_3 = (5 z^3 - 3 z)/2
    15.0
    """
    return 15 * (degrees >= 3) * sc.eval_gegenbauer(np.maximum(degrees - 3, 0), 3.5, z)


def _legendre_p_all_third(args: tuple, options: dict, out: Any) -> Any:
    n, z = args
    return legendre_third(z, _degrees(int(n), _ndim(out) - 2))


def assoc_legendre_third(z: Any, degrees: Any, orders: Any, out: Any, norm: Any) -> Any:
    """The third derivative of ``P_n^m(z)`` from ``out``: its value and first two derivatives.

    Legendre's equation differentiated once; order 0 by Gegenbauer (``legendre_third``,
    times ``sqrt((2n+1)/2)`` when ``norm``), NaN at ``z = +-1`` for the other orders.
    ``degrees`` and ``orders`` broadcast against the rows ``out[0]``, ``out[1]``, ``out[2]``.

    >>> import scipy.special as sc
    >>> out = sc.assoc_legendre_p(3, 1, 0.5, diff_n=2)  # -3 (5 z^2 - 1) sqrt(1 - z^2)/2
    >>> bool(np.isclose(assoc_legendre_third(0.5, 3, 1, out, False), 107 * np.sqrt(3) / 3))
    True
    """
    xp = array_namespace(out, z)
    zeroth = legendre_third(z, degrees)
    if norm:
        zeroth = zeroth * np.sqrt((2 * degrees + 1) / 2)
    w = 1 - z * z
    edge = w == 0
    safe = xp.where(edge, 1.0, w)
    # The edges' infinite derivatives (odd orders) are masked before they meet a product.
    y, y1, y2 = (xp.where(edge, 0.0, row) for row in (out[0], out[1], out[2]))
    square = orders * orders
    lam = degrees * (degrees + 1)
    inner = 4 * z * y2 + (2 - lam + square / safe) * y1 + 2 * square * z * y / (safe * safe)
    ode = xp.where(edge, np.nan, inner / safe)
    return xp.where(orders == 0, zeroth, ode)


def _assoc_legendre_p_all_third(args: tuple, options: dict, out: Any) -> Any:
    n, m, z = args
    degrees, orders = _grid(int(n), m, _ndim(out) - 3)
    return assoc_legendre_third(z, degrees, orders, out, options.get("norm", False))


def _sph_legendre_p_all_third(args: tuple, options: dict, out: Any) -> Any:
    n, m, theta = args
    table = call(sc.sph_legendre_p_all, n, abs(int(m)) + 1, theta, diff_n=2)[2]
    up, down = _neighbour_orders(table, m)
    return ladder_slope(*_grid(int(n), m, _ndim(up) - 2), up, down)


stacked_rules(sc.legendre_p_all, 2, _legendre_p_all_third)
stacked_rules(sc.assoc_legendre_p_all, 3, _assoc_legendre_p_all_third, ("branch_cut", "norm"))
stacked_rules(sc.sph_legendre_p_all, 3, _sph_legendre_p_all_third)
