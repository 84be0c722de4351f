"""Rules for NumPy: constructors whose result depends on values (full, linspace, array...).

``full`` and ``full_like`` depend on the fill value only: its cotangent is the sum of the
output's, and the template array of ``full_like`` gets a zero. ``linspace`` is linear in
``start`` and ``stop``: sample ``i`` is ``start + (stop - start) * t_i``, so the cotangents
weigh the output's by ``1 - t_i`` and ``t_i``; ``geomspace`` (``start ** (1 - t_i) * stop **
t_i``) and ``logspace`` (``base ** u_i`` for a linspace ``u``) follow by the chain rule.
``array`` and ``asarray`` of a nested list of numbers and arrays hand each element its slice of
the cotangent. Constructors from a shape or a template (``zeros``, ``zeros_like``, ``eye``,
``arange``, the window functions...) are non-differentiable.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.linspace, 0.0, 1.0, 3)
>>> pullback(np.ones(3))
(NoTangent(), 1.5, 1.5, NoTangent())
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.define import non_differentiable
from ...core.dtypes import has_tangent, value_dtype
from ...core.linear import linear_pushforward, register_rules
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.sequences import argument_projector, dense_nested, nest_like, tangent_value
from ...core.shapes import normalize_axis, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ...core.thunks import unthunk
from ...core.zeros import is_zero

__all__: list[str] = []


def _filled(y: Any, d_fill: Any) -> Any:
    """The tangent of an array filled with one value: that value's tangent, broadcast."""
    xp = array_namespace(y, d_fill)
    return xp.astype(xp.broadcast_to(xp.asarray(d_fill), y.shape), y.dtype, copy=True)


def _computes_with_numpy(value: Any) -> bool:
    """Whether ``value`` computes with NumPy itself (NumPy values, Python numbers and lists)."""
    return array_namespace(value) is np


def _fill(shape: Any, fill_value: Any, dtype: Any) -> Any:
    """An array of ``shape`` holding ``fill_value``, computed in the fill value's namespace.

    ``np.full`` and ``np.full_like`` dispatch on the shape or the template only, and would
    coerce another library's fill value (an engine's tracked array) to NumPy.
    """
    xp = array_namespace(fill_value)
    fill = xp.asarray(fill_value)
    return xp.astype(xp.broadcast_to(fill, shape), fill.dtype if dtype is None else dtype)


# ---- full, full_like ------------------------------------------------------------------------


def _full_like(a: Any, fill_value: Any, *args: Any, **kwargs: Any) -> Any:
    if _computes_with_numpy(fill_value):
        return np.full_like(a, fill_value, *args, **kwargs)
    dtype, _, _, shape = _full_like_options(*args, **kwargs)
    shape = shape_of(a) if shape is None else shape
    return _fill(shape, fill_value, value_dtype(a) if dtype is None else dtype)


def _full_like_options(
    dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None
) -> tuple[Any, str, bool, Any]:
    return dtype, order, subok, shape


def _full(shape: Any, fill_value: Any, *args: Any, **kwargs: Any) -> Any:
    if _computes_with_numpy(fill_value):
        return np.full(shape, fill_value, *args, **kwargs)
    return _fill(shape, fill_value, args[0] if args else kwargs.get("dtype"))


def _full_rules(
    f: Any, forward: Callable[..., Any], template: bool, keywords: tuple[str, ...]
) -> None:
    """Register the rules of ``f(first, fill_value, *args, **kwargs)``, linear in the fill value.

    ``first`` is a template array (``template``: full_like, whose cotangent is a zero of its
    kind) or a shape (full, no tangent). The fill value's cotangent is the cotangent of the
    output, projected (summed over the broadcast) onto it.
    """

    def full_rrule(first: Any, fill_value: Any, *args: Any, **kwargs: Any) -> Any:
        y = forward(first, fill_value, *args, **kwargs)
        project_first = argument_projector(first) if template else None
        project_fill = argument_projector(fill_value)
        differentiable = has_tangent(y)

        def full_pullback(dy: Any) -> tuple[Any, ...]:
            d_first = NO_TANGENT if project_first is None else project_first(ZERO_TANGENT)
            rest = (NO_TANGENT,) * len(args)
            if not differentiable:
                return NO_TANGENT, d_first, project_fill(ZERO_TANGENT), *rest
            return NO_TANGENT, d_first, project_fill(dy), *rest

        return y, full_pullback

    def full_frule(tangents: tuple, first: Any, fill_value: Any, *args: Any, **kwargs: Any):
        y = forward(first, fill_value, *args, **kwargs)
        d_fill = tangent_value(tangents[2], fill_value)
        if not has_tangent(y):
            return y, NO_TANGENT
        return y, ZERO_TANGENT if is_zero(d_fill) else _filled(y, d_fill)

    register_rules(f, full_rrule, full_frule, keywords=keywords)


