"""Rules for NumPy: functions that rearrange, repeat or drop elements (tile, pad, flip, diag...).

Each is linear in its array: the pushforward applies the function to the tangent, the pullback
its adjoint. Flips, triangles and rotations are their own adjoints (up to the sense of rotation);
repetition sums the copies back; diagonals embed the cotangent back on the diagonal; padding
slices the interior out. The rarer gathers (``pad`` modes edge, reflect, symmetric and wrap,
``resize``, ``delete``, ``insert``) send cotangents back along a source map (see
``chainrules.core.linear``); the other linear ``pad`` modes (``mean``, ``linear_ramp``, odd
reflections) apply transposed padding matrices, one axis at a time. ``pad`` modes that are not
linear (``maximum``, ``minimum``, ``median``, a callable) have no rule: engines trace into them.
``trim_zeros`` returns a slice found from the values; the zeros it trims get a zero cotangent.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.tile, np.array([1.0, 2.0]), 3)
>>> pullback(np.ones(6))[1]
array([3., 3.])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ...core.dtypes import has_tangent, value_dtype
from ...core.linear import (
    call_method,
    gather_adjoint,
    linear_rule,
    register_rules,
    scatter_add,
    source_map,
)
from ...core.namespace import array_namespace, is_numpy, require_numpy
from ...core.sequences import argument_projector, tangent_value
from ...core.shapes import normalize_axis, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, NoTangent
from ...core.zeros import is_zero
from .indexing import getitem_adjoint

__all__ = ["embed_diagonal"]


# ---- self-adjoint maps: flips and triangles ------------------------------------------------


def _flip_adjoint(dy: Any, x_shape: tuple[int, ...], axis: Any = None) -> Any:
    return array_namespace(dy).flip(dy, axis=axis)


def _fliplr_adjoint(dy: Any, x_shape: tuple[int, ...]) -> Any:
    return array_namespace(dy).flip(dy, axis=1)


def _flipud_adjoint(dy: Any, x_shape: tuple[int, ...]) -> Any:
    return array_namespace(dy).flip(dy, axis=0)


def _tril_adjoint(dy: Any, x_shape: tuple[int, ...], k: int = 0) -> Any:
    return np.tril(dy, k)


def _triu_adjoint(dy: Any, x_shape: tuple[int, ...], k: int = 0) -> Any:
    return np.triu(dy, k)


def _flip(x: Any, axis: Any = None) -> Any:
    return array_namespace(x).flip(x, axis=axis)


def _fliplr(x: Any) -> Any:
    return np.fliplr(x) if is_numpy(x) else array_namespace(x).flip(x, axis=1)


def _flipud(x: Any) -> Any:
    return np.flipud(x) if is_numpy(x) else array_namespace(x).flip(x, axis=0)


# The namespace's flip: NumPy's slices with step -1, which other arrays (torch's) refuse.
linear_rule(np.flip, _flip_adjoint, keywords=("axis",), primal=_flip)
linear_rule(np.fliplr, _fliplr_adjoint, primal=_fliplr)
linear_rule(np.flipud, _flipud_adjoint, primal=_flipud)
linear_rule(np.tril, _tril_adjoint, keywords=("k",))
linear_rule(np.triu, _triu_adjoint, keywords=("k",))

# ---- rotations and rolls: the adjoint turns back --------------------------------------------


def _rot90_adjoint(dy: Any, x_shape: tuple[int, ...], k: int = 1, axes: Any = (0, 1)) -> Any:
    return np.rot90(dy, -k, axes)


def _roll_adjoint(dy: Any, x_shape: tuple[int, ...], shift: Any, axis: Any = None) -> Any:
    back = -shift if isinstance(shift, int) else tuple(-s for s in shift)
    return array_namespace(dy).roll(dy, back, axis=axis)


linear_rule(np.rot90, _rot90_adjoint, keywords=("k", "axes"))
linear_rule(np.roll, _roll_adjoint, keywords=("shift", "axis"))

# ---- repetition: the adjoint sums the copies ------------------------------------------------


def _tile_adjoint(dy: Any, x_shape: tuple[int, ...], reps: Any) -> Any:
    xp = array_namespace(dy)
    reps = (operator.index(reps),) if np.ndim(reps) == 0 else tuple(reps)
    ndim = max(len(x_shape), len(reps))
    shape = (1,) * (ndim - len(x_shape)) + x_shape
    reps = (1,) * (ndim - len(reps)) + reps
    interleaved = tuple(n for r, s in zip(reps, shape, strict=True) for n in (r, s))
    summed = xp.sum(xp.reshape(dy, interleaved), axis=tuple(range(0, 2 * ndim, 2)))
    return xp.reshape(summed, x_shape)


def _repeat_adjoint(dy: Any, x_shape: tuple[int, ...], repeats: Any, axis: Any = None) -> Any:
    xp = array_namespace(dy)
    shape = (int(np.prod(x_shape)),) if axis is None else x_shape
    axis = 0 if axis is None else normalize_axis(axis, len(shape))
    n = shape[axis]
    counts = np.broadcast_to(np.asarray(repeats), (n,))
    if np.ndim(repeats) == 0 or np.size(repeats) == 1:
        r = int(counts[0]) if n else 0
        split = (*shape[:axis], n, r, *shape[axis + 1 :])
        return xp.reshape(xp.sum(xp.reshape(dy, split), axis=axis + 1), x_shape)
    # Unequal counts: segment sums as differences of a running sum (no scatter needed).
    ends = np.cumsum(counts)
    running = xp.cumulative_sum(dy, axis=axis, include_initial=True)
    upper = xp.take(running, xp.asarray(ends), axis=axis)
    lower = xp.take(running, xp.asarray(ends - counts), axis=axis)
    return xp.reshape(upper - lower, x_shape)


linear_rule(np.tile, _tile_adjoint, keywords=("reps",))
linear_rule(np.repeat, _repeat_adjoint, keywords=("repeats", "axis"), method=("repeat", 2))
linear_rule(np.ndarray.repeat, _repeat_adjoint, keywords=("axis",), primal=call_method("repeat"))

# ---- diagonals: the adjoint embeds the cotangent on the diagonal ----------------------------


def embed_diagonal(d: Any, m: int, n: int, offset: int = 0) -> Any:
    """An array of shape ``d.shape[:-1] + (m, n)``, zero but for ``d`` on diagonal ``offset``.

    The adjoint of taking a diagonal, written with ``where`` so that it stays differentiable.

    >>> embed_diagonal(np.array([1.0, 2.0]), 2, 3, offset=1)
    array([[0., 1., 0.],
           [0., 0., 2.]])
    """
    xp = array_namespace(d)
    batch = tuple(d.shape[:-1])
    before = max(0, -offset)
    after = m - before - d.shape[-1]
    zeros_before = xp.zeros((*batch, before), dtype=d.dtype)
    zeros_after = xp.zeros((*batch, after), dtype=d.dtype)
    rows = xp.concat([zeros_before, d, zeros_after], axis=-1)
    mask = xp.asarray(np.eye(m, n, k=offset, dtype=bool))
    return xp.where(mask, xp.expand_dims(rows, axis=-1), xp.zeros((), dtype=d.dtype))


def _diagonal_adjoint(
    dy: Any, x_shape: tuple[int, ...], offset: int = 0, axis1: int = 0, axis2: int = 1
) -> Any:
    ndim = len(x_shape)
    axis1, axis2 = normalize_axis(axis1, ndim), normalize_axis(axis2, ndim)
    full = embed_diagonal(dy, x_shape[axis1], x_shape[axis2], offset)
    return np.moveaxis(full, (-2, -1), (axis1, axis2))


def _diag_adjoint(dy: Any, x_shape: tuple[int, ...], k: int = 0) -> Any:
    if len(x_shape) == 1:
        return np.diagonal(dy, k)
    return embed_diagonal(dy, x_shape[0], x_shape[1], k)


def _diagflat_adjoint(dy: Any, x_shape: tuple[int, ...], k: int = 0) -> Any:
    return array_namespace(dy).reshape(np.diagonal(dy, k), x_shape)


linear_rule(
    np.diagonal,
    _diagonal_adjoint,
    keywords=("offset", "axis1", "axis2"),
    method=("diagonal", 3),
)
linear_rule(
    np.ndarray.diagonal,
    _diagonal_adjoint,
    keywords=("offset", "axis1", "axis2"),
    primal=call_method("diagonal"),
)
linear_rule(np.diag, _diag_adjoint, keywords=("k",))
linear_rule(np.diagflat, _diagflat_adjoint, keywords=("k",))

# ---- padding: the adjoint slices the interior out, or follows the source map ----------------

_LINEAR_PAD_MODES: tuple[str, ...] = ("constant", "empty", "edge", "reflect", "symmetric", "wrap")
_LINEAR_PAD_MODES += ("linear_ramp", "mean")


def _pad_supported(pad_width: Any, mode: Any = "constant", **kwargs: Any) -> bool:
    return isinstance(mode, str) and mode in _LINEAR_PAD_MODES


def _pad_widths(pad_width: Any, ndim: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(pad_width, dtype=np.intp), (ndim, 2))


def _pad_adjoint(dy: Any, x_shape: tuple[int, ...], pad_width: Any, mode: Any = "constant", **kw):
    widths = _pad_widths(pad_width, len(x_shape))
    if mode in ("constant", "empty"):
        interior = tuple(
            slice(int(before), int(before) + n)
            for (before, _), n in zip(widths, x_shape, strict=True)
        )
        return dy[interior]
    if mode in ("edge", "wrap") or (
        mode in ("reflect", "symmetric") and kw.get("reflect_type", "even") == "even"
    ):
        # Gathers read interior elements several times: scatter back.
        return scatter_add(source_map(np.pad, x_shape, pad_width, mode, **kw), dy, x_shape)
    # The other linear modes (mean, linear_ramp, odd reflections) mix elements. np.pad pads
    # one axis after the other, each by the same matrix for every line along that axis: apply
    # the transposed matrices in reverse order.
    xp = array_namespace(dy)
    for axis in reversed(range(len(x_shape))):
        matrix = _pad_matrix(x_shape[axis], widths, axis, mode, kw)
        moved = xp.tensordot(xp.asarray(matrix.T), dy, axes=([1], [axis]))
        dy = xp.moveaxis(moved, 0, axis)
    return dy


def _pad_matrix(n: int, widths: np.ndarray, axis: int, mode: str, kw: dict) -> np.ndarray:
    """The matrix that pads one line of length ``n`` along ``axis``: pad applied to eye(n)."""
    options = dict(kw)
    if "stat_length" in options and options["stat_length"] is not None:
        lengths = _pad_widths(options["stat_length"], len(widths))
        options["stat_length"] = (tuple(lengths[axis]), (1, 1))
    options.pop("end_values", None)  # the ramp's ends are constants: zero in the linear part
    return np.pad(np.eye(n), (tuple(widths[axis]), (0, 0)), mode, **options)


def _pad_forward(dx: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Any:
    # Padding values and ramp ends are constants: their tangent is zero. So is that of the
    # undefined values of "empty".
    kwargs.pop("constant_values", None)
    kwargs.pop("end_values", None)
    return np.pad(dx, pad_width, "constant" if mode == "empty" else mode, **kwargs)


linear_rule(
    np.pad,
    _pad_adjoint,
    forward=_pad_forward,
    keywords=("mode", "constant_values", "end_values", "stat_length", "reflect_type"),
    supports=_pad_supported,
)

# ---- resize and delete: gathers of NumPy arrays ---------------------------------------------

linear_rule(np.resize, gather_adjoint(np.resize), keywords=("new_shape",))
linear_rule(np.delete, gather_adjoint(np.delete), keywords=("obj", "axis"))

# ---- append and insert: two arrays in ---------------------------------------------------------


def _append_rrule(arr: Any, values: Any, *args: Any, **kwargs: Any) -> Any:
    axis = args[0] if args else kwargs.get("axis")
    rest = (NO_TANGENT,) * len(args)
    y = np.append(arr, values, axis=axis)
    project_arr, project_values = argument_projector(arr), argument_projector(values)
    arr_shape, values_shape = shape_of(arr), np.shape(values)

    def append_pullback(dy: Any) -> tuple[Any, ...]:
        xp = array_namespace(dy)
        if axis is None:
            flat = xp.reshape(dy, (-1,))
            cut = int(np.prod(arr_shape))
            d_arr, d_values = flat[:cut], flat[cut:]
        else:
            ax = normalize_axis(axis, len(arr_shape))
            cut = arr_shape[ax]
            d_arr = dy[(slice(None),) * ax + (slice(0, cut),)]
            d_values = dy[(slice(None),) * ax + (slice(cut, None),)]
        return (
            NO_TANGENT,
            project_arr(xp.reshape(d_arr, arr_shape)),
            project_values(xp.reshape(d_values, values_shape)),
            *rest,
        )

    return y, append_pullback


def _append_frule(tangents: tuple, arr: Any, values: Any, *args: Any, **kwargs: Any) -> Any:
    axis = args[0] if args else kwargs.get("axis")
    y = np.append(arr, values, axis=axis)
    if not has_tangent(y):
        return y, NO_TANGENT
    d_arr, d_values = _dense_pair(tangents, arr, values, 2)
    if d_arr is None:
        return y, ZERO_TANGENT
    return y, np.append(d_arr, d_values, axis=axis)


def _dense_pair(tangents: tuple, first: Any, second: Any, second_index: int) -> tuple[Any, Any]:
    """Both tangents as arrays, zeros made dense; ``(None, None)`` when both are zero."""
    t1, t2 = tangent_value(tangents[1], first), tangent_value(tangents[second_index], second)
    zero1 = is_zero(t1)
    zero2 = is_zero(t2)
    if zero1 and zero2:
        return None, None
    dtype = np.result_type(value_dtype(first), value_dtype(second), np.float64)
    if zero1:
        t1 = np.zeros(shape_of(first), dtype=dtype)
    if zero2:
        t2 = np.zeros(shape_of(second), dtype=dtype)
    return t1, t2


register_rules(np.append, _append_rrule, _append_frule, keywords=("axis",))


def _insert_rrule(arr: Any, obj: Any, values: Any, *args: Any, **kwargs: Any) -> Any:
    axis = args[0] if args else kwargs.get("axis")
    rest = (NO_TANGENT,) * len(args)
    y = np.insert(arr, obj, values, axis=axis)
    project_arr, project_values = argument_projector(arr), argument_projector(values)
    arr_shape, values_shape = shape_of(arr), np.shape(values)

    def insert_pullback(dy: Any) -> tuple[Any, ...]:
        # NumPy only: both cotangents follow source maps of the insertion.
        no_source = np.zeros(values_shape, dtype=np.intp)
        arr_sources = np.insert(source_map(np.copy, arr_shape), obj, no_source, axis=axis)
        value_sources = source_map(np.copy, values_shape)
        numbered = np.insert(np.zeros(arr_shape, dtype=np.intp), obj, value_sources, axis=axis)
        return (
            NO_TANGENT,
            project_arr(scatter_add(arr_sources, dy, arr_shape)),
            NO_TANGENT,
            project_values(scatter_add(numbered, dy, values_shape)),
            *rest,
        )

    return y, insert_pullback


def _insert_frule(
    tangents: tuple, arr: Any, obj: Any, values: Any, *args: Any, **kwargs: Any
) -> Any:
    axis = args[0] if args else kwargs.get("axis")
    y = np.insert(arr, obj, values, axis=axis)
    if not has_tangent(y):
        return y, NO_TANGENT
    d_arr, d_values = _dense_pair(tangents, arr, values, 3)
    if d_arr is None:
        return y, ZERO_TANGENT
    return y, np.insert(d_arr, obj, d_values, axis=axis)


register_rules(np.insert, _insert_rrule, _insert_frule, keywords=("axis",))

# ---- trim_zeros: a slice found from the values ------------------------------------------------


def _trim_box(x: Any, trim: str, axis: Any) -> tuple[slice, ...]:
    """The slice of ``x`` that ``np.trim_zeros(x, trim, axis)`` returns."""
    # a comparison: a plain boolean array even when x is an engine's tracked array
    nonzero = array_namespace(x).asarray(x) != 0
    ndim = nonzero.ndim
    axes = range(ndim) if axis is None else [normalize_axis(a, ndim) for a in np.atleast_1d(axis)]
    box = [slice(None)] * ndim
    for a in axes:
        others = tuple(b for b in range(ndim) if b != a)
        kept = np.flatnonzero(np.any(nonzero, axis=others) if others else nonzero)
        if kept.size == 0:
            box[a] = slice(0, 0)
            continue
        start = int(kept[0]) if "f" in trim.lower() else 0
        stop = int(kept[-1]) + 1 if "b" in trim.lower() else nonzero.shape[a]
        box[a] = slice(start, stop)
    return tuple(box)


def _trim_zeros_rrule(filt: Any, *args: Any, **kwargs: Any) -> Any:
    require_numpy(np.trim_zeros, filt)  # NumPy's slicing: other arrays go to NumPy copies
    trim, axis = _trim_options(*args, **kwargs)
    y = np.trim_zeros(filt, *args, **kwargs)  # as called: NumPy takes axis= from 2.2 on
    box = _trim_box(filt, trim, axis)
    project = argument_projector(filt)
    x_shape = shape_of(filt)
    rest = (NO_TANGENT,) * len(args)

    def trim_zeros_pullback(dy: Any) -> tuple[Any, ...]:
        return NO_TANGENT, project(getitem_adjoint(dy, x_shape, box)), *rest

    return y, trim_zeros_pullback


def _trim_zeros_frule(tangents: tuple, filt: Any, *args: Any, **kwargs: Any) -> Any:
    require_numpy(np.trim_zeros, filt)
    trim, axis = _trim_options(*args, **kwargs)
    y = np.trim_zeros(filt, *args, **kwargs)
    dx = tangent_value(tangents[1], filt)
    if not has_tangent(array_namespace(y).asarray(y)) or isinstance(dx, NoTangent):
        return y, NO_TANGENT
    if is_zero(dx):
        return y, ZERO_TANGENT
    return y, dx[_trim_box(filt, trim, axis)]


def _trim_options(trim: str = "fb", axis: Any = None) -> tuple[str, Any]:
    return trim, axis


register_rules(np.trim_zeros, _trim_zeros_rrule, _trim_zeros_frule, keywords=("trim", "axis"))
