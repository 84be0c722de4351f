"""Thunks: cotangents computed only when someone asks for them.

A pullback that returns several expensive cotangents may wrap each in a ``Thunk``, so that an
engine which needs only some of them never computes the rest. ``InplaceableThunk`` also knows
how to add its value into an existing accumulator without allocating.

Thunks are optional to consume: ``unthunk`` turns any of them into its value and leaves
everything else alone. When an engine differentiates a pullback (second derivatives), a
deferred computation would escape the engine's tape, so engines enter ``eager_thunks()``:
inside it, ``Thunk(fn)`` evaluates ``fn()`` at once and returns the value itself.

>>> t = Thunk(lambda: 2.0 * 3.0)
>>> unthunk(t)
6.0
>>> with eager_thunks():
...     Thunk(lambda: 1.5)
1.5
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

from .tangents import AbstractZero, Tangent, conj_value

__all__ = [
    "AbstractThunk",
    "InplaceableThunk",
    "Thunk",
    "eager_thunks",
    "thunks_are_eager",
    "unthunk",
]

_EAGER: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "chainrules_eager_thunks", default=False
)


def thunks_are_eager() -> bool:
    """Whether ``Thunk(fn)`` currently evaluates at once (inside ``eager_thunks()``)."""
    return _EAGER.get()


# thunks_are_eager without a Python function's call around it: for the hottest paths.
is_eager = _EAGER.get


@contextlib.contextmanager
def eager_thunks(eager: bool = True) -> Iterator[None]:
    """Within this block, thunks are evaluated as they are made.

    Engines enter it while a pullback is being differentiated, so every operation the
    pullback performs is recorded. The switch is per thread and per asyncio task.
    """
    token = _EAGER.set(eager)
    try:
        yield
    finally:
        _EAGER.reset(token)


class AbstractThunk:
    """Base class of the deferred tangents; ``unthunk()`` gives the value."""

    __slots__ = ()
    __array_ufunc__ = None
    __array_priority__ = 1000

    def unthunk(self) -> Any:
        raise NotImplementedError

    def __add__(self, other: Any) -> Any:
        if isinstance(other, AbstractZero):  # the zeros' identity, as for ``zero + thunk``
            return self
        return self.unthunk() + unthunk(other)

    def __radd__(self, other: Any) -> Any:
        return unthunk(other) + self.unthunk()

    def __sub__(self, other: Any) -> Any:
        if isinstance(other, AbstractZero):
            return self
        return self.unthunk() - unthunk(other)

    def __rsub__(self, other: Any) -> Any:
        return unthunk(other) - self.unthunk()

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, AbstractZero):  # absorbed: no need to compute the value
            return other
        return self.unthunk() * unthunk(other)

    def __rmul__(self, other: Any) -> Any:
        return unthunk(other) * self.unthunk()

    def __truediv__(self, other: Any) -> Any:
        return self.unthunk() / unthunk(other)

    def __matmul__(self, other: Any) -> Any:
        if isinstance(other, AbstractZero):
            return other
        return self.unthunk() @ unthunk(other)

    def __rmatmul__(self, other: Any) -> Any:
        return unthunk(other) @ self.unthunk()

    def __neg__(self) -> Any:
        return -self.unthunk()

    def conj(self) -> Any:
        return conj_value(self.unthunk())


class Thunk(AbstractThunk):
    """A tangent computed by ``fn()`` when it is unthunked; evaluated again at each unthunk.

    >>> Thunk(lambda: 1.0) + 2.0
    3.0
    """

    __slots__ = ("fn",)
    fn: Callable[[], Any]

    def __new__(cls, fn: Callable[[], Any]) -> Any:
        if _EAGER.get():
            return fn()
        self = object.__new__(cls)
        self.fn = fn
        return self

    def unthunk(self) -> Any:
        return self.fn()

    def __repr__(self) -> str:
        return f"Thunk({getattr(self.fn, '__qualname__', self.fn)!r})"


class InplaceableThunk(AbstractThunk):
    """A thunk that can also add its value into an accumulator in place.

    ``add_fn(acc)`` adds the value into ``acc`` (mutating it) and returns ``acc``; ``thunk``
    gives the value on its own. ``add_(acc, t)`` uses ``add_fn`` when ``acc`` can be written.

    >>> import numpy as np
    >>> acc = np.zeros(2)
    >>> t = InplaceableThunk(lambda a: np.add(a, 1.0, out=a), Thunk(lambda: np.ones(2)))
    >>> t.add_into(acc) is acc, acc
    (True, array([1., 1.]))
    """

    __slots__ = ("add_fn", "thunk")
    add_fn: Callable[[Any], Any]
    thunk: Any

    def __new__(cls, add_fn: Callable[[Any], Any], thunk: Any) -> Any:
        if _EAGER.get():
            return unthunk(thunk)
        self = object.__new__(cls)
        self.add_fn = add_fn
        self.thunk = thunk
        return self

    def unthunk(self) -> Any:
        return unthunk(self.thunk)

    def add_into(self, acc: Any) -> Any:
        return self.add_fn(acc)

    def __repr__(self) -> str:
        return f"InplaceableThunk({self.thunk!r})"


def unthunk(x: Any) -> Any:
    """The value of a thunk; anything else is returned as it is.

    Structural tangents are unthunked field by field (one level deep, as fields are
    unthunked again when they are read).

    >>> unthunk(3.0)
    3.0
    """
    if isinstance(x, AbstractThunk):
        return x.unthunk()
    if isinstance(x, Tangent) and any(isinstance(v, AbstractThunk) for v in x):
        return x.map(unthunk)
    return x
