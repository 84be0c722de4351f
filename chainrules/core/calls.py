"""``call(f, *args)``: a function with rules, applied through whatever differentiates its arguments.

NumPy hands its own functions to an engine's arrays (``__array_ufunc__``,
``__array_function__``), but a compiled routine of SciPy (``scipy.linalg.expm``,
``solve_sylvester``) or the ``math`` module cannot take them. A rule whose pullback needs such
a routine calls it as ``call(f, *args)``: on plain arrays that is ``f(*args)``; when an
argument belongs to an engine that registered a handler for its type, the handler applies
``f`` the engine's way, which uses ``f``'s own rules. The pullback is then differentiable
again, to any order, as long as each routine it reaches has rules.

An engine registers its array type once with ``register_call_handler(cls, handler)``;
``handler(f, args, kwargs)`` returns ``f``'s result. Subclasses of ``cls`` are handled too.

>>> import math
>>> call(math.exp, 0.0)
1.0
>>> class Traced:
...     def __init__(self, value):
...         self.value = value
>>> register_call_handler(Traced, lambda f, args, kwargs: ("traced", f.__name__))
>>> call(math.exp, Traced(0.0))
('traced', 'exp')
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .lazy import computation_refused, is_lazy
from .names import function_name
from .namespace import require_numpy

__all__ = ["call", "call_handler", "register_call_handler"]

Handler = Callable[[Any, tuple, dict], Any]

_handlers: dict[type, Handler] = {}
_resolved: dict[type, Handler | None] = {}  # every type seen, with its handler or None
_lock = threading.Lock()


def register_call_handler(cls: type, handler: Handler) -> None:
    """Make ``call`` hand functions applied to instances of ``cls`` to ``handler``."""
    with _lock:
        _handlers[cls] = handler
        _resolved.clear()


def call_handler(x: Any) -> Handler | None:
    """The handler registered for ``type(x)`` or one of its bases, or ``None``."""
    cls = type(x)
    try:
        return _resolved[cls]
    except KeyError:
        pass
    found = next((_handlers[base] for base in cls.__mro__ if base in _handlers), None)
    _resolved[cls] = found
    return found


def _find(values: Any) -> Handler | None:
    for v in values:
        handler = call_handler(v)
        if handler is None and (type(v) is tuple or type(v) is list):
            handler = _find(v)
        if handler is not None:
            return handler
    return None


def call(f: Callable, *args: Any, **kwargs: Any) -> Any:
    """``f(*args, **kwargs)``, or the handler's application of ``f`` when an argument (or an
    element of a list or tuple argument, or a keyword value) has a registered type.

    ``f`` is a compiled routine (SciPy's, ``math``'s): given arrays that NumPy's functions do
    not take (torch tensors, JAX arrays), it raises ``ArrayTypeError`` naming ``f`` instead of
    converting them. Given dask arrays, ``f`` runs if it runs lazily (a NumPy function that dask
    implements), and raises ``LazyArrayError`` naming ``f`` where it would compute them."""
    if _handlers:
        handler = _find(args) or (_find(kwargs.values()) if kwargs else None)
        if handler is not None:
            return handler(f, args, kwargs)
    if any(map(is_lazy, args)):
        with computation_refused(lambda: function_name(f)):
            return f(*args, **kwargs)
    require_numpy(f, *args)
    return f(*args, **kwargs)
