"""The partial derivatives of a ``scalar_rule`` row: what one is, and what it reads.

A partial is a function of the arguments and the output, ``(x1, ..., xn, y) -> df/dxi``,
``constant(c)`` for one that is the same number everywhere, or ``None`` where ``f`` has no
derivative in that argument. The rules ``scalar_rule`` builds (``chainrules.core.scalar_rules``)
read these to keep alive only what the partials use, to pass the cotangent through the
partials 1 and -1, and to multiply it by an argument where the partial is that argument.
"""

from __future__ import annotations

import dis
import inspect
import types
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["Partial", "constant", "in_two_forms", "picked", "reads", "unit_sign"]

Partial = Callable[..., Any] | None


class constant:  # lower case: it reads as a value in a scalar_rule row
    """A partial derivative that is the number ``value`` at every input: ``constant(1.0)``.

    Called like any partial, it gives ``value``. ``scalar_rule`` recognises the partials 1 and
    -1: their pullbacks pass the cotangent through (negated after projection), with the same
    result as multiplying by the partial, and no pass over the cotangent for the product.

    >>> constant(-1.0)(2.0, 3.0, -1.0), constant(-1.0)
    (-1.0, constant(-1.0))
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, *args: Any) -> Any:
        return self.value

    def __repr__(self) -> str:
        return f"constant({self.value!r})"


def unit_sign(partial: Partial) -> int:
    """1 or -1 for the partials ``constant(1)`` and ``constant(-1)``, 0 for any other."""
    if isinstance(partial, constant) and isinstance(partial.value, int | float):
        if partial.value == 1:
            return 1
        if partial.value == -1:
            return -1
    return 0


def reads(partial: Partial, arity: int) -> tuple[bool, ...]:
    """Which of its arguments ``(x1, ..., xn, y)`` a partial may read, from its code: a rule
    keeps alive only those (an engine holds every pullback until its backward pass). A
    ``constant`` reads none; anything but a plain function is taken to read all.

    >>> reads(lambda x1, x2, y: x2, 2), reads(constant(1.0), 1), reads(abs, 1)
    ((False, True, False), (False, False), (True, True))
    """
    if isinstance(partial, constant):
        return (False,) * (arity + 1)
    code = _plain_code(partial, arity)
    if code is None:
        return (True,) * (arity + 1)
    names = code.co_varnames[: arity + 1]
    used = set(code.co_cellvars)  # captured by a function inside: read there
    for instruction in dis.get_instructions(code):
        value = instruction.argval
        used.update(value if isinstance(value, tuple) else (value,))
    return tuple(name in used for name in names)


# What a function's code may hold besides its work (set-up, padding).
_QUIET = frozenset({"RESUME", "NOP", "CACHE", "COPY_FREE_VARS", "MAKE_CELL"})


def picked(partial: Partial, arity: int) -> int | None:
    """The index of the argument ``x1 .. xn`` that a partial is, read from its code (``lambda
    x1, x2, y: x2``, ``multiply``'s partial in ``x1``, gives 1); ``None`` for any other
    partial. A pullback multiplies the cotangent by that argument without calling the partial.

    >>> picked(lambda x1, x2, y: x2, 2), picked(lambda x1, x2, y: -x2, 2), picked(abs, 1)
    (1, None, None)
    """
    code = _plain_code(partial, arity)
    if code is None:
        return None
    steps = [i for i in dis.get_instructions(code) if i.opname not in _QUIET]
    if (
        len(steps) == 2
        and steps[0].opname.startswith("LOAD_FAST")
        and steps[1].opname == "RETURN_VALUE"
    ):
        index = code.co_varnames.index(steps[0].argval)
        return index if index < arity else None
    return None


def _plain_code(partial: Partial, arity: int) -> types.CodeType | None:
    """The code of a partial that is a plain function of ``(x1, ..., xn, y)``, else ``None``."""
    code = getattr(partial, "__code__", None)
    if (
        not isinstance(partial, types.FunctionType)
        or code is None
        or code.co_argcount != arity + 1
        or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
    ):
        return None
    return code


def in_two_forms(
    measure: np.ndarray, near: Callable[[], np.ndarray], far: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray | None:
    """A partial of a real NumPy array that takes one form where ``measure < 1`` and another
    from 1 on: ``near()``, a new array of the partial accurate below 1 (``1 - y * y`` for
    ``tanh``), with the elements where ``measure >= 1`` replaced by ``far(measure there)``,
    gathered by flat index. ``None`` where those are most of the array (one pass of the far
    form over all of it costs less than the gathering) or ``near()`` is not in C order, the
    flat index's.

    >>> in_two_forms(np.array([0.5, 2.0]), lambda: np.zeros(2), lambda m: 10 * m)
    array([ 0., 20.])
    """
    flat = measure.reshape(-1)  # in C order, as the result's view below
    beyond = flat >= 1
    count = np.count_nonzero(beyond)
    if 2 * count > beyond.size:
        return None
    partial = near()
    if not partial.flags.c_contiguous:
        return None
    if count:
        where = np.flatnonzero(beyond)
        partial.reshape(-1)[where] = far(flat[where])
    return partial