_full_rules(np.full_like, _full_like, True, ("dtype", "order", "subok", "shape"))
_full_rules(np.full, _full, False, ("dtype", "order"))

# ---- linspace ---------------------------------------------------------------------------------


def _linspace_weights(y: Any, num: int, endpoint: bool, axis: int) -> Any:
    """The fractions ``t_i`` of the way from start to stop, shaped to broadcast along ``axis``."""
    shape = [1] * y.ndim
    shape[axis] = num
    t = np.linspace(0.0, 1.0, num, endpoint=endpoint).reshape(shape)
    return array_namespace(y).asarray(t)


def _linspace_options(
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: Any = None,
    axis: int = 0,
) -> tuple[int, bool, bool, Any, int]:
    return num, endpoint, retstep, dtype, axis


def _linspace_rrule(start: Any, stop: Any, *args: Any, **kwargs: Any) -> Any:
    num, endpoint, retstep, dtype, axis = _linspace_options(*args, **kwargs)
    out = np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
    y = out[0] if retstep else out
    project_start, project_stop = argument_projector(start), argument_projector(stop)
    axis = normalize_axis(axis, y.ndim)
    divisions = (num - 1 if endpoint else num) or 1
    differentiable = has_tangent(y)
    rest = (NO_TANGENT,) * len(args)

    def linspace_pullback(d_out: Any) -> tuple[Any, ...]:
        dy, d_step = d_out if retstep else (d_out, 0)
        dy, d_step = unthunk(dy), unthunk(d_step)
        if not differentiable:
            return NO_TANGENT, project_start(ZERO_TANGENT), project_stop(ZERO_TANGENT), *rest
        xp = array_namespace(y, dy)
        if is_zero(dy):
            dy = xp.zeros(y.shape, dtype=y.dtype)
        t = _linspace_weights(y, num, endpoint, axis)
        d_to_stop = xp.sum(dy * t, axis=axis)
        d_start = xp.sum(dy, axis=axis) - d_to_stop
        if not is_zero(d_step):
            d_start = d_start - d_step / divisions
            d_to_stop = d_to_stop + d_step / divisions
        return NO_TANGENT, project_start(d_start), project_stop(d_to_stop), *rest

    return out, linspace_pullback


def _linspace_frule(tangents: tuple, start: Any, stop: Any, *args: Any, **kwargs: Any) -> Any:
    num, endpoint, retstep, dtype, axis = _linspace_options(*args, **kwargs)
    out = np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
    y = out[0] if retstep else out
    d_start, d_stop = tangent_value(tangents[1], start), tangent_value(tangents[2], stop)
    if not has_tangent(y):
        return out, NO_TANGENT
    if is_zero(d_start) and is_zero(d_stop):
        return out, ZERO_TANGENT
    d_start = 0.0 if is_zero(d_start) else d_start
    d_stop = 0.0 if is_zero(d_stop) else d_stop
    dy = np.linspace(d_start, d_stop, num, endpoint, False, y.dtype, axis)
    if not retstep:
        return out, dy
    divisions = (num - 1 if endpoint else num) or 1
    return out, Tangent(tuple, dy, (d_stop - d_start) / divisions)


register_rules(
    np.linspace,
    _linspace_rrule,
    _linspace_frule,
    keywords=("num", "endpoint", "retstep", "dtype", "axis"),
)

# ---- geomspace, logspace: exponentials of a linspace -------------------------------------------


def _geomspace_options(
    num: int = 50, endpoint: bool = True, dtype: Any = None, axis: int = 0
) -> tuple[int, bool, Any, int]:
    return num, endpoint, dtype, axis


def _logspace_options(
    num: int = 50, endpoint: bool = True, base: Any = 10.0, dtype: Any = None, axis: int = 0
) -> tuple[int, bool, Any, Any, int]:
    return num, endpoint, base, dtype, axis


