"""Questions about a value's numbers that rules ask of any array library: complex or not.

>>> import numpy as np
>>> is_complex(1.0), is_complex(np.ones(2, dtype=np.complex64)), is_complex(2j)
(False, True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .namespace import array_namespace
from .tangents import AbstractZero

__all__ = ["conj", "is_complex", "is_complex_dtype"]


def is_complex_dtype(dtype: Any) -> bool:
    """Whether a dtype of NumPy, PyTorch or another array library is complex."""
    if isinstance(dtype, np.dtype):
        return dtype.kind == "c"
    flag = getattr(dtype, "is_complex", None)  # torch
    if flag is not None:
        return bool(flag)
    return "complex" in str(dtype)


def is_complex(x: Any) -> bool:
    """Whether ``x`` (a number or an array of any library) holds complex numbers."""
    cls = type(x)
    if cls is float:
        return False
    if cls is np.ndarray or isinstance(x, np.generic):
        return x.dtype.kind == "c"
    if isinstance(x, complex):
        return True
    dtype = getattr(x, "dtype", None)
    return dtype is not None and is_complex_dtype(dtype)


def conj(x: Any) -> Any:
    """The complex conjugate; zeros and real Python numbers are returned as they are.

    >>> conj(1 + 2j), conj(3.0)
    ((1-2j), 3.0)
    """
    if isinstance(x, int | float | AbstractZero):
        return x
    if isinstance(x, complex):
        return x.conjugate()
    return array_namespace(x).conj(x)
