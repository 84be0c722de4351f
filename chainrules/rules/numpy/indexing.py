"""Rules for NumPy: indexing (``x[key]``, take, take_along_axis, compress, extract, choose, select).

Reading elements is linear: the pushforward reads the same elements of the tangent, and the
pullback sends each cotangent element back to where it was read, adding up elements read more than
once (``x[[0, 0]]`` gives ``x[0]`` twice the cotangent, as ``np.add.at`` would). Basic and boolean
keys never repeat an element: a NumPy cotangent is written into zeros, as is one of ``take`` whose
indices do not repeat. Integer-array keys (and cotangents of other array types) scatter with
``np.bincount``, which is faster than ``np.add.at`` and has a rule of its own (its pullback is a
gather), so an engine can differentiate these pullbacks again. ``choose`` and ``select`` route each
cotangent element to the array it was chosen from. Functions that compute indices are
non-differentiable (one table at the end).

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.ndarray.__getitem__, np.arange(3.0), np.array([0, 2, 0]))
>>> pullback(np.array([1.0, 10.0, 100.0]))[1]
array([101.,   0.,  10.])
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from ...core.calls import call
from ...core.define import non_differentiable
from ...core.dtypes import cast, has_tangent, value_dtype
from ...core.lazy import is_lazy, lazy_like
from ...core.linear import (
    accumulate,
    call_method,
    gather_adjoint,
    linear_pushforward,
    linear_rule,
    register_rules,
    scatter_add,
    source_map,
)
from ...core.namespace import array_namespace
from ...core.primals import FLOAT64
from ...core.projection import ProjectTo
from ...core.sequences import argument_projector, dense_tangents, nest_like
from ...core.shapes import normalize_axis, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import unthunk
from ...core.zeros import is_zero

__all__ = ["getitem_adjoint"]

# ---- x[key] --------------------------------------------------------------------------------


def _parts(key: Any) -> tuple:
    """The parts of an index: ``key`` itself when it is a tuple, else ``(key,)``."""
    return key if isinstance(key, tuple) else (key,)


def _integer_arrays(key: tuple) -> list[Any]:
    return [
        k
        for k in key
        if not isinstance(k, slice | int | np.integer | type(None) | type(Ellipsis))
        and np.asarray(k).dtype.kind in "iu"
    ]


# Cotangents of at most this many elements are scattered with np.add.at into arrays of at most
# 64 times as many: measured here, 1.3-3 us against np.bincount's 4-6 us at 5 to 1,000 elements
# into 1,000 to 10,000; np.bincount is faster into 10^6 (96 against 133 us for 1,000 elements).
ADD_AT_UP_TO = 1024


_NUMPY_VALUES = (np.ndarray, np.generic, float, complex)


def getitem_adjoint(dy: Any, x_shape: tuple[int, ...], key: Any) -> Any:
    """The adjoint of ``x[key]``: zeros of ``x_shape`` with ``dy`` added where ``key`` reads.

    Elements read several times (repeated integer indices) accumulate.

    >>> getitem_adjoint(np.ones(2), (3,), np.array([1, 1]))
    array([0., 2., 0.])
    """
    if type(key) is int:  # x[3]
        arrays = []
    elif type(key) is np.ndarray:  # x[idx] or x[mask]: the key's dtype says which
        arrays = [key] if key.dtype.kind in "iu" else []
    else:
        arrays = _integer_arrays(_parts(key))
    if not arrays and isinstance(dy, _NUMPY_VALUES):
        # Basic and boolean keys read each element at most once: write into fresh zeros
        # (NumPy cotangents only; others take the scatter below, which engines can record).
        dx = np.zeros(x_shape, dtype=value_dtype(dy))
        dx[key] = dy
        return dx
    if (
        type(dy) is np.ndarray
        and dy.dtype is FLOAT64  # NumPy's own float64 dtype: 0.1 us less than == np.float64
        and dy.size <= ADD_AT_UP_TO
        and math.prod(x_shape) <= ADD_AT_UP_TO * 64
    ):
        # Few elements into a small array: np.add.at into zeros, the same sums in the same
        # order as np.bincount's (in float64), at a third of the time.
        dx = np.zeros(x_shape)
        np.add.at(dx, key, dy)
        return dx
    if arrays and x_shape and len(parts := _parts(key)) == 1:
        return _scatter_rows(np.asarray(parts[0]), dy, x_shape)
    return scatter_add(source_map(_getitem, x_shape, key), dy, x_shape)


def _scatter_rows(index: Any, dy: Any, x_shape: tuple[int, ...], axis: int = 0) -> Any:
    """The adjoint of ``np.take(x, index, axis)`` for one integer array, ``dy`` laid out as
    ``x_shape`` with ``index.shape`` in place of axis ``axis``: ``np.bincount`` over the flat
    positions the elements were read from."""
    n = x_shape[axis]
    flat = index.ravel()
    if flat.size and np.minimum.reduce(flat) < 0:
        flat = np.where(flat < 0, flat + n, flat)
    row = math.prod(x_shape[axis + 1 :])
    if row != 1:
        flat = (flat[:, None] * row + np.arange(row)).ravel()
    outer = math.prod(x_shape[:axis])
    if outer != 1:
        flat = (np.arange(outer)[:, None] * (n * row) + flat).ravel()
    total = accumulate(flat, dy, outer * n * row)
    if type(total) is np.ndarray and type(dy) is np.ndarray:
        total = total.reshape(x_shape)
        return total if total.dtype == dy.dtype else total.astype(dy.dtype)
    return cast(array_namespace(dy).reshape(total, x_shape), value_dtype(dy))


def _getitem(x: Any, key: Any) -> Any:
    """``x[key]``; for a dask ``x`` and a NumPy boolean mask of its shape, the elements at the
    mask's flat positions (dask makes an n-d mask a dask array, and gives an unknown size)."""
    if is_lazy(x) and _is_mask_of(key, x):
        return _take_flat(x, np.flatnonzero(key))
    return x[key]


