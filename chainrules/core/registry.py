"""The rule tables: ``rrule`` and ``frule``, their registration, dispatch and introspection.

A rule is registered for a function object::

    @rrule.register(np.cumsum)
    def _cumsum_rrule(x, axis=None): ...

    @frule.register(np.cumsum)
    def _cumsum_frule(tangents, x, axis=None): ...   # tangents = (df, dx, ...)

Several rules for one function are told apart by the annotations of their positional
parameters (a missing annotation means ``object``; ``X | Y`` means either; ABCs such as
``numbers.Real`` work). The most specific applicable rule wins, judged by subclass relations
parameter by parameter; when two applicable rules are each more specific somewhere, the call
raises ``AmbiguousRuleError`` naming both. The choice is cached per argument types.

A rule that needs a capability of the AD engine calling it is registered with
``needs=HasReverseMode`` (or ``HasForwardMode``); it takes the config as its first
parameter, is seen only by ``config.rrule(...)`` / ``config.frule(...)`` with a config that has
the capability, and is preferred there over a rule that does not need it.

>>> import math
>>> table = RuleTable("rrule")
>>> @table.register(math.exp)
... def _exp_rrule(x):
...     y = math.exp(x)
...     return y, lambda dy: (None, dy * y)
>>> y, pullback = table(math.exp, 0.0)
>>> y, pullback(2.0)
(1.0, (None, 2.0))
>>> table(math.log, 1.0) is None
True
"""

from __future__ import annotations

import inspect
import threading
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .._compat import Unavailable
from .errors import AmbiguousRuleError, RuleDefinitionError, RuleKeywordError
from .names import function_name
from .protocol import with_frule_protocol, with_rrule_protocol

__all__ = [
    "RuleInfo",
    "RuleTable",
    "frule",
    "function_name",
    "opt_out",
    "registered_functions",
    "rrule",
]


@dataclass(frozen=True, eq=False)
class _Method:
    """One registered rule: its callable and what it accepts."""

    fn: Callable[..., Any]
    types: tuple[Any, ...]  # one entry per positional parameter: a type or a tuple of types
    required: int
    varargs: Any  # the type of *args, or None when the rule takes a fixed number
    keywords: frozenset[str] | None  # None: accepts any keyword (**kwargs)
    needs: type | None
    opted_out: bool = False
    rule: Callable[..., Any] | None = None  # the rule as its author wrote it (fn adds the protocol)

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
        names = [_type_name(t) for t in self.types]
        if self.varargs is not None:
            names.append("*" + _type_name(self.varargs))
        need = f" needs {self.needs.__name__}" if self.needs else ""
        label = "opt-out" if self.opted_out else getattr(self.fn, "__qualname__", "rule")
        return f"{label}({', '.join(names)}){need}"


def _type_name(t: Any) -> str:
    if isinstance(t, tuple):
        return " | ".join(_type_name(x) for x in t)
    return getattr(t, "__name__", repr(t))


def _is_subtype(a: Any, b: Any) -> bool:
    """Whether every type admitted by ``a`` is admitted by ``b`` (each a type or a tuple)."""
    if b is object:
        return True
    members = a if isinstance(a, tuple) else (a,)
    return all(issubclass(m, b) for m in members)


def _at_least_as_specific(m: _Method, other: _Method, n: int) -> bool:
    for i in range(n):
        if not _is_subtype(m.type_at(i), other.type_at(i)):
            return False
    if other.needs is not None and (m.needs is None or not issubclass(m.needs, other.needs)):
        return False
    return True


@dataclass
class _State:
    """The methods of one function and their lookup cache, replaced together on registration."""

    methods: tuple[_Method, ...]
    cache: dict[tuple, _Method | None]
    single: _Method | None  # the one method, when it takes any types: no type key needed


class _Entry:
    __slots__ = ("state",)

    def __init__(self) -> None:
        self.state = _State((), {}, None)


