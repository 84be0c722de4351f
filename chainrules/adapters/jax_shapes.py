"""The shapes and dtypes of a host function's result, which ``jax.pure_callback`` needs first.

A function run on the host has no shape rule JAX can trace, so ``result_shape`` finds its
result's shape by broadcasting (plain ufuncs) or by one evaluation on stand-in values of the
operands' shapes, and ``canonical`` gives it the dtypes JAX would. A result whose shape
depends on the operands' values (the number of ``mathieu_even_coef``'s coefficients) cannot be
found so: ``wrap(f, result_shape=...)`` gives it instead.

>>> import pytest
>>> jax = pytest.importorskip("jax")
>>> import math
>>> result_shape(math.acos, {}, jax.numpy.asarray(0.3)).shape  # a stand-in inside [-1, 1]
()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["canonical", "host_value", "result_shape"]


def _is_jax(a: Any) -> bool:
    import jax

    return isinstance(a, jax.Array)


def host_value(operand: Any) -> Any:
    """An operand as NumPy gets it: an array, or a NumPy scalar where it has no dimensions
    (a JAX scalar is a 0-d array, and SciPy's functions of scalars only refuse those)."""
    value = np.asarray(operand)
    return value[()] if value.ndim == 0 else value


def canonical(shapes: Any, operands: tuple, given: Callable | None) -> Any:
    """The result's shapes with the dtypes JAX would give: its own for 64-bit types when x64
    is off, and (when the shapes were not ``given``) the precision of the float operands, as
    ``jax.numpy`` keeps float16 and float32 where NumPy and SciPy may compute in more."""
    import jax

    if isinstance(shapes, tuple | list):
        return tuple(canonical(s, operands, given) for s in shapes)
    dtype = np.dtype(shapes.dtype)
    # The operands themselves, not their dtypes: a Python float's weak type does not promote.
    inexact = [o for o in operands if np.dtype(o.dtype).kind in "fc"]
    if given is None and dtype.kind in "fc" and inexact:
        import jax.numpy as jnp

        real = np.dtype(jnp.finfo(jnp.result_type(*inexact)).dtype)
        dtype = real if dtype.kind == "f" else np.result_type(real, np.complex64)
    return jax.ShapeDtypeStruct(shapes.shape, jax.dtypes.canonicalize_dtype(dtype))


def result_shape(f: Callable, kwargs: dict, *args: Any) -> Any:
    """The shape and dtype of ``f(*args)``, without computing it on the real values."""
    import jax

    if isinstance(f, np.ufunc) and f.nout == 1 and f.signature is None and not kwargs:
        arrays = [a if _is_jax(a) else np.asarray(a) for a in args]
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
        dtype = f(*(np.zeros((), np.dtype(a.dtype)) for a in arrays)).dtype
        return jax.ShapeDtypeStruct(shape, dtype)
    y = _on_stand_ins(f, kwargs, args)
    if isinstance(y, tuple | list):
        return tuple(jax.ShapeDtypeStruct(np.shape(v), np.asarray(v).dtype) for v in y)
    y = np.asarray(y)
    return jax.ShapeDtypeStruct(y.shape, y.dtype)


# The values that vectors and scalars stand in with, tried in turn until ``f`` takes them:
# inside [-1, 1] (``math.acos``, quantiles), then beyond 1 (``multigammaln``'s a > (d - 1)/2),
# then growing with the argument's position (SciPy 1.16's ``ellip_normal`` wants h2 < k2).
_STAND_IN_VALUES = ((0.5, 0.0), (2.0, 0.0), (0.5, 0.5))


def _on_stand_ins(f: Callable, kwargs: dict, args: tuple) -> Any:
    """``f`` on stand-ins for its JAX arrays (``_stand_in``), the first that its domain takes
    (SciPy, NumPy and ``math`` say a value is outside with ``ValueError``)."""

    def stand_ins(value: float, step: float) -> tuple:
        return tuple(
            _stand_in(a, value + step * i) if _is_jax(a) else a for i, a in enumerate(args)
        )

    *first, last = _STAND_IN_VALUES
    for value, step in first:
        try:
            return f(*stand_ins(value, step), **kwargs)
        except (ValueError, TypeError):  # SciPy 1.16's multigammaln formats its error wrongly
            continue
    return f(*stand_ins(*last), **kwargs)


def _stand_in(a: Any, value: float) -> Any:
    """A harmless array of ``a``'s shape and dtype for finding a result's shape.

    Matrices are half a (rectangular) identity: of full rank, since ranks decide the shapes
    of ``orth``, ``null_space`` and ``lstsq``; positive definite where square; of spectral
    radius below one (``solve_discrete_lyapunov``). Vectors and scalars hold ``value``; a
    scalar is a NumPy scalar (see ``host_value``).
    """
    shape, dtype = tuple(a.shape), np.dtype(a.dtype)
    if len(shape) >= 2:
        eye = 0.5 * np.eye(shape[-2], shape[-1], dtype=dtype)
        return np.broadcast_to(eye, shape).copy()
    return host_value(np.full(shape, value, dtype))