def _is_mask_of(key: Any, x: Any) -> bool:
    return type(key) is np.ndarray and key.dtype == np.bool_ and key.shape == shape_of(x)


def _take_flat(x: Any, positions: Any) -> Any:
    """``x``'s elements at the flat ``positions``, a NumPy integer array: in ``x``'s namespace,
    of known size where a dask array's boolean indexing gives an unknown one."""
    xp = array_namespace(x)
    return xp.take(xp.reshape(x, (-1,)), positions)


linear_rule(np.ndarray.__getitem__, getitem_adjoint, primal=_getitem)

# ---- take, take_along_axis ------------------------------------------------------------------


def _take_adjoint(
    dy: Any, x_shape: tuple[int, ...], indices: Any, axis: Any = None, mode: str = "raise"
) -> Any:
    flat_x = axis is None or len(x_shape) == 1
    shape = (math.prod(x_shape),) if flat_x else x_shape
    axis = 0 if flat_x else normalize_axis(axis, len(x_shape))
    if type(dy) is np.ndarray and dy.dtype.kind in "fc":
        index = _within(np.asarray(indices, dtype=np.intp), shape[axis], mode)  # bool: 0, 1
        return _scatter_along(dy, shape, index, axis).reshape(x_shape)
    if flat_x:
        flat = _scatter_rows(_within(np.asarray(indices), shape[0], mode), dy, shape)
        return array_namespace(flat).reshape(flat, x_shape)
    sources = source_map(np.take, x_shape, indices, axis=axis, mode=mode)
    return scatter_add(sources, dy, x_shape)


def _within(index: Any, n: int, mode: str) -> Any:
    """The integer ``index`` of ``np.take``'s ``mode`` as the positions it reads in
    ``range(n)``: wrapped, clipped, or counted from the end where negative."""
    if not index.size:
        return index
    if mode == "wrap":
        return index % n
    if mode == "clip":
        return np.clip(index, 0, n - 1)
    return np.where(index < 0, index + n, index) if np.minimum.reduce(index, None) < 0 else index


