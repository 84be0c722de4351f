"""Real coordinates of primals and tangents, and full Jacobians compared element by element.

A primal's differentiable leaves, in field order, give its real coordinates: every element
of a real leaf, and the real and the imaginary part of every element of a complex one (the
finite differences see complex inputs as pairs of reals). ``full_jacobian=True`` in the test
functions builds the rule's Jacobian and the finite-difference Jacobian in these coordinates
and names the worst element, such as ``d y[1] / d args[0][2, 0] (imaginary part)``.

>>> import numpy as np
>>> [c.label for c in coordinates((1.0, np.array([1j])), "args[0]")]
['args[0][0]', 'args[0][1][0] (real part)', 'args[0][1][0] (imaginary part)']
>>> flatten_values((1.0, np.array([2 + 3j])))
array([1., 2., 3.])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from chainrules.core.structure import is_differentiable_leaf
from chainrules.core.tangents import AbstractZero, NotImplementedTangent

from .finite_differences import FDEstimate, step_scale
from .primals import iter_leaf_tangents, iter_leaves
from .tangents import build_tangent
from .tolerances import agree

__all__ = [
    "Coordinate",
    "JacobianComparison",
    "basis_tangent",
    "compare_jacobians",
    "coordinate_scales",
    "coordinates",
    "flatten_tangent",
    "flatten_values",
    "jacobian_allowed",
]


@dataclass(frozen=True)
class Coordinate:
    """One real coordinate: the leaf's path, the element index, and which part."""

    path: str
    index: tuple[int, ...]
    part: str  # "" for a real leaf, "real" or "imaginary" for a complex one

    @property
    def label(self) -> str:
        where = f"{self.path}[{', '.join(map(str, self.index))}]" if self.index else self.path
        return f"{where} ({self.part} part)" if self.part else where


def _differentiable_leaves(x: Any) -> list[tuple[str, Any]]:
    return [(p, leaf) for p, leaf in iter_leaves(x) if is_differentiable_leaf(leaf)]


def coordinates(x: Any, prefix: str) -> list[Coordinate]:
    """The real coordinates of ``x``, labelled with their paths."""
    out: list[Coordinate] = []
    for path, leaf in iter_leaves(x, prefix):
        if not is_differentiable_leaf(leaf):
            continue
        shape = tuple(np.shape(leaf))
        parts = ("real", "imaginary") if np.iscomplexobj(np.asarray(leaf)) else ("",)
        for index in np.ndindex(*shape):
            out.extend(Coordinate(path, index, part) for part in parts)
    return out


def _real_parts(value: Any, shape: tuple[int, ...], is_complex: bool) -> np.ndarray:
    if value is None or isinstance(value, AbstractZero | NotImplementedTangent):
        value = np.zeros(shape)
    array = np.broadcast_to(np.asarray(value), shape).astype(
        np.complex128 if is_complex else np.result_type(np.asarray(value).dtype, np.float64)
    )
    if is_complex:
        return np.stack([array.real, array.imag], axis=-1).ravel()
    return np.real(array).astype(np.float64).ravel()


def flatten_values(x: Any) -> np.ndarray:
    """The real coordinates of ``x``'s values, as one float64 vector."""
    chunks = [
        _real_parts(leaf, tuple(np.shape(leaf)), np.iscomplexobj(np.asarray(leaf)))
        for _, leaf in _differentiable_leaves(x)
    ]
    return np.concatenate(chunks) if chunks else np.zeros(0)


def flatten_tangent(x: Any, tangent: Any) -> np.ndarray:
    """The real coordinates of ``tangent``, a tangent of ``x``, as one float64 vector."""
    chunks = [
        _real_parts(part, tuple(np.shape(leaf)), np.iscomplexobj(np.asarray(leaf)))
        for _, leaf, part in iter_leaf_tangents(x, tangent, "x")
        if is_differentiable_leaf(leaf)
    ]
    return np.concatenate(chunks) if chunks else np.zeros(0)


