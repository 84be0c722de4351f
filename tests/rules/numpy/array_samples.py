"""The row format shared by the table tests of the array-manipulation rules.

An ``A`` stands for an array argument of a shape; a ``Row`` is a call ``f(*args, **kwargs)``
written with them; ``build`` draws the arrays in a case's dtype (complex dtypes get an
imaginary part), recursing into lists and tuples of arguments; every row is tested in each of
``DTYPES``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

DTYPES = [np.float64, np.complex128, np.float32]


def dtype_id(dtype: Any) -> str:
    """The test id of a dtype: its name."""
    return np.dtype(dtype).name


@dataclass(frozen=True)
class A:
    """An array argument of this shape, drawn in the case's dtype."""

    shape: tuple[int, ...]


@dataclass(frozen=True)
class Row:
    """A call ``f(*args, **kwargs)``: ``A`` entries become arrays, lists of them lists."""

    f: Any
    args: tuple
    kwargs: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        name = getattr(self.f, "__name__", None) or repr(self.f).split("'")[1]
        return f"{name}{self.args}{self.kwargs or ''}".replace(" ", "")


def build(spec: Any, dtype: Any, rng: np.random.Generator) -> Any:
    """``spec`` with each ``A`` replaced by a standard normal array of its shape."""
    if isinstance(spec, A):
        x = rng.standard_normal(spec.shape)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.standard_normal(spec.shape)
        return np.asarray(x, dtype=dtype)
    if isinstance(spec, list | tuple):
        return type(spec)(build(s, dtype, rng) for s in spec)
    return spec