def _scatter_along(dy: np.ndarray, x_shape: tuple[int, ...], index: Any, axis: int) -> Any:
    """The adjoint of ``np.take(x, index, axis)`` for a NumPy cotangent and an ``index`` of
    positions in ``range(x_shape[axis])``.

    An index that reads each position at most once is the common case (a permutation, a
    subset, a stride): its cotangent is written into zeros, along a slice where the positions
    are evenly spaced (NumPy writes a slice several times faster than an index array). An
    index with repeats sums them with ``np.bincount``.
    """
    flat = index.ravel()
    count = flat.size
    dy = dy.reshape((*x_shape[:axis], count, *x_shape[axis + 1 :]))
    if count > x_shape[axis]:  # more reads than positions: some repeat
        return _scatter_rows(flat, dy, x_shape, axis)
    if count > 1:
        step = int(flat[1] - flat[0])
        spaced = step != 0 and bool(np.equal(flat[1:] - flat[:-1], step).all())
    else:
        step, spaced = 1, True
    if spaced:
        start = int(flat[0]) if count else 0
        stop = start + step * count
        where: Any = slice(start, stop if stop >= 0 else None, step)
    else:
        ordered = np.sort(flat)
        if np.equal(ordered[1:], ordered[:-1]).any():
            return _scatter_rows(flat, dy, x_shape, axis)
        where = flat
    dx = np.zeros(x_shape, dtype=dy.dtype)
    dx[(slice(None),) * axis + (where,)] = dy
    return dx


def _take(x: Any, indices: Any, *args: Any, **kwargs: Any) -> Any:
    """``np.take``: a NumPy array's own method for a NumPy index (what NumPy's function calls,
    after Python work of its own); anything else through ``call`` (see below)."""
    if type(x) is np.ndarray and type(indices) is np.ndarray:
        return x.take(indices, *args, **kwargs)
    return call(np.take, x, indices, *args, **kwargs)


# NumPy's take calls another array's take method with NumPy's keywords (mode="raise"), which
# JAX refuses and PyTorch reads otherwise: computed with NumPy's own function (``call``), other
# arrays go to the adapters' NumPy copies.
linear_rule(
    np.take,
    _take_adjoint,
    keywords=("axis", "mode"),
    primal=_take,
)
linear_rule(np.ndarray.take, _take_adjoint, keywords=("axis", "mode"), primal=call_method("take"))
# The adjoint scatters with NumPy's indexing: computed with NumPy's own take_along_axis
# (``call``), other arrays go to the adapters' NumPy copies.
linear_rule(
    np.take_along_axis,
    gather_adjoint(np.take_along_axis),
    keywords=("axis",),
    primal=functools.partial(call, np.take_along_axis),
)

# ---- compress, extract: the array comes second -----------------------------------------------