def basis_tangent(x: Any, k: int, length: float = 1.0) -> Any:
    """The tangent of ``x`` that is ``length`` in real coordinate ``k`` and 0 elsewhere."""
    remaining = k

    def values(shape: tuple[int, ...], is_complex: bool) -> np.ndarray:
        nonlocal remaining
        width = 2 if is_complex else 1
        size = int(np.prod(shape, dtype=int)) * width
        out = np.zeros(shape, dtype=complex if is_complex else float)
        if 0 <= remaining < size:
            flat = out.reshape(-1)
            flat[remaining // width] = length * 1j if (is_complex and remaining % width) else length
        remaining -= size
        return out

    return build_tangent(x, values)


@dataclass(frozen=True)
class JacobianComparison:
    """The worst element of a Jacobian comparison (``None`` fields when all agree)."""

    row: int
    column: int
    actual: float
    expected: float
    error_estimate: float
    allowed: float
    calls: int

    @property
    def failed(self) -> bool:
        return not agree(self.actual, self.expected, self.allowed)


def coordinate_scales(x: Any) -> np.ndarray:
    """``step_scale`` of each real coordinate of ``x``: the size of its finite-difference step."""
    chunks = []
    for _, leaf in _differentiable_leaves(x):
        scale = np.ravel(step_scale(leaf))
        chunks.append(np.repeat(scale, 2) if np.iscomplexobj(np.asarray(leaf)) else scale)
    return np.concatenate(chunks) if chunks else np.zeros(0)


def fd_jacobian(
    along: Callable[[Any, Callable[[FDEstimate], bool] | None], FDEstimate],
    x: Any,
    n: int,
    settles: Callable[[int, np.ndarray, np.ndarray], bool] | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Columns by finite differences: ``along(direction, judge)`` estimates the derivative of
    the output vector along ``direction`` (``judge``: of a cheap estimate, see
    ``finite_differences``). Coordinate ``k`` moves by its ``coordinate_scales``;
    ``settles(k, column, errors)`` judges a cheap estimate of column ``k``."""
    columns, errors, calls = [], [], 0
    scales = coordinate_scales(x)
    for k in range(n):
        judge = None
        if settles is not None:

            def judge(estimate: FDEstimate, k: int = k) -> bool:
                scale = scales[k]
                column = np.atleast_1d(estimate.value) / scale
                return settles(k, column, np.atleast_1d(estimate.error) / scale)

        estimate = along(basis_tangent(x, k, float(scales[k])), judge)
        columns.append(np.atleast_1d(estimate.value) / scales[k])
        errors.append(np.atleast_1d(estimate.error) / scales[k])
        calls += estimate.calls
    return np.stack(columns, axis=1), np.stack(errors, axis=1), calls


def jacobian_allowed(
    actual: np.ndarray, expected: np.ndarray, errors: Any, rtol: float, atol: Any
) -> np.ndarray:
    """How far each element of a rule's Jacobian may be from the finite-difference one:
    ``atol + rtol * max(|actual|, |expected|) + |errors|``."""
    return atol + rtol * np.maximum(np.abs(actual), np.abs(expected)) + np.abs(errors)


def compare_jacobians(
    actual: np.ndarray,
    expected: np.ndarray,
    errors: np.ndarray,
    rtol: float,
    atol: float | np.ndarray,
    calls: int,
) -> JacobianComparison:
    """The element with the largest excess of error over tolerance (``atol`` may be one per
    element, or per row as a column)."""
    allowed = jacobian_allowed(actual, expected, errors, rtol, atol)
    with np.errstate(invalid="ignore"):
        excess = np.abs(actual - expected) - allowed
    excess = np.where(agree(actual, expected, allowed), -np.inf, np.nan_to_num(excess, nan=np.inf))
    row, column = np.unravel_index(int(np.argmax(excess)), excess.shape) if excess.size else (0, 0)
    if not excess.size:
        return JacobianComparison(0, 0, 0.0, 0.0, 0.0, 0.0, calls)
    return JacobianComparison(
        int(row),
        int(column),
        float(actual[row, column]),
        float(expected[row, column]),
        float(errors[row, column]),
        float(allowed[row, column]),
        calls,
    )
