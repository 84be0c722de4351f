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

    >>> import numpy as np
    >>> from chainrules.core.tangents import ZeroTangent
    >>> add(ZeroTangent(), np.ones(2))
    array([1., 1.])
    >>> add((1.0, 2.0), (3.0, 4.0))
    (4.0, 6.0)
    """
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
        return _add_structural(a, b)
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        if len(a) != len(b):
            raise ValueError(f"add: tangents of lengths {len(a)} and {len(b)} cannot be added")
        return type(a)(add(x, y) for x, y in zip(a, b, strict=True))
    return a + b


def _add_structural(a: Any, b: Any) -> Any:
    if not (isinstance(a, Tangent) and isinstance(b, Tangent)):
        other = b if isinstance(a, Tangent) else a
        raise TypeError(f"add: a structural Tangent cannot be added to {type(other).__name__}")
    if a.is_positional:
        if not b.is_positional or len(a) != len(b):
            raise ValueError(f"add: {a!r} and {b!r} have different layouts")
        backing: Any = tuple(add(x, y) for x, y in zip(a.backing, b.backing, strict=True))
    else:
        backing = dict(a.backing)
        for key, value in b.backing.items():
            backing[key] = add(backing[key], value) if key in backing else value
    return type(a)._from_backing(a.primal_type, a._kind, backing)


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
    if (
        isinstance(acc, MutableTangent)
        and isinstance(unthunk(t), Tangent)
        and not acc.is_positional
    ):
        for key, value in unthunk(t).backing.items():
            acc[key] = add_(acc[key], value)
        return acc
    return add(acc, t)


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


def tangents_equal(a: Any, b: Any, _seen: set | None = None) -> bool:
    """Value equality of tangents: zeros equal zero arrays, structures compare field-wise.

    Arrays compare with ``np.array_equal`` (NaN unequal); absent fields count as zero.
    Cyclic structures compare without recursing forever.

    >>> import numpy as np
    >>> from chainrules.core.tangents import ZeroTangent
    >>> tangents_equal(ZeroTangent(), np.zeros(3)), tangents_equal(1.0, 1.0)
    (True, True)
    """
    if a is b:
        return True
    a, b = unthunk(a), unthunk(b)
    if isinstance(a, AbstractZero) or isinstance(b, AbstractZero):
        other = b if isinstance(a, AbstractZero) else a
        if isinstance(other, AbstractZero):
            return a is b
        return _is_zero_value(other)
    if isinstance(a, Tangent) or isinstance(b, Tangent):
        if not (isinstance(a, Tangent) and isinstance(b, Tangent)):
            return False
        if a.primal_type is not b.primal_type or a.is_positional != b.is_positional:
            return False
        seen = set() if _seen is None else _seen
        pair = (id(a), id(b))
        if pair in seen:
            return True
        seen.add(pair)
        if a.is_positional:
            return len(a) == len(b) and all(
                tangents_equal(x, y, seen) for x, y in zip(a, b, strict=True)
            )
        keys = set(a.backing) | set(b.backing)
        return all(tangents_equal(a[k], b[k], seen) for k in keys)
    if isinstance(a, NotImplementedTangent) or isinstance(b, NotImplementedTangent):
        return False
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except (TypeError, ValueError):
        return bool(a == b)


def _is_zero_value(x: Any) -> bool:
    if isinstance(x, Tangent):
        return all(_is_zero_value(unthunk(v)) for v in x)
    try:
        return not bool(np.any(np.asarray(x)))
    except (TypeError, ValueError):
        return False
