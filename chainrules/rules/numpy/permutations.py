"""Permutations along an axis: the stable sorting order of an array, and applying one.

``stable_order(x, axis)`` is ``argsort(x, axis, stable=True)`` together with the sorted values.
For NumPy float32 and float64 arrays of ``PACKED_FROM`` elements or more it calls no argsort:
each value's bits are mapped to an integer that sorts like the value (NaN last, ``-0.0`` equal
to ``0.0``), shifted left to make room for the value's index along the axis, and the packed
integers are sorted with ``np.sort``, NumPy's vectorized sort of 64-bit integers; the low bits
of the sorted integers are the permutation. Equal values pack equal keys, so they stay in index
order: the sort is stable by construction, and ties cost nothing. A float32 key and its index
fit in 64 bits exactly. A float64 key may lose its lowest bits to the index: values that differ
only there land in index order, which the sorted values show (a descent), and those few are put
right by a ``lexsort`` of (key, index) among themselves, so the order is exact. Measured in
``benchmarks/sorting.py``.

A ``Permutation`` applies the order: ``gather`` takes along it (the sort's frule, the sorted
values), ``scatter`` puts back along it (the pullback). On NumPy arrays both index the
flattened array once, with positions computed once per permutation.

>>> order, ordered = stable_order(np.array([2.0, -0.0, 1.0, 0.0, np.nan, 1.0]), 0)
>>> order, ordered
(array([1, 3, 2, 5, 0, 4]), array([-0.,  0.,  1.,  1.,  2., nan]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.namespace import array_namespace

__all__ = ["PACKED_FROM", "Permutation", "inverse_permutation", "stable_order"]

# For each float type: the integer of its width, and the keys of +inf and of every NaN.
_KEYS = {
    np.dtype(np.float32): (np.int32, 0x7F800000, 0x7FC00000),
    np.dtype(np.float64): (np.int64, 0x7FF0000000000000, 0x7FF8000000000000),
}
# Beyond this share of elements to put right, one stable argsort of the whole is cheaper.
_UNTANGLE_AT_MOST = 0.25
PACKED_FROM = 2**13
"""The least size of a NumPy array sorted by packed keys: below, the packing's dozen array
operations cost more than the stable argsort they replace (``benchmarks/sorting.py``)."""


def inverse_permutation(order: Any, axis: int) -> Any:
    """The permutation that undoes ``order`` along ``axis`` (both index arrays).

    NumPy index arrays are inverted by a scatter in linear time; others by an argsort.

    >>> inverse_permutation(np.array([2, 0, 1]), 0)
    array([1, 2, 0])
    """
    if isinstance(order, np.ndarray):
        # An index array, never differentiated: writing into a fresh one is safe.
        inverse = np.empty_like(order)
        shape = [1] * order.ndim
        shape[axis] = order.shape[axis]
        positions = np.broadcast_to(np.arange(order.shape[axis]).reshape(shape), order.shape)
        np.put_along_axis(inverse, order, positions, axis=axis)
        return inverse
    return array_namespace(order).argsort(order, axis=axis, stable=True)


class Permutation:
    """A permutation ``order`` along one axis of an array (``flatten``: of the flattened array,
    whose shape was ``shape``)."""

    __slots__ = ("_positions", "axis", "flatten", "order", "shape")

    def __init__(self, order: Any, axis: int, flatten: bool, shape: tuple[int, ...]) -> None:
        self.order, self.axis, self.flatten, self.shape = order, axis, flatten, shape
        self._positions: np.ndarray | None = None

    def gather(self, dx: Any) -> Any:
        """``take_along_axis(dx, order)``."""
        xp = array_namespace(dx)
        dx = xp.asarray(dx)
        if type(dx) is np.ndarray and isinstance(self.order, np.ndarray):
            return np.take(dx, self.positions()).reshape(self.order.shape)
        if self.flatten:
            dx = xp.reshape(dx, (-1,))
        return xp.take_along_axis(dx, self.order, axis=self.axis)

    def scatter(self, dy: Any) -> Any:
        """The inverse of ``gather``: ``dy`` put back where ``order`` took it from."""
        xp = array_namespace(dy)
        dy = xp.asarray(dy)
        if type(dy) is np.ndarray and isinstance(self.order, np.ndarray):
            # Plain NumPy values (nothing tracks them): one scatter into a fresh array.
            dx = np.empty(self.shape, dy.dtype)
            dx.reshape(-1)[self.positions()] = np.ascontiguousarray(dy).reshape(-1)
            return dx
        inverse = inverse_permutation(self.order, self.axis)
        dx = xp.take_along_axis(dy, inverse, axis=self.axis)
        return xp.reshape(dx, self.shape) if self.flatten else dx

    def positions(self) -> np.ndarray:
        """Where each element ``order`` picks sits in the C-ordered flattened array."""
        if self._positions is None:
            self._positions = _flat_positions(self.order, self.axis)
        return self._positions


def _flat_positions(order: np.ndarray, axis: int) -> np.ndarray:
    if order.ndim == 1:
        return order
    strides = np.cumprod((*order.shape[1:], 1)[::-1])[::-1]
    positions = order * strides[axis]
    for dim, (length, stride) in enumerate(zip(order.shape, strides, strict=True)):
        if dim != axis:
            layout = [1] * order.ndim
            layout[dim] = length
            positions += (np.arange(length) * stride).reshape(layout)
    return positions.reshape(-1)


def stable_order(x: Any, axis: int) -> tuple[Any, Any]:
    """The permutation a stable sort of ``x`` along ``axis`` applies, and the sorted values.

    ``x`` is an array of any namespace; ``axis`` a non-negative axis of it.
    """
    if type(x) is np.ndarray and x.shape[axis] >= 2 and x.size >= PACKED_FROM:
        if x.dtype in _KEYS:
            return _packed_order(x, axis)
        # Other dtypes: the faster unstable argsort, which is the stable order when no two
        # neighbours are equal once sorted (at most one NaN per slice)
        order = np.argsort(x, axis=axis)
        ordered = np.take_along_axis(x, order, axis=axis)
        later, earlier = ordered[_along(axis, slice(1, None))], ordered[_along(axis, slice(-1))]
        if not (
            np.any(later == earlier) or np.any(np.isnan(earlier[_along(axis, slice(-1, None))]))
        ):
            return order, ordered
    xp = array_namespace(x)
    order = xp.argsort(x, axis=axis, stable=True)
    return order, xp.take_along_axis(x, order, axis=axis)


def _along(axis: int, index: slice) -> tuple[slice, ...]:
    return (slice(None),) * axis + (index,)


def _sort_keys(x: np.ndarray) -> tuple[np.ndarray, int, int]:
    """Integers of ``x``'s width that sort as ``x`` does (NaN, every NaN alike, above inf;
    ``-0.0`` equal to ``0.0``), and the least and the greatest of them."""
    integer, inf_key, nan_key = _KEYS[x.dtype]
    bits = x.view(integer)
    negative = bits >> (8 * x.itemsize - 1)  # -1 where the sign bit is set, else 0
    keys = bits & integer(np.iinfo(integer).max)  # the magnitude's bits
    keys ^= negative
    keys -= negative  # negated where negative: -magnitude, and -0.0 becomes 0
    low, high = int(keys.min()), int(keys.max())
    if high > inf_key or low < -inf_key:
        keys[np.isnan(x)] = nan_key
        low, high = int(keys.min()), int(keys.max())
    return keys, low, high


def _packed_order(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    n = x.shape[axis]
    index_bits = (n - 1).bit_length()
    keys, low, high = _sort_keys(x)
    keys = keys.astype(np.int64, copy=False)
    # The bits of the key range that do not fit beside the index are dropped from the key.
    dropped = max((high - low).bit_length() + index_bits - 64, 0)
    keys -= np.int64(low)  # wraps past 2**63, read as unsigned below: the offset from low
    packed = keys.view(np.uint64)
    if dropped:
        packed >>= np.uint64(dropped)
    packed <<= np.uint64(index_bits)
    layout = [1] * x.ndim
    layout[axis] = n
    packed |= np.arange(n, dtype=np.uint64).reshape(layout)
    packed.sort(axis=axis)
    packed &= np.uint64((1 << index_bits) - 1)
    order = packed.view(np.int64)
    ordered = Permutation(order, axis, False, x.shape).gather(x)
    if dropped and np.any(ordered[_along(axis, slice(1, None))] < ordered[_along(axis, slice(-1))]):
        order = _untangle(x, order, ordered, axis, low, dropped)
        ordered = Permutation(order, axis, False, x.shape).gather(x)
    return order, ordered


def _untangle(
    x: np.ndarray, order: np.ndarray, ordered: np.ndarray, axis: int, low: int, dropped: int
) -> np.ndarray:
    """``order`` with each run of elements whose keys agree but for the dropped bits sorted by
    (key, index), where the run holds distinct values: the packed sort left those in index
    order. Where that is a large share of the elements, one stable argsort of ``x``.
    """
    lanes = np.moveaxis(order, axis, -1)
    shape = lanes.shape
    keys = _sort_keys(np.moveaxis(ordered, axis, -1))[0].astype(np.int64, copy=False)
    keys = keys.reshape(-1, shape[-1])
    truncated = (keys - np.int64(low)).view(np.uint64) >> np.uint64(dropped)
    same = truncated[:, 1:] == truncated[:, :-1]
    starts = np.ones(keys.shape, bool)
    starts[:, 1:] = ~same
    run = np.cumsum(starts.reshape(-1)) - 1  # the run of equal truncated keys of each element
    distinct = np.flatnonzero((same & (keys[:, 1:] != keys[:, :-1])).reshape(-1))
    tangled = np.zeros(run[-1] + 1, bool)
    tangled[run[distinct + distinct // (shape[-1] - 1) + 1]] = True  # the later element's run
    selected = np.flatnonzero(tangled[run])
    if selected.size > _UNTANGLE_AT_MOST * run.size:
        return np.argsort(x, axis=axis, kind="stable")
    flat_keys, flat_order = keys.reshape(-1), lanes.reshape(-1).copy()
    indices = flat_order[selected]
    flat_order[selected] = indices[np.lexsort((indices, flat_keys[selected], run[selected]))]
    return np.moveaxis(flat_order.reshape(shape), -1, axis)
