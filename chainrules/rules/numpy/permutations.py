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
# Beyond this many descents to put right, one stable argsort of the whole is cheaper.
_UNTANGLE_AT_MOST = 512
_BLOCK = 1024
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
        if type(dx) is np.ndarray and self._flat():
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
            if self._flat():
                dx.reshape(-1)[self.positions()] = np.ascontiguousarray(dy).reshape(-1)
            else:
                np.put_along_axis(dx, self.order, dy, axis=self.axis)
            return dx
        inverse = inverse_permutation(self.order, self.axis)
        dx = xp.take_along_axis(dy, inverse, axis=self.axis)
        return xp.reshape(dx, self.shape) if self.flatten else dx

    def _flat(self) -> bool:
        """Whether NumPy values are indexed through ``positions()``: for one axis (where they
        are the order itself) and for large arrays, where one flat index is much faster than
        ``take_along_axis``'s index per axis; small arrays do not repay computing them."""
        order = self.order
        return isinstance(order, np.ndarray) and (order.ndim == 1 or order.size >= PACKED_FROM)

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
    """Signed 64-bit integers that sort as ``x`` does (NaN, every NaN alike, above inf;
    ``-0.0`` equal to ``0.0``), and the least and the greatest of them.

    The keys are a fresh array, which the caller may overwrite.
    """
    integer, inf_key, nan_key = _KEYS[x.dtype]
    bits = x.view(integer)
    negative = (bits >> (8 * x.itemsize - 1)).astype(np.int64, copy=False)  # -1 or 0
    keys = (bits & integer(np.iinfo(integer).max)).astype(np.int64, copy=False)  # magnitude
    keys ^= negative
    keys -= negative  # -magnitude where negative: -0.0 becomes 0
    low, high = int(keys.min()), int(keys.max())
    if high > inf_key or low < -inf_key:
        keys[np.isnan(x)] = nan_key
        low, high = int(keys.min()), int(keys.max())
    return keys, low, high


def _packed_order(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    n = x.shape[axis]
    index_bits = (n - 1).bit_length()
    keys, low, high = _sort_keys(x)
    # The bits of the key range that do not fit beside the index are dropped from the key.
    dropped = max((high - low).bit_length() + index_bits - 64, 0)
    keys -= np.int64(low)  # wraps past 2**63, read as unsigned below: the offset from low
    packed = keys.view(np.uint64)
    if dropped:
        packed >>= np.uint64(dropped)
    packed <<= np.uint64(index_bits)
    _or_index(packed, axis)
    packed.sort(axis=axis)
    packed &= np.uint64((1 << index_bits) - 1)
    order = packed.view(np.int64)
    ordered = Permutation(order, axis, False, x.shape).gather(x)
    if dropped:
        descents = ordered[_along(axis, slice(1, None))] < ordered[_along(axis, slice(-1))]
        if descents.any():
            _untangle(x, order, ordered, descents, axis, low, dropped)
    return order, ordered


def _or_index(packed: np.ndarray, axis: int) -> None:
    """Write each element's index along ``axis`` into the low bits of ``packed``, in place."""
    n = packed.shape[axis]
    if packed.ndim > 1 or n < 2 * _BLOCK:
        layout = [1] * packed.ndim
        layout[axis] = n
        packed |= np.arange(n, dtype=np.uint64).reshape(layout)
        return
    # One axis: index = block * _BLOCK + offset, in two passes over blocks, without an index
    # array as large as the data.
    whole = n - n % _BLOCK
    blocks = packed[:whole].reshape(-1, _BLOCK)
    blocks |= np.arange(0, whole, _BLOCK, dtype=np.uint64)[:, None]
    blocks |= np.arange(_BLOCK, dtype=np.uint64)
    packed[whole:] |= np.arange(whole, n, dtype=np.uint64)


def _untangle(
    x: np.ndarray,
    order: np.ndarray,
    ordered: np.ndarray,
    descents: np.ndarray,
    axis: int,
    low: int,
    dropped: int,
) -> None:
    """Put right, in place, the runs of ``order`` and ``ordered`` where the packed sort left
    distinct values in index order: those whose keys agree but for the dropped bits, found
    from the ``descents`` of ``ordered``, each sorted by (key, index). Where they are many,
    ``x``'s stable argsort replaces ``order``.
    """
    lanes = np.moveaxis(descents, axis, -1)
    where = np.nonzero(lanes)
    if where[-1].size > _UNTANGLE_AT_MOST:
        order[...] = np.argsort(x, axis=axis, kind="stable")
        ordered[...] = np.take_along_axis(x, order, axis=axis)
        return
    lane_orders, lane_values = np.moveaxis(order, axis, -1), np.moveaxis(ordered, axis, -1)
    lanes_at = zip(*where[:-1], strict=True) if lanes.ndim > 1 else [()] * where[-1].size
    for lane, at in zip(lanes_at, where[-1], strict=True):
        indices, values = lane_orders[lane], lane_values[lane]  # views: written in place
        if not values[at + 1] < values[at]:
            continue  # put right with an earlier descent of the same run
        start, stop, keys = _run_around(values, at, low, dropped)
        among = np.lexsort((indices[start:stop], keys))
        indices[start:stop] = indices[start:stop][among]
        values[start:stop] = values[start:stop][among]


def _run_around(values: np.ndarray, at: int, low: int, dropped: int) -> tuple[int, int, Any]:
    """The run of ``values`` (sorted by truncated key) whose truncated key is that of
    ``values[at]``: its start, its stop and its keys. Keys are computed for a window around
    ``at``, widened until the run ends inside it."""
    width = 8
    while True:
        start, stop = max(at - width, 0), min(at + 2 + width, values.size)
        keys = _sort_keys(values[start:stop])[0]
        truncated = (keys - np.int64(low)).view(np.uint64) >> np.uint64(dropped)
        run = truncated[at - start]
        first = int(np.searchsorted(truncated, run, "left"))
        last = int(np.searchsorted(truncated, run, "right"))
        if (first > 0 or start == 0) and (last < truncated.size or stop == values.size):
            return start + first, start + last, keys[first:last]
        width *= 4
