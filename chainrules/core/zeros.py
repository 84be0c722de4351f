"""``zero_tangent``: the zero of any primal's tangent space, safe on cycles and aliasing."""

from __future__ import annotations

from typing import Any

import numpy as np

from .dtypes import value_dtype
from .namespace import array_namespace
from .shapes import shape_of
from .structure import Fields, decompose, has_tangent_space, is_differentiable_leaf
from .tangents import NO_TANGENT, AbstractZero, MutableTangent, Tangent

__all__ = ["densify", "float_zeros", "is_zero", "vanishes", "zero_tangent"]


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


def is_zero(t: Any) -> bool:
    """Whether a tangent is known to be zero by its type: ``ZeroTangent()``, ``NoTangent()``, or
    ``None`` (what an engine passes for an argument it does not differentiate).

    Rules test single tangents with it (one input's tangent in an frule, one output's cotangent
    in a pullback of several outputs); a pullback never sees a zero cotangent as a whole.

    >>> from chainrules.core.tangents import ZERO_TANGENT
    >>> is_zero(ZERO_TANGENT), is_zero(None), is_zero(0.0)
    (True, True, False)
    """
    return t is None or isinstance(t, AbstractZero)


def vanishes(t: Any) -> bool:
    """Whether a tangent is zero by its value: a zero type, or NumPy values that are all 0.

    For a factor that may be unknown (a ``NotImplementedTangent``): unknown times a tangent
    that vanishes is still zero.

    >>> vanishes(0.0), vanishes(np.zeros(2)), vanishes(np.array([0.0, 1.0]))
    (True, True, False)
    """
    if is_zero(t):
        return True
    if isinstance(t, float | int | complex | np.ndarray | np.generic):
        return not np.any(t)
    return False


def densify(t: Any, primal: Any) -> Any:
    """``t``, or, for a zero, an array of zeros like ``primal`` (its shape; its dtype if
    inexact, else float64) in ``primal``'s namespace.

    >>> from chainrules.core.tangents import ZERO_TANGENT
    >>> densify(ZERO_TANGENT, np.ones(2, dtype=np.float32)), densify(2.0, 1.0)
    (array([0., 0.], dtype=float32), 2.0)
    """
    if not is_zero(t):
        return t
    return float_zeros(shape_of(primal), value_dtype(primal), primal)


def float_zeros(shape: tuple[int, ...], dtype: Any, like: Any) -> Any:
    """Zeros of ``shape`` in ``like``'s namespace: ``dtype`` if it is inexact, else float64.

    >>> float_zeros((2,), np.dtype(int), 1.0)
    array([0., 0.])
    """
    if isinstance(dtype, np.dtype) and dtype.kind not in "fc":
        dtype = np.float64
    return array_namespace(like).zeros(shape, dtype=dtype)
