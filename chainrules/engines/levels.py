"""Levels: what keeps nested differentiations apart.

Every differentiation (one ``grad``, ``vjp`` or ``jvp`` call) opens a new ``Level`` with an order
higher than every level opened before it. A tracked value belongs to one level and wraps a
value that may itself be tracked at an outer (lower) level. An operation on tracked values is
handled by the highest level among its arguments: the values of that level are unwrapped and
the rule is called with them, while values of outer levels stay wrapped, so that what the rule
computes (and, later, what its pullback computes) is recorded by the outer levels in turn.
This is what keeps ``d/dx [x * d/dy (x + y)]`` equal to 1: inside the inner differentiation,
``x`` is a constant.

A level is *open* while its function runs. A tracked value used after its level has closed
(stored in a global, returned inside an object) raises ``EscapedValueError``. Which levels are
open is context-local (a ``ContextVar``), as the thunk mode is: a differentiation running in one
thread or asyncio task is not seen from another.

>>> outer, inner = Level("outer"), Level("inner")
>>> outer.order < inner.order
True
"""

from __future__ import annotations

import contextvars
import itertools
from typing import Any

from .tripwires import EscapedValueError

__all__ = ["Level", "open_levels"]

_orders = itertools.count(1)
_open: contextvars.ContextVar[tuple[Level, ...]] = contextvars.ContextVar(
    "chainrules_open_levels", default=()
)


def open_levels() -> int:
    """How many differentiations are running right now in this context (nested inside one
    another)."""
    return len(_open.get())


class Level:
    """One differentiation: its order among all levels, and whether it is still running."""

    __slots__ = ("closed", "kind", "order", "tracing")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.order = next(_orders)
        self.closed = False
        # Functions whose Python implementation this level is tracing into right now: a call
        # back into one of them (NumPy's implementations call the array's own methods) is
        # not traced again.
        self.tracing: set[Any] = set()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<{self.kind} level {self.order}, {state}>"

    def __enter__(self) -> Level:
        _open.set((*_open.get(), self))
        return self

    def __exit__(self, *exc: Any) -> None:
        _open.set(tuple(level for level in _open.get() if level is not self))
        self.closed = True

    def escaped(self) -> EscapedValueError:
        return EscapedValueError(
            f"a value tracked by the {self.kind} differentiation of level {self.order} was used "
            f"after that differentiation finished (kept in a global, an attribute, or a "
            f"closure). Return it from the differentiated function instead."
        )

    def apply(self, f: Any, args: tuple, kwargs: dict) -> Any:
        """``f(*args, **kwargs)`` with this level's values unwrapped; recorded by the level."""
        raise NotImplementedError
