"""Rules for NumPy's reductions: sum, prod, mean, their NaN-skipping forms, and trace.

Every rule takes ``axis`` (None, an int, a negative int or a tuple), ``keepdims`` and, where
NumPy has them, ``dtype``, ``initial`` and ``where``. The ``ndarray`` methods reach the same rule
functions (``x.sum(0)`` is ``np.sum(x, 0)``).

Conventions at the hard points:

* ``prod`` is differentiated without dividing by the input: each element's partial is the
  product of the others in its slice, formed from exclusive cumulative products taken from both
  ends. It is exact with any number of zeros, and its own derivative (through ``cumprod``'s
  division-free rule) is exact too: the Hessian of ``prod`` at ``[1, 2]`` is ``[[0, 1], [1, 0]]``.
* The NaN-skipping reductions give a zero cotangent at NaN positions.
* ``sum``'s cotangent (without ``where``) is a read-only broadcast view of ``dy``, not a copy;
  accumulating it in place needs a copy first, as ``add_`` makes.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.prod, np.array([0.0, 0.0, 3.0]))
>>> pullback(1.0)[1]
array([0., 0., 0.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._compat import cumulative_prod
from ...core.arguments import given_options
from ...core.caches import Bounded
from ...core.fast_paths import FastPullback, float_array, no_tangents, onto, register_fast_path
from ...core.linear import register_rules
from ...core.namespace import array_namespace, numpy_dispatches
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import (
    count_reduced,
    expand_reduced,
    normalize_axes,
    normalize_axis,
    reduced_shape,
    shape_of,
)
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.zeros import is_zero

__all__ = ["prod_of_others", "reduced_axes"]


def reduced_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """The axes a reduction sums over, as ``normalize_axes`` gives them; none for a 0-d array.

    NumPy's reductions accept ``axis=0`` and ``axis=-1`` on a 0-d array and reduce nothing
    (``np.sum(np.array(2.0), axis=0)`` is ``2.0``), so a 0-d input has no reduced axis.

    >>> reduced_axes(-1, 0), reduced_axes(-1, 2)
    ((), (1,))
    """
    key = (axis, ndim)
    try:
        axes = _reduced.get(key)
    except TypeError:  # axes given as a list
        return () if ndim == 0 else normalize_axes(axis, ndim)
    if axes is None:  # checked once: an axis out of range raises and is not kept
        axes = _reduced.keep(key, () if ndim == 0 else normalize_axes(axis, ndim))
    return axes


_reduced = Bounded(1024)  # a program's axes (see chainrules.core.caches)


def _masked_sum(x: Any, axes: tuple[int, ...], keepdims: bool, where: Any) -> Any:
    xp = array_namespace(x)
    if where is not None:
        x = xp.where(where, x, 0)
    return xp.sum(x, axis=axes, keepdims=keepdims)


def _reduce_tangent(dx: Any, axes: tuple[int, ...], keepdims: bool, like: Any) -> Any:
    """A reduction's output tangent: summed over ``axes``, with the output's dtype."""
    xp = array_namespace(dx)
    dy = xp.sum(dx, axis=axes, keepdims=keepdims)
    return ProjectTo(like)(dy)


def _present(a: Any, where: Any) -> Any:
    """The elements a NaN-skipping reduction uses: not NaN, and inside ``where``."""
    xp = array_namespace(a)
    present = ~xp.isnan(xp.asarray(a))
    return present if where is None else present & where


def _used(a: Any, where: Any, nan: bool) -> Any:
    """The mask of elements a reduction takes in: ``where``, less the NaNs for a NaN form."""
    return _present(a, where) if nan else where


# ---- sum and prod, and their NaN forms: NaN elements get a zero cotangent --------------------


def _sum_cotangent(
    a: Any, dy: Any, shape: tuple, axes: tuple, keepdims: bool, initial: Any, mask: Any, y: Any
):
    dx = expand_reduced(dy, shape, axes, keepdims)
    return dx if mask is None else array_namespace(dx).where(mask, dx, 0)


def _sum_tangent(
    a: Any, da: Any, axes: tuple, keepdims: bool, initial: Any, mask: Any, y: Any
) -> Any:
    return ProjectTo(y)(_masked_sum(da, axes, keepdims, mask))


def prod_of_others(x: Any, axes: tuple[int, ...]) -> Any:
    """For each element of ``x``, the product of the other elements of its slice over ``axes``.

    Computed without division, from exclusive cumulative products taken from both ends of each
    slice, so it is exact where ``x`` has zeros and is itself differentiable.

    >>> prod_of_others(np.array([[0.0, 2.0, 3.0]]), (1,))
    array([[6., 0., 0.]])
    """
    xp = array_namespace(x)
    shape = shape_of(x)
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    order = (*kept, *axes)
    moved = x if order == tuple(range(len(shape))) else xp.permute_dims(x, order)
    lead = tuple(shape[i] for i in kept)
    flat = xp.reshape(moved, (*lead, count_reduced(shape, axes)))
    before = cumulative_prod(xp, flat, axis=-1, include_initial=True)[..., :-1]
    reversed_flat = xp.flip(flat, axis=-1)
    after = xp.flip(
        cumulative_prod(xp, reversed_flat, axis=-1, include_initial=True)[..., :-1], axis=-1
    )
    others = xp.reshape(before * after, tuple(shape[i] for i in order))
    if order == tuple(range(len(shape))):
        return others
    return xp.permute_dims(others, tuple(order.index(i) for i in range(len(shape))))


def _prod_partials(a: Any, axes: tuple[int, ...], initial: Any, where: Any) -> Any:
    xp = array_namespace(a)
    x = xp.asarray(a)
    if where is not None:
        x = xp.where(where, x, 1)
    others = prod_of_others(x, axes)
    if initial is not None:
        others = others * initial
    if where is not None:
        others = xp.where(where, others, 0)
    return others


def _prod_cotangent(
    a: Any, dy: Any, shape: tuple, axes: tuple, keepdims: bool, initial: Any, mask: Any, y: Any
):
    if initial is None and mask is None and (type(dy) is np.ndarray or type(dy) in _SCALARS):
        dx = _prod_cotangent_by_division(a, y, dy, shape, axes)
        if dx is not None:
            return dx
    partials = _prod_partials(a, axes, initial, mask)
    return array_namespace(a, dy).conj(partials) * expand_reduced(dy, shape, axes, keepdims)


def _prod_cotangent_by_division(a: Any, y: Any, dy: Any, shape: tuple, axes: tuple) -> Any:
    """The cotangent ``prod_of_others(a, axes) * dy`` with the products of the others as
    ``y / a``, from the product ``y`` of each slice, for a NumPy array of a real floating dtype
    whose every product is a normal number; else None.

    A finite product that is not zero or subnormal has no zero factor, and it carries at most
    one rounding per factor, as the cumulative products do: the quotient is as accurate, in a
    single pass. A zero, an infinite or NaN factor, or a product that overflows or underflows
    takes the way by cumulative products. Where ``y * dy`` is normal too, it is divided by
    ``a`` at once, with the same two roundings. First derivatives only: an engine's tracked
    values, differentiated again, are never NumPy arrays.
    """
    if type(a) is not np.ndarray or a.dtype.kind != "f" or getattr(y, "dtype", None) != a.dtype:
        return None
    limits = np.finfo(a.dtype)
    kept = reduced_shape(shape, axes)
    y = np.asarray(y).reshape(kept)
    if not _normal(y, limits):
        return None
    dy = np.asarray(dy).reshape(kept)
    with np.errstate(over="ignore"):  # a probe: where it overflows, the two roundings apart
        scale = y * dy
    return scale / a if _normal(scale, limits) else y / a * dy


def _normal(values: np.ndarray, limits: np.finfo) -> bool:
    """Whether all ``values`` are normal numbers: finite, and neither zero nor subnormal."""
    # the extremes alone: a NaN is the minimum (and fails), an empty array passes
    size = np.abs(values)
    smallest = np.minimum.reduce(size, axis=None, initial=limits.max)
    if not smallest >= limits.tiny:
        return False
    return bool(np.maximum.reduce(size, axis=None, initial=limits.tiny) <= limits.max)


# Numbers a cotangent of a total reduction or a matrix's trace may be, NumPy's or Python's.
_SCALARS = frozenset({float, int, complex, np.float64, np.float32, np.complex128, np.complex64})


def _prod_tangent(
    a: Any, da: Any, axes: tuple, keepdims: bool, initial: Any, mask: Any, y: Any
) -> Any:
    partials = _prod_partials(a, axes, initial, mask)
    if mask is not None:
        da = array_namespace(da).where(mask, da, 0)
    return _reduce_tangent(partials * da, axes, keepdims, y)


def _total(f: Any, a: Any, axis: Any, axes: tuple, options: dict, mask: Any) -> Any:
    """``f(a, axis, **options)``, a sum or product: NumPy's own on what NumPy takes, else
    computed with the array namespace's ``sum`` or ``prod`` over the elements ``mask`` keeps
    (NumPy's would call the array's method with NumPy's keywords)."""
    if type(a) is np.ndarray:  # NumPy's own, through the method where it has one
        method = _METHODS.get(f)
        return f(a, axis, **options) if method is None else method(a, axis, **options)
    if numpy_dispatches(a):
        return f(a, axis, **options)
    xp = array_namespace(a)
    x = xp.asarray(a)
    product = f in (np.prod, np.nanprod)
    if mask is not None:
        x = xp.where(mask, x, 1 if product else 0)
    reduce = xp.prod if product else xp.sum
    y = reduce(x, axis=axes, dtype=options.get("dtype"), keepdims=options.get("keepdims", False))
    initial = options.get("initial")
    if initial is None:
        return y
    return y * initial if product else y + initial


# The ndarray methods that compute what these functions compute on an ndarray, without the
# functions' own Python layers.
_METHODS = {np.sum: np.ndarray.sum, np.prod: np.ndarray.prod}


def _register_total(f: Any, cotangent: Any, tangent: Any, nan: bool, also: tuple = ()) -> None:
    """Register the rules of ``f``, a sum or product taking ``dtype``, ``initial`` and ``where``.

    ``cotangent`` and ``tangent`` carry the maths (``_sum_*`` or ``_prod_*``); ``nan`` says
    whether ``f`` skips NaN elements, which then take part in neither.
    """

    def total_rrule(a, axis=None, dtype=None, *, keepdims=False, initial=None, where=None):
        shape = shape_of(a)
        axes = reduced_axes(axis, len(shape))
        options = given_options(dtype=dtype, keepdims=keepdims, initial=initial, where=where)
        mask = _used(a, where, nan)
        y = _total(f, a, axis, axes, options, mask)
        project_a = ProjectTo(a)

        def total_pullback(dy):
            dx = cotangent(a, dy, shape, axes, keepdims, initial, mask, y)
            return NO_TANGENT, project_a(dx)

        return y, total_pullback

    def total_frule(
        tangents, a, axis=None, dtype=None, *, keepdims=False, initial=None, where=None
    ):
        options = given_options(dtype=dtype, keepdims=keepdims, initial=initial, where=where)
        axes = reduced_axes(axis, len(shape_of(a)))
        mask = _used(a, where, nan)
        y = _total(f, a, axis, axes, options, mask)
        da = tangents[1]
        if is_zero(da):
            return y, ZERO_TANGENT
        return y, tangent(a, da, axes, keepdims, initial, mask, y)

    register_rules(f, total_rrule, total_frule, also=also)


_register_total(np.sum, _sum_cotangent, _sum_tangent, False, also=(np.ndarray.sum,))
_register_total(np.prod, _prod_cotangent, _prod_tangent, False, also=(np.ndarray.prod,))
_register_total(np.nansum, _sum_cotangent, _sum_tangent, True)
_register_total(np.nanprod, _prod_cotangent, _prod_tangent, True)


# ---- mean and nanmean ---------------------------------------------------------------------------


def _mean_count(shape: tuple[int, ...], axes: tuple[int, ...], where: Any, nan: bool) -> Any:
    """How many elements each mean averages: a Python int, or an array when a mask applies.

    A NaN form counts at least one, so an all-NaN slice has a zero derivative.
    """
    if where is None:
        return count_reduced(shape, axes)
    xp = array_namespace(where)
    mask = xp.broadcast_to(xp.asarray(where), shape)
    count = xp.sum(xp.astype(mask, xp.int64), axis=axes, keepdims=True)
    return xp.maximum(count, xp.ones_like(count)) if nan else count


def _mean(f: Any, a: Any, axis: Any, axes: tuple, options: dict, mask: Any, count: Any) -> Any:
    """``f(a, axis, **options)``, a mean: NumPy's own on what NumPy takes, else computed with
    the array namespace over the ``count`` elements ``mask`` keeps."""
    if type(a) is np.ndarray and f is np.mean:
        return np.ndarray.mean(a, axis, **options)
    if numpy_dispatches(a):
        return f(a, axis, **options)
    xp = array_namespace(a)
    x = xp.asarray(a)
    if options.get("dtype") is not None:
        x = xp.astype(x, options["dtype"])
    keepdims = options.get("keepdims", False)
    if mask is None:
        return xp.mean(x, axis=axes, keepdims=keepdims)
    mean = _masked_sum(x, axes, True, mask) / count
    return mean if keepdims else xp.squeeze(mean, axis=axes)


def _register_mean(f: Any, nan: bool, also: tuple = ()) -> None:
    """Register the rules of ``f``, ``mean`` or (``nan``) ``nanmean``."""

    def mean_rrule(a, axis=None, dtype=None, *, keepdims=False, where=None):
        shape = shape_of(a)
        axes = reduced_axes(axis, len(shape))
        mask = _used(a, where, nan)
        count = _mean_count(shape, axes, mask, nan)
        options = given_options(dtype=dtype, keepdims=keepdims, where=where)
        y = _mean(f, a, axis, axes, options, mask, count)
        project_a = ProjectTo(a)

        def mean_pullback(dy):
            if type(count) is int:  # divided before it is spread: one pass over fewer numbers
                dx = expand_reduced(dy / count, shape, axes, keepdims)
            else:
                dx = expand_reduced(dy, shape, axes, keepdims) / count
            if mask is not None:
                dx = array_namespace(dx).where(mask, dx, 0)
            return NO_TANGENT, project_a(dx)

        return y, mean_pullback

    def mean_frule(tangents, a, axis=None, dtype=None, *, keepdims=False, where=None):
        shape = shape_of(a)
        axes = reduced_axes(axis, len(shape))
        mask = _used(a, where, nan)
        count = _mean_count(shape, axes, mask, nan)
        options = given_options(dtype=dtype, keepdims=keepdims, where=where)
        y = _mean(f, a, axis, axes, options, mask, count)
        da = tangents[1]
        if is_zero(da):
            return y, ZERO_TANGENT
        total = _masked_sum(da, axes, True, mask) / count
        if not keepdims:
            total = array_namespace(total).reshape(total, shape_of(y))
        return y, ProjectTo(y)(total)

    register_rules(f, mean_rrule, mean_frule, also=also)


_register_mean(np.mean, False, also=(np.ndarray.mean,))
_register_mean(np.nanmean, True)


# ---- fast paths: sum, mean and prod of a NumPy float array over axes -----------------------


class _SumPullback(FastPullback):
    __slots__ = ("axes", "dtype", "keepdims", "x_shape")
    axes: tuple[int, ...]
    dtype: np.dtype  # the array's
    keepdims: bool
    x_shape: tuple[int, ...]

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        x_shape = self.x_shape
        dx = expand_reduced(dy, x_shape, self.axes, self.keepdims)
        return (NO_TANGENT, onto(x_shape, self.dtype, dx), *self.rest)


class _MeanPullback(_SumPullback):
    __slots__ = ("count",)
    count: int

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        return _SumPullback.cotangents(self, dy / self.count)


class _ProdPullback(_SumPullback):
    __slots__ = ("x", "y")
    x: np.ndarray
    y: Any  # the product, as the method gave it

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        x_shape = self.x_shape
        dx = _prod_cotangent(self.x, dy, x_shape, self.axes, self.keepdims, None, None, self.y)
        return (NO_TANGENT, onto(x_shape, self.dtype, dx), *self.rest)


_AXIS_KEYWORDS = frozenset({"axis", "keepdims"})


def _fast_reduction(method: Any, mean: bool, prod: bool = False) -> Any:
    """The fast path of ``sum``, (``mean``) ``mean`` or (``prod``) ``prod``: a float array,
    ``axis`` and ``keepdims`` at most; ``method`` is the ndarray's."""

    def make(general: Any, pullback_class: Any) -> Any:
        def reduction_rrule(a: Any, *params: Any, **kwargs: Any) -> Any:
            keepdims = kwargs.get("keepdims", False) if kwargs else False
            if (
                len(params) > 1
                or (kwargs and not _AXIS_KEYWORDS.issuperset(kwargs))
                or (keepdims is not False and keepdims is not True)
                or not float_array(a)
            ):
                return general(a, *params, **kwargs)
            axis = params[0] if params else kwargs.get("axis")
            shape = a.shape
            axes = reduced_axes(axis, len(shape))
            y = method(a, axis, keepdims=True) if keepdims else method(a, axis)
            pullback = pullback_class()
            pullback.axes, pullback.keepdims, pullback.x_shape = axes, keepdims, shape
            pullback.dtype, pullback.shape = a.dtype, y.shape
            pullback.rest = no_tangents(len(params))
            if mean:
                pullback.count = count_reduced(shape, axes)
            elif prod:
                pullback.x, pullback.y = a, y
            return y, pullback

        return reduction_rrule

    return make


register_fast_path(
    np.sum, _fast_reduction(np.ndarray.sum, False), _SumPullback, also=(np.ndarray.sum,)
)
register_fast_path(
    np.mean, _fast_reduction(np.ndarray.mean, True), _MeanPullback, also=(np.ndarray.mean,)
)
register_fast_path(
    np.prod,
    _fast_reduction(np.ndarray.prod, False, prod=True),
    _ProdPullback,
    also=(np.ndarray.prod,),
)


# ---- trace ----------------------------------------------------------------------------------


def _diagonal_mask(shape: tuple[int, ...], offset: int, axis1: int, axis2: int) -> np.ndarray:
    """A boolean array, broadcastable to ``shape``, true on the traced diagonal."""
    # Built from Python shape values only, so a NumPy constant whatever the input's library.
    eye = np.eye(shape[axis1], shape[axis2], k=offset, dtype=bool)
    if axis1 > axis2:
        eye = eye.T
    layout = [1] * len(shape)
    layout[axis1], layout[axis2] = shape[axis1], shape[axis2]
    return eye.reshape(layout)


def _on_diagonal(dy: Any, shape: tuple[int, int], offset: int, axis1: int) -> np.ndarray:
    """Zeros of ``shape`` (a matrix's) with ``dy`` on the traced diagonal: where the mask's
    ``where`` passes over every element, this writes the diagonal's alone."""
    rows, columns = shape if axis1 == 0 else shape[::-1]  # along axis1, along axis2
    first, length = max(0, -offset), max(0, min(rows + min(offset, 0), columns - max(offset, 0)))
    # element t of the diagonal: (first + t, first + offset + t) along (axis1, axis2), which
    # in the flat C order of the zeros is a start and a step of one row and one column
    row, column = (first, first + offset) if axis1 == 0 else (first + offset, first)
    start, step = row * shape[1] + column, shape[1] + 1
    dx = np.zeros(shape, dtype=np.result_type(dy))
    dx.reshape(-1)[start : start + step * length : step] = dy
    return dx


@rrule.register(np.ndarray.trace)
@rrule.register(np.trace)
def _trace_rrule(a, offset=0, axis1=0, axis2=1, dtype=None):
    shape = shape_of(a)
    axis1, axis2 = normalize_axis(axis1, len(shape)), normalize_axis(axis2, len(shape))
    y = np.trace(a, offset, axis1, axis2, **given_options(dtype=dtype))
    project_a = ProjectTo(a)

    def trace_pullback(dy):
        if len(shape) == 2 and type(dy) in _SCALARS:
            return NO_TANGENT, project_a(_on_diagonal(dy, shape, offset, axis1))
        xp = array_namespace(dy)
        dx = expand_reduced(dy, shape, tuple(sorted((axis1, axis2))), False)
        return NO_TANGENT, project_a(xp.where(_diagonal_mask(shape, offset, axis1, axis2), dx, 0))

    return y, trace_pullback


@frule.register(np.ndarray.trace)
@frule.register(np.trace)
def _trace_frule(tangents, a, offset=0, axis1=0, axis2=1, dtype=None):
    y = np.trace(a, offset, axis1, axis2, **given_options(dtype=dtype))
    da = tangents[1]
    if is_zero(da):
        return y, ZERO_TANGENT
    shape = shape_of(a)
    axis1, axis2 = normalize_axis(axis1, len(shape)), normalize_axis(axis2, len(shape))
    xp = array_namespace(da)
    traced = xp.where(_diagonal_mask(shape, offset, axis1, axis2), da, 0)
    return y, ProjectTo(y)(xp.sum(traced, axis=(axis1, axis2)))


class _TracePullback(FastPullback):
    __slots__ = ("axis1", "axis2", "dtype", "offset", "x_shape")
    axis1: int  # non-negative, as axis2
    axis2: int
    offset: int
    x_shape: tuple[int, int]
    dtype: np.dtype  # the matrix's

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        shape, offset, axis1 = self.x_shape, self.offset, self.axis1
        if type(dy) in _SCALARS or type(dy) is np.ndarray:
            dx = _on_diagonal(dy, shape, offset, axis1)
        else:  # an engine's tracked value: the general way
            dx = array_namespace(dy).where(
                _diagonal_mask(shape, offset, axis1, self.axis2),
                expand_reduced(dy, shape, (0, 1), False),
                0,
            )
        return (NO_TANGENT, onto(shape, self.dtype, dx), *self.rest)


_TRACE_KEYWORDS = ("offset", "axis1", "axis2")


def _fast_trace(general: Any, pullback_class: Any) -> Any:
    """The fast path of ``trace``: a float matrix, ``offset``, ``axis1`` and ``axis2`` given
    as ints at most (by position or by name), no ``dtype``."""

    def trace_rrule(a: Any, *params: Any, **kwargs: Any) -> Any:
        if len(params) > 3 or not float_array(a) or a.ndim != 2:
            return general(a, *params, **kwargs)
        given = [0, 0, 1]
        given[: len(params)] = params
        for name, value in kwargs.items():
            if name not in _TRACE_KEYWORDS or _TRACE_KEYWORDS.index(name) < len(params):
                return general(a, *params, **kwargs)
            given[_TRACE_KEYWORDS.index(name)] = value
        offset, axis1, axis2 = given
        if type(offset) is not int or type(axis1) is not int or type(axis2) is not int:
            return general(a, *params, **kwargs)
        y = a.trace(offset, axis1, axis2)
        pullback = pullback_class()
        pullback.axis1, pullback.axis2 = normalize_axis(axis1, 2), normalize_axis(axis2, 2)
        pullback.offset, pullback.x_shape, pullback.dtype = offset, a.shape, a.dtype
        pullback.shape, pullback.rest = (), no_tangents(len(params))
        return y, pullback

    return trace_rrule


register_fast_path(np.trace, _fast_trace, _TracePullback, also=(np.ndarray.trace,))
