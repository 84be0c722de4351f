"""A registered rule as the registry sees it: its callable, the arguments it accepts, its rank.

``method_from`` reads a rule's signature once, at registration: the types of its positional
parameters (from their annotations), how many are required, its ``*args``, the keywords it
takes, and the defaults and names that let a keyword be bound to its position. Dispatch then
compares methods with ``accepts`` and ``at_least_as_specific``, on types alone.

>>> m = method_from(lambda x, axis=None: None, "rrule", None)
>>> m.types, m.required, sorted(m.keywords), m.accepts((float,)), m.accepts(())
((<class 'object'>, <class 'object'>), 1, ['axis', 'x'], True, False)
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .arguments import REQUIRED, KeywordPositions
from .errors import RuleDefinitionError
from .protocol import with_frule_protocol, with_rrule_protocol

__all__ = [
    "Method",
    "accepted_keywords",
    "annotation_to_types",
    "at_least_as_specific",
    "is_subtype",
    "method_from",
    "takes_anything",
    "takes_keywords",
    "type_name",
]


@dataclass(frozen=True, eq=False)
class Method:
    """One registered rule: its callable and what it accepts."""

    fn: Callable[..., Any]
    types: tuple[Any, ...]  # one entry per positional parameter: a type or a tuple of types
    required: int
    varargs: Any  # the type of *args, or None when the rule takes a fixed number
    keywords: frozenset[str] | None  # None: accepts any keyword (**kwargs)
    needs: type | None
    opted_out: bool = False
    rule: Callable[..., Any] | None = None  # the rule as its author wrote it (fn adds the protocol)
    names: tuple[str, ...] = ()  # of the positional parameters, as far as known
    defaults: tuple[Any, ...] = ()  # of the positional parameters (REQUIRED: none)
    positions: KeywordPositions | None = None  # set at registration, from f's signature

    most: float = field(init=False)  # the largest number of positional arguments accepted

    def __post_init__(self) -> None:
        most = len(self.types) if self.varargs is None else float("inf")
        object.__setattr__(self, "most", most)

    def accepts(self, arg_types: tuple[type, ...]) -> bool:
        n = len(arg_types)
        if n < self.required or (self.varargs is None and n > len(self.types)):
            return False
        for i, t in enumerate(arg_types):
            expected = self.types[i] if i < len(self.types) else self.varargs
            if expected is not object and not issubclass(t, expected):
                return False
        return True

    def type_at(self, i: int) -> Any:
        return self.types[i] if i < len(self.types) else (self.varargs or object)

    def describe(self) -> str:
        names = [type_name(t) for t in self.types]
        if self.varargs is not None:
            names.append("*" + type_name(self.varargs))
        need = f" needs {self.needs.__name__}" if self.needs else ""
        label = "opt-out" if self.opted_out else getattr(self.fn, "__qualname__", "rule")
        return f"{label}({', '.join(names)}){need}"


def type_name(t: Any) -> str:
    if isinstance(t, tuple):
        return " | ".join(type_name(x) for x in t)
    return getattr(t, "__name__", repr(t))


def is_subtype(a: Any, b: Any) -> bool:
    """Whether every type admitted by ``a`` is admitted by ``b`` (each a type or a tuple)."""
    if b is object:
        return True
    members = a if isinstance(a, tuple) else (a,)
    return all(issubclass(m, b) for m in members)


def at_least_as_specific(m: Method, other: Method, n: int) -> bool:
    for i in range(n):
        if not is_subtype(m.type_at(i), other.type_at(i)):
            return False
    if other.needs is not None and (m.needs is None or not issubclass(m.needs, other.needs)):
        return False
    return True


def takes_keywords(m: Method, kwargs: dict) -> bool:
    return m.keywords is None or m.keywords.issuperset(kwargs)


def accepted_keywords(
    rule: Callable, params: Iterable[inspect.Parameter] | None = None
) -> frozenset[str] | None:
    """The keywords a rule's signature takes; ``None`` when it takes any (``**kwargs``).
    ``params``: the signature's parameters, when already read."""
    if params is None:
        params = inspect.signature(rule).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))


def takes_anything(m: Method) -> bool:
    return (
        m.needs is None
        and not m.opted_out
        and all(t is object for t in m.types)
        and m.varargs in (None, object)
    )


def annotation_to_types(annotation: Any, rule: Callable, name: str) -> Any:
    if annotation is inspect.Parameter.empty or annotation is typing.Any or annotation is object:
        return object
    origin = typing.get_origin(annotation)
    if origin is typing.Union or isinstance(annotation, types.UnionType):
        members = tuple(annotation_to_types(a, rule, name) for a in typing.get_args(annotation))
        return (
            object
            if object in members
            else tuple(m for ms in members for m in (ms if isinstance(ms, tuple) else (ms,)))
        )
    if origin is not None:
        annotation = origin
    if not isinstance(annotation, type):
        raise RuleDefinitionError(
            f"rule {getattr(rule, '__qualname__', rule)}: the annotation of {name!r} is "
            f"{annotation!r}; annotate with classes, X | Y, or leave it out"
        )
    return annotation


def method_from(
    rule: Callable,
    kind: str,
    needs: type | None,
    keywords: Iterable[str] | None = None,
    f: Any = None,
) -> Method:
    """The method registering ``rule``; with ``f``, the rule wrapped in the protocol."""
    hints = getattr(rule, "__annotations__", None) or {}
    if hints:  # most rules have none, and resolving them is most of registering a rule
        try:
            hints = typing.get_type_hints(rule)
        except Exception:  # unresolvable string annotations: fall back to the raw ones
            pass
    params = list(inspect.signature(rule).parameters.values())
    skip = (1 if needs is not None else 0) + (1 if kind == "frule" else 0)
    if len(params) < skip:
        raise RuleDefinitionError(
            f"{kind} {getattr(rule, '__qualname__', rule)} must take "
            + ("a config, " if needs else "")
            + ("the tangents tuple, " if kind == "frule" else "")
            + "then the function's arguments"
        )
    positional: list[Any] = []
    names: list[str] = []
    defaults: list[Any] = []
    required = 0
    varargs = None
    for p in params[skip:]:
        annotation = hints.get(p.name, p.annotation)
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            positional.append(annotation_to_types(annotation, rule, p.name))
            names.append(p.name)
            defaults.append(REQUIRED if p.default is p.empty else p.default)
            if p.default is p.empty:
                required = len(positional)
        elif p.kind is p.VAR_POSITIONAL:
            varargs = annotation_to_types(annotation, rule, p.name)
    accepted = accepted_keywords(rule, params) if keywords is None else frozenset(keywords)
    fn = rule
    if f is not None:
        wrap = with_rrule_protocol if kind == "rrule" else with_frule_protocol
        fn = wrap(rule, f, needs is not None)
    return Method(
        fn,
        tuple(positional),
        required,
        varargs,
        accepted,
        needs,
        rule=rule,
        names=tuple(names),
        defaults=tuple(defaults),
    )