@dataclass(frozen=True)
class RuleInfo:
    """What the registry holds for one function; read by the coverage report."""

    function: Any
    name: str
    rrule: bool
    frule: bool
    non_differentiable: bool
    opted_out: bool


class RuleTable:
    """The table of ``rrule``\\s or of ``frule``\\s; calling it looks a rule up and runs it.

    ``rrule(f, *args, **kwargs)`` returns ``(y, pullback)``; ``frule(tangents, f, *args,
    **kwargs)`` returns ``(y, dy)``. Both return ``None`` when no rule applies, so an engine can
    ask cheaply and trace into ``f`` instead.
    """

    def __init__(self, kind: str) -> None:
        if kind not in ("rrule", "frule"):
            raise ValueError(f"RuleTable kind must be 'rrule' or 'frule', not {kind!r}")
        self.kind = kind
        self._entries: dict[Any, _Entry] = {}
        self._lock = threading.Lock()
        self.__name__ = kind
        self.__qualname__ = kind

    def __repr__(self) -> str:
        return f"<chainrules {self.kind} table: {len(self._entries)} functions>"

    # ---- registration -------------------------------------------------------------------

    def register(
        self, f: Any, *, needs: type | None = None, keywords: Iterable[str] | None = None
    ) -> Callable[[Callable], Callable]:
        """Decorator: register the decorated function as a rule for ``f``.

        An rrule's parameters are ``f``'s arguments; an frule's first parameter is the tuple of
        tangents ``(df, dx1, ...)``. With ``needs=``, a config parameter comes first of all.
        ``keywords``: the keyword arguments the rule accepts, for a rule whose signature cannot
        say them (it takes ``**kwargs`` to pass them on); by default, its signature's.

        The registered rule follows the protocol of ``chainrules.core.protocol``: its
        pullback gets unthunked cotangents and is never called with a zero one, and is named
        after ``f``. The decorator returns the rule as written.
        """

        def decorator(rule: Callable) -> Callable:
            self._add(f, _method_from(rule, self.kind, needs, keywords, f))
            return rule

        return decorator

    def _add(self, f: Any, method: _Method) -> None:
        if isinstance(f, Unavailable):  # the installed release lacks f: no rule to keep
            return
        try:
            hash(f)
        except TypeError:
            raise RuleDefinitionError(
                f"{self.kind}.register: {f!r} is not hashable, so it cannot key a rule"
            ) from None
        with self._lock:
            entry = self._entries.get(f)
            if entry is None:
                entry = self._entries[f] = _Entry()
            # A rule with the same signature replaces the old one (redefinition).
            kept = tuple(
                m
                for m in entry.state.methods
                if not (
                    m.types == method.types
                    and m.varargs == method.varargs
                    and m.needs == method.needs
                )
            )
            methods = (*kept, method)
            single = methods[0] if len(methods) == 1 and _takes_anything(methods[0]) else None
            entry.state = _State(methods, {}, single)

    def has_rule(self, f: Any) -> bool:
        """Whether any non-opt-out rule is registered for ``f`` (for any argument types)."""
        try:
            entry = self._entries.get(f)
        except TypeError:
            return False
        return entry is not None and any(not m.opted_out for m in entry.state.methods)

    def functions(self) -> Iterator[Any]:
        """The functions with entries, as a snapshot (registration may go on meanwhile)."""
        with self._lock:
            return iter(list(self._entries))

    def methods(self, f: Any) -> tuple[_Method, ...]:
        entry = self._entries.get(f)
        return () if entry is None else entry.state.methods

    # ---- lookup --------------------------------------------------------------------------

    def lookup(self, f: Any, args: tuple, config: Any = None) -> Callable | None:
        """The rule that applies to ``f(*args)``, bound to ``config`` if it needs one, or None."""
        method = self._find(f, args, config)
        if method is None:
            return None
        return method.fn if method.needs is None else _bind_config(method.fn, config)

    def _find(self, f: Any, args: tuple, config: Any) -> _Method | None:
        try:
            entry = self._entries.get(f)
        except TypeError:  # an unhashable callable has no rule
            return None
        if entry is None:
            return None
        state = entry.state
        method = state.single
        if method is None:
            key = tuple(map(type, args))
            if config is not None:
                key += (type(config),)
            try:
                method = state.cache[key]
            except KeyError:
                method = state.cache[key] = self._resolve(f, state.methods, args, config)
            if method is None or method.opted_out:
                return None
        elif len(args) < method.required or (
            len(args) > len(method.types) and method.varargs is None
        ):
            return None
        return method

    def _resolve(
        self, f: Any, methods: tuple[_Method, ...], args: tuple, config: Any
    ) -> _Method | None:
        arg_types = tuple(map(type, args))
        applicable = [
            m
            for m in methods
            if m.accepts(arg_types)
            and (m.needs is None or (config is not None and isinstance(config, m.needs)))
        ]
        if not applicable:
            return None
        n = len(args)
        best = [
            m
            for m in applicable
            if not any(
                o is not m and _at_least_as_specific(o, m, n) and not _at_least_as_specific(m, o, n)
                for o in applicable
            )
        ]
        if len(best) > 1:
            # An opt-out as specific as every rule it meets is meant to override them.
            for m in best:
                if m.opted_out and all(_at_least_as_specific(m, o, n) for o in best):
                    return m
            candidates = "; ".join(m.describe() for m in best)
            got = ", ".join(t.__name__ for t in arg_types)
            raise AmbiguousRuleError(
                f"{self.kind} for {function_name(f)} is ambiguous for arguments ({got}): "
                f"candidates {candidates}. Register a rule for these exact types to decide."
            )
        return best[0]

    def _run(self, f: Any, args: tuple, kwargs: dict, config: Any, prefix: tuple) -> Any:
        method = self._find(f, args, config)
        if method is None:
            return None
        if kwargs and method.keywords is not None:
            _check_keywords(self.kind, f, method.keywords, kwargs)
        if method.needs is not None:
            return method.fn(config, *prefix, *args, **kwargs)
        return method.fn(*prefix, *args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.kind == "rrule":
            return self._run(args[0], args[1:], kwargs, None, ())
        return self._run(args[1], args[2:], kwargs, None, (args[0],))


class _RRuleTable(RuleTable):
    """The rrule table, with the lookup of a single untyped rule inlined: the hot path."""

    def __call__(self, f: Any, /, *args: Any, **kwargs: Any) -> Any:
        try:
            entry = self._entries.get(f)
        except TypeError:  # an unhashable callable has no rule
            return None
        if entry is None:
            return None
        method = entry.state.single
        if method is None or kwargs or not (method.required <= len(args) <= method.most):
            return self._run(f, args, kwargs, None, ())
        return method.fn(*args)


def _bind_config(fn: Callable, config: Any) -> Callable:
    def with_config(*args: Any, **kwargs: Any) -> Any:
        return fn(config, *args, **kwargs)

    with_config.__wrapped__ = fn  # type: ignore[attr-defined]
    return with_config


def _check_keywords(kind: str, f: Any, accepted: frozenset[str], kwargs: dict) -> None:
    for key in kwargs:
        if key not in accepted:
            raise RuleKeywordError(
                f"{kind} for {function_name(f)} does not accept the keyword {key!r}"
                + (f" (it accepts {', '.join(sorted(accepted))})" if accepted else "")
            )


def _accepted_keywords(rule: Callable) -> frozenset[str] | None:
    """The keywords a rule's signature takes; ``None`` when it takes any (``**kwargs``)."""
    params = inspect.signature(rule).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))


