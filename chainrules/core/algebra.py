"""Tangent addition and comparison: ``add``, ``add_`` and ``tangents_equal``.

``add`` never mutates either argument. ``add_(acc, t)`` may write into ``acc`` (when it is a
writeable array of a dtype that holds the sum, or a ``MutableTangent``) and returns the result,
which callers must use in place of ``acc``: ChainRules' ``add!!``.

Rules of the algebra, in addition to those of the zeros (see ``tangents``)::

    a                       b                        add(a, b)
    zero                    x                        x          (x as given, thunk or not)
    thunk                   x                        unthunk(a) + x
    NotImplementedTangent   non-zero x               a
    Tangent                 Tangent                  field-wise over the union of fields
                                                     (named fields: same primal type only)
    Tangent                 tuple / list / dict      the container read as a Tangent of the
                                                     same layout (either order)
    tuple / list            same length              element-wise (never concatenation)
    array / scalar          array / scalar           a + b
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .tangents import AbstractZero, MutableTangent, NotImplementedTangent, Tangent
from .thunks import AbstractThunk, InplaceableThunk, unthunk

__all__ = ["add", "add_", "tangents_equal"]


def add(a: Any, b: Any) -> Any:
    """The sum of two tangents; neither argument is changed.

    Nested structures are added with a work list, never by recursion, so a tangent as deep as
    a linked list of a thousand nodes adds like a flat one.

    >>> import numpy as np
    >>> from chainrules.core.tangents import ZeroTangent
    >>> add(ZeroTangent(), np.ones(2))
    array([1., 1.])
    >>> add((1.0, 2.0), (3.0, 4.0))
    (4.0, 6.0)
    """
    found = _add_flat(a, b)
    if type(found) is not _Nested:
        return found
    root = found
    stack = [root]
    while True:
        node = stack[-1]
        if node.next < len(node.pairs):
            x, y = node.pairs[node.next]
            node.next += 1
            value = _add_flat(x, y)
            if type(value) is _Nested:
                stack.append(value)
            else:
                node.sums.append(value)
            continue
        stack.pop()
        total = node.build()
        if not stack:
            return total
        stack[-1].sums.append(total)


def _add_flat(a: Any, b: Any) -> Any:
    """``a + b`` where neither is a structure; a ``_Nested`` node where both hold fields."""
    if isinstance(a, AbstractZero):
        return a + b if isinstance(b, AbstractZero) else b
    if isinstance(b, AbstractZero):
        return a
    if isinstance(a, NotImplementedTangent):
        return a
    if isinstance(b, NotImplementedTangent):
        return b
    if isinstance(a, AbstractThunk):
        a = a.unthunk()
    if isinstance(b, AbstractThunk):
        b = b.unthunk()
    if isinstance(a, Tangent) or isinstance(b, Tangent):
        return _Nested.structural(a, b)
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        if len(a) != len(b):
            raise ValueError(f"add: tangents of lengths {len(a)} and {len(b)} cannot be added")
        return _Nested(list(zip(a, b, strict=True)), type(a))
    return a + b


class _Nested:
    """One structure being added: the pairs of fields to add, their sums, how to rebuild."""

    __slots__ = ("build_from", "next", "pairs", "sums")

    def __init__(self, pairs: list, build_from: Any) -> None:
        self.pairs = pairs
        self.build_from = build_from  # the sums -> the structure
        self.next = 0
        self.sums: list = []

    def build(self) -> Any:
        return self.build_from(self.sums)

    @staticmethod
    def structural(a: Any, b: Any) -> _Nested:
        a, b = _as_tangent_like(a, b), _as_tangent_like(b, a)
        if not (isinstance(a, Tangent) and isinstance(b, Tangent)):
            other = b if isinstance(a, Tangent) else a
            raise TypeError(f"add: a structural Tangent cannot be added to {type(other).__name__}")
        if a._kind == "named" and a.primal_type is not b.primal_type:
            raise TypeError(f"add: {a!r} and {b!r} are tangents of different types")
        cls, primal_type, kind = type(a), a.primal_type, a._kind
        if a.is_positional:
            if not b.is_positional or len(a) != len(b):
                raise ValueError(f"add: {a!r} and {b!r} have different layouts")
            pairs = list(zip(a.backing, b.backing, strict=True))
            return _Nested(pairs, lambda sums: cls._from_backing(primal_type, kind, tuple(sums)))
        backing = dict(a.backing)
        common = [key for key in b.backing if key in backing]
        for key, value in b.backing.items():
            if key not in backing:
                backing[key] = value

        def rebuild(sums: list) -> Any:
            backing.update(zip(common, sums, strict=True))
            return cls._from_backing(primal_type, kind, backing)

        return _Nested([(a.backing[k], b.backing[k]) for k in common], rebuild)


def _as_tangent_like(x: Any, like: Any) -> Any:
    """A plain tuple, list or dict as a ``Tangent`` of the same layout as ``like``.

    ``ProjectTo`` accepts plain containers as cotangents of containers, so they meet
    structural tangents in accumulation.
    """
    if isinstance(x, Tangent) or not isinstance(like, Tangent):
        return x
    if like.is_positional and isinstance(x, tuple | list):
        return Tangent._from_backing(like.primal_type, like._kind, tuple(x))
    if like._kind == "mapping" and isinstance(x, dict):
        return Tangent._from_backing(like.primal_type, like._kind, dict(x))
    return x


def add_(acc: Any, t: Any) -> Any:
    """Accumulate ``t`` into ``acc``, in place where ``acc`` allows it; returns the result.

    When ``acc`` is a zero the result is ``t`` (an array is copied, so that a later in-place
    accumulation never writes into an array the caller still holds, such as an incoming
    cotangent). An ``InplaceableThunk`` adds itself into a writeable ``acc`` without
    allocating.

    >>> import numpy as np
    >>> acc = np.zeros(2)
    >>> add_(acc, np.ones(2)) is acc
    True
    """
    if isinstance(acc, AbstractZero):
        if isinstance(t, AbstractZero):
            return acc + t
        t = unthunk(t)
        return t.copy() if isinstance(t, np.ndarray) else t
    if isinstance(t, AbstractZero):
        return acc
    if isinstance(acc, np.ndarray) and _can_accumulate(acc, t):
        if isinstance(t, InplaceableThunk):
            return t.add_into(acc)
        np.add(acc, unthunk(t), out=acc)
        return acc
    if isinstance(acc, MutableTangent) and not acc.is_positional:
        t = unthunk(t)
        if isinstance(t, Tangent):
            _add_fields_into(acc, t)
            return acc
    return add(acc, t)


def _add_fields_into(acc: MutableTangent, t: Tangent) -> None:
    """``t``'s fields accumulated into ``acc``'s, nested mutable fields in place, by a work
    list (a tangent as deep as a long linked list never recurses)."""
    pending = [(acc, t)]
    seen: set[tuple[int, int]] = set()
    while pending:
        into, fields = pending.pop()
        if (id(into), id(fields)) in seen:  # a cycle: its fields are being added already
            continue
        seen.add((id(into), id(fields)))
        for key, value in fields.backing.items():
            current = into[key]
            nested = isinstance(current, MutableTangent) and not current.is_positional
            if nested and isinstance(value, Tangent):
                pending.append((current, value))
            else:
                into[key] = add_(current, value)


def _can_accumulate(acc: np.ndarray, t: Any) -> bool:
    if not acc.flags.writeable:
        return False
    if isinstance(t, InplaceableThunk):
        return True
    t = unthunk(t)
    if isinstance(t, np.ndarray | np.generic | float | int | complex):
        t_shape = np.shape(t)
        return (
            np.broadcast_shapes(acc.shape, t_shape) == acc.shape
            and np.result_type(acc, t) == acc.dtype
        )
    return False


def tangents_equal(a: Any, b: Any) -> bool:
    """Value equality of tangents: zeros equal zero arrays, structures compare field-wise.

    Arrays compare with ``np.array_equal`` (NaN unequal); absent fields count as zero.
    Cyclic and deep structures compare with a work list, never by recursion.

    >>> import numpy as np
    >>> from chainrules.core.tangents import ZeroTangent
    >>> tangents_equal(ZeroTangent(), np.zeros(3)), tangents_equal(1.0, 1.0)
    (True, True)
    """
    pending = [(a, b)]
    seen: set[tuple[int, int]] = set()
    alive = []  # the pairs in seen, kept so that their ids are not reused during the walk
    while pending:
        a, b = pending.pop()
        if a is b:
            continue
        a, b = unthunk(a), unthunk(b)
        if not (isinstance(a, Tangent) and isinstance(b, Tangent)):
            if not _leaves_equal(a, b):
                return False
            continue
        if a.primal_type is not b.primal_type or a.is_positional != b.is_positional:
            return False
        if (id(a), id(b)) in seen:
            continue
        seen.add((id(a), id(b)))
        alive.append((a, b))
        if a.is_positional:
            if len(a) != len(b):
                return False
            pending.extend(zip(a, b, strict=True))
        else:
            pending.extend((a[k], b[k]) for k in set(a.backing) | set(b.backing))
    return True


def _leaves_equal(a: Any, b: Any) -> bool:
    if isinstance(a, AbstractZero) or isinstance(b, AbstractZero):
        other = b if isinstance(a, AbstractZero) else a
        if isinstance(other, AbstractZero):
            return a is b
        return _is_zero_value(other)
    if isinstance(a, Tangent | NotImplementedTangent) or isinstance(
        b, Tangent | NotImplementedTangent
    ):
        return False
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except (TypeError, ValueError):
        return bool(a == b)


def _is_zero_value(x: Any) -> bool:
    pending, seen, alive = [x], set(), []
    while pending:
        value = unthunk(pending.pop())
        if isinstance(value, Tangent):
            if id(value) not in seen:
                seen.add(id(value))
                alive.append(value)
                pending.extend(value)
            continue
        if isinstance(value, AbstractZero):
            continue
        try:
            if np.any(np.asarray(value)):
                return False
        except (TypeError, ValueError):
            return False
    return True
