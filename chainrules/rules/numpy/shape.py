"""Rules for NumPy: reshaping, axis permutations, broadcasting, casts, ``meshgrid``.

Every function here is linear in its arrays: the pushforward applies the function to the
tangent and the pullback applies the adjoint (reshape back, the inverse permutation, a sum over
broadcast axes, the identity for copies and casts, whose projection restores the input's dtype).
Array methods (``x.reshape``, ``x.T``...) have the rules of the functions they call. Functions
returning a tuple take one cotangent per output (``ZeroTangent()`` for outputs not used).
Joining and splitting arrays live in ``joining``.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.transpose, np.ones((2, 3)), (1, 0))
>>> pullback(np.arange(6.0).reshape(3, 2))[1]
array([[0., 2., 4.],
       [1., 3., 5.]])
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ...core.calls import call
from ...core.linear import call_method, linear_pushforward, linear_rule, register_rules
from ...core.namespace import array_namespace, require_numpy
from ...core.sequences import argument_projector, dense_tangents
from ...core.shapes import normalize_axis, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from ...core.thunks import unthunk
from ...core.zeros import is_zero

__all__: list[str] = []


def _inverse_permutation(perm: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return tuple(inverse)


# ---- reshapes: the adjoint reshapes back ----------------------------------------------------


def _reshape_adjoint(dy: Any, x_shape: tuple[int, ...], *params: Any, **kwargs: Any) -> Any:
    order = kwargs.get("order", "C")
    if params and isinstance(params[-1], str):
        order = params[-1]
    if order == "F":
        return np.reshape(dy, x_shape, order="F")
    if type(dy) is np.ndarray:
        return dy.reshape(x_shape)
    return array_namespace(dy).reshape(dy, x_shape)


# The order comes second to np.reshape, by keyword only to the method: one parameter at most.
linear_rule(
    np.reshape,
    _reshape_adjoint,
    keywords=("shape", "order", "copy"),
    method=("reshape", 1),
)
linear_rule(np.ravel, _reshape_adjoint, keywords=("order",), method=("ravel", 1))
linear_rule(np.squeeze, _reshape_adjoint, keywords=("axis",), method=("squeeze", 1))
linear_rule(np.expand_dims, _reshape_adjoint, keywords=("axis",))
for _name, _keywords in (
    ("reshape", ("order", "copy")),
    ("ravel", ("order",)),
    ("flatten", ("order",)),
    ("squeeze", ("axis",)),
):
    linear_rule(
        getattr(np.ndarray, _name),
        _reshape_adjoint,
        keywords=_keywords,
        primal=call_method(_name),
    )

# ---- axis permutations: the adjoint applies the inverse permutation --------------------------


def _transpose_axes(ndim: int, axes_args: tuple, axes: Any) -> tuple[int, ...]:
    if axes is None and len(axes_args) == 1:
        axes = axes_args[0]
    elif axes is None and len(axes_args) > 1:
        axes = axes_args
    if axes is None:
        return tuple(range(ndim - 1, -1, -1))
    return tuple(normalize_axis(a, ndim) for a in axes)


def _transpose_adjoint(dy: Any, x_shape: tuple[int, ...], *axes_args: Any, axes: Any = None):
    if type(dy) is np.ndarray and axes is None and not axes_args:
        return dy.transpose()  # all axes reversed: its own inverse
    perm = _transpose_axes(len(x_shape), axes_args, axes)
    if type(dy) is np.ndarray:
        return dy.transpose(_inverse_permutation(perm))
    return array_namespace(dy).permute_dims(dy, _inverse_permutation(perm))


def _swapaxes_adjoint(dy: Any, x_shape: tuple[int, ...], axis1: int, axis2: int) -> Any:
    return np.swapaxes(dy, axis1, axis2)


def _moveaxis_adjoint(dy: Any, x_shape: tuple[int, ...], source: Any, destination: Any) -> Any:
    return np.moveaxis(dy, destination, source)


def _rollaxis_adjoint(dy: Any, x_shape: tuple[int, ...], axis: int, start: int = 0) -> Any:
    ndim = len(x_shape)
    axis = normalize_axis(axis, ndim)
    start = start + ndim if start < 0 else start
    order = list(range(ndim))
    order.remove(axis)
    order.insert(start - 1 if axis < start else start, axis)
    return array_namespace(dy).permute_dims(dy, _inverse_permutation(tuple(order)))


def _matrix_transpose_adjoint(dy: Any, x_shape: tuple[int, ...]) -> Any:
    return np.swapaxes(dy, -1, -2)


linear_rule(np.transpose, _transpose_adjoint, keywords=("axes",), method=("transpose", 1))
linear_rule(np.ndarray.transpose, _transpose_adjoint, primal=call_method("transpose"))
linear_rule(np.swapaxes, _swapaxes_adjoint, method=("swapaxes", 2))
linear_rule(np.ndarray.swapaxes, _swapaxes_adjoint, primal=call_method("swapaxes"))
# NumPy's moveaxis and rollaxis call a tensor's transpose with NumPy's meaning: computed with
# NumPy's own functions (``call``), other arrays go to the adapters' NumPy copies.
linear_rule(np.moveaxis, _moveaxis_adjoint, primal=functools.partial(call, np.moveaxis))
linear_rule(
    np.rollaxis,
    _rollaxis_adjoint,
    keywords=("start",),
    primal=functools.partial(call, np.rollaxis),
)
linear_rule(np.matrix_transpose, _matrix_transpose_adjoint)


def _all_axes_reversed(x: Any) -> Any:
    return x.T


def _last_two_swapped(x: Any) -> Any:
    return x.mT


# The attributes, keyed by their descriptors (the reference engines call np.transpose and
# np.matrix_transpose for them instead).
linear_rule(np.ndarray.T, _transpose_adjoint, primal=_all_axes_reversed)
linear_rule(np.ndarray.mT, _matrix_transpose_adjoint, primal=_last_two_swapped)

# ---- broadcasting, copies and casts: the adjoint is the identity, projection does the rest ---


def _identity_adjoint(dy: Any, x_shape: tuple[int, ...], *params: Any, **kwargs: Any) -> Any:
    return dy


linear_rule(np.broadcast_to, _identity_adjoint, keywords=("subok",))
linear_rule(np.copy, _identity_adjoint, keywords=("order", "subok"))
linear_rule(np.ndarray.copy, _identity_adjoint, keywords=("order",), primal=call_method("copy"))


def _to_device(x: Any, device: Any, /, *, stream: Any = None) -> Any:
    """``x.to_device(device)``, the device NumPy's (``"cpu"``): other arrays name their devices
    otherwise (JAX's are objects), so they go to NumPy copies."""
    require_numpy(np.ndarray.to_device, x)
    return x.to_device(device, stream=stream)


linear_rule(np.ndarray.to_device, _identity_adjoint, keywords=("stream",), primal=_to_device)


def _astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    """``np.astype``, also for a Python number (which an engine's tracked scalar may hold)."""
    if isinstance(x, int | float | complex):
        return np.asarray(x, dtype=dtype)
    require_numpy(np.astype, x)  # the dtype is NumPy's: other arrays go to NumPy copies
    return np.astype(x, dtype, copy=copy)


linear_rule(np.astype, _identity_adjoint, keywords=("copy",), primal=_astype)
linear_rule(
    np.ndarray.astype,
    _identity_adjoint,
    keywords=("order", "casting", "subok", "copy"),
    primal=call_method("astype"),
)


def _conj_adjoint(dy: Any, x_shape: tuple[int, ...]) -> Any:
    return array_namespace(dy).conj(dy)


for _name in ("conj", "conjugate"):
    linear_rule(getattr(np.ndarray, _name), _conj_adjoint, primal=call_method(_name))


# ---- several arrays in, a tuple out ----------------------------------------------------------


def _tuple_out(f: Any, adjoint: Any, keywords: tuple[str, ...] = ()) -> None:
    """Rules of ``f(*arrays)`` returning one array per input, each linear in its own input."""

    def tuple_rrule(*arrays: Any, **kwargs: Any) -> Any:
        ys = _as_tuple(f(*arrays, **kwargs))
        if not isinstance(ys, tuple | list):
            ys_list = [ys]
        else:
            ys_list = list(ys)
        projects = [argument_projector(a) for a in arrays]
        shapes = [shape_of(a) for a in arrays]

        def tuple_pullback(dy: Any) -> tuple[Any, ...]:
            outs = [dy] if len(ys_list) == 1 and len(arrays) == 1 else list(dy)
            return (
                NO_TANGENT,
                *(
                    p(ZERO_TANGENT) if is_zero(t) else p(adjoint(t, s))
                    for p, t, s in zip(projects, map(unthunk, outs), shapes, strict=True)
                ),
            )

        return ys, tuple_pullback

    def tuple_frule(tangents: tuple, *arrays: Any, **kwargs: Any) -> Any:
        ys = _as_tuple(f(*arrays, **kwargs))
        outs = ys if isinstance(ys, tuple | list) else (ys,)
        dys: list[Any] = []
        for dx, y in zip(tangents[1:], outs, strict=True):
            if f is np.broadcast_arrays:
                push = functools.partial(np.broadcast_to, shape=shape_of(y))
            else:
                push = functools.partial(f, **kwargs)
            dys.append(linear_pushforward(y, dx, push))
        if not isinstance(ys, tuple | list):
            return ys, dys[0]
        return ys, Tangent(type(ys), *dys)

    register_rules(f, tuple_rrule, tuple_frule, keywords=keywords)


def _as_tuple(ys: Any) -> Any:
    """Several results as the tuple NumPy 2 returns (dask 2024.1 returns a list)."""
    return tuple(ys) if type(ys) is list else ys


_tuple_out(np.broadcast_arrays, _identity_adjoint, keywords=("subok",))
for _atleast in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
    _tuple_out(_atleast, _reshape_adjoint)


# ---- meshgrid: each output broadcasts one input ------------------------------------------------


def _meshgrid_rrule(*xi: Any, indexing: str = "xy", sparse: bool = False, copy: bool = True):
    ys = np.meshgrid(*xi, indexing=indexing, sparse=sparse, copy=copy)
    projects = [argument_projector(x) for x in xi]
    shapes = [shape_of(x) for x in xi]
    axes = list(range(len(xi)))
    if indexing == "xy" and len(xi) > 1:
        axes[0], axes[1] = 1, 0

    def meshgrid_pullback(dy: Any) -> tuple[Any, ...]:
        outs = list(dy)
        cotangents = []
        for project, shape, axis, t in zip(projects, shapes, axes, map(unthunk, outs), strict=True):
            if is_zero(t):
                cotangents.append(project(t))
                continue
            xp = array_namespace(t)
            others = tuple(a for a in range(len(shape_of(t))) if a != axis)
            cotangents.append(project(xp.reshape(xp.sum(t, axis=others), shape)))
        return (NO_TANGENT, *cotangents)

    return ys, meshgrid_pullback


def _meshgrid_frule(tangents: tuple, *xi: Any, **kwargs: Any) -> Any:
    ys = np.meshgrid(*xi, **kwargs)
    if all(isinstance(unthunk(t), AbstractZero) for t in tangents[1:]):
        return ys, ZERO_TANGENT
    dense = dense_tangents(list(tangents[1:]), list(xi))
    return ys, Tangent(type(ys), *np.meshgrid(*dense, **kwargs))


register_rules(
    np.meshgrid, _meshgrid_rrule, _meshgrid_frule, keywords=("indexing", "sparse", "copy")
)
