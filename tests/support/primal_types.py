"""The user-defined primal types the core's tests share: one of each way to hold named fields.

``Point`` is a namedtuple of ``x`` and ``y``; the others hold ``a`` and ``b``: a dataclass, a
frozen dataclass, a plain class with a ``__dict__`` and one with ``__slots__``.

>>> Mutable(1.0, 2) == Mutable(1.0, 2), Point(1.0, 2.0).y
(True, 2.0)
"""

import dataclasses
from collections import namedtuple

Point = namedtuple("Point", "x y")


@dataclasses.dataclass
class Mutable:
    a: float
    b: float


@dataclasses.dataclass(frozen=True)
class Frozen:
    a: float
    b: float


class WithDict:
    def __init__(self, a, b):
        self.a, self.b = a, b


class WithSlots:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b
