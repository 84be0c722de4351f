"""How the reduction-family rules take their arguments: positional cotangents, given options.

``positional_cotangents``: a pullback gives one cotangent per positional argument passed.

A rule's parameters may be passed by position or by keyword (``np.average(x, 0, w)`` or
``np.average(x, weights=w)``), and a pullback owes a cotangent to each positional argument
only. Rules decorated with ``positional_cotangents`` return cotangents in the order of their
positional parameters; the decorator cuts the tuple to the arguments actually passed by
position and pads it with ``NoTangent()`` for positional arguments that take no tangent (an
``axis`` given positionally).

>>> from chainrules import NoTangent
>>> @positional_cotangents
... def double_rrule(x, scale=None):
...     return 2 * x, lambda dy: (NoTangent(), 2 * dy)
>>> y, pullback = double_rrule(1.0, 3)
>>> pullback(1.0)
(NoTangent(), 2.0, NoTangent())
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .tangents import NO_TANGENT

__all__ = ["given_options", "positional_cotangents"]


def positional_cotangents(rule: Callable) -> Callable:
    """Wrap an rrule so its pullback returns exactly ``1 + len(args)`` cotangents."""

    @functools.wraps(rule)
    def rule_with_positional_cotangents(*args: Any, **kwargs: Any) -> Any:
        result = rule(*args, **kwargs)
        if result is None:
            return None
        y, pullback = result
        count = len(args) + 1

        @functools.wraps(pullback)
        def pullback_per_argument(dy: Any) -> tuple:
            cotangents = pullback(dy)
            return cotangents[:count] + (NO_TANGENT,) * (count - len(cotangents))

        return y, pullback_per_argument

    return rule_with_positional_cotangents


def given_options(**options: Any) -> dict[str, Any]:
    """The keyword arguments to pass on to NumPy: those given (None and False mean not given).

    >>> given_options(dtype=None, keepdims=True, where=None)
    {'keepdims': True}
    """
    return {k: v for k, v in options.items() if v is not None and v is not False}
