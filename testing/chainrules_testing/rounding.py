"""How large a rule's values are, and how uncertain from rounding: the spacing of outputs
(the noise finite differences of them carry) and the size of the terms of inner products
(the rounding a rule's derivative may carry where its terms cancel).

>>> import numpy as np
>>> bool(root_mean_square([np.array([3.0, 4.0]), np.array([np.inf])]) == np.sqrt(12.5))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.core.structure import is_differentiable_leaf
from chainrules.core.tangents import AbstractZero, NotImplementedTangent, Tangent
from chainrules.core.thunks import unthunk

from .jacobian import flatten_values
from .primals import iter_leaf_tangents, map_primal

__all__ = ["flatten_noise", "inner_noise", "output_sizes", "root_mean_square", "weighted_size"]


def _spacing(leaf: Any, exponent: int = 0) -> np.ndarray:
    """The spacing of ``leaf``'s values, times ``2**exponent`` (before any product can
    underflow: the spacing of a subnormal is the smallest subnormal)."""
    value = np.abs(np.asarray(leaf))
    if value.dtype.kind not in "f":
        value = value.astype(np.float64)
    with np.errstate(all="ignore"):
        return np.ldexp(np.spacing(value).astype(np.float64), exponent)


def root_mean_square(chunks: list) -> float:
    """The root mean square of the finite values in ``chunks`` (arrays), without overflow
    or underflow; 0 when there are none."""
    values = [np.asarray(c, dtype=np.float64).ravel() for c in chunks]
    flat = np.concatenate(values) if values else np.zeros(0)
    flat = flat[np.isfinite(flat)]
    largest = float(np.max(flat, initial=0.0))
    if largest == 0.0:
        return 0.0
    return largest * float(np.sqrt(np.mean(np.square(flat / largest))))


def weighted_size(w: Any, y: Any, exponent: int = 0) -> float:
    """``sum(|w| * |y|) * 2**exponent`` over ``y``'s differentiable leaves."""
    total = 0.0
    for _, leaf, part in iter_leaf_tangents(y, w, "y", every_reference=True):
        if is_differentiable_leaf(leaf) and part is not None:
            part = unthunk(part)
            if not isinstance(part, AbstractZero | NotImplementedTangent | Tangent):
                with np.errstate(over="ignore", invalid="ignore"):
                    sizes = np.abs(np.asarray(part)) * np.abs(np.asarray(leaf))
                    sizes = np.ldexp(np.asarray(sizes, dtype=np.float64), exponent)
                total += float(np.sum(sizes[np.isfinite(sizes)]))
    # Non-finite outputs (and sums past float64) give no size: never an infinite tolerance.
    return total if np.isfinite(total) else 0.0


def output_sizes(y: Any, exponent: int = 0) -> np.ndarray:
    """``|y| * 2**exponent`` for each of ``flatten_values(y)`` (a complex element's size for
    both its parts)."""
    return flatten_values(map_primal(y, lambda leaf, _: _size_like(leaf, exponent)))


def _size_like(leaf: Any, exponent: int) -> Any:
    if not is_differentiable_leaf(leaf):
        return leaf
    value = np.asarray(leaf)
    with np.errstate(over="ignore", invalid="ignore"):
        size = np.ldexp(np.abs(value).astype(np.float64), exponent)
    size = np.where(np.isfinite(size), size, 0.0)  # no tolerance from a non-finite output
    return size * (1 + 1j) if value.dtype.kind == "c" else size


def inner_noise(w: Any, y: Any, exponent: int = 0) -> float:
    """How uncertain ``Re <w, y * 2**exponent>`` is from the rounding of ``y``:
    ``sum(|w| * spacing(y)) * 2**exponent``."""
    total = 0.0
    for _, leaf, part in iter_leaf_tangents(y, w, "y", every_reference=True):
        if is_differentiable_leaf(leaf) and part is not None:
            part = unthunk(part)
            if not isinstance(part, AbstractZero | NotImplementedTangent):
                total += float(np.sum(np.abs(np.asarray(part)) * _spacing(leaf, exponent)))
    return total


def flatten_noise(y: Any, exponent: int = 0) -> np.ndarray:
    """The rounding uncertainty of each of ``flatten_values(y * 2**exponent)``."""
    return flatten_values(map_primal(y, lambda leaf, _: _spacing_like(leaf, exponent)))


def _spacing_like(leaf: Any, exponent: int) -> Any:
    if not is_differentiable_leaf(leaf):
        return leaf
    value = np.asarray(leaf)
    if value.dtype.kind == "c":
        out = np.empty(value.shape, dtype=np.complex128)
        out.real, out.imag = _spacing(value.real, exponent), _spacing(value.imag, exponent)
        return out
    return _spacing(value, exponent)
