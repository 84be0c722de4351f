"""Rules for NumPy: joining arrays and splitting them (concatenate, stack, split, block...).

Joining is linear in the joined arrays and splitting in the split one; each is the other's
adjoint. The cotangent of a sequence argument is a ``Tangent`` of the sequence's type (a
``MutableTangent`` for a list); a function returning a list or tuple takes one cotangent per
output (``ZeroTangent()`` for outputs that were not used) and gives its tangent as a ``Tangent``
of that type. ``block`` joins nested lists along several axes: its pullback numbers the elements
of every block, joins the numbers as ``block`` did, and sends each cotangent element back to
the number it landed on.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.concatenate, [np.zeros(1), np.zeros(2)])
>>> pullback(np.array([1.0, 2.0, 3.0]))[1]
MutableTangent[list](array([1.]), array([2., 3.]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.calls import call
from ...core.fast_paths import FastPullback, float_array, no_tangents, onto, register_fast_path
from ...core.linear import accumulate, linear_pushforward, register_rules
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.sequences import (
    argument_projector,
    dense_nested,
    dense_tangents,
    nest_like,
    sequence_tangent,
)
from ...core.shapes import normalize_axis, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, MutableTangent, Tangent
from ...core.thunks import unthunk
from ...core.zeros import float_zeros, is_zero

__all__: list[str] = []


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

    def joined_rrule(arrays: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(arrays, *args, **kwargs)
        project = ProjectTo(arrays)
        shapes = [shape_of(a) for a in arrays]
        axis = args[0] if args else kwargs.get("axis", default_axis)
        promoted, axis = _joined_shapes(kind, shapes, axis)

        def joined_pullback(dy: Any) -> tuple[Any, ...]:
            pieces = _split_back(dy, promoted, axis, shapes)
            nested: Any = [nest_like(p, a) for p, a in zip(pieces, arrays, strict=True)]
            if hasattr(arrays, "shape"):  # the arrays as one array, the cotangent too
                nested = array_namespace(*nested).stack(nested)
            return (NO_TANGENT, project(nested), *(NO_TANGENT,) * len(args))

        return y, joined_pullback

    def joined_frule(tangents: tuple, arrays: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(arrays, *args, **kwargs)
        return y, linear_pushforward(
            y, tangents[1], lambda dx: f(dense_tangents(dx, arrays), *args, **kwargs)
        )

    keywords: tuple[str, ...] = ()
    if kind in ("concatenate", "stack"):
        keywords = ("axis", "dtype", "casting")
    elif kind in ("hstack", "vstack"):
        keywords = ("dtype", "casting")
    register_rules(f, joined_rrule, joined_frule, keywords=keywords)


_joined(np.concatenate, "concatenate", 0)
_joined(np.stack, "stack", 0)
_joined(np.hstack, "hstack", None)
_joined(np.vstack, "vstack", None)
_joined(np.dstack, "dstack", None)
_joined(np.column_stack, "column_stack", None)
_joined(np.row_stack, "vstack", None)  # deprecated by NumPy, still exported


class _JoinedPullback(FastPullback):
    """The pullback of ``concatenate`` or ``stack`` of a list or tuple of float arrays: views
    of the cotangent, each projected onto its array."""

    __slots__ = ("arrays", "axis", "dtype", "flat", "sequence")
    arrays: tuple[np.ndarray, ...]
    axis: int  # of the output, non-negative
    dtype: np.dtype | None  # the arrays', when they all have one
    flat: bool  # concatenate(axis=None): the arrays were flattened
    sequence: type  # list or tuple
    stacked: bool  # on the subclass of each function

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        arrays, axis = self.arrays, self.axis
        if type(dy) is not np.ndarray:  # an engine's tracked array: the general way
            kind = "stack" if self.stacked else "concatenate"
            shapes = [a.shape for a in arrays]
            promoted, at = _joined_shapes(kind, shapes, None if self.flat else axis)
            pieces = _split_back(dy, promoted, at, shapes)
            return (NO_TANGENT, ProjectTo(self.sequence(arrays))(pieces), *self.rest)
        lead = (slice(None),) * axis
        if self.stacked:
            pieces = [dy[(*lead, i)] for i in range(len(arrays))]
        else:
            start, pieces = 0, []
            for a in arrays:
                stop = start + (a.size if self.flat else a.shape[axis])
                piece = dy[(*lead, slice(start, stop))]
                pieces.append(piece.reshape(a.shape) if self.flat else piece)
                start = stop
        if dy.dtype is not self.dtype:  # else each piece has its array's shape and dtype
            pieces = [onto(a.shape, a.dtype, d) for a, d in zip(arrays, pieces, strict=True)]
        tangent = MutableTangent if self.sequence is list else Tangent
        return (NO_TANGENT, tangent(self.sequence, *pieces), *self.rest)


def _fast_joined(f: Any) -> Any:
    """The fast path of ``concatenate`` and ``stack``: a list or tuple of float arrays, joined
    along an axis given as an int (or ``None`` for ``concatenate``), without other keywords."""

    def make(general: Any, pullback_class: Any) -> Any:
        stacked = pullback_class.stacked

        def joined_rrule(arrays: Any, *args: Any, **kwargs: Any) -> Any:
            sequence = type(arrays)
            if (
                (sequence is not list and sequence is not tuple)
                or not arrays
                or len(args) + len(kwargs) > 1
                or (kwargs and "axis" not in kwargs)
                or not all(map(float_array, arrays))
            ):
                return general(arrays, *args, **kwargs)
            axis = args[0] if args else kwargs.get("axis", 0)
            if type(axis) is not int and (stacked or axis is not None):
                return general(arrays, *args, **kwargs)
            if stacked:
                y = _stacked(arrays, axis)
                if y is None:  # NumPy's error, from NumPy
                    return general(arrays, *args, **kwargs)
            else:
                y = f(arrays, axis=axis)
            pullback = pullback_class()
            dtype = arrays[0].dtype
            pullback.dtype = dtype if all(a.dtype is dtype for a in arrays) else None
            pullback.arrays, pullback.sequence = tuple(arrays), sequence
            pullback.flat = axis is None
            pullback.axis = 0 if axis is None else normalize_axis(axis, y.ndim)
            pullback.shape, pullback.rest = y.shape, no_tangents(len(args))
            return y, pullback

        return joined_rrule

    return make


def _stacked(arrays: Any, axis: Any) -> np.ndarray | None:
    """``np.stack(arrays, axis)`` for an int ``axis``, as NumPy computes it (the arrays, each
    with a new axis, concatenated along it) without its Python checks; None where NumPy would
    raise (shapes that differ, an axis out of range)."""
    shape = arrays[0].shape
    ndim = len(shape) + 1
    if not -ndim <= axis < ndim or any(a.shape != shape for a in arrays):
        return None
    axis %= ndim
    new_axis = (slice(None),) * axis + (None,)
    return np.concatenate([a[new_axis] for a in arrays], axis=axis)


register_fast_path(np.concatenate, _fast_joined(np.concatenate), _JoinedPullback, stacked=False)
register_fast_path(np.stack, _fast_joined(np.stack), _JoinedPullback, stacked=True)


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

    def split_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
        # NumPy's own split (unstack calls a tensor's methods with NumPy's meaning); other
        # arrays go to the adapters' NumPy copies.
        ys = call(f, x, *args, **kwargs)
        project_x = argument_projector(x)
        x_shape = shape_of(x)
        axis = _split_axis(f, len(x_shape), args, kwargs)
        shapes = [shape_of(y) for y in ys]
        dtype = getattr(x, "dtype", np.float64)

        def split_pullback(dy: Any) -> tuple[Any, ...]:
            if not project_x.has_tangent_space:
                return (NO_TANGENT, project_x(ZERO_TANGENT), *(NO_TANGENT,) * len(args))
            pieces = [
                float_zeros(s, dtype, x) if is_zero(t) else t
                for t, s in zip(map(unthunk, dy), shapes, strict=True)
            ]
            xp = array_namespace(*pieces)
            if f is np.unstack:
                dx = xp.stack(pieces, axis=axis)
            else:
                dx = xp.concat(pieces, axis=normalize_axis(axis, len(x_shape)))
            return (NO_TANGENT, project_x(dx), *(NO_TANGENT,) * len(args))

        return ys, split_pullback

    def split_frule(tangents: tuple, x: Any, *args: Any, **kwargs: Any) -> Any:
        ys = call(f, x, *args, **kwargs)
        return ys, linear_pushforward(
            x, tangents[1], lambda dx: sequence_tangent(list(f(dx, *args, **kwargs)), ys)
        )

    keywords = ("axis",) if f in (np.split, np.array_split, np.unstack) else ()
    register_rules(f, split_rrule, split_frule, keywords=keywords)


for _splitter in (np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit, np.unstack):
    _split(_splitter)

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
    return y, linear_pushforward(y, tangents[1], lambda dx: np.block(dense_nested(dx, arrays)))


register_rules(np.block, _block_rrule, _block_frule)
