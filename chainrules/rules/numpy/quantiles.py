"""Rules for NumPy's order statistics: median, quantile, percentile and their NaN forms.

A quantile is ``(1 - g) * s[lo] + g * s[hi]`` for two order statistics ``s[lo]``, ``s[hi]`` of
each slice and a fraction ``g`` that the method fixes (``linear``, the default, and
``lower``, ``higher``, ``nearest``, ``midpoint`` are supported). Each element of the slice
receives the weight of the order statistics it equals, shared equally among the elements
tied at that value: ``median([1, 2, 2, 3])`` gives ``[0, 0.5, 0.5, 0]``. frule and rrule use the
same weights. The NaN forms skip NaN elements, whose cotangent is zero.

For the ``linear`` method the result is also differentiable in ``q``:
``d/dq = (n - 1) * (s[hi] - s[lo])`` (divided by 100 for percentiles) between order
statistics. Where ``q (n - 1)`` is an integer (the median of an odd count) the result has a
kink in ``q``; the derivative there is the mean of the two one-sided slopes, and at ``q = 0``
and ``q = 1`` the one-sided slope inside the domain. The other methods are piecewise constant
in ``q``. An integer ``q`` has no tangent.

The weights depend on the data only through comparisons (boolean and integer results, plain
NumPy values even for an engine's tracked data), so they enter the pullback as constants. For
the ``linear`` method they are linear in ``q`` between order statistics and are computed from
``q`` in the array namespace, so second derivatives in the data, in ``q`` and mixed ones work.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.median, np.array([1.0, 2.0, 2.0, 3.0]))
>>> pullback(1.0)[1]
array([0. , 0.5, 0.5, 0. ])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.linear import register_rules
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.shapes import count_reduced, reduced_shape, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import unthunk
from ...core.zeros import is_zero
from .reductions import reduced_axes

__all__: list[str] = []

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


class _OrderWeights:
    """How much each element of ``a`` contributes to each quantile ``q`` over ``axes``.

    ``weights`` has shape ``q.shape + a.shape``; ``slope`` (shape ``q.shape + kept``, with the
    reduced axes kept as length one) is the derivative with respect to ``q``.
    """

    __slots__ = ("axes", "empty", "q_shape", "shape", "slope", "weights")

    def __init__(self, a: Any, q: Any, axis: Any, method: str, skip_nan: bool) -> None:
        if method not in _METHODS:
            raise ValueError(
                f"quantile rules support the methods {', '.join(_METHODS)}, not {method!r}"
            )
        xp = array_namespace(a)
        x = xp.asarray(a)
        qxp = array_namespace(q)
        q = qxp.asarray(q)
        self.shape = shape_of(x)
        ndim = len(self.shape)
        self.axes = reduced_axes(axis, ndim)
        self.q_shape = shape_of(q)
        kept_axes = tuple(i for i in range(ndim) if i not in self.axes)
        order = (*kept_axes, *self.axes)
        lead = tuple(self.shape[i] for i in kept_axes)
        moved = x if order == tuple(range(ndim)) else xp.permute_dims(x, order)
        flat = xp.reshape(moved, (*lead, count_reduced(self.shape, self.axes)))
        n = flat.shape[-1]
        # Empty slices have NaN quantiles, on which nothing depends (NumPy's result may then
        # lack the axes of q: nanquantile of an empty array is one NaN).
        self.empty = n == 0
        # Only comparisons and counts of the data enter the weights (boolean and integer
        # results, plain NumPy arrays even when the data are tracked): the weights are constants.
        missing = np.asarray(xp.isnan(flat))
        valid = n - missing.sum(axis=-1) if skip_nan else np.full(lead, n)
        last = np.maximum(valid - 1, 0)
        q_b = qxp.reshape(q, self.q_shape + (1,) * len(lead))
        position = q_b * last
        lo = np.clip(np.floor(position), 0, last).astype(np.intp)
        hi = np.minimum(lo + 1, last)
        g = _fraction(method, position, position - lo, lo)
        ordered = xp.sort(flat, axis=-1)  # NaN sorts last
        s_lo, s_hi = _pick(ordered, lo), _pick(ordered, hi)
        weights = _share(flat, s_lo, 1 - g) + _share(flat, s_hi, g)
        # A slice with no valid element (or, without skipping, holding a NaN) has a NaN
        # quantile: no derivative flows through it.
        defined = np.asarray(valid > 0 if skip_nan else ~missing.any(axis=-1) & (n > 0))
        weights = weights * defined[..., None]
        restore = tuple(order.index(i) for i in range(ndim))
        wxp = array_namespace(weights)
        q_ndim = len(self.q_shape)
        weights = wxp.reshape(weights, self.q_shape + tuple(self.shape[i] for i in order))
        self.weights = wxp.permute_dims(weights, (*range(q_ndim), *(q_ndim + i for i in restore)))
        kept = self.q_shape + reduced_shape(self.shape, self.axes)
        if method == "linear":
            # Between order statistics the slope is last * (s[lo + 1] - s[lo]). On one of
            # them (q (n - 1) an integer: the median of an odd count, q = 0, q = 1) the two
            # one-sided slopes differ: they are averaged, as ties are, and at q = 0 and q = 1
            # the one side inside [0, 1] is taken.
            on_knot = np.asarray(position == lo) & (lo > 0)
            down = lo - on_knot
            s_down = xp.where(xp.asarray(on_knot), _pick(ordered, down), s_lo)
            steps = np.maximum(hi - down, 1)
            slope = (s_hi - s_down) * xp.asarray(last / steps)
            self.slope = xp.reshape(xp.where(xp.asarray(defined), slope, 0), kept)
        else:
            self.slope = np.zeros(kept)

    def reduce(self, dx: Any) -> Any:
        """The quantiles' tangent for a tangent ``dx`` of the data, reduced axes kept."""
        xp = array_namespace(dx)
        axes = tuple(len(self.q_shape) + i for i in self.axes)
        return xp.sum(self.weights * dx, axis=axes, keepdims=True)

    def spread(self, dy: Any) -> Any:
        """The data's cotangent for a cotangent ``dy`` of the quantiles."""
        xp = array_namespace(dy)
        kept = self.q_shape + reduced_shape(self.shape, self.axes)
        dx = self.weights * xp.reshape(xp.asarray(dy), kept)
        return xp.sum(dx, axis=tuple(range(len(self.q_shape)))) if self.q_shape else dx

    def q_cotangent(self, dy: Any) -> Any:
        """The cotangent of the fraction ``q`` for a cotangent ``dy`` of the quantiles."""
        xp = array_namespace(dy)
        kept = self.q_shape + reduced_shape(self.shape, self.axes)
        products = xp.real(self.slope * xp.reshape(xp.asarray(dy), kept))
        return xp.sum(products, axis=tuple(range(len(self.q_shape), len(kept))))


