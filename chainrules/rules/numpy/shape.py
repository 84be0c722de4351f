"""Rules for NumPy: reshaping, axis permutations, broadcasting, joining and splitting arrays.

Every function here is linear in its arrays: the pushforward applies the function to the
tangents and the pullback applies the adjoint (reshape back, inverse permutation, sum over
broadcast axes, split what was joined, join what was split). Functions taking a sequence of
arrays give its cotangent as a ``Tangent`` of the sequence's type; functions returning a list or
tuple take a cotangent per output (``ZeroTangent()`` for the unused ones) and give their
tangent as a ``Tangent`` of that type.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.transpose, np.ones((2, 3)), (1, 0))
>>> pullback(np.arange(6.0).reshape(3, 2))[1]
array([[0., 2., 4.],
       [1., 3., 5.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.core.namespace import array_namespace
from chainrules.core.projection import ProjectTo, _ProjectNoTangent
from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NoTangent, Tangent
from chainrules.core.thunks import unthunk

from .axes import normalize_axis
from .linear_maps import (
    accumulate,
    call_method,
    dense_nested,
    has_tangent,
    linear_rule,
    nest_like,
    projector,
    register_rules,
    shape_of,
)

__all__ = ["dense_tangents", "output_cotangents"]


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
    return array_namespace(dy).reshape(dy, x_shape)


linear_rule(np.reshape, _reshape_adjoint, keywords=("shape", "order", "copy"))
linear_rule(np.ravel, _reshape_adjoint, keywords=("order",))
linear_rule(np.squeeze, _reshape_adjoint, keywords=("axis",))
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
# The attributes ``x.T`` and ``x.mT`` are ``np.transpose(x)`` and ``np.matrix_transpose(x)``.


def _transpose_axes(ndim: int, axes_args: tuple, axes: Any) -> tuple[int, ...]:
    if axes is None and len(axes_args) == 1:
        axes = axes_args[0]
    elif axes is None and len(axes_args) > 1:
        axes = axes_args
    if axes is None:
        return tuple(range(ndim - 1, -1, -1))
    return tuple(normalize_axis(a, ndim) for a in axes)


def _transpose_adjoint(dy: Any, x_shape: tuple[int, ...], *axes_args: Any, axes: Any = None):
    perm = _transpose_axes(len(x_shape), axes_args, axes)
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


linear_rule(np.transpose, _transpose_adjoint, keywords=("axes",))
linear_rule(np.ndarray.transpose, _transpose_adjoint, primal=call_method("transpose"))
linear_rule(np.swapaxes, _swapaxes_adjoint)
linear_rule(np.ndarray.swapaxes, _swapaxes_adjoint, primal=call_method("swapaxes"))
linear_rule(np.moveaxis, _moveaxis_adjoint)
linear_rule(np.rollaxis, _rollaxis_adjoint, keywords=("start",))
linear_rule(np.matrix_transpose, _matrix_transpose_adjoint)

# ---- broadcasting, copies and casts: the adjoint is the identity, projection does the rest ---


def _identity_adjoint(dy: Any, x_shape: tuple[int, ...], *params: Any, **kwargs: Any) -> Any:
    return dy


linear_rule(np.broadcast_to, _identity_adjoint, keywords=("subok",))
linear_rule(np.copy, _identity_adjoint, keywords=("order", "subok"))
linear_rule(np.ndarray.copy, _identity_adjoint, keywords=("order",), primal=call_method("copy"))
linear_rule(
    np.ndarray.to_device,
    _identity_adjoint,
    keywords=("stream",),
    primal=call_method("to_device"),
)
linear_rule(np.astype, _identity_adjoint, keywords=("copy",))
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


# ---- sequences of tangents ----------------------------------------------------------------


def output_cotangents(dy: Any, outputs: Any) -> list[Any]:
    """The cotangent of each output of a function returning a sequence, zeros made dense.

    ``dy`` is a ``Tangent`` of the sequence, a list or tuple, or a zero; an element that is a
    zero becomes an array of zeros shaped like its output.

    >>> output_cotangents(ZERO_TANGENT, [np.ones(2)])
    [array([0., 0.])]
    """
    items = [ZERO_TANGENT] * len(outputs) if isinstance(dy, AbstractZero) else list(dy)
    return [_dense(unthunk(t), y) for t, y in zip(items, outputs, strict=True)]


def dense_tangents(tangent: Any, primals: Any) -> list[Any]:
    """The tangents of a sequence argument as a list of arrays, zeros made dense.

    >>> dense_tangents(Tangent(list, ZERO_TANGENT, np.ones(1)), [np.ones(2), np.ones(1)])
    [array([0., 0.]), array([1.])]
    """
    return output_cotangents(unthunk(tangent), list(primals))


def _dense(t: Any, primal: Any) -> Any:
    if not isinstance(t, AbstractZero):
        return t
    return _zeros(shape_of(primal), getattr(primal, "dtype", np.result_type(primal)), primal)


def _zeros(shape: tuple[int, ...], dtype: Any, like: Any) -> Any:
    if isinstance(dtype, np.dtype) and dtype.kind not in "fc":
        dtype = np.float64
    return array_namespace(like).zeros(shape, dtype=dtype)


def _sequence_tangent(pieces: list[Any], outputs: Any) -> Any:
    return Tangent(type(outputs), *pieces) if isinstance(outputs, list | tuple) else pieces


# ---- joining: the adjoint splits the cotangent -----------------------------------------------


def _joined_shapes(kind: str, shapes: list[tuple[int, ...]], axis: Any) -> tuple[list, Any]:
    """The shape each input takes inside the join, and the axis it is joined along."""
    if kind == "concatenate":
        if axis is None:
            return [(int(np.prod(s)),) for s in shapes], 0
        return shapes, axis
    if kind == "stack":
        ndim = len(shapes[0]) + 1
        axis = normalize_axis(axis, ndim)
        return [(*s[:axis], 1, *s[axis:]) for s in shapes], axis
    if kind == "hstack":
        promoted = [s or (1,) for s in shapes]
        return promoted, 0 if len(promoted[0]) == 1 else 1
    if kind == "vstack":
        return [(1,) * (2 - len(s)) + s if len(s) < 2 else s for s in shapes], 0
    if kind == "dstack":
        return [{0: (1, 1, 1), 1: (1, *s, 1), 2: (*s, 1)}.get(len(s), s) for s in shapes], 2
    # column_stack: vectors become columns
    return [{0: (1, 1), 1: (*s, 1)}.get(len(s), s) for s in shapes], 1


def _split_back(dy: Any, promoted: list, axis: int, shapes: list) -> list[Any]:
    xp = array_namespace(dy)
    axis = normalize_axis(axis, len(promoted[0]))
    if len(shape_of(dy)) != len(promoted[0]):  # concatenate(axis=None) flattened the result
        dy = xp.reshape(dy, (-1,))
    pieces, start = [], 0
    for p, s in zip(promoted, shapes, strict=True):
        stop = start + p[axis]
        piece = dy[(slice(None),) * axis + (slice(start, stop),)]
        pieces.append(xp.reshape(piece, s))
        start = stop
    return pieces


def _joined(f: Any, kind: str, default_axis: Any) -> None:
    label = f.__name__

    def joined_rrule(arrays: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(arrays, *args, **kwargs)
        project = ProjectTo(arrays)
        shapes = [shape_of(a) for a in arrays]
        axis = args[0] if args else kwargs.get("axis", default_axis)
        promoted, axis = _joined_shapes(kind, shapes, axis)

        def joined_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return (NO_TANGENT, project(ZERO_TANGENT), *(NO_TANGENT,) * len(args))
            pieces = _split_back(dy, promoted, axis, shapes)
            nested = [nest_like(p, a) for p, a in zip(pieces, arrays, strict=True)]
            return (NO_TANGENT, project(nested), *(NO_TANGENT,) * len(args))

        joined_pullback.__name__ = joined_pullback.__qualname__ = f"{label}_pullback"
        return y, joined_pullback

    def joined_frule(tangents: tuple, arrays: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(arrays, *args, **kwargs)
        dx = unthunk(tangents[1])
        if not has_tangent(y) or isinstance(dx, NoTangent):
            return y, NO_TANGENT
        if isinstance(dx, AbstractZero):
            return y, ZERO_TANGENT
        return y, f(dense_tangents(dx, arrays), *args, **kwargs)

    keywords: tuple[str, ...] = ()
    if kind in ("concatenate", "stack"):
        keywords = ("axis", "dtype", "casting")
    elif kind in ("hstack", "vstack"):
        keywords = ("dtype", "casting")
    register_rules(f, joined_rrule, joined_frule, keywords=keywords, name=label)


_joined(np.concatenate, "concatenate", 0)
_joined(np.stack, "stack", 0)
_joined(np.hstack, "hstack", None)
_joined(np.vstack, "vstack", None)
_joined(np.dstack, "dstack", None)
_joined(np.column_stack, "column_stack", None)

# ---- splitting: the adjoint joins the cotangents ---------------------------------------------


def _split_axis(f: Any, ndim: int, args: tuple, kwargs: dict) -> int:
    if f is np.hsplit:
        return 1 if ndim > 1 else 0
    if f is np.vsplit:
        return 0
    if f is np.dsplit:
        return 2
    if f is np.unstack:
        return args[0] if args else kwargs.get("axis", 0)
    return args[1] if len(args) > 1 else kwargs.get("axis", 0)


def _split(f: Any) -> None:
    label = f.__name__

    def split_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
        ys = f(x, *args, **kwargs)
        project_x = projector(x)
        x_shape = shape_of(x)
        axis = _split_axis(f, len(x_shape), args, kwargs)
        shapes = [shape_of(y) for y in ys]
        dtype = getattr(x, "dtype", np.float64)

        def split_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero) or isinstance(project_x, _ProjectNoTangent):
                return (NO_TANGENT, project_x(ZERO_TANGENT), *(NO_TANGENT,) * len(args))
            pieces = [
                _zeros(s, dtype, x) if isinstance(t, AbstractZero) else t
                for t, s in zip(map(unthunk, dy), shapes, strict=True)
            ]
            xp = array_namespace(*pieces)
            if f is np.unstack:
                dx = xp.stack(pieces, axis=axis)
            else:
                dx = xp.concat(pieces, axis=normalize_axis(axis, len(x_shape)))
            return (NO_TANGENT, project_x(dx), *(NO_TANGENT,) * len(args))

        split_pullback.__name__ = split_pullback.__qualname__ = f"{label}_pullback"
        return ys, split_pullback

    def split_frule(tangents: tuple, x: Any, *args: Any, **kwargs: Any) -> Any:
        ys = f(x, *args, **kwargs)
        dx = unthunk(tangents[1])
        if not has_tangent(x) or isinstance(dx, NoTangent):
            return ys, NO_TANGENT
        if isinstance(dx, AbstractZero):
            return ys, ZERO_TANGENT
        return ys, _sequence_tangent(list(f(dx, *args, **kwargs)), ys)

    keywords = ("axis",) if f in (np.split, np.array_split, np.unstack) else ()
    register_rules(f, split_rrule, split_frule, keywords=keywords, name=label)


for _splitter in (np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit, np.unstack):
    _split(_splitter)

# ---- several arrays in, a tuple out ----------------------------------------------------------


def _tuple_out(f: Any, adjoint: Any, keywords: tuple[str, ...] = ()) -> None:
    """Rules of ``f(*arrays)`` returning one array per input, each linear in its own input."""
    label = f.__name__

    def tuple_rrule(*arrays: Any, **kwargs: Any) -> Any:
        ys = f(*arrays, **kwargs)
        if not isinstance(ys, tuple | list):
            ys_list = [ys]
        else:
            ys_list = list(ys)
        projects = [projector(a) for a in arrays]
        shapes = [shape_of(a) for a in arrays]

        def tuple_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return (NO_TANGENT, *(p(ZERO_TANGENT) for p in projects))
            outs = [dy] if len(ys_list) == 1 and len(arrays) == 1 else list(dy)
            return (
                NO_TANGENT,
                *(
                    p(ZERO_TANGENT) if isinstance(t, AbstractZero) else p(adjoint(t, s))
                    for p, t, s in zip(projects, map(unthunk, outs), shapes, strict=True)
                ),
            )

        tuple_pullback.__name__ = tuple_pullback.__qualname__ = f"{label}_pullback"
        return ys, tuple_pullback

    def tuple_frule(tangents: tuple, *arrays: Any, **kwargs: Any) -> Any:
        ys = f(*arrays, **kwargs)
        outs = ys if isinstance(ys, tuple | list) else (ys,)
        dys: list[Any] = []
        for dx, y in zip(tangents[1:], outs, strict=True):
            dx = unthunk(dx)
            if not has_tangent(y) or isinstance(dx, NoTangent):
                dys.append(NO_TANGENT)
            elif isinstance(dx, AbstractZero):
                dys.append(ZERO_TANGENT)
            else:
                dys.append(
                    np.broadcast_to(dx, shape_of(y))
                    if f is np.broadcast_arrays
                    else f(dx, **kwargs)
                )
        if not isinstance(ys, tuple | list):
            return ys, dys[0]
        return ys, Tangent(type(ys), *dys)

    register_rules(f, tuple_rrule, tuple_frule, keywords=keywords, name=label)


_tuple_out(np.broadcast_arrays, _identity_adjoint, keywords=("subok",))
for _atleast in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
    _tuple_out(_atleast, _reshape_adjoint)


# ---- meshgrid: each output broadcasts one input ------------------------------------------------


def _meshgrid_rrule(*xi: Any, indexing: str = "xy", sparse: bool = False, copy: bool = True):
    ys = np.meshgrid(*xi, indexing=indexing, sparse=sparse, copy=copy)
    projects = [projector(x) for x in xi]
    shapes = [shape_of(x) for x in xi]
    axes = list(range(len(xi)))
    if indexing == "xy" and len(xi) > 1:
        axes[0], axes[1] = 1, 0

    def meshgrid_pullback(dy: Any) -> tuple[Any, ...]:
        dy = unthunk(dy)
        outs = [ZERO_TANGENT] * len(xi) if isinstance(dy, AbstractZero) else list(dy)
        cotangents = []
        for project, shape, axis, t in zip(projects, shapes, axes, map(unthunk, outs), strict=True):
            if isinstance(t, AbstractZero):
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

# ---- block: nested lists of arrays joined along several axes ---------------------------------


def _leaves(nested: Any) -> list[Any]:
    if isinstance(nested, list):
        return [leaf for item in nested for leaf in _leaves(item)]
    return [nested]


def _rebuild(nested: Any, pieces: Any) -> Any:
    if isinstance(nested, list):
        return [_rebuild(item, pieces) for item in nested]
    return next(pieces)


def _block_rrule(arrays: Any) -> Any:
    y = np.block(arrays)
    project = ProjectTo(arrays)
    shapes = [np.shape(leaf) for leaf in _leaves(arrays)]

    def block_pullback(dy: Any) -> tuple[Any, ...]:
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project(dy)
        # Number every element of every block, join the numbers as block did, and send each
        # cotangent element back to the number it landed on.
        offsets = np.cumsum([0] + [int(np.prod(s)) for s in shapes])
        numbered = [
            np.arange(start + 1, stop + 1).reshape(shape)
            for start, stop, shape in zip(offsets[:-1], offsets[1:], shapes, strict=True)
        ]
        sources = np.block(_rebuild(arrays, iter(numbered)))
        xp = array_namespace(dy)
        total = accumulate(np.ravel(sources), dy, int(offsets[-1]) + 1)
        pieces = (
            xp.reshape(total[start + 1 : stop + 1], shape)
            for start, stop, shape in zip(offsets[:-1], offsets[1:], shapes, strict=True)
        )
        return NO_TANGENT, project(_rebuild(arrays, pieces))

    return y, block_pullback


def _block_frule(tangents: tuple, arrays: Any) -> Any:
    y = np.block(arrays)
    dx = unthunk(tangents[1])
    if not has_tangent(y) or isinstance(dx, NoTangent):
        return y, NO_TANGENT
    if isinstance(dx, AbstractZero):
        return y, ZERO_TANGENT
    return y, np.block(dense_nested(dx, arrays))


register_rules(np.block, _block_rrule, _block_frule)
