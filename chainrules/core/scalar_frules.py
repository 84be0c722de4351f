"""The frules ``scalar_rule`` builds from partial derivatives, for elementwise functions.

The output's tangent is the sum of the partials times the arguments' tangents (the partials 1
and -1 add or subtract the tangent with no product), broadcast to the output's shape and
projected onto its space. Real arguments (Python and NumPy floats, ints, float64 arrays) with
real tangents of their kinds, or zeros, the calls of a forward-mode engine on real code, take a
way of their own that checks them once (``_real``) and projects the sum only when it does not
already fit the output.

>>> import numpy as np
>>> rule = elementwise_frule(np.multiply, ((lambda x1, x2, y: x2, lambda x1, x2, y: x1),), False, 2)
>>> rule((None, np.ones(2), 0.5), np.array([1.0, 2.0]), 3.0)
(array([3., 6.]), array([3.5, 4. ]))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .dtypes import has_tangent, is_complex
from .errors import TangentTypeError
from .lazy import lazily
from .names import function_name
from .namespace import array_namespace
from .partials import Partial, unit_sign
from .primals import FLOAT64, direct_and_apply, plain
from .projection import ProjectTo
from .protocol import check_arguments, check_tangents
from .tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NoTangent, Tangent, ZeroTangent
from .thunks import unthunk

__all__ = ["elementwise_frule", "fit_to_output"]


def elementwise_frule(
    f: Any, rows: tuple[tuple[Partial, ...], ...], multi: bool, arity: int
) -> Callable:
    direct, apply = direct_and_apply(f)
    row, signs = rows[0], tuple(map(unit_sign, rows[0]))

    def scalar_frule(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        if len(tangents) != arity + 1:
            raise TangentTypeError(
                f"frule for {function_name(f)}: expected {arity + 1} tangents (df, dx1, ...), "
                f"got {len(tangents)}"
            )
        if not multi and not kwargs and _real(args, tangents):
            y = direct(*args)
            cls = type(y)
            if cls is float or cls is np.float64 or (cls is np.ndarray and y.dtype is FLOAT64):
                return y, real_tangent(tangents, args, y)
            return y, _fitted_tangent(row, tangents, args, y, y)
        if check_arguments(f, args):  # dask arrays: a failure names f
            return lazily(f, frule_eagerly, (tangents, *args), kwargs, "frule")
        return frule_eagerly(tangents, *args, **kwargs)

    def frule_eagerly(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        check_tangents(f, tangents, args)
        y = (direct if plain(args) else apply)(*args, **kwargs)
        outputs = y if multi else (y,)
        dys = [
            _fitted_tangent(r, tangents, args, y, y_r) for r, y_r in zip(rows, outputs, strict=True)
        ]
        return y, (Tangent(tuple, *dys) if multi else dys[0])

    def real_tangent(tangents: tuple, args: tuple, y: Any) -> Any:
        """``_output_tangent`` for real arguments and tangents (``_real``) and a real ``y``: the
        sum as it is where it fits ``y``, with no projector's call."""
        total: Any = None
        for partial, sign, dx in zip(row, signs, tangents[1:]):  # noqa: B905 (as long, checked)
            if partial is None or dx is None or type(dx) in _ZEROS:
                continue
            term = (dx if sign > 0 else -dx) if sign else partial(*args, y) * dx
            total = term if total is None else total + term
        if total is None:
            return ZERO_TANGENT
        cls = type(total)
        if cls is type(y) and (
            cls is not np.ndarray or (total.dtype is FLOAT64 and total.shape == y.shape)
        ):
            return total  # a float for a float, a float64 array of y's shape for y
        return fit_to_output(total, y)

    return scalar_frule


def _fitted_tangent(
    row: tuple[Partial, ...], tangents: tuple, args: tuple, y: Any, y_r: Any
) -> Any:
    """The tangent of output ``y_r`` of ``y`` (``y`` itself for one output), fitted to it;
    ``NoTangent()`` for an output without one."""
    if not has_tangent(y_r):
        return NO_TANGENT
    return fit_to_output(_output_tangent(row, tangents, args, y), y_r)


def _output_tangent(row: tuple[Partial, ...], tangents: tuple, args: tuple, y: Any) -> Any:
    """The sum over the arguments of ``partial * tangent`` for one output ``y``; ``+-tangent``
    for the partials 1 and -1 of a real tangent; ``ZeroTangent()`` when no term remains."""
    total: Any = ZERO_TANGENT
    for partial, dx in zip(row, tangents[1:], strict=True):
        dx = unthunk(dx)
        if partial is None or isinstance(dx, AbstractZero) or dx is None:
            continue
        sign = unit_sign(partial)
        if sign and not is_complex(dx):
            total = total + (dx if sign > 0 else -dx)
        else:
            total = total + partial(*args, y) * dx
    return total


# What a tangent of a real scalar argument may be on the real arguments' way (besides zeros).
_REAL_SCALARS = frozenset({float, np.float64})
_ZEROS = frozenset({ZeroTangent, NoTangent})


def _real(args: tuple, tangents: tuple) -> bool:
    """Whether every argument is a Python or NumPy float, an int, or a float64 NumPy array, and
    its tangent a zero (``None``, ``ZeroTangent()``, ``NoTangent()``) or, for a float, a Python or
    NumPy float, for an array a float64 array of its shape (an int's tangent must be a zero):
    the arguments whose frule needs no projection of the tangents or check of their shapes."""
    for a, t in zip(args, tangents[1:]):  # noqa: B905 (the rule checked the lengths)
        cls, zero = type(a), t is None or type(t) in _ZEROS
        if cls is float or cls is np.float64:
            if not zero and type(t) not in _REAL_SCALARS:
                return False
        elif cls is np.ndarray and a.dtype is FLOAT64:
            if not zero and (
                type(t) is not np.ndarray or t.dtype is not FLOAT64 or t.shape != a.shape
            ):
                return False
        elif not (cls is int and zero):
            return False
    return True


def fit_to_output(dy: Any, y: Any) -> Any:
    """The frule's output tangent, broadcast to ``y``'s shape and projected onto its space."""
    if isinstance(dy, AbstractZero):
        return dy
    shape = getattr(y, "shape", ())
    if getattr(dy, "shape", ()) != shape:
        xp = array_namespace(dy, y)
        dy = xp.asarray(xp.broadcast_to(xp.asarray(dy), shape), copy=True)
    return ProjectTo(y)(dy)
