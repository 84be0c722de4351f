"""Rules for NumPy's differences and integrals: diff, ediff1d, gradient, trapezoid.

All four are linear in the data, so each frule applies the function itself to the tangent
and each pullback applies its transpose, written with slices, concatenations and sums:

* ``diff``: the transpose of a forward difference is a backward difference of the cotangent
  padded with zeros; ``prepend=`` and ``append=`` values get their share of it.
* ``gradient``: the transpose of its three-point stencil (any spacing, either ``edge_order``),
  the stencil coefficients read off by applying ``np.gradient`` to three probe vectors. The
  spacings (``varargs``) have no tangent.
* ``trapezoid``: differentiable in ``y``, in the sample points ``x`` and in the spacing ``dx``.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.diff, np.array([1.0, 4.0, 9.0]))
>>> pullback(np.array([1.0, 1.0]))[1]
array([-1.,  0.,  1.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.arguments import positional_cotangents
from ...core.namespace import array_namespace, numpy_dispatches
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import normalize_axis
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ...core.thunks import unthunk
from ...core.zeros import densify, is_zero

__all__: list[str] = []


def _along(axis: int, index: slice) -> tuple[slice, ...]:
    return (slice(None),) * axis + (index,)


def _pad(x: Any, axis: int, before: int, after: int) -> Any:
    """``x`` with ``before`` and ``after`` zeros added along ``axis``."""
    xp = array_namespace(x)
    pieces = []
    for n in (before, after):
        shape = list(x.shape)
        shape[axis] = n
        pieces.append(xp.zeros(tuple(shape), dtype=x.dtype))
    return xp.concat((pieces[0], x, pieces[1]), axis=axis)


def _difference_transpose(dy: Any, axis: int) -> Any:
    """The transpose of one forward difference along ``axis``: ``dx[j] = dy[j-1] - dy[j]``."""
    padded = _pad(dy, axis, 1, 1)
    return padded[_along(axis, slice(None, -1))] - padded[_along(axis, slice(1, None))]


# ---- diff -----------------------------------------------------------------------------------


def _diff(a: Any, n: int, axis: int, **options: Any) -> Any:
    """``np.diff`` on NumPy values, the namespace's ``diff`` on other arrays."""
    if numpy_dispatches(a):
        return np.diff(a, n, axis, **options)
    return array_namespace(a).diff(a, axis=axis, n=n, **options)


@rrule.register(np.diff)
@positional_cotangents
def _diff_rrule(a, n=1, axis=-1, prepend=None, append=None):
    options = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    y = _diff(a, n, axis, **options)
    ndim = np.ndim(a)
    axis = normalize_axis(axis, ndim)
    length = np.shape(a)[axis]
    n_pre = 0 if prepend is None else (np.shape(prepend)[axis] if np.ndim(prepend) else 1)
    projectors = [ProjectTo(v) for v in (a, prepend, append)]

    def diff_pullback(dy):
        extra = (NO_TANGENT, NO_TANGENT) if options else ()
        xp = array_namespace(dy)
        dx = xp.asarray(dy)
        for _ in range(n):
            dx = _difference_transpose(dx, axis)
        da = dx[_along(axis, slice(n_pre, n_pre + length))]
        if not options:
            return NO_TANGENT, projectors[0](da)
        d_pre = _edge_cotangent(dx[_along(axis, slice(None, n_pre))], prepend)
        d_app = _edge_cotangent(dx[_along(axis, slice(n_pre + length, None))], append)
        return (NO_TANGENT, projectors[0](da), *extra, projectors[1](d_pre), projectors[2](d_app))

    return y, diff_pullback


def _edge_cotangent(d: Any, value: Any) -> Any:
    if value is None:
        return NO_TANGENT
    if np.ndim(value) == 0:  # a scalar was broadcast along the whole edge
        return array_namespace(d).sum(d)
    return d


@frule.register(np.diff)
def _diff_frule(tangents, a, n=1, axis=-1, prepend=None, append=None):
    options = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    y = _diff(a, n, axis, **options)
    found = [*tangents[1:], *[ZERO_TANGENT] * 5]
    da, d_pre, d_app = found[0], found[3], found[4]
    if is_zero(da) and is_zero(d_pre) and is_zero(d_app):
        return y, ZERO_TANGENT
    xp = array_namespace(y)
    tangent_options = {}
    for key, value, d in (("prepend", prepend, d_pre), ("append", append, d_app)):
        if value is not None:
            tangent_options[key] = densify(d, xp.asarray(value, dtype=y.dtype))
    da = densify(da, xp.asarray(a, dtype=y.dtype))
    return y, ProjectTo(y)(_diff(da, n, axis, **tangent_options))


# ---- ediff1d --------------------------------------------------------------------------------


