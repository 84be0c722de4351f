"""Axis bookkeeping shared by the reduction, scan, statistics and sorting rules.

Everything here works on Python values (shapes, axis tuples) or through the array namespace,
so the same code serves NumPy arrays and the tracked arrays of an AD engine.

>>> import numpy as np
>>> normalize_axes((-1, 0), 3)
(0, 2)
>>> expand_reduced(np.array([1.0, 2.0]), (2, 3), (1,), keepdims=False)
array([[1., 1., 1.],
       [2., 2., 2.]])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .caches import Bounded
from .namespace import array_namespace

__all__ = [
    "count_reduced",
    "expand_reduced",
    "normalize_axes",
    "normalize_axis",
    "reduced_shape",
    "shape_of",
    "spread",
]


def shape_of(x: Any) -> tuple[int, ...]:
    """The shape of an array, a Python number or a nested list, as a tuple of Python ints.

    >>> shape_of(np.ones((2, 1))), shape_of(1.5), shape_of([[1.0, 2.0]])
    ((2, 1), (), (1, 2))
    """
    shape = getattr(x, "shape", None)
    return np.shape(x) if shape is None else tuple(shape)


def normalize_axis(axis: int, ndim: int) -> int:
    """One axis as a non-negative int, checked against ``ndim``.

    >>> normalize_axis(-1, 3)
    2
    """
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
    return axis % max(ndim, 1)


def normalize_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """The reduced axes as a sorted tuple of non-negative ints; ``None`` means all of them.

    >>> normalize_axes(None, 2), normalize_axes(-1, 2)
    ((0, 1), (1,))
    """
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple | list):
        axes = tuple(sorted(normalize_axis(int(a), ndim) for a in axis))
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis in {axis!r}")
        return axes
    return (normalize_axis(int(axis), ndim),)


def reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with the reduced axes kept as length one (the ``keepdims=True`` shape).

    >>> reduced_shape((2, 3, 4), (0, 2))
    (1, 3, 1)
    """
    key = (shape, axes)
    kept = _kept_shapes.get(key)
    if kept is None:
        kept = _kept_shapes.keep(key, tuple(1 if i in axes else n for i, n in enumerate(shape)))
    return kept


_kept_shapes = Bounded(1024)  # a program's shapes (see chainrules.core.caches)


def count_reduced(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    """How many elements each output of a reduction over ``axes`` gathers.

    >>> count_reduced((2, 3, 4), (0, 2))
    8
    """
    n = 1
    for a in axes:
        n *= shape[a]
    return n


def expand_reduced(dy: Any, shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool) -> Any:
    """A reduction's cotangent ``dy`` broadcast back over the reduced axes to ``shape``.

    ``dy`` has the reduction's output shape (with or without the reduced axes, as
    ``keepdims`` says). NumPy values give ``spread(dy, shape)``; others a broadcast in their
    namespace.
    """
    cls = type(dy)
    if cls is np.ndarray or cls in _NUMPY_SCALARS:
        dy = np.asarray(dy)
        kept = reduced_shape(shape, axes)
        return spread(dy if dy.shape == kept else dy.reshape(kept), shape)
    xp = array_namespace(dy)
    dy = xp.asarray(dy)
    kept = reduced_shape(shape, axes)
    if tuple(dy.shape) != kept:
        dy = xp.reshape(dy, kept)
    return xp.broadcast_to(dy, shape)


_NUMPY_SCALARS = frozenset({float, int, complex, np.float64, np.float32, np.complex128})
# Below this many elements, a fresh array costs less than NumPy's broadcast_to (a Python
# function of some microseconds); above it, a view saves the memory and the writing.
SPREAD_COPY_BELOW = 4096


def spread(dy: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The NumPy array ``dy`` broadcast to ``shape``: a fresh array for small results, a
    read-only broadcast view (no copy) for large ones.

    >>> spread(np.array([1.0, 2.0]), (2, 2))
    array([[1., 2.],
           [1., 2.]])
    """
    if dy.shape == shape:
        return dy
    if math.prod(shape) < SPREAD_COPY_BELOW:
        out = np.empty(shape, dy.dtype)
        out[...] = dy
        return out
    return np.broadcast_to(dy, shape)
