"""Rules for NumPy's statistics: var, std (and NaN forms) and average.

The order statistics (median, quantile, percentile and their NaN forms) live in
``quantiles``; cov and corrcoef in ``covariance``; differences and integrals (diff, gradient,
trapezoid) in ``differences``.

Conventions:

* ``var`` and ``std`` take ``axis``, ``dtype``, ``ddof`` (or its array-API name
  ``correction``), ``keepdims`` and ``where``; the NaN forms skip NaN elements, whose cotangent
  is zero. For complex data the variance is real and its cotangent is ``2 (x - mean) dy / (N -
  ddof)``.
* ``mean=`` (NumPy 2) gives the centre, to spare its computation. It is a keyword, so it has
  no tangent: ``var`` is differentiated as the mean square about that fixed centre, ``2 (x -
  mean) dy / (N - ddof)``. Where ``mean`` is the data's mean, as NumPy expects, this is the
  ordinary first derivative (the derivative in the centre vanishes there); second derivatives
  differ by the centring term, so differentiate twice without ``mean=``.
* ``std`` at zero variance: where every element of a slice equals the mean (and ``N - ddof`` is
  positive) the standard deviation is not differentiable (it behaves like ``|t|`` along every
  non-constant direction); its derivative there is taken as 0, the subgradient of least norm,
  never NaN.
* ``average`` takes ``weights`` (the same shape as ``a``, or one-dimensional along ``axis``)
  and differentiates with respect to both. With ``returned=True`` the output is the pair
  (average, sum of the weights); the sum's cotangent goes to the weights, and without weights
  the sum is the count of elements, a constant.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.std, np.array([2.0, 2.0, 2.0]))
>>> pullback(1.0)[1]
array([0., 0., 0.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.arguments import given_options
from ...core.dtypes import is_complex
from ...core.linear import register_rules
from ...core.namespace import array_namespace, numpy_dispatches
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import (
    count_reduced,
    expand_reduced,
    normalize_axis,
    reduced_shape,
    shape_of,
)
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ...core.thunks import unthunk
from ...core.zeros import is_zero
from .reductions import reduced_axes

__all__: list[str] = []


# ---- var and std ----------------------------------------------------------------------------


class _Spread:
    """What var and std need to differentiate: the centred data and the denominator ``N - ddof``.

    ``where`` is the mask of elements taking part (the caller's ``where``, and for the NaN
    forms the elements that are not NaN), or None for all of them. ``mean``, when given, is
    the centre (held fixed) in place of the data's mean.
    """

    __slots__ = ("axes", "centred", "denominator", "keepdims", "shape", "where")

    def __init__(self, a, axis, dtype, ddof, keepdims, where, mean=None):
        xp = array_namespace(a)
        x = xp.asarray(a)
        if dtype is not None:
            x = xp.astype(x, dtype)
        self.shape = shape_of(x)
        self.axes = reduced_axes(axis, len(self.shape))
        self.keepdims = keepdims
        self.where = where
        if where is None:
            count: Any = count_reduced(self.shape, self.axes)
            included = x
        else:
            mask = xp.broadcast_to(xp.asarray(where), self.shape)
            count = xp.sum(xp.astype(mask, xp.int64), axis=self.axes, keepdims=True)
            included = xp.where(mask, x, 0)
        if mean is None:
            # Empty slices give 0/0 here as in NumPy; their cotangent is masked to zero below.
            at_least_one = (
                max(count, 1) if isinstance(count, int) else xp.maximum(count, xp.ones_like(count))
            )
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = xp.sum(included, axis=self.axes, keepdims=True) / at_least_one
        centred = x - mean
        self.centred = centred if where is None else xp.where(where, centred, 0)
        self.denominator = count - ddof

    def value(self, root: bool) -> Any:
        """The variance (or, ``root``, the standard deviation), computed with the namespace."""
        xp = array_namespace(self.centred)
        centred = self.centred
        if is_complex(centred):
            squares = xp.real(xp.conj(centred) * centred)
        else:  # the same numbers, without conj's copy of real data
            squares = centred * centred
        var = xp.sum(squares, axis=self.axes, keepdims=True) / self.denominator
        var = var if self.keepdims else xp.squeeze(var, axis=self.axes)
        return xp.sqrt(var) if root else var

    def var_pullback(self, dy: Any) -> Any:
        # 2 joins the small factor: the same products (doubling is exact), one pass fewer
        return self.centred * (2 * (self._expand(dy) / self.denominator))

    def std_pullback(self, dy: Any, std: Any) -> Any:
        return self.centred * (self._expand(dy) / (self.denominator * _nonzero(self._expand(std))))

    def var_pushforward(self, dx: Any) -> Any:
        xp = array_namespace(dx, self.centred)
        products = xp.real(xp.conj(self.centred) * dx)
        total = xp.sum(products, axis=self.axes, keepdims=True) * 2 / self.denominator
        return total if self.keepdims else xp.squeeze(total, axis=self.axes)

    def _expand(self, dy: Any) -> Any:
        kept = tuple(1 if i in self.axes else n for i, n in enumerate(self.shape))
        return expand_reduced(dy, kept, self.axes, self.keepdims)


def _nonzero(std: Any) -> Any:
    """``std`` with its zeros replaced by one: there the centred data are zero too."""
    xp = array_namespace(std)
    std = xp.asarray(std)
    return xp.where(std == 0, xp.ones_like(std), std)


def _taking_part(a: Any, where: Any, nan: bool) -> Any:
    """The mask of elements var or std takes in: ``where``, less the NaNs for a NaN form."""
    if not nan:
        return where
    present = ~array_namespace(a).isnan(a)
    return present if where is None else present & where


def _as_numpy_computes(a: Any, options: dict, spread: _Spread) -> bool:
    """Whether ``spread.value`` is NumPy's own var or std of ``a``, bit for bit: a float64 or
    float32 array without ``dtype``, ``where`` or ``mean`` (and not a NaN form), whose every
    slice has more elements than ``ddof`` (NumPy warns otherwise). The same operations in the
    same order as NumPy's ``_var``, on the centred data the rule computed anyway: NumPy's call
    would compute them again."""
    if type(a) is not np.ndarray or a.dtype not in _SPREAD_DTYPES or not a.size:
        return False
    if any(k != "keepdims" for k in options):
        return False
    return spread.where is None and spread.denominator > 0


_SPREAD_DTYPES = frozenset({np.dtype(np.float64), np.dtype(np.float32)})


def _register_spread(f: Any, nan: bool, root: bool, also: tuple = ()) -> None:
    """Register the rules of ``f``: var, or std (``root``), or their NaN forms (``nan``)."""

    def evaluate(a, axis, dtype, ddof, keepdims, where=None, correction=None, mean=None):
        ddof = ddof if correction is None else correction
        options = given_options(dtype=dtype, keepdims=keepdims, where=where, mean=mean)
        mask = _taking_part(a, where, nan)
        spread = _Spread(a, axis, dtype, ddof, keepdims, mask, mean)
        if not numpy_dispatches(a):  # NumPy's would call the array's method
            return spread.value(root), mask, spread
        if _as_numpy_computes(a, options, spread):
            y = spread.value(root)
            return (y[()] if y.ndim == 0 else y), mask, spread
        return f(a, axis, ddof=ddof, **options), mask, spread

    def spread_rrule(
        a, axis=None, dtype=None, *, ddof=0, keepdims=False, where=None, correction=None, mean=None
    ):
        y, mask, spread = evaluate(a, axis, dtype, ddof, keepdims, where, correction, mean)
        project_a = ProjectTo(a)

        def spread_pullback(dy):
            dx = spread.std_pullback(dy, y) if root else spread.var_pullback(dy)
            if mask is not None:
                dx = array_namespace(dx).where(mask, dx, 0)
            return NO_TANGENT, project_a(dx)

        return y, spread_pullback

    def spread_frule(tangents, a, axis=None, dtype=None, *, ddof=0, keepdims=False, **options):
        y, mask, spread = evaluate(a, axis, dtype, ddof, keepdims, **options)
        da = tangents[1]
        if is_zero(da):
            return y, ZERO_TANGENT
        dvar = spread.var_pushforward(
            da if mask is None else array_namespace(da).where(mask, da, 0)
        )
        dy = dvar / (2 * _nonzero(y)) if root else dvar
        return y, ProjectTo(y)(dy)

    keywords = ("a", "axis", "dtype", "ddof", "keepdims", "where", "correction", "mean")
    register_rules(f, spread_rrule, spread_frule, keywords=keywords, also=also)


_register_spread(np.var, False, False, also=(np.ndarray.var,))
_register_spread(np.std, False, True, also=(np.ndarray.std,))
_register_spread(np.nanvar, True, False)
_register_spread(np.nanstd, True, True)


# ---- average --------------------------------------------------------------------------------


def _weights_layout(a: Any, weights: Any, axis: Any) -> tuple[Any, tuple[int, ...]]:
    """``weights`` reshaped to broadcast against ``a`` (a 1-D weight vector lies along ``axis``)."""
    shape, w_shape = shape_of(a), shape_of(weights)
    if w_shape == shape:
        return weights, ()
    if len(w_shape) != 1 or axis is None or isinstance(axis, tuple | list):
        raise ValueError(
            f"average: weights of shape {w_shape} must have the shape of a {shape}, "
            "or be one-dimensional along a single axis"
        )
    ax = normalize_axis(axis, len(shape))
    layout = tuple(w_shape[0] if i == ax else 1 for i in range(len(shape)))
    others = tuple(i for i in range(len(shape)) if i != ax)
    return array_namespace(weights).reshape(weights, layout), others


def _returned_parts(dy: Any, returned: bool) -> tuple[Any, Any]:
    """The cotangents of the average and, with ``returned=True``, of the sum of the weights."""
    dy = unthunk(dy)
    if not returned:
        return dy, ZERO_TANGENT
    if is_zero(dy):
        return dy, dy
    return unthunk(dy[0]), unthunk(dy[1])


@rrule.register(np.average)
def _average_rrule(a, axis=None, weights=None, returned=False, *, keepdims=False):
    y = np.average(a, axis, weights, returned, **given_options(keepdims=keepdims))
    if weights is None:
        # The sum of the weights is then the count of elements: a constant.
        _, mean_pullback = rrule(np.mean, a, axis, keepdims=keepdims)

        def average_pullback(dy):
            return mean_pullback(_returned_parts(dy, returned)[0])

        return y, average_pullback
    shape = shape_of(a)
    axes = reduced_axes(axis, len(shape))
    project_a, project_w = ProjectTo(a), ProjectTo(weights)
    xp = array_namespace(a, weights)
    w, spread_axes = _weights_layout(a, weights, axis)
    total_weight = xp.sum(xp.broadcast_to(w, shape), axis=axes, keepdims=True)
    kept = reduced_shape(shape, axes)
    y_kept = xp.reshape(xp.asarray(y[0] if returned else y), kept)

    def weighted_average_pullback(dy):
        d_average, d_total = _returned_parts(dy, returned)
        if is_zero(d_average) and is_zero(d_total):
            return NO_TANGENT, project_a(ZERO_TANGENT), NO_TANGENT, project_w(ZERO_TANGENT)
        xp = array_namespace(a, weights, d_average, d_total)
        da: Any = ZERO_TANGENT
        dw: Any = ZERO_TANGENT
        if not is_zero(d_average):
            share = expand_reduced(d_average, kept, axes, keepdims) / xp.conj(total_weight)
            da = xp.conj(w) * share
            dw = xp.conj(a - y_kept) * share
        if not is_zero(d_total):
            dw = dw + expand_reduced(d_total, shape, axes, keepdims)
        if spread_axes:
            dw = xp.reshape(xp.sum(dw, axis=spread_axes), shape_of(weights))
        # weights is the third positional parameter; axis, before it, has no tangent.
        return NO_TANGENT, project_a(da), NO_TANGENT, project_w(dw)

    return y, weighted_average_pullback


@frule.register(np.average)
def _average_frule(tangents, a, axis=None, weights=None, returned=False, *, keepdims=False):
    y = np.average(a, axis, weights, returned, **given_options(keepdims=keepdims))
    average = y[0] if returned else y
    if weights is None:
        _, dy = frule(tangents[:2], np.mean, a, axis, keepdims=keepdims)
        return y, Tangent(tuple, dy, ZERO_TANGENT) if returned else dy
    shape = shape_of(a)
    axes = reduced_axes(axis, len(shape))
    da = tangents[1]
    dw = unthunk(tangents[3]) if len(tangents) > 3 else ZERO_TANGENT
    xp = array_namespace(a, weights)
    w, _ = _weights_layout(a, weights, axis)
    total_weight = xp.sum(xp.broadcast_to(w, shape), axis=axes, keepdims=True)
    change: Any = ZERO_TANGENT
    d_total: Any = ZERO_TANGENT
    if not is_zero(da):
        change = change + xp.sum(da * w, axis=axes, keepdims=True)
    if not is_zero(dw):
        dw, _ = _weights_layout(a, dw, axis)
        centred = a - xp.reshape(xp.asarray(average), reduced_shape(shape, axes))
        change = change + xp.sum(dw * centred, axis=axes, keepdims=True)
        if returned:
            d_total = xp.sum(xp.broadcast_to(dw, shape), axis=axes, keepdims=keepdims)
            d_total = ProjectTo(y[1])(xp.broadcast_to(d_total, shape_of(y[1])))
    d_average: Any = ZERO_TANGENT
    if not is_zero(change):
        d_average = change / total_weight
        d_average = ProjectTo(average)(
            d_average if keepdims else xp.reshape(d_average, shape_of(average))
        )
    return y, Tangent(tuple, d_average, d_total) if returned else d_average