def _takes_anything(m: _Method) -> bool:
    return (
        m.needs is None
        and not m.opted_out
        and all(t is object for t in m.types)
        and m.varargs in (None, object)
    )


def _annotation_to_types(annotation: Any, rule: Callable, name: str) -> Any:
    if annotation is inspect.Parameter.empty or annotation is typing.Any or annotation is object:
        return object
    origin = typing.get_origin(annotation)
    if origin is typing.Union or isinstance(annotation, types.UnionType):
        members = tuple(_annotation_to_types(a, rule, name) for a in typing.get_args(annotation))
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


def _method_from(
    rule: Callable,
    kind: str,
    needs: type | None,
    keywords: Iterable[str] | None = None,
    f: Any = None,
) -> _Method:
    """The method registering ``rule``; with ``f``, the rule wrapped in the protocol."""
    try:
        hints = typing.get_type_hints(rule)
    except Exception:  # unresolvable string annotations: fall back to the raw ones
        hints = getattr(rule, "__annotations__", {})
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
    required = 0
    varargs = None
    for p in params[skip:]:
        annotation = hints.get(p.name, p.annotation)
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            positional.append(_annotation_to_types(annotation, rule, p.name))
            if p.default is p.empty:
                required = len(positional)
        elif p.kind is p.VAR_POSITIONAL:
            varargs = _annotation_to_types(annotation, rule, p.name)
    accepted = _accepted_keywords(rule) if keywords is None else frozenset(keywords)
    fn = rule
    if f is not None:
        wrap = with_rrule_protocol if kind == "rrule" else with_frule_protocol
        fn = wrap(rule, f, needs is not None)
    return _Method(fn, tuple(positional), required, varargs, accepted, needs, rule=rule)


