"""Rules for NumPy's differences and integrals: diff, ediff1d, gradient, trapezoid.

All four are linear in the data, so each frule applies the function itself to the tangent
and each pullback applies its transpose, written with slices, concatenations and sums:

* ``diff``: the transpose of a forward difference is a backward difference of the cotangent
  padded with zeros; ``prepend=`` and ``append=`` values get their share of it.
* ``gradient``: the transpose of its stencil, whose rows differentiate the polynomials that
  interpolate ``f`` on three (at an edge of order 1, two) neighbouring points. The spacings
  are differentiable: a scalar ``h`` scales its axis's result by ``1 / h``; moving one of the
  coordinates moves the interpolating polynomials that read it.
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
def _diff_rrule(a, n=1, axis=-1, prepend=None, append=None):
    options = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    y = _diff(a, n, axis, **options)
    ndim = np.ndim(a)
    axis = normalize_axis(axis, ndim)
    length = np.shape(a)[axis]
    n_pre = 0 if prepend is None else (np.shape(prepend)[axis] if np.ndim(prepend) else 1)
    projectors = [ProjectTo(v) for v in (a, prepend, append)]

    extra = (NO_TANGENT, NO_TANGENT) if options else ()
    # diff(a, 0) is ``a`` itself (NumPy ignores prepend and append then); a result empty
    # along the axis (n at least the length) depends on nothing.
    passes_a, empty = n == 0, np.shape(y)[axis] == 0

    def diff_pullback(dy):
        if passes_a or empty:
            da = projectors[0](dy if passes_a else ZERO_TANGENT)
            edges = [project(ZERO_TANGENT) for project in projectors[1:] if options]
            return NO_TANGENT, da, *extra, *edges
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
        # An empty ary has no differences (not minus one).
        da = (
            ZERO_TANGENT
            if not np.size(ary)
            else xp.reshape(_difference_transpose(middle, 0), shape)
        )
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


def _gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """``np.gradient``, its result as NumPy gives it: one array for one axis, a tuple for
    several (dask's gradient gives a list, of one array for a 1-d array)."""
    y = np.gradient(f, *varargs, axis=axis, edge_order=edge_order)
    if type(y) is list:
        return y[0] if len(y) == 1 else tuple(y)
    return y


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


def _node_blocks(xp: Any, f: Any, x: Any, edge_order: int) -> list[tuple[int, int, list, list]]:
    """``np.gradient(f, x)`` along the last axis, row by row, as functions of ``f`` and ``x``.

    Row ``m`` is ``p'(x[m])`` for the polynomial ``p`` interpolating ``f`` on the row's nodes
    (three; two at an edge of order 1): the weight of ``f`` at node ``t_k`` is ``L_k'(x[m])``,
    ``L_k`` its Lagrange basis polynomial. Moving ``t_k`` with ``f`` fixed changes ``p`` by
    ``-p'(t_k) L_k``, and moves the point of evaluation too when ``t_k = x[m]``:
    ``d g_m / d t_k = -p'(t_k) L_k'(x[m]) + [k = m] p''``. Blocks ``(first row, first node,
    partials, weights)``: row ``r`` of a block reads the nodes ``first node + (r - first row)
    + j``, with ``partials[j]`` and ``weights[j]`` at ``[..., r - first row]``.
    """
    n = f.shape[-1]
    x = xp.asarray(x)

    def quadratic(start: int, count: int, at: int) -> tuple[list, list]:
        t = [x[start + j : start + j + count] for j in range(3)]
        v = [f[..., start + j : start + j + count] for j in range(3)]
        d01 = (v[1] - v[0]) / (t[1] - t[0])
        d012 = ((v[2] - v[1]) / (t[2] - t[1]) - d01) / (t[2] - t[0])
        te = t[at]
        weights = [
            (2 * te - t[1] - t[2]) / ((t[0] - t[1]) * (t[0] - t[2])),
            (2 * te - t[0] - t[2]) / ((t[1] - t[0]) * (t[1] - t[2])),
            (2 * te - t[0] - t[1]) / ((t[2] - t[0]) * (t[2] - t[1])),
        ]
        slopes = [d01 + d012 * (2 * t[j] - t[0] - t[1]) for j in range(3)]
        partials = [-slopes[j] * weights[j] + (2 * d012 if j == at else 0) for j in range(3)]
        return partials, weights

    def linear(start: int) -> tuple[list, list]:
        step = x[start + 1 : start + 2] - x[start : start + 1]
        g = (f[..., start + 1 : start + 2] - f[..., start : start + 1]) / step
        return [g / step, -g / step], [-1 / step, 1 / step]

    blocks = [] if n < 3 else [(1, 0, *quadratic(0, n - 2, 1))]
    if edge_order == 1:
        return [(0, 0, *linear(0)), *blocks, (n - 1, n - 2, *linear(n - 2))]
    return [(0, 0, *quadratic(0, 1, 0)), *blocks, (n - 1, n - 3, *quadratic(n - 3, 1, 2))]


def _scatter_blocks(blocks: list, terms: Any, n: int) -> Any:
    """``sum`` over blocks and ``j`` of ``terms(j, block)`` placed at the nodes it belongs to."""
    total: Any = 0
    for block in blocks:
        node = block[1]
        for j in range(len(block[2])):
            term = terms(j, block)
            rows = term.shape[-1]
            total = total + _pad(term, term.ndim - 1, node + j, n - node - j - rows)
    return total


def _axis_pullback(xp: Any, f: Any, x: Any, dy: Any, axis: int, edge_order: int):
    """The cotangents of ``f`` and of the coordinates ``x`` of its ``axis``, given ``dy``."""
    fm, dym = _moved(xp, f, axis), _moved(xp, dy, axis)
    n = fm.shape[-1]
    blocks = _node_blocks(xp, fm, x, edge_order)

    def rows(block: tuple) -> Any:
        return dym[..., block[0] : block[0] + block[2][0].shape[-1]]

    df = _scatter_blocks(blocks, lambda j, b: b[3][j] * rows(b), n)
    dx = _scatter_blocks(blocks, lambda j, b: xp.real(xp.conj(b[2][j]) * rows(b)), n)
    lead = tuple(range(fm.ndim - 1))
    return xp.moveaxis(df, -1, axis), (xp.sum(dx, axis=lead) if lead else dx)


def _coordinates_pushforward(xp: Any, f: Any, x: Any, dx: Any, axis: int, edge_order: int) -> Any:
    """The change of ``np.gradient(f, x)`` along ``axis`` for a change ``dx`` of ``x``."""
    dx = xp.asarray(dx)
    pieces = []
    for _, node, partials, _ in _node_blocks(xp, _moved(xp, f, axis), x, edge_order):
        rows = partials[0].shape[-1]
        terms = [d * dx[node + j : node + j + rows] for j, d in enumerate(partials)]
        pieces.append(sum(terms[1:], terms[0]))
    return xp.moveaxis(xp.concat(pieces, axis=-1), -1, axis)


def _moved(xp: Any, a: Any, axis: int) -> Any:
    return xp.moveaxis(xp.asarray(a), axis, -1)


def _spacing_slots(varargs: tuple, axes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """For each argument of ``varargs``, the positions in ``axes`` whose spacing it gives."""
    if len(varargs) == 1:
        return [tuple(range(len(axes)))]
    return [(i,) for i in range(len(varargs))]


def _spacing_cotangent(xp: Any, h: Any, parts: list, outputs: list, slots: tuple) -> Any:
    """d/dh of sum Re <dy, g> over the results ``g`` using the scalar spacing ``h``: each is
    proportional to 1 / h, so its derivative is -g / h."""
    total: Any = 0.0
    for i in slots:
        if not is_zero(parts[i]):
            total = total + xp.sum(xp.real(xp.conj(outputs[i]) * parts[i]))
    return -total / h


@rrule.register(np.gradient)
def _gradient_rrule(f, *varargs, axis=None, edge_order=1):
    y = _gradient(f, *varargs, axis=axis, edge_order=edge_order)
    axes = _gradient_axes(f, axis)
    spacings = _spacings(varargs, axes)
    shape = np.shape(f)
    project_f = ProjectTo(f)
    projectors = [ProjectTo(h) for h in varargs]
    several = isinstance(y, tuple)
    outputs = list(y) if several else [y]
    slots = _spacing_slots(varargs, axes)

    def gradient_pullback(dy):
        parts = [unthunk(d) for d in dy] if several else [dy]
        total: Any = ZERO_TANGENT
        d_coordinates: dict[int, Any] = {}
        for i, (part, ax, h) in enumerate(zip(parts, axes, spacings, strict=True)):
            if is_zero(part):
                continue
            xp = array_namespace(part, f, h)
            if np.ndim(h) == 0:
                # The stencil of spacing h is that of unit spacing over h.
                unit = np.arange(shape[ax], dtype=np.float64)
                total = total + _axis_pullback(xp, f, unit, part, ax, edge_order)[0] / h
            else:
                df, d_coordinates[i] = _axis_pullback(xp, f, h, part, ax, edge_order)
                total = total + df
        d_spacings = []
        for h, project, where in zip(varargs, projectors, slots, strict=True):
            if np.ndim(h) != 0:
                d_spacings.append(project(d_coordinates.get(where[0], ZERO_TANGENT)))
            else:
                xp = array_namespace(*outputs, h)
                d_spacings.append(project(_spacing_cotangent(xp, h, parts, outputs, where)))
        return (NO_TANGENT, project_f(total), *d_spacings)

    return y, gradient_pullback


@frule.register(np.gradient)
def _gradient_frule(tangents, f, *varargs, axis=None, edge_order=1):
    y = _gradient(f, *varargs, axis=axis, edge_order=edge_order)
    df, d_spacings = tangents[1], tangents[2 : 2 + len(varargs)]
    several = isinstance(y, tuple)
    outputs = list(y) if several else [y]
    if not outputs:  # a 0-d f has no axes, and no derivatives
        return y, NO_TANGENT
    if is_zero(df):
        changes: list[Any] = [ZERO_TANGENT] * len(outputs)
    else:
        dy = _gradient(df, *varargs, axis=axis, edge_order=edge_order)
        changes = list(dy) if several else [dy]
    axes = _gradient_axes(f, axis)
    slots = _spacing_slots(varargs, axes)
    for h, dh, where in zip(varargs, d_spacings, slots, strict=False):
        if is_zero(dh):
            continue
        if np.ndim(h) != 0:
            (i,) = where
            xp = array_namespace(f, h, dh)
            change = _coordinates_pushforward(xp, f, h, dh, axes[i], edge_order)
            changes[i] = changes[i] + change
            continue
        for i in where:
            changes[i] = changes[i] + outputs[i] * (-dh / h)
    if all(is_zero(c) for c in changes):
        return y, ZERO_TANGENT
    projected = [ProjectTo(v)(densify(c, v)) for v, c in zip(outputs, changes, strict=True)]
    return y, Tangent(tuple, *projected) if several else projected[0]


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
def _trapezoid_rrule(y, x=None, dx=1.0, axis=-1):
    value = np.trapezoid(y, x, dx, axis)
    ndim = np.ndim(y)
    axis = normalize_axis(axis, ndim)
    n = np.shape(y)[axis]
    rule = _Trapezoid(y, x, dx, axis)
    project_y, project_x, project_dx = ProjectTo(y), ProjectTo(x), ProjectTo(dx)

    def trapezoid_pullback(dv):
        if n == 0:  # the integral over no samples is 0, whatever y, x and dx are
            if x is None:
                return NO_TANGENT, project_y(ZERO_TANGENT), NO_TANGENT, project_dx(ZERO_TANGENT)
            return NO_TANGENT, project_y(ZERO_TANGENT), project_x(ZERO_TANGENT), NO_TANGENT
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