def _along_samples(value: Any, axis: int) -> Any:
    """A start, stop or base, with the samples' axis inserted where ``linspace`` puts it."""
    return np.expand_dims(value, axis) if np.ndim(value) else value


def _geomspace_rrule(start: Any, stop: Any, *args: Any, **kwargs: Any) -> Any:
    num, endpoint, dtype, axis = _geomspace_options(*args, **kwargs)
    y = np.geomspace(start, stop, num, endpoint, dtype, axis)
    project_start, project_stop = argument_projector(start), argument_projector(stop)
    axis = normalize_axis(axis, y.ndim)
    rest = (NO_TANGENT,) * len(args)
    differentiable = has_tangent(y)

    def geomspace_pullback(dy: Any) -> tuple[Any, ...]:
        if not differentiable:
            return NO_TANGENT, project_start(ZERO_TANGENT), project_stop(ZERO_TANGENT), *rest
        # Sample i is start ** (1 - t_i) * stop ** t_i; geomspace rejects zero endpoints.
        xp = array_namespace(y, dy)
        t = _linspace_weights(y, num, endpoint, axis)
        g = dy * xp.conj(y)
        d_start = xp.sum(g * (1 - t) / xp.conj(_along_samples(start, axis)), axis=axis)
        d_stop = xp.sum(g * t / xp.conj(_along_samples(stop, axis)), axis=axis)
        return NO_TANGENT, project_start(d_start), project_stop(d_stop), *rest

    return y, geomspace_pullback


def _geomspace_frule(tangents: tuple, start: Any, stop: Any, *args: Any, **kwargs: Any) -> Any:
    num, endpoint, dtype, axis = _geomspace_options(*args, **kwargs)
    y = np.geomspace(start, stop, num, endpoint, dtype, axis)
    d_start, d_stop = tangent_value(tangents[1], start), tangent_value(tangents[2], stop)
    if not has_tangent(y):
        return y, NO_TANGENT
    if is_zero(d_start) and is_zero(d_stop):
        return y, ZERO_TANGENT
    axis = normalize_axis(axis, y.ndim)
    t = _linspace_weights(y, num, endpoint, axis)
    rate = 0.0
    if not is_zero(d_start):
        rate = rate + (1 - t) * _along_samples(d_start, axis) / _along_samples(start, axis)
    if not is_zero(d_stop):
        rate = rate + t * _along_samples(d_stop, axis) / _along_samples(stop, axis)
    return y, (y * rate).astype(y.dtype, copy=False)


def _logspace_rrule(start: Any, stop: Any, *args: Any, **kwargs: Any) -> Any:
    num, endpoint, base, dtype, axis = _logspace_options(*args, **kwargs)
    y = np.logspace(start, stop, num, endpoint, base, dtype, axis)
    projects = [argument_projector(start), argument_projector(stop), argument_projector(base)]
    axis = normalize_axis(axis, y.ndim)
    has_base = len(args) > 2  # base passed by position (after num and endpoint): it gets one
    differentiable = has_tangent(y)

    def logspace_pullback(dy: Any) -> tuple[Any, ...]:
        rest = [NO_TANGENT] * len(args)
        if not differentiable:
            if has_base:
                rest[2] = projects[2](ZERO_TANGENT)
            return NO_TANGENT, projects[0](ZERO_TANGENT), projects[1](ZERO_TANGENT), *rest
        # Sample i is base ** u_i with u_i = start + (stop - start) * t_i.
        xp = array_namespace(y, dy)
        t = _linspace_weights(y, num, endpoint, axis)
        b = _along_samples(base, axis)
        g = dy * xp.conj(y)
        du = g * xp.conj(xp.log(xp.asarray(b)))
        d_start = projects[0](xp.sum(du * (1 - t), axis=axis))
        d_stop = projects[1](xp.sum(du * t, axis=axis))
        if has_base:
            u = np.linspace(start, stop, num, endpoint, axis=axis)
            rest[2] = projects[2](xp.sum(g * xp.conj(u / b), axis=axis))
        return NO_TANGENT, d_start, d_stop, *rest

    return y, logspace_pullback


