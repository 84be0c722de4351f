"""The frules ``scalar_rule`` builds from partial derivatives, for elementwise functions.

The output's tangent is the sum of the partials times the arguments' tangents (the partials 1
and -1 add or subtract the tangent with no product), broadcast to the output's shape and
projected onto its space.

>>> import numpy as np
>>> rule = elementwise_frule(np.multiply, ((lambda x1, x2, y: x2, lambda x1, x2, y: x1),), False, 2)
>>> rule((None, np.ones(2), 0.5), np.array([1.0, 2.0]), 3.0)
(array([3., 6.]), array([3.5, 4. ]))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .dtypes import has_tangent, is_complex
from .errors import TangentTypeError
from .lazy import lazily
from .names import function_name
from .namespace import array_namespace
from .partials import Partial, unit_sign
from .primals import direct_and_apply, plain
from .projection import ProjectTo
from .protocol import check_arguments, check_tangents
from .tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from .thunks import unthunk

__all__ = ["elementwise_frule", "fit_to_output"]


def elementwise_frule(
    f: Any, rows: tuple[tuple[Partial, ...], ...], multi: bool, arity: int
) -> Callable:
    direct, apply = direct_and_apply(f)

    def scalar_frule(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        if len(tangents) != arity + 1:
            raise TangentTypeError(
                f"frule for {function_name(f)}: expected {arity + 1} tangents (df, dx1, ...), "
                f"got {len(tangents)}"
            )
        if check_arguments(f, args):  # dask arrays: a failure names f
            return lazily(f, frule_eagerly, (tangents, *args), kwargs, "frule")
        return frule_eagerly(tangents, *args, **kwargs)

    def frule_eagerly(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        check_tangents(f, tangents, args)
        y = (direct if plain(args) else apply)(*args, **kwargs)
        outputs = y if multi else (y,)
        dys = []
        for r, y_r in zip(rows, outputs, strict=True):
            if not has_tangent(y_r):
                dys.append(NO_TANGENT)
                continue
            total: Any = ZERO_TANGENT
            for partial, dx in zip(r, tangents[1:], strict=True):
                dx = unthunk(dx)
                if partial is None or isinstance(dx, AbstractZero) or dx is None:
                    continue
                sign = unit_sign(partial)
                if sign and not is_complex(dx):
                    total = total + (dx if sign > 0 else -dx)
                else:
                    total = total + partial(*args, y) * dx
            dys.append(fit_to_output(total, y_r))
        return y, (Tangent(tuple, *dys) if multi else dys[0])

    return scalar_frule


def fit_to_output(dy: Any, y: Any) -> Any:
    """The frule's output tangent, broadcast to ``y``'s shape and projected onto its space."""
    if isinstance(dy, AbstractZero):
        return dy
    shape = getattr(y, "shape", ())
    if getattr(dy, "shape", ()) != shape:
        xp = array_namespace(dy, y)
        dy = xp.asarray(xp.broadcast_to(xp.asarray(dy), shape), copy=True)
    return ProjectTo(y)(dy)
