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

from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import unthunk
from .arguments import given_options, positional_cotangents
from .axes import expand_reduced, is_zero, normalize_axes, shape_of

__all__: list[str] = []


# ---- max, min and their kin: ties share the cotangent ----------------------------------------


class _Selection:
    """Which elements a max/min picked (``mask``), and how many per slice (``count``, >= 1).

    ``nan_selected``: whether NaN elements are selected where the result is NaN (max and min
    propagate NaN; nanmax and nanmin never select it).
    """

    __slots__ = ("count", "mask")

    def __init__(self, x, y, axes: tuple[int, ...], keepdims: bool, where, nan_selected: bool):
        xp = array_namespace(x)
        x = xp.asarray(x)
        shape = shape_of(x)
        y_full = expand_reduced(y, shape, axes, keepdims)
        mask = x == y_full
        if nan_selected:
            mask = mask | (xp.isnan(x) & xp.isnan(y_full))
        if where is not None:
            mask = mask & where
        self.mask = mask
        count = xp.sum(xp.astype(mask, xp.int64), axis=axes, keepdims=True)
        self.count = xp.maximum(count, 1)

    def pullback(self, dy: Any, shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool):
        xp = array_namespace(dy)
        share = expand_reduced(dy, self.count.shape, axes, keepdims) / self.count
        return xp.where(self.mask, xp.broadcast_to(share, shape), 0)

    def pushforward(self, dx: Any, axes: tuple[int, ...], keepdims: bool) -> Any:
        xp = array_namespace(dx)
        picked = xp.sum(xp.where(self.mask, dx, 0), axis=axes, keepdims=True) / self.count
        return picked if keepdims else xp.squeeze(picked, axis=axes)


def _extremum_rrule(f, a, axis, options: dict, keepdims: bool, where, nan_selected: bool = True):
    shape = shape_of(a)
    axes = normalize_axes(axis, len(shape))
    y = f(a, axis, **options)
    project_a = ProjectTo(a)
    selection = _Selection(a, y, axes, keepdims, where, nan_selected)

    def extremum_pullback(dy):
        dy = unthunk(dy)
        if is_zero(dy):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        return NO_TANGENT, project_a(selection.pullback(dy, shape, axes, keepdims))

    return y, extremum_pullback


def _extremum_frule(
    f, tangents: tuple, a, axis, options: dict, keepdims: bool, where, nan_selected: bool = True
):
    y = f(a, axis, **options)
    da = unthunk(tangents[1])
    if is_zero(da):
        return y, ZERO_TANGENT
    axes = normalize_axes(axis, len(shape_of(a)))
    selection = _Selection(a, y, axes, keepdims, where, nan_selected)
    return y, ProjectTo(y)(selection.pushforward(da, axes, keepdims))


@rrule.register(np.ndarray.max)
@rrule.register(np.amax)
@rrule.register(np.max)
@positional_cotangents
def _max_rrule(a, axis=None, *, keepdims=False, initial=None, where=None):
    options = given_options(keepdims=keepdims, initial=initial, where=where)
    return _extremum_rrule(np.max, a, axis, options, keepdims, where)


@frule.register(np.ndarray.max)
@frule.register(np.amax)
@frule.register(np.max)
def _max_frule(tangents, a, axis=None, *, keepdims=False, initial=None, where=None):
    options = given_options(keepdims=keepdims, initial=initial, where=where)
    return _extremum_frule(np.max, tangents, a, axis, options, keepdims, where)


@rrule.register(np.ndarray.min)
@rrule.register(np.amin)
@rrule.register(np.min)
@positional_cotangents
def _min_rrule(a, axis=None, *, keepdims=False, initial=None, where=None):
    options = given_options(keepdims=keepdims, initial=initial, where=where)
    return _extremum_rrule(np.min, a, axis, options, keepdims, where)


@frule.register(np.ndarray.min)
@frule.register(np.amin)
@frule.register(np.min)
def _min_frule(tangents, a, axis=None, *, keepdims=False, initial=None, where=None):
    options = given_options(keepdims=keepdims, initial=initial, where=where)
    return _extremum_frule(np.min, tangents, a, axis, options, keepdims, where)


@rrule.register(np.nanmax)
@positional_cotangents
def _nanmax_rrule(a, axis=None, *, keepdims=False, initial=None, where=None):
    options = given_options(keepdims=keepdims, initial=initial, where=where)
    return _extremum_rrule(np.nanmax, a, axis, options, keepdims, where, nan_selected=False)


@frule.register(np.nanmax)
def _nanmax_frule(tangents, a, axis=None, *, keepdims=False, initial=None, where=None):
    options = given_options(keepdims=keepdims, initial=initial, where=where)
    return _extremum_frule(np.nanmax, tangents, a, axis, options, keepdims, where, False)


@rrule.register(np.nanmin)
@positional_cotangents
def _nanmin_rrule(a, axis=None, *, keepdims=False, initial=None, where=None):
    options = given_options(keepdims=keepdims, initial=initial, where=where)
    return _extremum_rrule(np.nanmin, a, axis, options, keepdims, where, nan_selected=False)


@frule.register(np.nanmin)
def _nanmin_frule(tangents, a, axis=None, *, keepdims=False, initial=None, where=None):
    options = given_options(keepdims=keepdims, initial=initial, where=where)
    return _extremum_frule(np.nanmin, tangents, a, axis, options, keepdims, where, False)


@rrule.register(np.ptp)
@positional_cotangents
def _ptp_rrule(a, axis=None, *, keepdims=False):
    shape = shape_of(a)
    axes = normalize_axes(axis, len(shape))
    options = given_options(keepdims=keepdims)
    high, low = np.max(a, axis, **options), np.min(a, axis, **options)
    project_a = ProjectTo(a)
    top = _Selection(a, high, axes, keepdims, None, True)
    bottom = _Selection(a, low, axes, keepdims, None, True)

    def ptp_pullback(dy):
        dy = unthunk(dy)
        if is_zero(dy):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        dx = top.pullback(dy, shape, axes, keepdims) - bottom.pullback(dy, shape, axes, keepdims)
        return NO_TANGENT, project_a(dx)

    return high - low, ptp_pullback


@frule.register(np.ptp)
def _ptp_frule(tangents, a, axis=None, *, keepdims=False):
    options = given_options(keepdims=keepdims)
    high, low = np.max(a, axis, **options), np.min(a, axis, **options)
    y = high - low
    da = unthunk(tangents[1])
    if is_zero(da):
        return y, ZERO_TANGENT
    axes = normalize_axes(axis, len(shape_of(a)))
    top = _Selection(a, high, axes, keepdims, None, True).pushforward(da, axes, keepdims)
    bottom = _Selection(a, low, axes, keepdims, None, True).pushforward(da, axes, keepdims)
    return y, ProjectTo(y)(top - bottom)
