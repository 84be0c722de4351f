"""Caches keyed by what a program meets (shapes, dtypes, the types of arguments): bounded,
and started afresh when full.

A program's shapes are few, so a cache of a thousand holds them all; one that makes ever new
shapes (a growing batch, a sequence of lengths) would grow without end. Started afresh when
full, a cache keeps serving the shapes a program uses now, where one that stopped taking new
entries would miss on every call from then on (a projector made again, a tuple of them no
longer shared, on every call of a long-running program).

>>> cache = Bounded(2)
>>> cache.keep("a", 1), cache.keep("b", 2), cache.keep("c", 3)
(1, 2, 3)
>>> dict(cache)
{'c': 3}
"""

from __future__ import annotations

from typing import Any

__all__ = ["Bounded"]


class Bounded(dict):
    """A dictionary read as any (``get`` is the dictionary's own), written with ``keep``."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: Any, value: Any) -> Any:
        """Store ``value`` at ``key`` (emptying the cache first when it is full); ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
