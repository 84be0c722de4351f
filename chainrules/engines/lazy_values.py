"""Dask arrays in the engines: tracked like NumPy arrays, never computed by a rule.

Arguments and values may be dask arrays. A rule given one computes through dask's array
namespace, so values, cotangents and tangents are lazy dask arrays with the primal's chunks,
computed when the user asks, on whatever scheduler the user runs (a ``dask.distributed``
cluster included); a reduction over chunks differentiates into a broadcast over the same
chunks, and a gradient that sums over chunks is dask's tree reduction.

While an engine traces a function (``vjp``, ``jvp``, and a pullback's backward pass), a
computation asked for by a rule raises ``LazyArrayError`` naming the function whose rule (or
whose implementation, traced into) asked; a computation in the user's own code runs as usual.
The engine's frames on the stack say which function was being applied.

>>> import numpy as np
>>> lazy_zeros_like(np.ones(2)) is None
True
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager
from typing import Any

import numpy as np

from ..core.lazy import computation_refused, is_lazy
from ..core.names import function_name
from ..core.namespace import array_namespace

__all__ = [
    "is_lazy_float",
    "lazy_zeros_like",
    "rules_refuse_computation",
    "with_dask_counterpart",
]


def is_lazy_float(y: Any) -> bool:
    """Whether ``y`` is a dask array of floats or complex numbers (a value to track)."""
    return is_lazy(y) and y.dtype.kind in "fc"


def lazy_zeros_like(x: Any) -> Any:
    """A lazy zero with ``x``'s shape, dtype and chunks for a dask ``x``; ``None`` otherwise."""
    return np.zeros_like(x) if is_lazy(x) else None


_frames: dict[Any, str] = {}  # code object of an engine's frame -> the local naming the function


def _engine_frames() -> dict[Any, str]:
    if not _frames:
        from .forward import ForwardLevel
        from .tape import ReverseLevel, _sweep

        _frames[ReverseLevel.apply.__code__] = "f"
        _frames[ForwardLevel.apply.__code__] = "f"
        _frames[_sweep.__code__] = "tape"
    return _frames


def _culprit() -> str | None:
    """The function the innermost engine frame on the stack was applying, or ``None``."""
    frames = _engine_frames()
    frame = sys._getframe(1)
    while frame is not None:
        name = frames.get(frame.f_code)
        if name == "f":
            return f"the rule for {function_name(frame.f_locals['f'])}"
        if name == "tape":  # the backward sweep, at call ``index`` of the tape
            index = frame.f_locals.get("index")
            f = None if index is None else frame.f_locals["tape"].functions[index]
            return f"the pullback of {function_name(f)}"
        frame = frame.f_back  # type: ignore[assignment]
    return None


def rules_refuse_computation() -> AbstractContextManager[None]:
    """Within the block, a dask computation asked for by a rule raises ``LazyArrayError``."""
    return computation_refused(_culprit)


def with_dask_counterpart(name: str, f: Any) -> Any:
    """NumPy's function ``f`` for the tracked values' namespace, sending a call that has dask
    arrays and no tracked value to dask's function of the same name, which runs lazily where
    NumPy's would make dask compute (``np.matrix_transpose`` on a dask array, in a rule run on
    an outer differentiation's values beside a constant dask array)."""

    from .tracked import Tracked  # asked once per name, once both modules are loaded

    def namespace_function(*args: Any, **kwargs: Any) -> Any:
        if any(map(is_lazy, args)) and not any(isinstance(a, Tracked) for a in args):
            counterpart = getattr(array_namespace(*args), name, None)
            if counterpart is not None:
                return counterpart(*args, **kwargs)
        return f(*args, **kwargs)

    namespace_function.__name__ = namespace_function.__qualname__ = name
    namespace_function.__wrapped__ = f  # type: ignore[attr-defined]
    return namespace_function
