"""``zero_tangent``: the zero of any primal's tangent space, safe on cycles and aliasing."""

from __future__ import annotations

from typing import Any

import numpy as np

from .namespace import array_namespace
from .structure import Fields, decompose, has_tangent_space, is_differentiable_leaf
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
    """Builds zeros with a work list rather than recursion, so deep graphs cannot overflow."""

    __slots__ = ("differentiable", "memo", "pending")

    def __init__(self) -> None:
        self.memo: dict[int, tuple[Any, Any]] = {}  # id -> (primal kept alive, tangent)
        self.differentiable: dict[int, bool] = {}
        self.pending: list[tuple[Tangent, Fields]] = []  # structure tangents to fill

    def build(self, x: Any) -> Any:
        tangent = self.visit(x)
        while self.pending:
            structure, fields = self.pending.pop()
            values = [self.visit(value) for _, value in fields.items]
            if fields.kind == "positional":
                object.__setattr__(structure, "_backing", tuple(values))
            else:
                structure.backing.update(zip((k for k, _ in fields.items), values, strict=True))
        return tangent

    def visit(self, x: Any) -> Any:
        """The tangent of ``x``; a structure's comes back empty and is queued to be filled."""
        hit = self.memo.get(id(x))
        if hit is not None:
            return hit[1]
        fields = decompose(x)
        if fields is None:
            tangent = _leaf_zero(x)
        elif not has_tangent_space(x, self.differentiable):
            tangent = NO_TANGENT
        else:
            cls = MutableTangent if fields.mutable else Tangent
            empty: Any = () if fields.kind == "positional" else {}
            tangent = cls._from_backing(fields.primal_type, fields.kind, empty)
            self.pending.append((tangent, fields))
        # Registered before any field is visited: a cycle back to x ends here.
        self.memo[id(x)] = (x, tangent)
        return tangent


def _leaf_zero(x: Any) -> Any:
    if not is_differentiable_leaf(x):
        return NO_TANGENT
    if isinstance(x, np.generic):  # before float: np.float64 is a float subclass
        return x.dtype.type(0)
    if isinstance(x, float):
        return 0.0
    if isinstance(x, complex):
        return 0j
    if isinstance(x, np.ndarray):
        return np.zeros_like(x)
    return array_namespace(x).zeros_like(x)