def _fraction(method: str, position: Any, fraction: Any, lo: Any) -> Any:
    if method == "linear":
        return fraction
    if method == "lower":
        return np.zeros(shape_of(fraction))
    if method == "higher":
        return (fraction > 0).astype(np.float64)
    if method == "nearest":
        return (np.around(position) > lo).astype(np.float64)
    return np.where(fraction > 0, 0.5, 0.0)  # midpoint


def _pick(ordered: Any, index: np.ndarray) -> Any:
    """``ordered[..., index]`` for each quantile: shape ``index.shape``."""
    xp = array_namespace(ordered)
    if ordered.shape[-1] == 0:  # an empty slice: its quantiles are NaN
        return xp.full(index.shape, xp.nan, dtype=ordered.dtype)
    source = xp.broadcast_to(ordered, index.shape + tuple(ordered.shape[-1:]))
    return xp.take_along_axis(source, xp.asarray(index[..., None]), axis=-1)[..., 0]


def _share(flat: Any, value: Any, weight: np.ndarray) -> np.ndarray:
    """``weight`` shared equally among the elements of each slice equal to ``value``."""
    ties = np.asarray(flat == value[..., None])
    count = np.maximum(ties.sum(axis=-1, keepdims=True), 1)
    return ties * (weight[..., None] / count)