# ---- the two tables and what the registry knows about functions ----------------------------

rrule: RuleTable = _RRuleTable("rrule")
frule = RuleTable("frule")
_non_differentiable: set[Any] = set()
_non_differentiable_lock = threading.Lock()  # readers take snapshots while others register


def mark_non_differentiable(f: Any) -> None:
    if not isinstance(f, Unavailable):
        with _non_differentiable_lock:
            _non_differentiable.add(f)


def opt_out(table: RuleTable, f: Any, *types_: Any) -> None:
    """Declare that ``f`` has no rule for these argument types, even if a broader rule exists.

    Engines then trace into ``f`` for such calls. With no types, it opts out for any number of
    arguments of any type (a rule for specific types, registered alongside, still wins).

    >>> import math
    >>> t = RuleTable("rrule")
    >>> @t.register(math.fabs)
    ... def _(x): return math.fabs(x), None
    >>> opt_out(t, math.fabs, bool)
    >>> t(math.fabs, True) is None, t(math.fabs, -1.0)[0]
    (True, 1.0)
    """
    if not isinstance(table, RuleTable):
        raise TypeError(f"opt_out: the first argument must be rrule or frule, not {table!r}")
    if types_:
        parsed = tuple(_annotation_to_types(t, opt_out, f"type {i}") for i, t in enumerate(types_))
        method = _Method(opt_out, parsed, len(parsed), None, None, None, opted_out=True)
    else:
        method = _Method(opt_out, (), 0, object, None, None, opted_out=True)
    table._add(f, method)


def registered_functions() -> list[RuleInfo]:
    """Every function the registry knows, with what it has; sorted by name.

    >>> import numpy as np
    >>> any(info.function is np.sin for info in registered_functions())  # doctest: +SKIP
    True
    """
    functions: dict[int, Any] = {}
    for table in (rrule, frule):
        for f in table.functions():
            functions[id(f)] = f
    with _non_differentiable_lock:
        marked = tuple(_non_differentiable)
    for f in marked:
        functions[id(f)] = f
    infos = []
    for f in functions.values():
        opted = any(m.opted_out for t in (rrule, frule) for m in t.methods(f))
        infos.append(
            RuleInfo(
                function=f,
                name=function_name(f),
                rrule=rrule.has_rule(f),
                frule=frule.has_rule(f),
                non_differentiable=f in _non_differentiable,
                opted_out=opted,
            )
        )
    return sorted(infos, key=lambda info: info.name)
