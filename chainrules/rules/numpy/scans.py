"""Rules for NumPy's scans: cumsum, cumprod, cumulative_sum, cumulative_prod and the NaN forms.

``axis=None`` scans the flattened array, as NumPy does; ``include_initial`` (of the
``cumulative_*`` functions) adds the leading identity element, whose tangent is zero.

The cumulative product is differentiated without dividing by the input. Writing
``L[k] = x[0] * ... * x[k-1]`` (the exclusive product, read off the output) the pullback is
``dx[k] = conj(L[k]) * R[k]`` with ``R[k] = dy[k] + conj(x[k+1]) * R[k+1]``, a first-order linear
recurrence solved by ``linear_recurrence`` in ``log2(n)`` vectorised steps. It is exact with
any number of zeros, and, being built from products, sums, slices and concatenations only, it
can itself be differentiated by an engine (second derivatives of ``prod`` go through it).

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.cumprod, np.array([2.0, 0.0, 3.0]))
>>> pullback(np.ones(3))[1]
array([1., 8., 0.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._compat import cumulative_prod
from ...core.linear import register_rules
from ...core.namespace import array_namespace, numpy_dispatches
from ...core.projection import ProjectTo
from ...core.shapes import normalize_axis
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.zeros import is_zero

__all__ = ["linear_recurrence"]


def _along(axis: int, index: slice) -> tuple[slice, ...]:
    return (slice(None),) * axis + (index,)


def linear_recurrence(a: Any, b: Any, axis: int) -> Any:
    """The solution ``s`` of ``s[m] = a[m] + b[m] * s[m-1]`` along ``axis``, with ``s[-1] = 0``.

    ``b[0]`` is not used. The scan runs in ``ceil(log2(n))`` steps, each combining every
    element with the one ``d`` places before it, so it needs only multiplications, additions,
    slices and concatenations: it is differentiable by any engine and exact with zeros.

    >>> linear_recurrence(np.array([1.0, 1.0, 1.0]), np.array([0.0, 2.0, 3.0]), 0)
    array([ 1.,  3., 10.])
    """
    xp = array_namespace(a, b)
    b = xp.broadcast_to(b, a.shape)
    n = a.shape[axis]
    d = 1
    while d < n:
        head, tail = _along(axis, slice(None, d)), _along(axis, slice(d, None))
        before = _along(axis, slice(None, n - d))
        a = xp.concat((a[head], a[tail] + b[tail] * a[before]), axis=axis)
        if 2 * d < n:
            b = xp.concat((b[head], b[tail] * b[before]), axis=axis)
        d *= 2
    return a


def _flat_axis(x: Any, axis: Any) -> tuple[Any, int]:
    """The array a scan runs over and its axis: ``axis=None`` scans the flattened array, and
    so does any axis of a 0-d array (NumPy scans it as one element, with axis 0 or -1)."""
    xp = array_namespace(x)
    x = xp.asarray(x)
    if axis is None or x.ndim == 0:
        return xp.reshape(x, (-1,)), 0
    return x, normalize_axis(axis, x.ndim)


def _drop_initial(dy: Any, axis: int, include_initial: bool) -> Any:
    return dy[_along(axis, slice(1, None))] if include_initial else dy


def _add_initial(dy: Any, axis: int, include_initial: bool) -> Any:
    if not include_initial:
        return dy
    xp = array_namespace(dy)
    shape = list(dy.shape)
    shape[axis] = 1
    return xp.concat((xp.zeros(tuple(shape), dtype=dy.dtype), dy), axis=axis)


def _reverse_cumsum(dy: Any, axis: int) -> Any:
    xp = array_namespace(dy)
    return xp.flip(xp.cumulative_sum(xp.flip(dy, axis=axis), axis=axis), axis=axis)


def _exclusive_products(y: Any, axis: int, include_initial: bool) -> Any:
    """``x[0] * ... * x[k-1]`` for each ``k``, read off the output ``y`` of the scan."""
    n = y.shape[axis] - (1 if include_initial else 0)
    if include_initial:
        return y[_along(axis, slice(None, n))]
    xp = array_namespace(y)
    shape = list(y.shape)
    shape[axis] = 1
    ones = xp.ones(tuple(shape), dtype=y.dtype)
    return xp.concat((ones, y[_along(axis, slice(None, n - 1))]), axis=axis)


def _cumprod_pullback(x: Any, y: Any, dy: Any, axis: int, include_initial: bool) -> Any:
    """``dx`` of a cumulative product of ``x`` with output ``y``, given the cotangent ``dy``."""
    xp = array_namespace(x, y, dy)
    before = _exclusive_products(y, axis, include_initial)
    later = xp.concat(
        (xp.conj(x)[_along(axis, slice(1, None))], xp.zeros_like(x[_along(axis, slice(0, 1))])),
        axis=axis,
    )
    dy = _drop_initial(xp.asarray(dy), axis, include_initial)
    rest = xp.flip(
        linear_recurrence(xp.flip(dy, axis=axis), xp.flip(later, axis=axis), axis), axis=axis
    )
    return xp.conj(before) * rest


def _cumprod_pushforward(x: Any, y: Any, dx: Any, axis: int, include_initial: bool) -> Any:
    before = _exclusive_products(y, axis, include_initial)
    return _add_initial(linear_recurrence(dx * before, x, axis), axis, include_initial)


_PRODUCTS = (np.cumprod, np.cumulative_prod, np.nancumprod)
_NAN_FORMS = (np.nancumsum, np.nancumprod)


def _scan(f: Any, a: Any, axis: Any, **options: Any) -> Any:
    """``f(a, axis=axis, **options)``: NumPy's own scan on NumPy values, else the namespace's
    ``cumulative_sum`` or ``cumulative_prod`` (NaN elements skipped for the NaN forms)."""
    if numpy_dispatches(a):
        return f(a, axis=axis, **options)
    xp = array_namespace(a)
    product = f in _PRODUCTS
    x, scan_axis = _flat_axis(a, axis)
    if f in _NAN_FORMS:
        x = xp.where(xp.isnan(x), 1 if product else 0, x)
    given = {k: v for k, v in options.items() if v is not None}
    if product:
        return cumulative_prod(xp, x, axis=scan_axis, **given)
    return xp.cumulative_sum(x, axis=scan_axis, **given)


# ---- registration: one scan function, its rule and its tangent -------------------------------


def _register_scan(f: Any, rule: Any, tangent: Any, nan: bool = False, also: tuple = ()) -> None:
    """Register ``f``, a scan called as ``f(a, axis=None, dtype=None)`` (``nan``: a NaN form).

    ``rule`` and ``tangent`` carry the maths (``_cumsum_*`` or ``_cumprod_*``).
    """

    def scan_rrule(a, axis=None, dtype=None):
        return rule(f, a, axis, {"dtype": dtype}, False, nan)

    def scan_frule(tangents, a, axis=None, dtype=None):
        return tangent(f, tangents, a, axis, {"dtype": dtype}, nan)

    register_rules(f, scan_rrule, scan_frule, also=also)


def _register_cumulative(f: Any, rule: Any, tangent: Any) -> None:
    """Register ``f``, an array-API scan with keyword-only options and ``include_initial``."""

    def cumulative_rrule(x, /, *, axis=None, dtype=None, include_initial=False):
        options = {"dtype": dtype, "include_initial": include_initial}
        return rule(f, x, axis, options, include_initial, False)

    def cumulative_frule(tangents, x, /, *, axis=None, dtype=None, include_initial=False):
        options = {"dtype": dtype, "include_initial": include_initial}
        return tangent(f, tangents, x, axis, options, False)

    register_rules(f, cumulative_rrule, cumulative_frule)


# ---- cumulative sums -------------------------------------------------------------------------


def _cumsum_rule(f: Any, a: Any, axis: Any, options: dict, include_initial: bool, nan: bool):
    y = _scan(f, a, axis, **options)
    project_a = ProjectTo(a)
    shape = tuple(getattr(a, "shape", ()))
    scan_axis = 0 if axis is None else normalize_axis(axis, len(shape))
    present = ~array_namespace(a).isnan(a) if nan else None

    def cumsum_pullback(dy):
        xp = array_namespace(dy)
        dy = _drop_initial(xp.asarray(dy), scan_axis, include_initial)
        dx = xp.reshape(_reverse_cumsum(dy, scan_axis), shape)
        if present is not None:
            dx = xp.where(present, dx, 0)
        return NO_TANGENT, project_a(dx)

    return y, cumsum_pullback


def _cumsum_tangent(f: Any, tangents: tuple, a: Any, axis: Any, options: dict, nan: bool):
    y = _scan(f, a, axis, **options)
    da = tangents[1]
    if is_zero(da):
        return y, ZERO_TANGENT
    if nan:
        da = array_namespace(da).where(array_namespace(a).isnan(a), 0, da)
    options = {k: v for k, v in options.items() if k != "dtype"}
    # The tangent is summed plainly: the NaN form's skipping belongs to a's NaN elements (zeroed
    # above), and a mask made from the tangent itself would keep JAX from transposing it.
    return y, ProjectTo(y)(_scan(np.cumsum if nan else f, da, axis, **options))


_register_scan(np.cumsum, _cumsum_rule, _cumsum_tangent, also=(np.ndarray.cumsum,))
_register_cumulative(np.cumulative_sum, _cumsum_rule, _cumsum_tangent)
_register_scan(np.nancumsum, _cumsum_rule, _cumsum_tangent, nan=True)


# ---- cumulative products ---------------------------------------------------------------------


def _cumprod_rule(f: Any, a: Any, axis: Any, options: dict, include_initial: bool, nan: bool):
    y = _scan(f, a, axis, **options)
    project_a = ProjectTo(a)
    shape = tuple(getattr(a, "shape", ()))

    def cumprod_pullback(dy):
        xp = array_namespace(a, dy)
        x, scan_axis = _flat_axis(a, axis)
        missing = xp.isnan(x) if nan else None
        if missing is not None:
            x = xp.where(missing, 1, x)
        dx = _cumprod_pullback(x, y, dy, scan_axis, include_initial)
        if missing is not None:
            dx = xp.where(missing, 0, dx)
        return NO_TANGENT, project_a(xp.reshape(dx, shape))

    return y, cumprod_pullback


def _cumprod_tangent(f: Any, tangents: tuple, a: Any, axis: Any, options: dict, nan: bool):
    y = _scan(f, a, axis, **options)
    da = tangents[1]
    if is_zero(da):
        return y, ZERO_TANGENT
    xp = array_namespace(a, da)
    x, scan_axis = _flat_axis(a, axis)
    dx, _ = _flat_axis(da, axis)
    if nan:
        missing = xp.isnan(x)
        x, dx = xp.where(missing, 1, x), xp.where(missing, 0, dx)
    include_initial = bool(options.get("include_initial"))
    return y, ProjectTo(y)(_cumprod_pushforward(x, y, dx, scan_axis, include_initial))


_register_scan(np.cumprod, _cumprod_rule, _cumprod_tangent, also=(np.ndarray.cumprod,))
_register_cumulative(np.cumulative_prod, _cumprod_rule, _cumprod_tangent)
_register_scan(np.nancumprod, _cumprod_rule, _cumprod_tangent, nan=True)