@rrule.register(np.ediff1d)
@positional_cotangents
def _ediff1d_rrule(ary, to_end=None, to_begin=None):
    y = np.ediff1d(ary, to_end, to_begin)
    shape = np.shape(ary)
    n_begin = 0 if to_begin is None else np.size(to_begin)
    n_end = 0 if to_end is None else np.size(to_end)
    projectors = [ProjectTo(v) for v in (ary, to_end, to_begin)]

    def ediff1d_pullback(dy):
        xp = array_namespace(dy)
        dy = xp.asarray(dy)
        middle = dy[n_begin : dy.shape[0] - n_end]
        da = xp.reshape(_difference_transpose(middle, 0), shape)
        d_end = xp.reshape(dy[dy.shape[0] - n_end :], np.shape(to_end)) if n_end else NO_TANGENT
        d_begin = xp.reshape(dy[:n_begin], np.shape(to_begin)) if n_begin else NO_TANGENT
        return NO_TANGENT, projectors[0](da), projectors[1](d_end), projectors[2](d_begin)

    return y, ediff1d_pullback


@frule.register(np.ediff1d)
def _ediff1d_frule(tangents, ary, to_end=None, to_begin=None):
    y = np.ediff1d(ary, to_end, to_begin)
    found = [unthunk(t) for t in tangents[1:]] + [ZERO_TANGENT] * 3
    if all(is_zero(d) for d in found[:3]):
        return y, ZERO_TANGENT
    xp = array_namespace(y)

    def filled(d: Any, value: Any) -> Any:
        if value is None:
            return None
        return xp.zeros(np.shape(value), dtype=y.dtype) if is_zero(d) else d

    da = xp.zeros(np.shape(ary), dtype=y.dtype) if is_zero(found[0]) else found[0]
    dy = np.ediff1d(da, filled(found[1], to_end), filled(found[2], to_begin))
    return y, ProjectTo(y)(dy)


# ---- gradient -------------------------------------------------------------------------------


def _stencil(n: int, spacing: Any, edge_order: Any) -> dict[int, np.ndarray]:
    """The coefficients of ``np.gradient`` along one axis of length ``n``, by offset.

    ``result[o][i]`` multiplies ``f[i + o]`` in output ``i``. Rows use offsets ``-1, 0, 1``
    inside, ``0, 1, 2`` at the start and ``-2, -1, 0`` at the end; three probe vectors that are
    one at every third position separate the coefficients, since a row's offsets differ mod 3.
    """
    probes = [
        np.gradient((np.arange(n) % 3 == r).astype(float), spacing, edge_order=edge_order)
        for r in range(3)
    ]
    rows = np.arange(n)
    coefficients = {}
    for offset in range(-2, 3):
        used = (rows + offset >= 0) & (rows + offset < n)
        if offset in (-2, 2):
            used &= rows == (n - 1 if offset < 0 else 0)
        else:
            used &= ~((rows == 0) & (offset < 0)) & ~((rows == n - 1) & (offset > 0))
        residue = (rows + offset) % 3
        values = np.choose(residue, probes)
        coefficients[offset] = np.where(used, values, 0.0)
    return coefficients


def _stencil_transpose(dy: Any, coefficients: dict[int, np.ndarray], axis: int) -> Any:
    """``dx[j] = sum_o c[o][j - o] * dy[j - o]``: the stencil's transpose along ``axis``."""
    xp = array_namespace(dy)
    layout = [1] * dy.ndim
    layout[axis] = dy.shape[axis]
    total: Any = None
    for offset, c in coefficients.items():
        term = xp.asarray(c.reshape(layout)) * dy
        # Row i's term lands on element i + offset.
        if offset > 0:
            term = _pad(term, axis, offset, 0)[_along(axis, slice(None, dy.shape[axis]))]
        elif offset < 0:
            term = _pad(term, axis, 0, -offset)[_along(axis, slice(-offset, None))]
        total = term if total is None else total + term
    return total


def _gradient_axes(f: Any, axis: Any) -> tuple[int, ...]:
    ndim = np.ndim(f)
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple | list):
        return tuple(normalize_axis(a, ndim) for a in axis)
    return (normalize_axis(axis, ndim),)


def _spacings(varargs: tuple, axes: tuple[int, ...]) -> list[Any]:
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    return list(varargs)


@rrule.register(np.gradient)
@positional_cotangents
def _gradient_rrule(f, *varargs, axis=None, edge_order=1):
    y = np.gradient(f, *varargs, axis=axis, edge_order=edge_order)
    axes = _gradient_axes(f, axis)
    spacings = _spacings(varargs, axes)
    shape = np.shape(f)
    stencils = [_stencil(shape[ax], h, edge_order) for ax, h in zip(axes, spacings, strict=True)]
    project_f = ProjectTo(f)
    several = isinstance(y, tuple)

    def gradient_pullback(dy):
        no_spacing = (NO_TANGENT,) * len(varargs)
        parts = [unthunk(d) for d in dy] if several else [dy]
        total: Any = ZERO_TANGENT
        for part, ax, c in zip(parts, axes, stencils, strict=True):
            if not is_zero(part):
                total = total + _stencil_transpose(array_namespace(part).asarray(part), c, ax)
        return (NO_TANGENT, project_f(total), *no_spacing)

    return y, gradient_pullback


