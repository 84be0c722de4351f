"""Rules for NumPy's sorting and selection: sort, partition, sort_complex, unique.

``sort``, ``partition`` and ``sort_complex`` are permutations of their input: the forward pass
finds the permutation ``order`` (``y = take_along_axis(x, order)``; ``permutations``), the
frule gathers the tangent with it, and the pullback scatters the cotangent back along it.
Sorting is stable, so tied elements keep their order and each receives the cotangent of the
output position it landed in: a consistent subgradient. ``partition`` reproduces NumPy's own
arrangement of the partitioned output.

``unique`` (the values; with ``return_index``/``return_inverse``/``return_counts`` the integer
outputs have no tangent) gives each unique value's cotangent to the elements equal to it, shared
equally among them, as the reductions share ties. ``unique_values``, ``unique_counts``,
``unique_inverse`` and ``unique_all`` do the same for their ``values``; their counts, indices and
inverse indices are integers, with ``NoTangent()``.

``ndarray.sort`` and ``ndarray.partition`` sort in place and return None: a rule cannot describe
a mutation of its argument, so they have none. Use ``np.sort``; an engine that meets the methods
traces into them or reports them.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.sort, np.array([3.0, 1.0, 2.0]))
>>> y, pullback(np.array([10.0, 20.0, 30.0]))[1]
(array([1., 2., 3.]), array([30., 10., 20.]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.linear import register_rules
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import normalize_axis, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ...core.thunks import unthunk
from ...core.zeros import is_zero
from .permutations import Permutation, inverse_permutation, stable_order

__all__: list[str] = []


def _sorting(x: Any, axis: Any) -> tuple[Permutation, Any]:
    """The stable sorting permutation of ``x`` along ``axis`` (None: flattened) and the result."""
    xp = array_namespace(x)
    x = xp.asarray(x)
    shape = tuple(x.shape)
    if axis is None:
        order, ordered = stable_order(xp.reshape(x, (-1,)), 0)
        return Permutation(order, 0, True, shape), ordered
    axis = normalize_axis(axis, x.ndim)
    order, ordered = stable_order(x, axis)
    return Permutation(order, axis, False, shape), ordered


def _permutation_rrule(x: Any, y: Any, permutation: Permutation, name: str):
    project_x = ProjectTo(x)

    def permutation_pullback(dy):
        return NO_TANGENT, project_x(permutation.scatter(dy))

    return y, permutation_pullback


def _permutation_frule(tangents: tuple, y: Any, permutation: Any) -> tuple[Any, Any]:
    dx = tangents[1]
    if is_zero(dx):
        return y, ZERO_TANGENT
    return y, ProjectTo(y)(permutation().gather(dx))


# ---- sort -----------------------------------------------------------------------------------


@rrule.register(np.sort)
def _sort_rrule(a, axis=-1, kind=None, *, stable=None):
    permutation, y = _sorting(a, axis)
    return _permutation_rrule(a, y, permutation, "sort_pullback")


@frule.register(np.sort)
def _sort_frule(tangents, a, axis=-1, kind=None, *, stable=None):
    permutation, y = _sorting(a, axis)
    return _permutation_frule(tangents, y, lambda: permutation)


@rrule.register(np.sort_complex)
def _sort_complex_rrule(a):
    y = np.sort_complex(a)
    permutation, _ = _sorting(a, -1)
    return _permutation_rrule(a, y, permutation, "sort_complex_pullback")


@frule.register(np.sort_complex)
def _sort_complex_frule(tangents, a):
    y = np.sort_complex(a)
    return _permutation_frule(tangents, y, lambda: _sorting(a, -1)[0])


# ---- partition ------------------------------------------------------------------------------


def _partitioning(a: Any, y: Any, axis: Any) -> Permutation:
    """The permutation that takes ``a`` to NumPy's own partitioned output ``y``.

    Equal values are matched in order: the k-th smallest element of ``a`` goes where the k-th
    smallest element of ``y`` sits.
    """
    xp = array_namespace(a, y)
    a = xp.asarray(a)
    shape = shape_of(a)
    if axis is None:
        a, axis, flatten = xp.reshape(a, (-1,)), 0, True
    else:
        axis, flatten = normalize_axis(axis, len(shape)), False
    from_a = xp.argsort(a, axis=axis, stable=True)
    from_y = xp.argsort(y, axis=axis, stable=True)
    order = np.take_along_axis(from_a, inverse_permutation(from_y, axis), axis=axis)
    return Permutation(order, axis, flatten, shape)


@rrule.register(np.partition)
def _partition_rrule(a, kth, axis=-1, kind="introselect"):
    y = np.partition(a, kth, axis, kind)
    _, pullback = _permutation_rrule(a, y, _partitioning(a, y, axis), "partition_pullback")

    def partition_pullback(dy):
        return (*pullback(dy), NO_TANGENT)  # kth is an index

    return y, partition_pullback


@frule.register(np.partition)
def _partition_frule(tangents, a, kth, axis=-1, kind="introselect"):
    y = np.partition(a, kth, axis, kind)
    return _permutation_frule(tangents, y, lambda: _partitioning(a, y, axis))


# ---- unique ---------------------------------------------------------------------------------


class _Grouping:
    """Which unique value each element became (``inverse``) and how many share it."""

    __slots__ = ("axis", "counts", "inverse", "shape")

    def __init__(self, ar: Any, axis: Any, equal_nan: bool) -> None:
        self.shape = shape_of(ar)
        self.axis = None if axis is None else normalize_axis(axis, len(self.shape))
        # The inverse and the counts are integers: plain NumPy arrays even for tracked data.
        _, inverse, counts = np.unique(
            ar, return_inverse=True, return_counts=True, axis=axis, equal_nan=equal_nan
        )
        self.inverse = inverse.reshape(-1)
        self.counts = counts

    def pullback(self, dy: Any) -> Any:
        xp = array_namespace(dy)
        dy = xp.asarray(dy)
        if self.axis is None:
            share = dy / self.counts
            return xp.reshape(xp.take(share, self.inverse), self.shape)
        layout = [1] * len(self.shape)
        layout[self.axis] = self.counts.shape[0]
        share = dy / xp.asarray(self.counts.reshape(layout))
        return xp.take(share, self.inverse, axis=self.axis)

    def pushforward(self, dx: Any) -> Any:
        """The mean of the tangents of the elements that make up each unique value."""
        xp = array_namespace(dx)
        dx = xp.asarray(dx)
        axis = 0 if self.axis is None else self.axis
        if self.axis is None:
            dx = xp.reshape(dx, (-1,))
        # Group the elements by unique value, then sum each group as a difference of
        # cumulative sums at the group boundaries.
        grouped = xp.take(dx, np.argsort(self.inverse, stable=True), axis=axis)
        sums = xp.cumulative_sum(grouped, axis=axis, include_initial=True)
        ends = np.cumsum(self.counts)
        totals = xp.take(sums, ends, axis=axis) - xp.take(sums, ends - self.counts, axis=axis)
        layout = [1] * dx.ndim
        layout[axis] = self.counts.shape[0]
        return totals / xp.asarray(self.counts.reshape(layout))


@rrule.register(np.unique)
def _unique_rrule(
    ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True
):
    flags = (return_index, return_inverse, return_counts)
    y = np.unique(ar, *flags, axis=axis, equal_nan=equal_nan)
    grouping = _Grouping(ar, axis, equal_nan)
    project_ar = ProjectTo(ar)
    several = any(flags)

    def unique_pullback(dy):
        if several:
            dy = unthunk(dy[0])
        return NO_TANGENT, project_ar(grouping.pullback(dy))

    return y, unique_pullback


@frule.register(np.unique)
def _unique_frule(
    tangents,
    ar,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    *,
    equal_nan=True,
):
    flags = (return_index, return_inverse, return_counts)
    y = np.unique(ar, *flags, axis=axis, equal_nan=equal_nan)
    values = y[0] if any(flags) else y
    dx = tangents[1]
    if is_zero(dx):
        return y, ZERO_TANGENT
    d_values = ProjectTo(values)(_Grouping(ar, axis, equal_nan).pushforward(dx))
    if any(flags):
        return y, Tangent(tuple, d_values, *(NO_TANGENT for _ in y[1:]))
    return y, d_values


def _unique_values_match(x: Any, y: Any) -> bool:
    # NumPy leaves unique_values' order unspecified; the rule holds while it is np.unique's.
    return bool(np.array_equal(y, np.unique_values(x), equal_nan=True))


@rrule.register(np.unique_values)
def _unique_values_rrule(x):
    y, pullback = _unique_rrule(x, equal_nan=False)
    return (y, pullback) if _unique_values_match(x, y) else None


@frule.register(np.unique_values)
def _unique_values_frule(tangents, x):
    y, dy = _unique_frule(tangents, x, equal_nan=False)
    return (y, dy) if _unique_values_match(x, y) else None


# ---- unique_counts, unique_inverse, unique_all: the values and integer companions -----------


def _values_cotangent(dy: Any) -> Any:
    """The cotangent of the ``values`` field of a unique_* result (a namedtuple)."""
    dy = unthunk(dy)
    if is_zero(dy):
        return dy
    if isinstance(dy, Tangent) and not dy.is_positional:
        return unthunk(dy.backing.get("values", ZERO_TANGENT))
    return unthunk(dy[0])


def _sorted_as_unique(x: Any, values: Any) -> bool:
    # NumPy leaves the order of these values unspecified; the rule holds while it is np.unique's.
    return bool(np.array_equal(values, np.unique(x, equal_nan=False), equal_nan=True))


def _register_unique_result(f: Any) -> None:
    """Rules for ``f(x)``, a namedtuple of ``np.unique(x)``'s sorted values and integer arrays."""

    def unique_result_rrule(x):
        y = f(x)
        if not _sorted_as_unique(x, y.values):
            return None
        grouping = _Grouping(x, None, False)
        project_x = ProjectTo(x)

        def unique_result_pullback(dy):
            dv = _values_cotangent(dy)
            if is_zero(dv):
                return NO_TANGENT, project_x(ZERO_TANGENT)
            return NO_TANGENT, project_x(grouping.pullback(dv))

        return y, unique_result_pullback

    def unique_result_frule(tangents, x):
        y = f(x)
        if not _sorted_as_unique(x, y.values):
            return None
        dx = tangents[1]
        if is_zero(dx):
            return y, ZERO_TANGENT
        d_values = ProjectTo(y.values)(_Grouping(x, None, False).pushforward(dx))
        others = {field: NO_TANGENT for field in y._fields if field != "values"}
        return y, Tangent(type(y), values=d_values, **others)

    register_rules(f, unique_result_rrule, unique_result_frule)


for _f in (np.unique_counts, np.unique_inverse, np.unique_all):
    _register_unique_result(_f)
