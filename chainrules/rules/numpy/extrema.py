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
from .linear_maps import register_rules

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


def _register_extremum(f: Any, nan_selected: bool, also: tuple = ()) -> None:
    """Register the rules of ``f``, one of max, min, nanmax and nanmin.

    ``nan_selected``: whether ``f`` propagates NaN, so that NaN elements are the selected ones.
    """
    name = f.__name__

    @positional_cotangents
    def extremum_rrule(a, axis=None, *, keepdims=False, initial=None, where=None):
        shape = shape_of(a)
        axes = normalize_axes(axis, len(shape))
        y = f(a, axis, **given_options(keepdims=keepdims, initial=initial, where=where))
        project_a = ProjectTo(a)
        selection = _Selection(a, y, axes, keepdims, where, nan_selected)

        def extremum_pullback(dy):
            dy = unthunk(dy)
            if is_zero(dy):
                return NO_TANGENT, project_a(ZERO_TANGENT)
            return NO_TANGENT, project_a(selection.pullback(dy, shape, axes, keepdims))

        extremum_pullback.__name__ = extremum_pullback.__qualname__ = f"{name}_pullback"
        return y, extremum_pullback

    def extremum_frule(tangents, a, axis=None, *, keepdims=False, initial=None, where=None):
        y = f(a, axis, **given_options(keepdims=keepdims, initial=initial, where=where))
        da = unthunk(tangents[1])
        if is_zero(da):
            return y, ZERO_TANGENT
        axes = normalize_axes(axis, len(shape_of(a)))
        selection = _Selection(a, y, axes, keepdims, where, nan_selected)
        return y, ProjectTo(y)(selection.pushforward(da, axes, keepdims))

    register_rules(f, extremum_rrule, extremum_frule, name=name, also=also)


_register_extremum(np.max, True, also=(np.amax, np.ndarray.max))
_register_extremum(np.min, True, also=(np.amin, np.ndarray.min))
_register_extremum(np.nanmax, False)
_register_extremum(np.nanmin, False)


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