def _quantile_rrule(f, a, q, axis, method, keepdims, skip_nan, per, has_q):
    if has_q:
        y = f(a, q, axis, method=method, keepdims=keepdims)
    else:
        y = f(a, axis, keepdims=keepdims)
    # q as NumPy turns it into a fraction (q / 100 for percentiles), so the order statistics
    # picked match NumPy's even where q (n - 1) is an integer.
    order = _OrderWeights(a, np.true_divide(q, per), axis, method, skip_nan)
    project_a = ProjectTo(a)
    project_q = ProjectTo(q)  # median passes its fixed q = 0.5, which gets no cotangent

    def quantile_pullback(dy):
        if order.empty:
            zeros = (project_a(ZERO_TANGENT), project_q(ZERO_TANGENT))
            return NO_TANGENT, *zeros[: 2 if has_q else 1]
        da = project_a(order.spread(dy))
        if not has_q:
            return NO_TANGENT, da
        return NO_TANGENT, da, project_q(order.q_cotangent(dy) / per)

    return y, quantile_pullback


def _quantile_frule(f, tangents, a, q, axis, method, keepdims, skip_nan, per, has_q):
    if has_q:
        y = f(a, q, axis, method=method, keepdims=keepdims)
    else:
        y = f(a, axis, keepdims=keepdims)
    da = tangents[1]
    dq = unthunk(tangents[2]) if has_q and len(tangents) > 2 else ZERO_TANGENT
    if is_zero(da) and is_zero(dq):
        return y, ZERO_TANGENT
    # q as NumPy turns it into a fraction (q / 100 for percentiles), so the order statistics
    # picked match NumPy's even where q (n - 1) is an integer.
    order = _OrderWeights(a, np.true_divide(q, per), axis, method, skip_nan)
    if order.empty:
        return y, ProjectTo(y)(ZERO_TANGENT)
    dy: Any = ZERO_TANGENT
    if not is_zero(da):
        if skip_nan:
            da = array_namespace(da).where(np.isnan(a), 0, da)
        dy = order.reduce(da)
    if not is_zero(dq):
        xp = array_namespace(dq)
        dq = xp.reshape(xp.asarray(dq), order.q_shape + (1,) * len(order.shape))
        dy = dy + order.slope * (dq / per)
    return y, ProjectTo(y)(array_namespace(dy).reshape(dy, shape_of(y)))


# ---- median, quantile and percentile --------------------------------------------------------


def _register_median(f: Any, skip_nan: bool) -> None:
    """Register the rules of ``f``, ``median`` or (``skip_nan``) ``nanmedian``: the 0.5 quantile."""

    def median_rrule(a, axis=None, *, keepdims=False):
        return _quantile_rrule(f, a, 0.5, axis, "linear", keepdims, skip_nan, 1.0, False)

    def median_frule(tangents, a, axis=None, *, keepdims=False):
        args = (a, 0.5, axis, "linear", keepdims, skip_nan, 1.0, False)
        return _quantile_frule(f, tangents, *args)

    register_rules(f, median_rrule, median_frule)


def _register_quantile(f: Any, skip_nan: bool, per: float) -> None:
    """Register the rules of ``f``, whose ``q`` is a fraction times ``per`` (100: percentiles)."""

    def quantile_rrule(a, q, axis=None, *, method="linear", keepdims=False):
        return _quantile_rrule(f, a, q, axis, method, keepdims, skip_nan, per, True)

    def quantile_frule(tangents, a, q, axis=None, *, method="linear", keepdims=False):
        return _quantile_frule(f, tangents, a, q, axis, method, keepdims, skip_nan, per, True)

    register_rules(f, quantile_rrule, quantile_frule)


_register_median(np.median, False)
_register_median(np.nanmedian, True)
_register_quantile(np.quantile, False, 1.0)
_register_quantile(np.nanquantile, True, 1.0)
_register_quantile(np.percentile, False, 100.0)
_register_quantile(np.nanpercentile, True, 100.0)
