"""Rules for NumPy's extrema: max, min, amax, amin, nanmax, nanmin and ptp.

Each takes ``axis`` (None, an int, a negative int or a tuple), ``keepdims`` and, where NumPy has
them, ``initial`` and ``where``; ``ndarray.max`` and ``ndarray.min`` reach the same rules.

Ties share the cotangent equally: every element equal to the extremum of its slice receives
``dy / count``, and the frule averages the tangents of the tied elements, so frule and rrule
agree. Where ``max`` or ``min`` propagates a NaN, the NaN elements are the selected ones;
``nanmax`` and ``nanmin`` never select a NaN. An ``initial`` value that wins selects no element.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.max, np.array([1.0, 3.0, 3.0]))
>>> pullback(1.0)[1]
array([0. , 0.5, 0.5])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.arguments import given_options
from ...core.calls import call
from ...core.fast_paths import FastPullback, float_array, no_tangents, onto, register_fast_path
from ...core.linear import register_rules
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import expand_reduced, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.zeros import is_zero
from .reductions import reduced_axes

__all__: list[str] = []


# ---- max, min and their kin: ties share the cotangent ----------------------------------------


class _Selection:
    """Which elements a max/min picked (``mask``), and how many per slice (``count``, >= 1).

    Built from the input ``x`` and the result ``y`` when first asked for, so that a forward
    pass whose pullback never runs makes no pass over ``x`` beyond the reduction itself.
    ``nan_selected``: whether NaN elements are selected where the result is NaN (max and min
    propagate NaN; nanmax and nanmin never select it).
    """

    __slots__ = ("_count", "_mask", "axes", "keepdims", "nan_selected", "where", "x", "y")

    def __init__(self, x, y, axes: tuple[int, ...], keepdims: bool, where, nan_selected: bool):
        self.x, self.y, self.axes, self.keepdims = x, y, axes, keepdims
        self.where, self.nan_selected = where, nan_selected
        self._mask = self._count = None

    @property
    def mask(self):
        if self._mask is None:
            self._select()
        return self._mask

    @property
    def count(self):
        if self._count is None:
            self._select()
        return self._count

    def _select(self) -> None:
        xp = array_namespace(self.x)
        x = xp.asarray(self.x)
        shape = shape_of(x)
        y_full = expand_reduced(self.y, shape, self.axes, self.keepdims)
        mask = x == y_full
        if self.nan_selected and _may_hold_nan(self.y):
            mask = mask | (xp.isnan(x) & xp.isnan(y_full))
        if self.where is not None:
            mask = mask & self.where
        self._mask = mask
        self._count = xp.maximum(_count_selected(mask, self.axes), 1)

    def pullback(self, dy: Any, shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool):
        x, y = self.x, self.y
        if (
            type(x) is np.ndarray
            and isinstance(y, np.floating)
            and y == y  # not NaN
            and self.where is None
            and len(axes) == len(shape)
        ):
            return whole_cotangent(x, y, dy)
        xp = array_namespace(dy)
        count = self.count
        share = xp.broadcast_to(expand_reduced(dy, count.shape, axes, keepdims) / count, shape)
        return _selected(self.mask, share, shape)

    def pushforward(self, dx: Any, axes: tuple[int, ...], keepdims: bool) -> Any:
        xp = array_namespace(dx)
        picked = xp.sum(xp.where(self.mask, dx, 0), axis=axes, keepdims=True) / self.count
        return picked if keepdims else xp.squeeze(picked, axis=axes)


def whole_cotangent(x: np.ndarray, y: Any, dy: Any) -> Any:
    """The cotangent of a NumPy array ``x`` reduced whole to its max or min ``y`` (not NaN):
    ``dy`` shared by the elements equal to ``y``."""
    mask = x == y
    share = dy / (int(np.count_nonzero(mask)) or 1)  # a Python int: NumPy's divide slowly
    return _selected(mask, share, x.shape)


def _selected(mask: Any, share: Any, shape: tuple[int, ...]) -> Any:
    """``share`` where ``mask`` holds, 0 elsewhere. NumPy values are written into zeros (the
    values of ``where``, in half its time); an engine's values (a cotangent being
    differentiated) go through ``where``, which the engine records."""
    if type(mask) is np.ndarray and (
        type(share) is np.ndarray or isinstance(share, float | complex | np.generic)
    ):
        dx = np.zeros(shape, _FLOAT64 if type(share) is float else np.result_type(share))
        np.copyto(dx, share, where=mask)
        return dx
    return array_namespace(share).where(mask, share, 0)


_FLOAT64 = np.dtype(np.float64)


def _may_hold_nan(y: Any) -> bool:
    """Whether the result ``y`` may hold a NaN: False only for NumPy values known to hold none.

    A slice whose maximum is not NaN holds no NaN, so the NaN test over the input is skipped;
    values of other libraries (tracers among them) always take it.
    """
    if isinstance(y, np.ndarray | np.generic | float):
        return bool(np.isnan(y).any())
    return True


def _count_selected(mask: Any, axes: tuple[int, ...]) -> Any:
    """How many elements of each reduced slice ``mask`` selects, with the reduced axes kept."""
    xp = array_namespace(mask)
    shape = shape_of(mask)
    if len(axes) == len(shape) and hasattr(xp, "count_nonzero"):
        # Counting a whole array is one fast pass; counting along axes is not.
        return xp.reshape(xp.asarray(xp.count_nonzero(mask)), (1,) * len(shape))
    return xp.sum(xp.astype(mask, xp.int64), axis=axes, keepdims=True)


_METHODS = {np.max: np.ndarray.max, np.min: np.ndarray.min}


def _register_extremum(f: Any, nan_selected: bool, also: tuple = ()) -> None:
    """Register the rules of ``f``, one of max, min, nanmax and nanmin.

    ``nan_selected``: whether ``f`` propagates NaN, so that NaN elements are the selected ones.
    """
    method = _METHODS.get(f)  # on an ndarray, without the function's own Python layers

    def extremum_rrule(a, axis=None, *, keepdims=False, initial=None, where=None):
        shape = shape_of(a)
        axes = reduced_axes(axis, len(shape))
        options = given_options(keepdims=keepdims, initial=initial, where=where)
        y = (
            (method or f)(a, axis, **options)
            if type(a) is np.ndarray
            else call(f, a, axis, **options)
        )
        project_a = ProjectTo(a)
        selection = _Selection(a, y, axes, keepdims, where, nan_selected)

        def extremum_pullback(dy):
            return NO_TANGENT, project_a(selection.pullback(dy, shape, axes, keepdims))

        return y, extremum_pullback

    def extremum_frule(tangents, a, axis=None, *, keepdims=False, initial=None, where=None):
        y = call(f, a, axis, **given_options(keepdims=keepdims, initial=initial, where=where))
        da = tangents[1]
        if is_zero(da):
            return y, ZERO_TANGENT
        axes = reduced_axes(axis, len(shape_of(a)))
        selection = _Selection(a, y, axes, keepdims, where, nan_selected)
        return y, ProjectTo(y)(selection.pushforward(da, axes, keepdims))

    register_rules(f, extremum_rrule, extremum_frule, also=also)


_register_extremum(np.max, True, also=(np.amax, np.ndarray.max))
_register_extremum(np.min, True, also=(np.amin, np.ndarray.min))
_register_extremum(np.nanmax, False)
_register_extremum(np.nanmin, False)


# ---- fast paths: max and min of a whole NumPy float array --------------------------------------


class _WholeExtremumPullback(FastPullback):
    """A float array reduced to its max or min, which is not NaN: ties share the cotangent."""

    __slots__ = ("x", "y")
    x: np.ndarray
    y: Any

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        x = self.x
        return (NO_TANGENT, onto(x.shape, x.dtype, whole_cotangent(x, self.y, dy)), *self.rest)


def _fast_extremum(method: Any) -> Any:
    """The fast path of ``max`` or ``min`` (``method``, the ndarray's) over a whole float
    array, without keywords; a NaN result takes the rule's way."""

    def make(general: Any, pullback_class: Any) -> Any:
        def extremum_rrule(a: Any, *params: Any, **kwargs: Any) -> Any:
            whole = not params or (len(params) == 1 and params[0] is None)
            if kwargs or not whole or not float_array(a):
                return general(a, *params, **kwargs)
            y = method(a)
            if y != y:  # NaN: selected where the input is NaN
                return general(a, *params)
            pullback = pullback_class()
            pullback.x, pullback.y = a, y
            pullback.shape, pullback.rest = (), no_tangents(len(params))
            return y, pullback

        return extremum_rrule

    return make


register_fast_path(
    np.max, _fast_extremum(np.ndarray.max), _WholeExtremumPullback, also=(np.amax, np.ndarray.max)
)
register_fast_path(
    np.min, _fast_extremum(np.ndarray.min), _WholeExtremumPullback, also=(np.amin, np.ndarray.min)
)


@rrule.register(np.ptp)
def _ptp_rrule(a, axis=None, *, keepdims=False):
    shape = shape_of(a)
    axes = reduced_axes(axis, len(shape))
    options = given_options(keepdims=keepdims)
    high, low = call(np.max, a, axis, **options), call(np.min, a, axis, **options)
    project_a = ProjectTo(a)
    top = _Selection(a, high, axes, keepdims, None, True)
    bottom = _Selection(a, low, axes, keepdims, None, True)

    def ptp_pullback(dy):
        dx = top.pullback(dy, shape, axes, keepdims) - bottom.pullback(dy, shape, axes, keepdims)
        return NO_TANGENT, project_a(dx)

    return high - low, ptp_pullback


@frule.register(np.ptp)
def _ptp_frule(tangents, a, axis=None, *, keepdims=False):
    options = given_options(keepdims=keepdims)
    high, low = call(np.max, a, axis, **options), call(np.min, a, axis, **options)
    y = high - low
    da = tangents[1]
    if is_zero(da):
        return y, ZERO_TANGENT
    axes = reduced_axes(axis, len(shape_of(a)))
    top = _Selection(a, high, axes, keepdims, None, True).pushforward(da, axes, keepdims)
    bottom = _Selection(a, low, axes, keepdims, None, True).pushforward(da, axes, keepdims)
    return y, ProjectTo(y)(top - bottom)
