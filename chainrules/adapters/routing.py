"""Ordinary code reaching the rule table: a call routed by the types of its arguments.

``routed(f)`` is a function that computes ``f`` and differentiates with ``f``'s rules in
whatever engine its arguments belong to:

* NumPy arrays, NumPy scalars, Python numbers, strings and ``None``: ``f`` itself, at the cost
  of one Python call and a type test per argument;
* values of the reference engines (``chainrules.engines``): the engine's dispatch, which uses
  ``f``'s rules (the handler the engines register with ``chainrules.core.calls``);
* ``torch.Tensor``: ``chainrules.adapters.torch.wrap(f)``;
* JAX arrays and tracers: ``chainrules.adapters.jax.wrap(f)``;
* autograd's boxes: ``chainrules.adapters.autograd.wrap(f)``.

Lists and tuples among the arguments are looked into, so ``f([x, y])`` routes on ``x`` and
``y``. A value of any other type is given to ``f`` as it is, as SciPy would be. Which route a
type takes is decided once per type; an adapter is imported when a value of its library first
arrives, never before, and each adapter's wrapper of ``f`` is built once.

``with_rules(f)`` is ``routed(f)`` with ``f``'s name, signature and docstring, and stands in
for ``f`` in the rule table (``chainrules.core.registry.register_alias``): rules registered for
it before or after are ``f``'s. The functions of ``chainrules.scipy.special`` and
``chainrules.scipy.linalg`` are built the same way.

>>> import numpy as np
>>> import chainrules as cr
>>> from chainrules.engines import reverse
>>> @cr.with_rules
... def softplus(x):
...     return np.log1p(np.exp(x))
>>> @cr.rrule.register(softplus)
... def _(x):
...     return np.logaddexp(0.0, x), lambda dy: (cr.NoTangent(), dy / (1.0 + np.exp(-x)))
>>> float(softplus(0.0))  # plain values: the function itself
0.6931...
>>> float(reverse.grad(lambda x: 2.0 * softplus(x))(800.0))  # the rule, far from overflow
2.0
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.calls import call_handler
from ..core.registry import register_alias

__all__ = ["routed", "with_rules"]

Route = Callable[[Any, tuple, dict], Any]  # (f, args, kwargs) -> f's result

# Types that go straight to f: NumPy's arrays and scalars and the plain Python values.
_PLAIN = frozenset(
    {float, int, bool, complex, str, bytes, type(None), type(Ellipsis), slice, np.ndarray}
    | set(np.sctypeDict.values())
)

_routes: dict[type, Route | None] = {}  # every type seen, with its route or None
_wrapped: dict[tuple[str, Any], Callable] = {}  # (adapter, f) -> the adapter's wrapper of f
_lock = threading.Lock()


def routed(f: Callable, rules_of: Any = None, module: str = "numpy") -> Callable:
    """``f`` for plain values, ``rules_of``'s rules (by default ``f``'s) for every engine's.

    The result stands in for ``rules_of`` in the rule table, and carries ``f``'s name,
    signature and docstring (``functools.update_wrapper``); a ufunc, which names no module,
    is given ``module``.
    """
    key = f if rules_of is None else rules_of
    ufunc = isinstance(f, np.ufunc)
    routed_f = _FIXED.get(f.nin if ufunc else 1, _one)(f, key)  # type: ignore[attr-defined]
    functools.update_wrapper(routed_f, f)
    if ufunc:  # a ufunc has no module or qualified name of its own to give
        routed_f.__qualname__ = f.__name__
        routed_f.__module__ = module
    register_alias(routed_f, key)
    return routed_f


# The test of the plain path is most of the routing's cost: named parameters test each
# argument without building and looping over a tuple (about 40% less), for ufuncs of one to
# three inputs and for the first argument of any other function. A parameter not given holds
# ``_MISSING``, which is not plain; every other call takes ``_route``.
class _Missing:
    __slots__ = ()


_MISSING = _Missing()


def _one(f: Callable, key: Any) -> Callable:
    plain = _PLAIN

    def routed_f(x1: Any = _MISSING, /, *args: Any, **kwargs: Any) -> Any:
        if type(x1) in plain and not args and not kwargs:
            return f(x1)
        return _route(key, f, _given(x1, *args), kwargs)

    return routed_f


def _two(f: Callable, key: Any) -> Callable:
    plain = _PLAIN

    def routed_f(x1: Any = _MISSING, x2: Any = _MISSING, /, *args: Any, **kwargs: Any) -> Any:
        if type(x1) in plain and type(x2) in plain and not args and not kwargs:
            return f(x1, x2)
        return _route(key, f, _given(x1, x2, *args), kwargs)

    return routed_f


def _three(f: Callable, key: Any) -> Callable:
    plain = _PLAIN

    def routed_f(
        x1: Any = _MISSING, x2: Any = _MISSING, x3: Any = _MISSING, /, *args: Any, **kwargs: Any
    ) -> Any:
        if type(x1) in plain and type(x2) in plain and type(x3) in plain and not (args or kwargs):
            return f(x1, x2, x3)
        return _route(key, f, _given(x1, x2, x3, *args), kwargs)

    return routed_f


_FIXED = {1: _one, 2: _two, 3: _three}


def _given(*args: Any) -> tuple:
    """The arguments given: those before the first parameter left out."""
    for i, a in enumerate(args):
        if a is _MISSING:
            return args[:i]
    return args


def with_rules(f: Callable) -> Callable:
    """``f`` on plain values; ``f``'s registered rules from every engine and adapter.

    Usable as a decorator above ``def f``, with the rules registered afterwards for the
    decorated name: they are ``f``'s rules. Inside the reference engines, torch, JAX and
    autograd, a call of the result uses them wherever it happens, so a numerically careful
    rule is not bypassed by differentiating ``f``'s implementation.
    """
    if not callable(f):
        raise TypeError(f"with_rules: {f!r} is not callable")
    return routed(f)


def _route(key: Any, f: Callable, args: tuple, kwargs: dict) -> Any:
    """The call of a function with some argument that is not plain: its engine applies it."""
    route = _find(args) or (_find(kwargs.values()) if kwargs else None)
    if route is None:
        return f(*args, **kwargs)
    return route(key, args, kwargs)


def _find(values: Any) -> Route | None:
    for v in values:
        cls = type(v)
        if cls in _PLAIN:
            continue
        if cls is list or cls is tuple:
            found = _find(v)
        else:
            try:
                found = _routes[cls]
            except KeyError:
                found = _routes.setdefault(cls, _route_of(v))
        if found is not None:
            return found
    return None


def _route_of(v: Any) -> Route | None:
    """How calls with an argument like ``v`` are applied, or ``None`` for ``f`` itself."""
    engine = call_handler(v)
    if engine is not None:
        return engine
    library = type(v).__module__.partition(".")[0]
    adapter = _ADAPTERS.get(library)
    if adapter is None or not adapter.belongs(v):
        return None
    return adapter.apply


class _Adapter:
    """The adapter of one library: which values are its own, and ``f`` applied through it."""

    def __init__(self, name: str, belongs: Callable[[Any], bool]) -> None:
        self.name = name
        self.belongs = belongs

    def apply(self, f: Any, args: tuple, kwargs: dict) -> Any:
        key = (self.name, f)
        wrapper = _wrapped.get(key)
        if wrapper is None:
            module = importlib.import_module(f"chainrules.adapters.{self.name}")
            with _lock:
                wrapper = _wrapped.setdefault(key, module.wrap(f))
        return wrapper(*args, **kwargs)


def _is_tensor(v: Any) -> bool:
    import torch

    return isinstance(v, torch.Tensor)


def _is_jax(v: Any) -> bool:
    import jax

    return isinstance(v, jax.Array)


def _is_box(v: Any) -> bool:
    from autograd.tracer import Box

    return isinstance(v, Box)


_ADAPTERS = {
    "torch": _Adapter("torch", _is_tensor),
    "jax": _Adapter("jax", _is_jax),
    "jaxlib": _Adapter("jax", _is_jax),
    "autograd": _Adapter("autograd", _is_box),
}
