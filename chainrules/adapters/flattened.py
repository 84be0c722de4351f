"""Arguments nested in tuples and lists, for adapters whose operands are flat arrays.

JAX's operands, a ``torch.autograd.Function``'s tensors and an autograd primitive's boxes are
arguments of their own: ``cho_solve((c, lower), b)`` and ``np.stack([x, y])`` hand them inside a
tuple or a list. ``Flattened(f, args)`` is ``f`` as a function of the elements of its
arguments, tuples and lists opened, which puts them back in their places before calling ``f``
(through ``call``, so that ``f``'s rules apply wherever its elements are traced).

>>> import numpy as np
>>> flat = Flattened(np.add, ((1.0, 2.0), 3.0))
>>> flat.leaves(((1.0, 2.0), 3.0))
(1.0, 2.0, 3.0)
>>> flat(1.0, 2.0, 3.0)
array([4., 5.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.names import function_name
from .host import freeze

__all__ = ["Flattened", "holds", "is_sequence"]


def is_sequence(a: Any) -> bool:
    """A plain tuple or list (not a named tuple): its elements may be operands."""
    return type(a) is tuple or type(a) is list


def holds(value: Any, is_operand: Callable[[Any], bool]) -> bool:
    """Whether ``value`` is a tuple or list holding an operand, at any depth."""
    if not is_sequence(value):
        return False
    return any(is_operand(v) or holds(v, is_operand) for v in value)


class Flattened:
    """``f`` of arguments that hold operands inside tuples or lists (``cho_solve((c, lower),
    b)``), as a function of the flat sequence of their elements.

    The adapter hands the elements to its library one by one and this function puts them back
    in their tuples. It has no rules of its own: on the host, the
    reverse and forward engines trace it, and ``call`` reaches ``f``'s rules, to every order.
    Equal for equal ``f`` and nesting, so that each kind of call is built once.
    """

    def __init__(self, f: Callable, args: tuple) -> None:
        self.f = f
        self.structure = tuple(_structure(a) for a in args)
        self.__name__ = function_name(f)

    def leaves(self, args: tuple) -> tuple:
        """The elements of ``args``, tuples and lists opened, in order."""
        out: list = []

        def walk(value: Any, node: Any) -> None:
            if node is None:
                out.append(value)
                return
            for v, n in zip(value, node[1], strict=True):
                walk(v, n)

        for a, node in zip(args, self.structure, strict=True):
            walk(a, node)
        return tuple(out)

    def __call__(self, *leaves: Any, **kwargs: Any) -> Any:
        from ..core.calls import call

        rest = iter(leaves)

        def build(node: Any) -> Any:
            if node is None:
                return next(rest)
            return node[0](build(n) for n in node[1])

        return call(self.f, *(build(node) for node in self.structure), **kwargs)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Flattened)
            and freeze(other.f) == freeze(self.f)
            and other.structure == self.structure
        )

    def __hash__(self) -> int:
        return hash((freeze(self.f), self.structure))


def _structure(value: Any) -> Any:
    """``None`` for an element, ``(type, children)`` for a tuple or list."""
    if is_sequence(value):
        return (type(value), tuple(_structure(v) for v in value))
    return None
