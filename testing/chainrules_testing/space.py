"""Whether a tangent lies in its primal's tangent space.

* A primal with no tangent space (an integer, a boolean, a string, a structure of such, an
  argument marked ``with_tangent(x, NoTangent())``) takes ``NoTangent()``; a ``ZeroTangent()``
  there is reported on its own, with the advice to return ``NoTangent()``.
* An array takes an array of the same shape and dtype (float32 stays float32); a real
  primal takes a real tangent; a NumPy scalar a scalar of its dtype; a Python float a real
  number, a Python complex any number.
* A structure takes a ``Tangent`` of its type whose fields are in the fields' spaces.
* Zeros, thunks (unthunked first) and ``NotImplementedTangent`` are accepted anywhere a
  tangent space exists.

>>> import numpy as np
>>> space_problem(np.ones(3, dtype=np.float32), np.ones(3), "args[0]")
('args[0]', 'has dtype float64, but the primal has dtype float32')
>>> space_problem(2.0, 1.5, "args[0]") is None
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.core.structure import decompose, has_tangent_space, is_differentiable_leaf
from chainrules.core.tangents import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Tangent,
    ZeroTangent,
)
from chainrules.core.thunks import unthunk

from .primals import field_path
from .report import show

__all__ = ["space_problem"]

ZERO_FOR_NO_TANGENT = "ZeroTangent() for an argument without a tangent space"


def space_problem(
    primal: Any, tangent: Any, path: str, *, no_tangent: bool = False
) -> tuple[str, str] | None:
    """``(path, what is wrong)`` for the first part of ``tangent`` outside the space, or None.

    ``no_tangent`` says the primal is treated as having no tangent space (it was marked so).
    The problem text ``ZERO_FOR_NO_TANGENT`` singles out a ``ZeroTangent()`` given for a
    primal without a tangent space.
    """
    tangent = unthunk(tangent)
    known: dict[int, bool] = {}  # one memo for the graph: per-node walks would be quadratic
    if no_tangent or not has_tangent_space(primal, known):
        if isinstance(tangent, NoTangent):
            return None
        if isinstance(tangent, ZeroTangent):
            return path, ZERO_FOR_NO_TANGENT
        return (
            path,
            f"is {_describe(tangent)}, but the primal has no tangent space: expected NoTangent()",
        )
    seen: set[tuple[int, int]] = set()
    stack = [(path, primal, tangent)]
    while stack:
        where, p, t = stack.pop()
        t = unthunk(t)
        if isinstance(t, AbstractZero | NotImplementedTangent) or (id(p), id(t)) in seen:
            continue
        seen.add((id(p), id(t)))
        fields = decompose(p)
        if fields is None:
            problem = _leaf_problem(p, t)
            if problem is not None:
                return where, problem
            continue
        if not has_tangent_space(p, known):
            return (
                where,
                f"is {_describe(t)}, but the primal has no tangent space: expected NoTangent()",
            )
        if not isinstance(t, Tangent):
            return where, (
                f"is {_describe(t)}, but a {fields.primal_type.__name__} takes "
                f"Tangent({fields.primal_type.__name__}, ...)"
            )
        if t.primal_type is not fields.primal_type:
            return where, (
                f"is a Tangent of {t.primal_type.__name__}, but the primal is a "
                f"{fields.primal_type.__name__}"
            )
        keys = [k for k, _ in fields.items]
        if t.is_positional != (fields.kind == "positional"):
            return where, "has positional fields where the primal has named ones, or the reverse"
        if t.is_positional and len(t) != len(keys):
            return where, f"has {len(t)} elements, but the primal has {len(keys)}"
        extra = [k for k in t.keys() if k not in keys]
        if extra:
            return where, f"has fields {extra!r} that the primal does not have"
        for key, value in reversed(fields.items):
            stack.append((field_path(where, fields.kind, key), value, t[key]))
    return None


def _describe(t: Any) -> str:
    if isinstance(t, AbstractZero):
        return repr(t)
    if hasattr(t, "shape") and hasattr(t, "dtype"):
        return f"a {type(t).__name__} of shape {tuple(t.shape)} and dtype {t.dtype}"
    return f"a {type(t).__name__} ({show(t)})"


def _is_complex_value(t: Any) -> bool:
    if isinstance(t, complex):
        return True
    dtype = getattr(t, "dtype", None)
    return dtype is not None and "complex" in str(dtype)


def _leaf_problem(p: Any, t: Any) -> str | None:
    if not is_differentiable_leaf(p):
        return f"is {_describe(t)}, but the primal has no tangent space: expected NoTangent()"
    if isinstance(t, Tangent):
        return f"is a structural {show(t)}, but the primal is a {type(p).__name__}"
    complex_primal = _is_complex_value(p)
    if _is_complex_value(t) and not complex_primal:
        return f"is complex ({_describe(t)}), but the primal is real: expected a real tangent"
    if isinstance(p, float | complex) and not isinstance(p, np.generic):
        if isinstance(t, bool) or not isinstance(t, int | float | complex | np.number | np.ndarray):
            return f"is {_describe(t)}, but the primal is a Python {type(p).__name__}"
        if np.ndim(t) != 0:
            return f"is {_describe(t)}, but the primal is a Python {type(p).__name__} (a scalar)"
        if (
            isinstance(t, np.ndarray | np.generic)
            and t.dtype.itemsize < (8 if not complex_primal else 16)
            and t.dtype.kind in "fc"
        ):
            return f"has dtype {t.dtype}, narrower than the primal's {type(p).__name__}"
        return None
    if not (hasattr(t, "shape") and hasattr(t, "dtype")):
        if isinstance(p, np.generic) and isinstance(t, float) and p.dtype == np.float64:
            return None
        return f"is {_describe(t)}, but the primal is {_describe(p)}"
    if tuple(t.shape) != tuple(p.shape):
        return f"has shape {tuple(t.shape)}, but the primal has shape {tuple(p.shape)}"
    if str(t.dtype) != str(p.dtype):
        return f"has dtype {t.dtype}, but the primal has dtype {p.dtype}"
    return None