@frule.register(np.gradient)
def _gradient_frule(tangents, f, *varargs, axis=None, edge_order=1):
    y = np.gradient(f, *varargs, axis=axis, edge_order=edge_order)
    df = tangents[1]
    if is_zero(df):
        return y, ZERO_TANGENT
    dy = np.gradient(df, *varargs, axis=axis, edge_order=edge_order)
    if isinstance(y, tuple):
        return y, Tangent(tuple, *(ProjectTo(v)(d) for v, d in zip(y, dy, strict=True)))
    return y, ProjectTo(y)(dy)


# ---- trapezoid ------------------------------------------------------------------------------


class _Trapezoid:
    """``sum(d * (y[1:] + y[:-1]) / 2)`` along ``axis``; ``d``: the steps of ``x``, or ``dx``."""

    __slots__ = ("axis", "steps", "x_layout")

    def __init__(self, y: Any, x: Any, dx: Any, axis: int) -> None:
        xp = array_namespace(y, x)
        self.axis = axis
        self.x_layout = None
        if x is None:
            self.steps = dx
            return
        x = xp.asarray(x)
        if x.ndim == 1:
            layout = [1] * np.ndim(y)
            layout[axis] = x.shape[0]
            self.x_layout = tuple(layout)
            x = xp.reshape(x, self.x_layout)
        self.steps = x[_along(axis, slice(1, None))] - x[_along(axis, slice(None, -1))]

    def y_weights(self, n: int, ndim: int) -> Any:
        """The weight of each sample: half the steps on either side of it."""
        steps = self.steps
        if np.ndim(steps) == 0:
            xp = array_namespace(steps)
            layout = [1] * ndim
            layout[self.axis] = n - 1
            steps = xp.ones(tuple(layout)) * steps
        half = steps / 2
        return _pad(half, self.axis, 0, 1) + _pad(half, self.axis, 1, 0)

    def averages(self, y: Any) -> Any:
        return (y[_along(self.axis, slice(1, None))] + y[_along(self.axis, slice(None, -1))]) / 2


@rrule.register(np.trapezoid)
@positional_cotangents
def _trapezoid_rrule(y, x=None, dx=1.0, axis=-1):
    value = np.trapezoid(y, x, dx, axis)
    ndim = np.ndim(y)
    axis = normalize_axis(axis, ndim)
    n = np.shape(y)[axis]
    rule = _Trapezoid(y, x, dx, axis)
    project_y, project_x, project_dx = ProjectTo(y), ProjectTo(x), ProjectTo(dx)

    def trapezoid_pullback(dv):
        xp = array_namespace(y, dv)
        dv = xp.expand_dims(xp.asarray(dv), axis=axis)
        dy = xp.conj(rule.y_weights(n, ndim)) * dv
        averages = xp.conj(rule.averages(xp.asarray(y))) * dv
        if x is None:
            return NO_TANGENT, project_y(dy), NO_TANGENT, project_dx(xp.sum(averages))
        d_x = _difference_transpose(averages, axis)
        if rule.x_layout is not None:
            others = tuple(i for i in range(ndim) if i != axis)
            d_x = xp.reshape(xp.sum(d_x, axis=others, keepdims=True), (n,))
        return NO_TANGENT, project_y(dy), project_x(d_x), NO_TANGENT

    return value, trapezoid_pullback


@frule.register(np.trapezoid)
def _trapezoid_frule(tangents, y, x=None, dx=1.0, axis=-1):
    value = np.trapezoid(y, x, dx, axis)
    found = [unthunk(t) for t in tangents[1:]] + [ZERO_TANGENT] * 3
    d_y, d_x, d_dx = found[:3]
    ndim = np.ndim(y)
    axis = normalize_axis(axis, ndim)
    change: Any = ZERO_TANGENT
    if not is_zero(d_y):
        change = change + np.trapezoid(d_y, x, dx, axis)
    rule = _Trapezoid(y, x, dx, axis)
    xp = array_namespace(y)
    if x is not None and not is_zero(d_x):
        steps = _Trapezoid(y, d_x, dx, axis).steps
        change = change + xp.sum(steps * rule.averages(xp.asarray(y)), axis=axis)
    if x is None and not is_zero(d_dx):
        change = change + xp.sum(rule.averages(xp.asarray(y)), axis=axis) * d_dx
    if is_zero(change):
        return value, ZERO_TANGENT
    return value, ProjectTo(value)(change)
