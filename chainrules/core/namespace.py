"""``array_namespace``: the module a rule computes with, chosen by the types of its inputs."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from .._compat import compat_namespace
from .errors import ArrayTypeError
from .lazy import is_lazy
from .names import function_name
from .tangents import AbstractZero, NotImplementedTangent
from .thunks import AbstractThunk

__all__ = [
    "array_namespace",
    "is_compat_array_type",
    "namespace_of",
    "is_numpy",
    "numpy_dispatches",
    "register_array_namespace",
    "require_numpy",
]

# Inputs that leave the choice to the others: NumPy and Python values, and tangent markers.
_NEUTRAL = {
    float,
    int,
    complex,
    bool,
    type(None),
    np.ndarray,
    np.float64,
    np.float32,
    np.float16,
    np.complex128,
    np.complex64,
    np.int64,
    np.int32,
    np.bool_,
}
_NEUTRAL_BASES = (np.ndarray, np.generic, AbstractZero, AbstractThunk, NotImplementedTangent)

_registered: dict[type, Callable[[Any], Any]] = {}
# What array_api_compat answered, by type: its answer depends on the type alone (it asks
# ``isinstance``), and asking costs microseconds, several times in each rule on such arrays.
_compat_namespaces: dict[type, Any] = {}
_lock = threading.Lock()


def register_array_namespace(cls: type, namespace: Callable[[Any], Any]) -> None:
    """Tell ``array_namespace`` which namespace serves arrays of type ``cls``.

    ``namespace`` is called with one such array and returns the module. Adapters use this for
    array types that do not answer ``__array_namespace__`` (autograd's boxes, for example).
    """
    with _lock:
        _registered[cls] = namespace
        _compat_namespaces.clear()  # a registered namespace comes before array_api_compat's


def array_namespace(*arrays: Any) -> Any:
    """The array namespace that rules use to compute with ``arrays``.

    NumPy arrays, NumPy scalars and Python numbers give the ``numpy`` module itself, with no
    further work. Other arrays give their own ``__array_namespace__()``, a namespace registered
    with ``register_array_namespace``, or the array-API-compatible namespace that
    ``array_api_compat`` provides (PyTorch, JAX, dask, CuPy). Mixing two foreign array kinds is
    a ``TypeError``.

    >>> import numpy as np
    >>> array_namespace(np.ones(3), 2.0) is np
    True
    """
    found: Any = None
    for x in arrays:
        cls = type(x)
        if cls in _NEUTRAL or isinstance(x, _NEUTRAL_BASES):
            continue
        xp = _namespace_of(x, cls)
        if xp is None:
            continue
        if found is not None and xp is not found:
            xp = _meeting(found, xp)
        found = xp
    return np if found is None else found


def _meeting(a: Any, b: Any) -> Any:
    """The namespace for arrays of two libraries: one whose arrays hold dask arrays (an
    engine's tracked values, ``takes_dask_arrays``) computes with both; else a ``TypeError``."""
    for holder, held in ((a, b), (b, a)):
        if getattr(holder, "takes_dask_arrays", False) and _is_dask_namespace(held):
            return holder
    raise TypeError(
        f"array_namespace: arrays of two libraries meet ({a.__name__} and {b.__name__}); "
        f"convert one of them first"
    )


def _is_dask_namespace(xp: Any) -> bool:
    return getattr(xp, "__name__", "").startswith(("dask.", "array_api_compat.dask"))


def namespace_of(x: Any) -> Any:
    """``array_namespace(x)`` for one value, answered at once for NumPy's and Python's: for the
    partials and pullbacks that run on every call.

    >>> namespace_of(2.0) is np
    True
    """
    return np if type(x) in _NEUTRAL else array_namespace(x)


def is_compat_array_type(cls: type) -> bool:
    """Whether ``array_namespace`` met arrays of type ``cls`` and found their namespace through
    array_api_compat (PyTorch's, JAX's, dask's, CuPy's arrays): what a cache keyed by such
    arrays' type, shape and dtype may rely on."""
    return cls in _compat_namespaces


def _namespace_of(x: Any, cls: type) -> Any:
    xp = _compat_namespaces.get(cls)
    if xp is not None:
        return xp
    for klass in cls.__mro__:
        factory = _registered.get(klass)
        if factory is not None:
            return factory(x)
    method = getattr(x, "__array_namespace__", None)
    if method is not None:
        return method()
    if not (hasattr(x, "shape") and hasattr(x, "dtype")):
        return None  # a structure or a plain object: no opinion about the namespace
    import array_api_compat

    try:
        xp = compat_namespace(array_api_compat.array_namespace(x))
    except TypeError:
        return None
    _compat_namespaces[cls] = xp
    return xp


def is_numpy(*values: Any) -> bool:
    """Whether every value is a NumPy array or a NumPy or Python number: the values a compiled
    SciPy or NumPy routine takes as they are. A rule calls the routine on these, and computes
    through ``array_namespace`` otherwise.

    >>> is_numpy(np.ones(2), 1.0), is_numpy(np.ones(2), [1.0])
    (True, False)
    """
    for x in values:
        cls = type(x)
        if not (cls is np.ndarray or cls in _NUMBERS or isinstance(x, np.generic)):
            return False
    return True


_NUMBERS = frozenset({float, int, complex, bool})


def numpy_dispatches(x: Any) -> bool:
    """Whether NumPy's functions take ``x``: they compute on it (NumPy values, Python numbers
    and lists), or hand it to its own ``__array_ufunc__`` (an engine's tracked values, dask
    arrays). Torch tensors and JAX arrays are not taken: NumPy would convert them, losing
    their graph or failing on tracers.

    >>> numpy_dispatches(np.ones(2)), numpy_dispatches([1.0]), numpy_dispatches(2)
    (True, True, True)
    """
    cls = type(x)
    known = _DISPATCHED.get(cls)
    if known is None:
        known = getattr(cls, "__array_ufunc__", None) is not None or array_namespace(x) is np
        _DISPATCHED[cls] = known
    return known


def require_numpy(f: Any, *values: Any) -> None:
    """Raise ``ArrayTypeError``, naming ``f`` and the types, unless NumPy's functions take every
    value (``numpy_dispatches``): for a rule that computes ``f`` with a compiled NumPy or SciPy
    routine that has no counterpart in other namespaces (adapters then run the rule on NumPy
    copies; an engine's tracked values pass, as NumPy hands them on). Dask arrays are refused
    too: the routine would compute them whole, pulling them into memory."""
    foreign = sorted({type(x).__name__ for x in values if not numpy_dispatches(x)})
    if foreign:
        raise ArrayTypeError(
            f"{function_name(f)} computes with NumPy or SciPy, which do not take "
            f"{', '.join(foreign)}"
        )
    if any(map(is_lazy, values)):
        raise ArrayTypeError(
            f"{function_name(f)} computes with a compiled NumPy or SciPy routine that has no "
            f"lazy counterpart for dask arrays: it would compute the whole array in memory"
        )


_DISPATCHED: dict[type, bool] = {float: True, int: True, complex: True, np.ndarray: True}
