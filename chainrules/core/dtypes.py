"""Questions about a value's numbers that rules ask of any array library: complex or not.

>>> import numpy as np
>>> is_complex(1.0), is_complex(np.ones(2, dtype=np.complex64)), is_complex(2j)
(False, True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .caches import Bounded
from .namespace import array_namespace
from .tangents import AbstractZero

__all__ = ["cast", "conj", "has_tangent", "is_complex", "is_complex_dtype", "value_dtype"]


def is_complex_dtype(dtype: Any) -> bool:
    """Whether a dtype of NumPy, PyTorch or another array library is complex."""
    try:
        return _complex_dtypes[dtype]
    except (KeyError, TypeError):  # not met yet, or a dtype that cannot be hashed
        pass
    if isinstance(dtype, np.dtype):
        found = dtype.kind == "c"
    else:
        flag = getattr(dtype, "is_complex", None)  # torch
        found = bool(flag) if flag is not None else "complex" in str(dtype)
    try:
        _complex_dtypes.keep(dtype, found)
    except TypeError:
        pass
    return found


# The dtypes met, and whether each is complex: a rule on another library's arrays asks several
# times a call.
_complex_dtypes = Bounded(256)


def is_complex(x: Any) -> bool:
    """Whether ``x`` (a number or an array of any library) holds complex numbers."""
    cls = type(x)
    if cls is float:
        return False
    if cls is np.ndarray:
        return x.dtype.kind == "c"
    dtype = getattr(x, "dtype", None)  # NumPy's scalars and every library's arrays
    if dtype is None:
        return isinstance(x, complex)
    return is_complex_dtype(dtype)


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


def has_tangent(y: Any) -> bool:
    """Whether a primal output carries a tangent: floats, complex numbers and their arrays."""
    dtype = getattr(y, "dtype", None)
    if dtype is None:
        return isinstance(y, float | complex)
    return not isinstance(dtype, np.dtype) or dtype.kind in "fc"


def cast(x: Any, dtype: Any) -> Any:
    """``x`` with ``dtype``, copied only when the dtype changes.

    >>> cast(np.ones(1), np.float32).dtype
    dtype('float32')
    """
    return x if x.dtype == dtype else array_namespace(x).astype(x, dtype)


def value_dtype(x: Any) -> Any:
    """The dtype of an array, of a Python or NumPy number, or of a nested list of numbers.

    >>> value_dtype(1.5), value_dtype(np.ones(1, dtype=np.float32)), value_dtype([[1, 2]])
    (dtype('float64'), dtype('float32'), dtype('int64'))
    """
    if type(x) is float:  # the frequent number, without an array made for it
        return _FLOAT64
    dtype = getattr(x, "dtype", None)
    return np.asarray(x).dtype if dtype is None else dtype


_FLOAT64 = np.dtype(np.float64)
