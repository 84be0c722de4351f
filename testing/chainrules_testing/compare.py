"""Comparing tangents through structures: ``assert_tangents_close``.

Two tangents are close when they agree leaf by leaf within ``atol + rtol * max(|a|, |b|)``
(elementwise for arrays, NaN equal to NaN). Thunks are unthunked; ``ZeroTangent()`` and
``NoTangent()`` equal any all-zero value; structural ``Tangent``\\s must be of the same primal
type and agree field by field (an absent field counts as zero); cycles are compared once.
On a mismatch the message gives the path (``dx.weights['b'][2, 3]``), both values and the
absolute and relative errors.

>>> import numpy as np
>>> from chainrules import Tangent, ZeroTangent
>>> assert_tangents_close(Tangent(dict, {"a": np.ones(2)}), Tangent(dict, {"a": np.ones(2)}))
>>> assert_tangents_close(ZeroTangent(), np.zeros(3))
>>> try:
...     assert_tangents_close(np.array([1.0, 2.0]), np.array([1.0, 2.5]), path="dx")
... except AssertionError as e:
...     print(e)
tangents differ at dx[1]: actual 2.0, expected 2.5; absolute error 5.000e-01, ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from chainrules.core.tangents import AbstractZero, NotImplementedTangent, Tangent
from chainrules.core.thunks import unthunk

from .failures import TangentMismatch
from .primals import field_path, paired_leaves, same_values
from .report import errors_line, show

__all__ = [
    "Difference",
    "assert_tangents_close",
    "primal_difference",
    "tangent_difference",
]

_KIND = {True: "positional", False: "named"}


@dataclass(frozen=True)
class Difference:
    """Where two tangents differ, and how."""

    path: str
    detail: str

    def __str__(self) -> str:
        return f"at {self.path}: {self.detail}"


def assert_tangents_close(
    actual: Any, expected: Any, *, rtol: float = 1e-9, atol: float = 0.0, path: str = "tangent"
) -> None:
    """Raise ``TangentMismatch`` unless ``actual`` and ``expected`` agree (see the module)."""
    found = tangent_difference(actual, expected, rtol=rtol, atol=atol, path=path)
    if found is not None:
        raise TangentMismatch(f"tangents differ {found} (rtol={rtol:g}, atol={atol:g})")


def tangent_difference(
    actual: Any, expected: Any, *, rtol: float, atol: float, path: str
) -> Difference | None:
    """The first place where two tangents differ beyond the tolerance, or ``None``."""
    seen: set[tuple[int, int]] = set()
    stack = [(path, actual, expected)]
    while stack:
        where, a, e = stack.pop()
        a, e = unthunk(a), unthunk(e)
        if a is e:
            continue
        if isinstance(a, NotImplementedTangent) or isinstance(e, NotImplementedTangent):
            if isinstance(a, NotImplementedTangent) and isinstance(e, NotImplementedTangent):
                continue
            return Difference(where, f"actual {show(a)}, expected {show(e)}")
        if isinstance(a, AbstractZero) and isinstance(e, AbstractZero):
            continue
        if isinstance(a, Tangent) or isinstance(e, Tangent):
            found = _structure_difference(where, a, e, seen, stack)
            if found is not None:
                return found
            continue
        found = _leaf_difference(where, a, e, rtol, atol)
        if found is not None:
            return found
    return None


def _structure_difference(where: str, a: Any, e: Any, seen: set, stack: list) -> Any:
    if isinstance(a, AbstractZero) or isinstance(e, AbstractZero):
        structure = e if isinstance(a, AbstractZero) else a
        zero = a if isinstance(a, AbstractZero) else e
        stack.extend(
            (field_path(where, _kind(structure), k), v, zero) for k, v in structure.items()
        )
        return None
    if not (isinstance(a, Tangent) and isinstance(e, Tangent)):
        return Difference(where, f"actual {show(a)}, expected {show(e)}")
    if a.primal_type is not e.primal_type or a.is_positional != e.is_positional:
        return Difference(where, f"actual {show(a)}, expected {show(e)}")
    if (id(a), id(e)) in seen:
        return None
    seen.add((id(a), id(e)))
    if a.is_positional:
        if len(a) != len(e):
            return Difference(where, f"{len(a)} elements, expected {len(e)}")
        keys: Any = range(len(a))
    else:
        keys = list(a.backing) + [k for k in e.backing if k not in a.backing]
    stack.extend((field_path(where, _kind(a), k), a[k], e[k]) for k in reversed(list(keys)))
    return None


def _kind(t: Tangent) -> str:
    return "positional" if t.is_positional else ("mapping" if t.primal_type is dict else "named")


def _as_array(x: Any) -> np.ndarray | None:
    if isinstance(x, AbstractZero):
        return None
    try:
        return np.asarray(x)
    except Exception:  # a foreign array that cannot become a NumPy one
        return np.asarray(x.tolist())


def _leaf_difference(where: str, a: Any, e: Any, rtol: float, atol: float) -> Difference | None:
    xa, xe = _as_array(a), _as_array(e)
    if xa is None:
        xa = np.zeros_like(xe)
    if xe is None:
        xe = np.zeros_like(xa)
    if xa.shape != xe.shape:
        return Difference(where, f"actual has shape {xa.shape}, expected shape {xe.shape}")
    if xa.dtype.kind not in "fciub" or xe.dtype.kind not in "fciub":
        same = bool(np.all(xa == xe))
        return None if same else Difference(where, f"actual {show(a)}, expected {show(e)}")
    with np.errstate(invalid="ignore", over="ignore"):
        if xa.dtype.kind == xe.dtype.kind == "f":  # the common case, without complex copies
            err = np.abs(np.subtract(xa, xe, dtype=np.float64))
        else:
            err = np.abs(xa.astype(complex) - xe.astype(complex))
        scale = np.maximum(np.abs(xa), np.abs(xe))
        excess = err - (atol + rtol * scale)
    bad = ~same_values(xa, xe) & ~(excess <= 0)
    if not np.any(bad):
        return None
    ranked = np.where(bad, np.nan_to_num(excess, nan=np.inf), -np.inf)
    flat = int(np.argmax(ranked.ravel()))
    index = np.unravel_index(flat, xa.shape)
    at = f"{where}[{', '.join(map(str, index))}]" if xa.ndim else where
    va, ve = xa[index], xe[index]
    va = va.item() if hasattr(va, "item") else va
    ve = ve.item() if hasattr(ve, "item") else ve
    return Difference(at, f"actual {show(va)}, expected {show(ve)}; {errors_line(va, ve)}")


def primal_difference(actual: Any, expected: Any, *, rtol: float, atol: float) -> Difference | None:
    """The first place where two primal outputs differ: layout, shape, dtype or value.

    Arrays must have the same shape and dtype and close values; scalars close values (a
    NumPy float equals the Python float of the same value); other leaves must be equal.
    """
    for where, a, e, same_layout in paired_leaves(actual, expected, "y"):
        if not same_layout:
            return Difference(where, f"actual {show(a)}, expected {show(e)}")
        found = _primal_leaf_difference(where, a, e, rtol, atol)
        if found is not None:
            return found
    return None


def _is_numeric(x: Any) -> bool:
    return isinstance(x, int | float | complex | np.ndarray | np.generic) or (
        hasattr(x, "shape") and hasattr(x, "dtype")
    )


def _primal_leaf_difference(where: str, a: Any, e: Any, rtol: float, atol: float) -> Any:
    if not (_is_numeric(a) and _is_numeric(e)):
        try:
            same = bool(a == e)
        except Exception:  # no usable equality: identity decides
            same = a is e
        return None if same else Difference(where, f"actual {show(a)}, expected {show(e)}")
    a_array = isinstance(a, np.ndarray) or not isinstance(a, int | float | complex | np.generic)
    e_array = isinstance(e, np.ndarray) or not isinstance(e, int | float | complex | np.generic)
    if a_array != e_array or a_array:
        if tuple(np.shape(a)) != tuple(np.shape(e)):
            return Difference(where, f"actual has shape {np.shape(a)}, expected {np.shape(e)}")
        if str(getattr(a, "dtype", "")) != str(getattr(e, "dtype", "")):
            return Difference(
                where,
                f"actual has dtype {getattr(a, 'dtype', type(a).__name__)}, "
                f"expected {getattr(e, 'dtype', type(e).__name__)}",
            )
    elif isinstance(a, np.generic) and isinstance(e, np.generic) and a.dtype != e.dtype:
        return Difference(where, f"actual has dtype {a.dtype}, expected {e.dtype}")
    return _leaf_difference(where, a, e, rtol, atol)