def _logspace_frule(tangents: tuple, start: Any, stop: Any, *args: Any, **kwargs: Any) -> Any:
    num, endpoint, base, dtype, axis = _logspace_options(*args, **kwargs)
    y = np.logspace(start, stop, num, endpoint, base, dtype, axis)
    if not has_tangent(y):
        return y, NO_TANGENT
    d_start, d_stop = tangent_value(tangents[1], start), tangent_value(tangents[2], stop)
    d_base = tangent_value(tangents[5], base) if len(args) > 2 else ZERO_TANGENT
    if is_zero(d_start) and is_zero(d_stop) and is_zero(d_base):
        return y, ZERO_TANGENT
    d_start = 0.0 if is_zero(d_start) else d_start
    d_stop = 0.0 if is_zero(d_stop) else d_stop
    b = _along_samples(base, normalize_axis(axis, y.ndim))
    du = np.linspace(d_start, d_stop, num, endpoint, axis=axis)
    xp = array_namespace(b)
    rate = du * xp.log(xp.asarray(b))
    if not is_zero(d_base):
        u = np.linspace(start, stop, num, endpoint, axis=axis)
        rate = rate + u * _along_samples(d_base, normalize_axis(axis, y.ndim)) / b
    return y, (y * rate).astype(y.dtype, copy=False)


register_rules(
    np.geomspace, _geomspace_rrule, _geomspace_frule, keywords=("num", "endpoint", "dtype", "axis")
)
register_rules(
    np.logspace,
    _logspace_rrule,
    _logspace_frule,
    keywords=("num", "endpoint", "base", "dtype", "axis"),
)

# ---- array, asarray: nested sequences of numbers and arrays ----------------------------------


def _convert(f: Any, obj: Any, *args: Any, **kwargs: Any) -> Any:
    """``f(obj, ...)``; another library's array is converted in its own namespace.

    NumPy's converters coerce their argument to a NumPy array, which would drop the
    derivative of an engine's tracked array: that keeps its type, with the dtype asked for
    (second argument or ``dtype=``) and ``ndmin``'s leading axes; memory layout
    (``order``, ``requirements``) has no meaning there.
    """
    if _computes_with_numpy(obj):
        return f(obj, *args, **kwargs)
    xp = array_namespace(obj)
    dtype = args[0] if args else kwargs.get("dtype")
    y = xp.asarray(obj) if dtype is None else xp.astype(obj, dtype)
    missing = kwargs.get("ndmin", 0) - len(shape_of(y))
    return xp.reshape(y, (1,) * missing + shape_of(y)) if missing > 0 else y


def _array_rule(f: Any, keywords: tuple[str, ...]) -> None:

    def array_rrule(obj: Any, *args: Any, **kwargs: Any) -> Any:
        y = _convert(f, obj, *args, **kwargs)
        project = ProjectTo(obj)
        base_shape = shape_of(obj)
        differentiable = has_tangent(y)
        rest = (NO_TANGENT,) * len(args)

        def array_pullback(dy: Any) -> tuple[Any, ...]:
            if not differentiable:
                return NO_TANGENT, project(ZERO_TANGENT), *rest
            # ndmin may have added leading axes of length one.
            dy = array_namespace(dy).reshape(dy, base_shape)
            return NO_TANGENT, project(nest_like(dy, obj)), *rest

        return y, array_pullback

    def array_frule(tangents: tuple, obj: Any, *args: Any, **kwargs: Any) -> Any:
        y = _convert(f, obj, *args, **kwargs)
        return y, linear_pushforward(
            y, tangents[1], lambda dx: _convert(f, dense_nested(dx, obj), *args, **kwargs)
        )

    register_rules(f, array_rrule, array_frule, keywords=keywords)


_array_rule(np.array, ("dtype", "copy", "order", "subok", "ndmin"))
_array_rule(np.asarray, ("dtype", "order", "copy"))
_array_rule(np.asanyarray, ("dtype", "order", "copy"))
_array_rule(np.ascontiguousarray, ("dtype",))
_array_rule(np.asfortranarray, ("dtype",))
_array_rule(np.asarray_chkfinite, ("dtype", "order"))
_array_rule(np.require, ("dtype", "requirements"))

# ---- templates only ---------------------------------------------------------------------------

non_differentiable(
    np.zeros_like,
    np.ones_like,
    np.empty_like,
    np.zeros,
    np.ones,
    np.empty,
    np.eye,
    np.identity,
    np.tri,
    np.arange,
    np.bartlett,
    np.blackman,
    np.hamming,
    np.hanning,
    np.kaiser,
)