def _selection_rules(f: Any, primal: Any = None) -> None:
    """Rules of ``f(condition, x, ...)``, a gather of ``x`` chosen by ``condition``, computed
    by ``primal`` (``f`` itself by default).

    A dask ``condition`` gives an output of unknown size, chunk by chunk of the condition:
    the pullback finds the sources with ``x``'s chunks, so that they are chunked as the
    output, and its cotangent, are.
    """
    run = f if primal is None else primal

    def selection_rrule(condition: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        y = run(condition, x, *args, **kwargs)
        project_x = argument_projector(x)
        x_shape = shape_of(x)

        def selection_pullback(dy: Any) -> tuple[Any, ...]:
            rest = (NO_TANGENT,) * len(args)
            numbers = source_map(np.copy, x_shape)
            if is_lazy(condition):
                numbers = lazy_like(x, numbers)
            sources = run(condition, numbers, *args, **kwargs)
            return (NO_TANGENT, NO_TANGENT, project_x(scatter_add(sources, dy, x_shape)), *rest)

        return y, selection_pullback

    def selection_frule(tangents: tuple, condition: Any, x: Any, *args: Any, **kwargs: Any):
        y = run(condition, x, *args, **kwargs)
        return y, linear_pushforward(y, tangents[2], lambda dx: run(condition, dx, *args, **kwargs))

    keywords = ("axis",) if f is np.compress else ()
    register_rules(f, selection_rrule, selection_frule, keywords=keywords)


def _extract(condition: Any, x: Any) -> Any:
    """``np.extract(condition, x)``; for a dask ``x`` and a NumPy ``condition``, ``x``'s
    elements at the condition's known positions (dask's extract, which makes the condition a
    dask array, gives an output of unknown size)."""
    if is_lazy(x) and not is_lazy(condition):
        return _take_flat(x, np.flatnonzero(condition))
    return np.extract(condition, x)


_selection_rules(np.compress)
_selection_rules(np.extract, _extract)
linear_rule(
    np.ndarray.compress,
    gather_adjoint(call_method("compress")),
    keywords=("axis",),
    primal=call_method("compress"),
)

# ---- item: one element as a Python number -----------------------------------------------------


def _item_key(x_shape: tuple[int, ...], args: tuple) -> tuple:
    """The ``x[key]`` that ``x.item(*args)`` reads."""
    if len(args) == 1:
        return tuple(np.unravel_index(args[0], x_shape)) if x_shape else ()
    return tuple(args) if args else (0,) * len(x_shape)


def _item_adjoint(dy: Any, x_shape: tuple[int, ...], *args: Any) -> Any:
    return getitem_adjoint(dy, x_shape, _item_key(x_shape, args))


def _item(x: Any, *args: Any) -> Any:
    """``x.item(*args)``; for other array types (an engine's tracked array), ``x[key]``.

    A Python number would drop the derivative of a tracked value: there the element stays a
    0-d array of its type, so pullbacks built from ``item`` can be differentiated again.
    """
    if isinstance(x, np.ndarray | np.generic):
        return x.item(*args)
    return x[_item_key(shape_of(x), args)]


linear_rule(np.ndarray.item, _item_adjoint, primal=_item)

# ---- choose, select: each element comes from one of several arrays --------------------------


def _route(dy: Any, chosen: Any, count: int) -> list[Any]:
    """For each of ``count`` candidates, ``dy`` where it was chosen and zero elsewhere."""
    xp = array_namespace(dy)
    zero = xp.zeros((), dtype=dy.dtype)
    return [xp.where(xp.asarray(chosen == i), dy, zero) for i in range(count)]


def _choose_rrule(a: Any, choices: Any, *args: Any, **kwargs: Any) -> Any:
    mode = args[0] if args else kwargs.get("mode", "raise")
    y = np.choose(a, choices, mode=mode)
    project_choices = ProjectTo(choices)
    count = len(choices)
    rest = (NO_TANGENT,) * len(args)

    def choose_pullback(dy: Any) -> tuple[Any, ...]:
        chosen = np.choose(a, list(range(count)), mode=mode)
        routed = _route(dy, chosen, count)
        pieces = [nest_like(d, c) for d, c in zip(routed, choices, strict=True)]
        if hasattr(choices, "shape"):  # the choices as one array, the cotangent too
            pieces = array_namespace(*pieces).stack(pieces)
        return NO_TANGENT, NO_TANGENT, project_choices(pieces), *rest

    return y, choose_pullback


def _choose_frule(tangents: tuple, a: Any, choices: Any, *args: Any, **kwargs: Any) -> Any:
    mode = args[0] if args else kwargs.get("mode", "raise")
    y = np.choose(a, choices, mode=mode)
    d_choices = tangents[2]
    if not has_tangent(y):
        return y, NO_TANGENT
    if is_zero(d_choices):
        return y, ZERO_TANGENT
    return y, np.choose(a, dense_tangents(d_choices, choices), mode=mode)


def _select(condlist: Any, choicelist: Any, default: Any) -> Any:
    """``np.select``, with ``default`` also passed as a last choice that is always taken.

    NumPy dispatches ``select`` on the conditions and choices only, so an array type given
    as the default (an engine's tracked array) would be coerced to NumPy; as a choice it is
    seen. The result is the same, dtype included, since ``default`` still sets its dtype.
    """
    if len(condlist) == 0:
        return np.select(condlist, choicelist, default)  # NumPy's error for no condition
    return np.select([*condlist, np.True_], [*choicelist, default], default)


def _select_rrule(condlist: Any, choicelist: Any, *args: Any, **kwargs: Any) -> Any:
    default = args[0] if args else kwargs.get("default", 0)
    y = _select(condlist, choicelist, default)
    project_choices, project_default = ProjectTo(choicelist), argument_projector(default)
    count = len(choicelist)

    def select_pullback(dy: Any) -> tuple[Any, ...]:
        chosen = np.select(condlist, list(range(count)), count)
        routed = _route(dy, chosen, count + 1)
        pieces = [nest_like(d, c) for d, c in zip(routed, choicelist, strict=False)]
        d_default = project_default(routed[-1])
        return NO_TANGENT, NO_TANGENT, project_choices(pieces), *((d_default,) if args else ())

    return y, select_pullback


def _select_frule(tangents: tuple, condlist: Any, choicelist: Any, *args: Any, **kwargs: Any):
    default = args[0] if args else kwargs.get("default", 0)
    y = _select(condlist, choicelist, default)
    if not has_tangent(y):
        return y, NO_TANGENT
    d_choices = tangents[2]
    d_default = unthunk(tangents[3]) if len(tangents) > 3 else ZERO_TANGENT
    if is_zero(d_choices):
        d_choices = ZERO_TANGENT
    if is_zero(d_choices) and is_zero(d_default):
        return y, ZERO_TANGENT
    dense = dense_tangents(d_choices, choicelist)
    if is_zero(d_default):
        d_default = 0.0
    return y, _select(condlist, dense, d_default)


register_rules(
    np.choose, _choose_rrule, _choose_frule, keywords=("mode",), also=(np.ndarray.choose,)
)
register_rules(np.select, _select_rrule, _select_frule, keywords=("default",))

# ---- bincount: the scatter that the pullbacks above are made of ------------------------------


def _bincount_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
    if "weights" in kwargs:
        return None  # a keyword argument gets no cotangent: pass the weights positionally
    y = np.bincount(x, *args, **kwargs)
    no_tangents = (NO_TANGENT,) * (len(args) + 2)
    if not args or args[0] is None:
        return y, lambda dy: no_tangents
    project_weights = argument_projector(args[0])
    index = np.asarray(x)

    def bincount_pullback(dy: Any) -> tuple[Any, ...]:
        d_weights = project_weights(dy[index])
        return NO_TANGENT, NO_TANGENT, d_weights, *no_tangents[3:]

    return y, bincount_pullback


def _bincount_frule(tangents: tuple, x: Any, *args: Any, **kwargs: Any) -> Any:
    if "weights" in kwargs:
        return None
    y = np.bincount(x, *args, **kwargs)
    # Empty weights give NumPy's integer result, which has no tangent either.
    if not args or args[0] is None or not has_tangent(y):
        return y, NO_TANGENT
    d_weights = tangents[2]
    if is_zero(d_weights):
        return y, ZERO_TANGENT
    return y, np.bincount(x, d_weights, *args[1:], **kwargs)


register_rules(np.bincount, _bincount_rrule, _bincount_frule, keywords=("minlength", "weights"))

# ---- functions that compute indices --------------------------------------------------------

non_differentiable(
    np.unravel_index,
    np.ravel_multi_index,
    np.indices,
    np.ix_,
    np.diag_indices,
    np.diag_indices_from,
    np.tril_indices,
    np.tril_indices_from,
    np.triu_indices,
    np.triu_indices_from,
    np.mask_indices,
)
