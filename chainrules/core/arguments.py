"""How rules take their arguments: keywords bound to positions, a cotangent per position.

``keyword_positions`` and ``bind_keywords``: a keyword naming one of a function's positional
parameters that its rule takes only by position (``np.swapaxes(x, axis1=0, axis2=1)``, whose
rule takes ``(x, *params)``) is passed to the rule by position. Which keywords move where is
read once, at registration, from the function's signature and the rule's; the registry binds
them before it calls the rule, so the pullback gives one cotangent per positional argument
after binding.

>>> import numpy as np
>>> positions = keyword_positions(np.swapaxes, 1, True, frozenset(), ())
>>> bind_keywords("rrule", np.swapaxes, positions, ("x",), {"axis2": 1, "axis1": 0})
(('x', 0, 1), {})

A rule owes a cotangent to each positional argument only, as bound; registration fits what a
pullback returns to them (``chainrules.core.protocol.per_argument``).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from .._compat import NUMPY_NO_VALUE
from .errors import RuleKeywordError
from .names import function_name
from .structure import has_tangent_space
from .tangents import NO_TANGENT, ZERO_TANGENT

__all__ = [
    "KeywordPositions",
    "bind_keywords",
    "check_keywords",
    "given_options",
    "keyword_positions",
    "pad_tangents",
]

# ---- keywords naming positional parameters: bound to their positions ------------------------

REQUIRED: Any = inspect.Parameter.empty  # a position without a default to fill a gap with


class KeywordPositions(NamedTuple):
    """Where a rule takes a function's keywords by position, read once from the signatures.

    ``position``: keyword -> position, for the keywords the rule does not take by keyword;
    ``names``: per position, the keywords that may fill it (the function's name and the
    rule's); ``defaults``: per position, the value passed when a later position is bound and
    this one was not given (``REQUIRED``: none).
    """

    position: dict[str, int]
    names: tuple[tuple[str, ...], ...]
    defaults: tuple[Any, ...]


def keyword_positions(
    f: Any,
    count: int,
    varargs: bool,
    accepted: frozenset[str] | None,
    defaults: tuple[Any, ...],
    rule_names: tuple[str, ...] = (),
    required: int = 0,
) -> KeywordPositions | None:
    """The keywords of ``f`` that its rule takes by position; ``None`` when there are none.

    ``count`` positional parameters of the rule (with ``defaults`` and ``rule_names``, as
    far as known), ``varargs``: it takes ``*args`` too; ``accepted``: the keywords it takes
    (``None``: any, so nothing moves); ``required``: how many positions it needs, so that a
    keyword naming one of those (``np.partition(x, kth=1)``) moves too, for the rule to be
    found. Only ``f``'s positional-or-keyword parameters before ``out`` can move, and into
    the rule's ``*args`` only those before the first one it takes by keyword. A gap is
    filled with the rule's default, or beyond the rule's named parameters with ``f``'s; NumPy's
    no-value default fills none (``np.clip(x, a_max=1)`` is refused, as NumPy refuses it).
    """
    if accepted is None or isinstance(f, np.ufunc):  # a ufunc takes its inputs by position only
        return None
    index: dict[str, int] = {}
    names: list[tuple[str, ...]] = []
    fill: list[Any] = []
    for i, p in enumerate(_positional_parameters(f)):
        # The rule's *args stand for f's parameters up to the first one the rule takes by
        # keyword: ``interp(x, xp, fp, *bounds, left=None, right=None)`` handles no period.
        if i >= count and (not varargs or p.name in accepted):
            break
        by_keyword = p.kind is p.POSITIONAL_OR_KEYWORD
        if by_keyword and (p.name not in accepted or i < required):
            index[p.name] = i
        rule_name = rule_names[i] if i < len(rule_names) else p.name
        names.append(tuple({p.name: None, rule_name: None}) if by_keyword else (rule_name,))
        if i < count:
            fill.append(defaults[i] if i < len(defaults) else REQUIRED)
        else:
            fill.append(REQUIRED if p.default is NUMPY_NO_VALUE else p.default)
    if not index:
        return None
    return KeywordPositions(index, tuple(names), tuple(fill))


_parameters: dict[Any, tuple[inspect.Parameter, ...]] = {}  # f's rrule and frule share one read


def _positional_parameters(f: Any) -> tuple[inspect.Parameter, ...]:
    """``f``'s parameters that can be given by position, up to ``out`` (an output)."""
    try:
        return _parameters[f]
    except KeyError:
        pass
    parameters: Iterable[inspect.Parameter]
    try:
        parameters = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):  # builtins and compiled callables without a signature
        parameters = ()
    positional = []
    for p in parameters:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.name == "out":
            break
        positional.append(p)
    found = _parameters[f] = tuple(positional)
    return found


def bind_keywords(
    kind: str, f: Any, positions: KeywordPositions, args: tuple, kwargs: dict
) -> tuple[tuple, dict] | None:
    """``(args, kwargs)`` with the keywords the rule takes by position moved there.

    The positions between the last one given and the last one bound are filled from the
    keywords naming them, else with their defaults. ``None``: no keyword to move. Raises
    ``RuleKeywordError`` naming ``f`` and the keyword when a keyword repeats a position given
    or a position before it has neither a keyword nor a default.
    """
    index = positions.position
    moving = [k for k in kwargs if k in index]
    if not moving:
        return None
    for k in moving:
        if index[k] < len(args):
            raise RuleKeywordError(
                f"{kind} for {function_name(f)} got {k!r} both by position and by keyword"
            )
    last = max(index[k] for k in moving)
    kwargs = dict(kwargs)
    bound = list(args)
    for i in range(len(args), last + 1):
        name = next((n for n in positions.names[i] if n in kwargs), None)
        if name is not None:
            bound.append(kwargs.pop(name))
        elif positions.defaults[i] is not REQUIRED:
            bound.append(positions.defaults[i])
        else:
            later = next(k for k in moving if index[k] > i)
            raise RuleKeywordError(
                f"{kind} for {function_name(f)} takes {later!r} by position, after "
                f"{positions.names[i][0]!r}, which was not given"
            )
    return tuple(bound), kwargs


def pad_tangents(tangents: Any, args: tuple) -> Any:
    """An frule's tangents with one for each argument bound from a keyword: a constant's."""
    if type(tangents) is not tuple or len(tangents) > len(args):
        return tangents
    extra = args[len(tangents) - 1 :]
    return tangents + tuple(ZERO_TANGENT if has_tangent_space(a) else NO_TANGENT for a in extra)


def check_keywords(kind: str, f: Any, accepted: frozenset[str], kwargs: dict) -> None:
    """Raise ``RuleKeywordError`` naming ``f`` and the first keyword its rule does not take."""
    for key in kwargs:
        if key not in accepted:
            raise RuleKeywordError(
                f"{kind} for {function_name(f)} does not accept the keyword {key!r}"
                + (f" (it accepts {', '.join(sorted(accepted))})" if accepted else "")
            )


# ---- options as given ----------------------------------------------------------------------


def given_options(**options: Any) -> dict[str, Any]:
    """The keyword arguments to pass on to NumPy: those given (None and False mean not given).

    >>> given_options(dtype=None, keepdims=True, where=None)
    {'keepdims': True}
    """
    given = {}
    for k, v in options.items():
        if v is not None and v is not False:
            given[k] = v
    return given
