"""``zero_tangent``: the zero of any primal's tangent space, safe on cycles and aliasing."""

from __future__ import annotations

from typing import Any

import numpy as np

from .namespace import array_namespace
from .structure import decompose, has_tangent_space, is_differentiable_leaf
from .tangents import NO_TANGENT, MutableTangent, Tangent

__all__ = ["zero_tangent"]


def zero_tangent(x: Any) -> Any:
    """The zero tangent of ``x``, of the type a rule would return for it.

    Floats give ``0.0``, complex numbers ``0j``, float and complex arrays zeros of the same
    shape and dtype; integers, booleans, strings, integer arrays and structures holding
    nothing differentiable give ``NoTangent()``. Structures give a ``Tangent`` (or a
    ``MutableTangent`` for mutable objects) of field zeros.

    The object graph is walked with a memo: a cycle (an object that refers to itself, a
    recursive closure whose cell holds the closure) gives a finite answer, and an object
    reached twice (one array held in two fields) gets one and the same tangent object.

    >>> import numpy as np
    >>> zero_tangent(np.ones(2, dtype=np.float32))
    array([0., 0.], dtype=float32)
    >>> zero_tangent((1.5, 2, "name"))
    Tangent[tuple](0.0, NoTangent(), NoTangent())
    """
    return _ZeroBuilder().build(x)


class _ZeroBuilder:
    __slots__ = ("differentiable", "memo")

    def __init__(self) -> None:
        self.memo: dict[int, tuple[Any, Any]] = {}  # id -> (primal kept alive, tangent)
        self.differentiable: dict[int, bool] = {}

    def build(self, x: Any) -> Any:
        hit = self.memo.get(id(x))
        if hit is not None:
            return hit[1]
        fields = decompose(x)
        if fields is None:
            tangent = _leaf_zero(x)
            self.memo[id(x)] = (x, tangent)
            return tangent
        if not has_tangent_space(x, self.differentiable):
            self.memo[id(x)] = (x, NO_TANGENT)
            return NO_TANGENT
        cls = MutableTangent if fields.mutable else Tangent
        positional = fields.kind == "positional"
        backing: dict[Any, Any] = {}
        tangent = cls._from_backing(fields.primal_type, fields.kind, () if positional else backing)
        self.memo[id(x)] = (x, tangent)  # registered before the fields: cycles end here
        for key, value in fields.items:
            backing[key] = self.build(value)
        if positional:
            object.__setattr__(tangent, "_backing", tuple(backing.values()))
        return tangent


def _leaf_zero(x: Any) -> Any:
    if not is_differentiable_leaf(x):
        return NO_TANGENT
    if isinstance(x, float):
        return 0.0
    if isinstance(x, complex):
        return 0j
    if isinstance(x, np.generic):
        return x.dtype.type(0)
    if isinstance(x, np.ndarray):
        return np.zeros_like(x)
    return array_namespace(x).zeros_like(x)
