"""How an elementwise rule computes its function: the primal, on the values it is given.

On Python numbers and NumPy arrays a ufunc is called directly (``direct_and_apply``); other
arrays go through ``primal_of``, which reaches a tracked value's engine, a dask array, or the
namesake of the ufunc in an array namespace (PyTorch, JAX); ``plain`` tells the two apart
(``projection.plain_projectors`` does too, with the projectors rules need). Two real floats are
added, subtracted, multiplied and divided by NumPy's scalar arithmetic (``SCALAR_OPERATORS``),
which gives the ufunc's number without its dispatch.

>>> import numpy as np
>>> plain((1.0, np.ones(2))), plain((np.ones(2, dtype=object),))
(True, False)
>>> SCALAR_OPERATORS[np.multiply](1.5, 2.0)
np.float64(3.0)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from .calls import call
from .dtypes import is_complex
from .errors import ArrayTypeError
from .lazy import is_lazy, per_chunk
from .names import function_name
from .namespace import array_namespace, numpy_dispatches

__all__ = [
    "FLOAT64",
    "FLOAT64_OPERATORS",
    "REAL_0D",
    "REAL_ARRAY",
    "REAL_SCALARS",
    "SCALAR_OPERATORS",
    "TAKEN",
    "direct_and_apply",
    "has_complex",
    "plain",
    "primal_of",
]


def primal_of(f: Any) -> Callable:
    """How a rule computes ``f``: directly for a ufunc on the values NumPy's ufuncs take or
    hand on (NumPy's, Python's, and every type with ``__array_ufunc__``: an engine's tracked
    values, dask arrays), else through ``call``, so that an engine's tracked values (a pullback
    differentiated again) reach ``math.exp`` or a compiled kernel as ``f``'s rule.

    A ufunc given arrays that NumPy cannot dispatch (torch tensors, JAX arrays) computes with
    its namesake in their array namespace; one that has none there (SciPy's ufuncs) raises
    ``ArrayTypeError`` naming ``f``, so that adapters run the rule on NumPy copies.
    """
    if not isinstance(f, np.ufunc):
        return functools.partial(call, f)
    names = (f.__name__, _ARRAY_API_NAMES.get(f.__name__, f.__name__))
    own = getattr(np, f.__name__, None) is f  # SciPy's ufuncs have no namesake elsewhere
    several = f.nout > 1  # dask applies these to no array: chunk by chunk, exactly

    namesakes: dict[Any, Any] = {}  # namespace -> f's namesake there, or None

    def ufunc_or_namesake(*args: Any, **kwargs: Any) -> Any:
        if all(map(numpy_dispatches, args)):
            if several and any(map(is_lazy, args)):
                return per_chunk(f, args, kwargs)
            return f(*args, **kwargs)
        xp = array_namespace(*args)
        try:
            namesake = namesakes[xp]
        except KeyError:
            found = (getattr(xp, n) for n in names if hasattr(xp, n))
            namesake = namesakes[xp] = next(found, None) if own else None
        if namesake is None:
            kinds = sorted({type(a).__name__ for a in args if not numpy_dispatches(a)})
            raise ArrayTypeError(
                f"{function_name(f)} is a NumPy ufunc with no counterpart in the namespace "
                f"of {', '.join(kinds)}"
            )
        # A NumPy constant beside them (ldexp's integer exponents) as an array of theirs.
        if any(isinstance(a, np.ndarray) for a in args):
            args = tuple(xp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)
        return namesake(*args, **kwargs)

    return ufunc_or_namesake


def direct_and_apply(f: Any) -> tuple[Callable, Callable]:
    """``f`` itself for plain values (floats, NumPy arrays: no detour), and ``primal_of(f)``."""
    apply = primal_of(f)
    return (f if isinstance(f, np.ufunc) else apply), apply


# Values a ufunc computes on directly, tested by type on the rules' hot path.
TAKEN = frozenset({float, int, complex, np.ndarray, np.float64, np.float32})


def plain(args: tuple) -> bool:
    """Whether every argument is a value the ufunc takes directly and the rules follow: a
    Python number, a NumPy float scalar, or a NumPy array that does not hold objects."""
    for a in args:
        cls = type(a)
        if cls not in TAKEN or (cls is np.ndarray and a.dtype.kind == "O"):
            return False
    return True


def has_complex(values: Any) -> bool:
    """Whether any of ``values`` (or ``values`` itself, when not a tuple) is complex."""
    if type(values) is not tuple:
        values = (values,)
    for v in values:
        cls = type(v)
        if cls is float or cls is int or cls is np.float64:
            continue
        if cls is np.ndarray:
            if v.dtype.kind == "c":
                return True
        elif is_complex(v):
            return True
    return False


# NumPy's names of ufuncs whose array-API names differ.
_ARRAY_API_NAMES = {
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "arctan2": "atan2",
    "power": "pow",
    "absolute": "abs",
    "conjugate": "conj",
    "true_divide": "divide",
}


REAL_SCALARS = frozenset({float, int, np.float64})
FLOAT64 = np.dtype(np.float64)


class REAL_0D:
    """Stands for the type of a 0-d float64 NumPy array where rules key a path for real
    scalars by their arguments' types (never made)."""


class REAL_ARRAY:
    """Stands for the type of a float64 NumPy array where rules key a path for real arrays by
    their arguments' types (never made)."""


def _scalar_operator(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``op`` on NumPy's float64 scalars: what the ufunc computes of two Python or NumPy
    floats, the same number (and the same warnings) without the ufunc's dispatch, which costs
    more than the arithmetic (a ufunc's 0.7 us against 0.05 us)."""

    def on_float64(x1: Any, x2: Any) -> Any:
        return op(np.float64(x1), x2)

    return on_float64


# The ufuncs whose real scalar cases are NumPy's scalar arithmetic: the operators themselves
# where the first operand is NumPy's float64 already, and made one first otherwise.
FLOAT64_OPERATORS = {
    np.add: operator.add,
    np.subtract: operator.sub,
    np.multiply: operator.mul,
    np.true_divide: operator.truediv,
}
SCALAR_OPERATORS = {f: _scalar_operator(op) for f, op in FLOAT64_OPERATORS.items()}
