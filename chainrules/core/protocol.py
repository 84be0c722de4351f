"""The protocol every registered rule follows, applied once, at registration.

A rule author writes the mathematics; registration (``rrule.register``, ``frule.register``)
wraps the rule so that, for every rule alike:

* a pullback receives its cotangent unthunked;
* a pullback given a zero cotangent (``ZeroTangent()``, ``NoTangent()``, or a tuple or
  ``Tangent`` holding only zeros) answers without calling the author's pullback: the zero of
  each argument, ``NoTangent()`` for those without a tangent space (integers, strings), as the
  projector of each argument would give it;
* a pullback is named after its function (``cumsum_pullback``), in tracebacks and reprs;
* an frule receives its tangents unthunked.

>>> import numpy as np
>>> from chainrules.core.tangents import ZERO_TANGENT
>>> def cumsum_rrule(x):
...     return np.cumsum(x), lambda dy: (None, np.flip(np.cumsum(np.flip(dy))))
>>> rule = with_rrule_protocol(cumsum_rrule, np.cumsum)
>>> y, pullback = rule(np.array([1.0, 2.0]))
>>> pullback.__name__, pullback(ZERO_TANGENT), pullback(np.array([1.0, 1.0]))
('cumsum_pullback', (NoTangent(), ZeroTangent()), (None, array([2., 1.])))
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from .names import short_name
from .projection import projector
from .structure import has_tangent_space
from .tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from .thunks import AbstractThunk, unthunk

__all__ = [
    "is_all_zero",
    "renamed_inner",
    "with_frule_protocol",
    "with_rrule_protocol",
    "zero_cotangents",
]


def is_all_zero(t: Any) -> bool:
    """Whether a tangent is zero as a whole: a zero, or a tuple, list or ``Tangent`` of zeros.

    A thunk is not looked into (it may be costly), so a thunk counts as non-zero.

    >>> from chainrules.core.tangents import ZERO_TANGENT
    >>> is_all_zero(ZERO_TANGENT), is_all_zero((ZERO_TANGENT, ())), is_all_zero((0.0,))
    (True, True, False)
    """
    if isinstance(t, AbstractZero):
        return True
    if type(t) is tuple or type(t) is list or isinstance(t, Tangent):
        return all(map(is_all_zero, t))
    return False


def zero_cotangents(args: tuple, y: Any) -> tuple:
    """The pullback's answer to a zero cotangent: ``NoTangent()`` for the function, then each
    argument's projection of the zero (``ZeroTangent()``, or ``NoTangent()`` where the argument
    has no tangent space). An output without a tangent space (integer indices) passes no
    cotangent back at all: ``NoTangent()`` for every argument."""
    if not _has_tangent_space(y):
        return (NO_TANGENT,) * (len(args) + 1)
    return (NO_TANGENT, *map(_zero_of, args))


# Floats and NumPy arrays, the common arguments and outputs, are answered without building a
# projector; every other value asks its projector.
_INEXACT = frozenset("fc")


def _has_tangent_space(y: Any) -> bool:
    cls = type(y)
    if cls is np.ndarray:
        return y.dtype.kind in _INEXACT
    return cls is float or has_tangent_space(y)


def _zero_of(a: Any) -> Any:
    cls = type(a)
    if cls is np.ndarray:
        return ZERO_TANGENT if a.dtype.kind in _INEXACT else NO_TANGENT
    if cls is float:
        return ZERO_TANGENT
    if cls is int or cls is bool or cls is str or a is None:
        return NO_TANGENT
    return projector(a)(ZERO_TANGENT)


def _rrule_template(rule: Callable, skip: int) -> Callable:
    # The pullback defined here is renamed per function at registration (see renamed_inner).
    # ``skip``: 1 for a rule that takes the engine's config first (not an argument of f).

    def rrule_with_protocol(*args: Any, **kwargs: Any) -> Any:
        result = rule(*args, **kwargs)
        if type(result) is not tuple or len(result) != 2 or not callable(result[1]):
            return result  # None (no rule here), or not a rule's answer: not ours to change
        y, author_pullback = result

        def pullback(dy: Any) -> Any:
            if type(dy) is np.ndarray:  # the common case, straight through
                return author_pullback(dy)
            if isinstance(dy, AbstractThunk) or isinstance(dy, Tangent):
                dy = unthunk(dy)
            if is_all_zero(dy):
                return zero_cotangents(args[skip:], y)
            return author_pullback(dy)

        return y, pullback

    return rrule_with_protocol


def with_rrule_protocol(rule: Callable, f: Any, with_config: bool = False) -> Callable:
    """``rule`` wrapped in the protocol above; ``with_config``: the rule takes a config first."""
    template = renamed_inner(_rrule_template, {"pullback": f"{short_name(f)}_pullback"})
    return functools.update_wrapper(template(rule, int(with_config)), rule)


def with_frule_protocol(rule: Callable, f: Any, with_config: bool = False) -> Callable:
    """``rule`` (an frule) wrapped in the protocol above; ``with_config``: the rule takes a
    config first, then the tangents."""
    at = int(with_config)

    def frule_with_protocol(*args: Any, **kwargs: Any) -> Any:
        tangents = args[at]
        if type(tangents) is tuple:
            for t in tangents:
                if isinstance(t, AbstractThunk) or isinstance(t, Tangent):
                    unthunked = tuple(map(unthunk, tangents))
                    return rule(*args[:at], unthunked, *args[at + 1 :], **kwargs)
        return rule(*args, **kwargs)

    return functools.update_wrapper(frule_with_protocol, rule)


def renamed_inner(template: Callable, names: dict[str, str]) -> Callable:
    """``template`` with the functions it defines inside renamed by ``names``.

    Renaming the code objects once, here, names every pullback the rule later creates at no
    cost per call (setting ``__name__`` on each new closure would be one).
    """
    code = _renamed_code(template.__code__, names)
    return types.FunctionType(code, template.__globals__, template.__name__)


def _renamed_code(code: types.CodeType, names: dict[str, str]) -> types.CodeType:
    consts = tuple(
        _renamed_code(c, names) if isinstance(c, types.CodeType) else c for c in code.co_consts
    )
    name = names.get(code.co_name, code.co_name)
    return code.replace(co_consts=consts, co_name=name, co_qualname=name)
