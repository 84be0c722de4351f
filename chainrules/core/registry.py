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

Keywords. A keyword the rule takes by keyword reaches it as given, and gets no cotangent
(kwargs get none). A keyword naming one of ``f``'s positional parameters that the rule takes
only by position (its ``*args``, as ``np.swapaxes(x, axis1=0, axis2=1)``'s rule has; or a
rule that leaves the name out of ``keywords=``) is bound to its position before the rule is
called, the positions in between taking the keywords naming them or their defaults. The
pullback's cotangents are for the positional arguments after binding: ``rrule(np.clip, x,
a_min=lo)`` is ``rrule(np.clip, x, lo)``, and its pullback gives ``(df, dx, dlo)``; an frule
is given a constant's tangent (``ZeroTangent()``, ``NoTangent()`` where there is no tangent
space) for each bound argument. Which keywords bind where is read from the signatures once, at
registration; a call without keywords never looks. A keyword neither taken nor bindable raises
``RuleKeywordError`` naming the function and the keyword.

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

Aliases. A function that stands for another (``chainrules.with_rules(f)``, the functions of
``chainrules.scipy.special``) is registered with ``register_alias(stand_in, f)``: rules
registered for the stand-in are ``f``'s, and a lookup of the stand-in finds ``f``'s. Only a
lookup that finds nothing under its own key looks at the aliases.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .._compat import Unavailable
from .arguments import bind_keywords, check_keywords, keyword_positions, pad_tangents
from .errors import AmbiguousRuleError, RuleDefinitionError, RuleKeywordError
from .libraries import load_all, load_owner, load_owner_before_registering
from .methods import Method as _Method
from .methods import (
    annotation_to_types,
    at_least_as_specific,
    method_from,
    takes_anything,
    takes_keywords,
)
from .names import function_name

__all__ = [
    "RuleInfo",
    "RuleTable",
    "frule",
    "function_name",
    "opt_out",
    "register_alias",
    "registered_functions",
    "rrule",
    "rules_key",
]

_aliases: dict[Any, Any] = {}  # stand-in -> the function whose rules it uses


def register_alias(stand_in: Any, f: Any) -> None:
    """Make ``stand_in`` use ``f``'s rules, those registered before and after (see above)."""
    if stand_in is not f:
        _aliases[stand_in] = _aliases.get(f, f)


def rules_key(f: Any) -> Any:
    """The function whose rules ``f`` uses: ``f`` itself unless it is a registered stand-in."""
    try:
        return _aliases.get(f, f)
    except TypeError:  # unhashable: no alias
        return f


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

    def __init__(self, kind: str, *, libraries: bool = False) -> None:
        if kind not in ("rrule", "frule"):
            raise ValueError(f"RuleTable kind must be 'rrule' or 'frule', not {kind!r}")
        self.kind = kind
        # The global tables load a rule library when a lookup of one of its functions
        # finds nothing (``chainrules.core.libraries``); tables made elsewhere never do.
        self._libraries = libraries
        self._entries: dict[Any, _Entry] = {}
        # f -> (rule, fewest and most positional arguments, keywords taken or None for any)
        # for a function with one rule taking any arguments: the whole lookup of the hot path.
        self._singles: dict[Any, tuple[Callable, int, float, frozenset[str] | None]] = {}
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
        say them (it takes ``**kwargs`` to pass them on); by default, its signature's. A
        keyword of ``f``'s signature left out, that the rule takes by position, is bound to
        its position at each call (see the module docstring); ``f``'s signature is read here.

        The registered rule follows the protocol of ``chainrules.core.protocol``: its
        pullback gets unthunked cotangents and is never called with a zero one, and is named
        after ``f``. The decorator returns the rule as written.
        """

        def decorator(rule: Callable) -> Callable:
            self._add(f, method_from(rule, self.kind, needs, keywords, f))
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
        f = _aliases.get(f, f)
        if self._libraries:
            load_owner_before_registering(f)
        if not method.opted_out:
            positions = keyword_positions(
                f,
                len(method.types),
                method.varargs is not None,
                method.keywords,
                method.defaults,
                method.names,
                method.required,
            )
            method = dataclasses.replace(method, positions=positions)
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
            single = methods[0] if len(methods) == 1 and takes_anything(methods[0]) else None
            self._set_state(f, entry, _State(methods, {}, single))

    def _set_state(self, f: Any, entry: _Entry, state: _State) -> None:
        """Give ``f``'s entry ``state`` (under the lock), and the hot path its one rule."""
        entry.state = state
        single = state.single
        if single is None:
            self._singles.pop(f, None)
        else:
            self._singles[f] = (single.fn, single.required, single.most, single.keywords)

    def replace_single(self, f: Any, wrap: Callable[[Callable], Callable]) -> Callable | None:
        """Run ``wrap(fn)`` in place of ``fn``, the rule of ``f``'s one method for any argument
        types (``chainrules.core.fast_paths``); returns ``fn``, or ``None`` (nothing replaced)
        when ``f`` has no such method. The method's other fields, its author's rule among them,
        stay."""
        with self._lock:
            entry = self._entries.get(f)
            single = None if entry is None else entry.state.single
            if single is None or single.needs is not None:
                return None
            method = dataclasses.replace(single, fn=wrap(single.fn))
            self._set_state(f, entry, _State((method,), {}, method))  # type: ignore[arg-type]
            return single.fn

    def _entry(self, f: Any) -> _Entry | None:
        """``f``'s entry, or that of the function it stands in for; ``None`` when neither.

        A miss loads the rule library owning the function, if it is pending, and looks again.
        """
        try:
            entry = self._entries.get(f)
        except TypeError:  # an unhashable callable has no rule
            return None
        if entry is None:
            key = _aliases.get(f, f) if _aliases else f
            if key is not f:
                entry = self._entries.get(key)
            if entry is None and self._libraries and load_owner(key):
                entry = self._entries.get(key)
        return entry

    def has_rule(self, f: Any) -> bool:
        """Whether any non-opt-out rule is registered for ``f`` (for any argument types)."""
        entry = self._entry(f)
        return entry is not None and any(not m.opted_out for m in entry.state.methods)

    def functions(self) -> Iterator[Any]:
        """The functions with entries, as a snapshot (registration may go on meanwhile); every
        pending rule library is loaded first."""
        if self._libraries:
            load_all()
        with self._lock:
            return iter(list(self._entries))

    def methods(self, f: Any) -> tuple[_Method, ...]:
        entry = self._entry(f)
        return () if entry is None else entry.state.methods

    # ---- lookup --------------------------------------------------------------------------

    def lookup(self, f: Any, args: tuple, config: Any = None) -> Callable | None:
        """The rule that applies to ``f(*args)``, bound to ``config`` if it needs one, or None."""
        method = self._find(f, args, config)
        if method is None:
            return None
        return method.fn if method.needs is None else _bind_config(method.fn, config)

    def _find(self, f: Any, args: tuple, config: Any) -> _Method | None:
        entry = self._entry(f)
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
                o is not m and at_least_as_specific(o, m, n) and not at_least_as_specific(m, o, n)
                for o in applicable
            )
        ]
        if len(best) > 1:
            # An opt-out as specific as every rule it meets is meant to override them.
            for m in best:
                if m.opted_out and all(at_least_as_specific(m, o, n) for o in best):
                    return m
            candidates = "; ".join(m.describe() for m in best)
            got = ", ".join(t.__name__ for t in arg_types)
            raise AmbiguousRuleError(
                f"{self.kind} for {function_name(f)} is ambiguous for arguments ({got}): "
                f"candidates {candidates}. Register a rule for these exact types to decide."
            )
        return best[0]

    def _run(self, f: Any, args: tuple, kwargs: dict, config: Any, prefix: tuple) -> Any:
        try:  # the hot path: one rule taking any arguments, and the keywords given
            single = self._singles.get(f)
        except TypeError:  # an unhashable callable has no rule
            return None
        if single is not None:
            rule, fewest, most, accepted = single
            if fewest <= len(args) <= most:
                if not kwargs:
                    return rule(*prefix, *args) if prefix else rule(*args)
                if accepted is None or accepted.issuperset(kwargs):
                    return rule(*prefix, *args, **kwargs)
        method = self._find(f, args, config)
        if kwargs and (method is None or not takes_keywords(method, kwargs)):
            bound = self._bind(f, method, args, kwargs)
            if bound is not None:
                args, kwargs = bound
                method = self._find(f, args, config)
                if prefix and method is not None:
                    prefix = (pad_tangents(prefix[0], args),)
            if method is not None and method.keywords is not None:
                check_keywords(self.kind, f, method.keywords, kwargs)
        if method is None:
            return None
        if method.needs is not None:
            return method.fn(config, *prefix, *args, **kwargs)
        return method.fn(*prefix, *args, **kwargs)

    def bound_arguments(
        self, f: Any, args: tuple, kwargs: dict, config: Any = None
    ) -> tuple[tuple, dict]:
        """``(args, kwargs)`` as the rule for ``f`` is given them: the keywords it takes only by
        position bound there (see the module docstring). For consumers that match the
        cotangents, or the tangents, to the arguments. Raises ``RuleKeywordError`` where a
        keyword cannot be bound (a position before it has neither a value nor a default).

        >>> import numpy as np
        >>> rrule.bound_arguments(np.swapaxes, ("x",), {"axis1": 0, "axis2": 1})
        (('x', 0, 1), {})
        """
        if kwargs:
            method = self._find(f, args, config)
            if method is None or not takes_keywords(method, kwargs):
                bound = self._bind(f, method, args, kwargs)
                if bound is not None:
                    return bound
        return args, kwargs

    def _bind(
        self, f: Any, method: _Method | None, args: tuple, kwargs: dict
    ) -> tuple[tuple, dict] | None:
        """``(args, kwargs)`` with the keywords the rule takes by position moved there."""
        if method is not None:
            if method.positions is None:
                return None
            return bind_keywords(self.kind, f, method.positions, args, kwargs)
        # No rule for the positional arguments alone (``np.clip(a=x, a_min=0)``): a rule
        # whose positions take the keywords may apply once they are bound.
        for m in self.methods(f):
            if m.positions is not None:
                try:
                    return bind_keywords(self.kind, f, m.positions, args, kwargs)
                except RuleKeywordError:  # these keywords cannot reach it: no rule
                    return None
        return None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.kind == "rrule":
            return self._run(args[0], args[1:], kwargs, None, ())
        return self._run(args[1], args[2:], kwargs, None, (args[0],))


class _RRuleTable(RuleTable):
    """The rrule table, with the lookup of a single untyped rule inlined: the hot path."""

    def __call__(self, f: Any, /, *args: Any, **kwargs: Any) -> Any:
        try:
            single = self._singles.get(f)
        except TypeError:  # an unhashable callable has no rule
            return None
        if single is not None:  # as in _run, inlined: the hottest path of all
            rule, fewest, most, accepted = single
            if fewest <= len(args) <= most:
                if not kwargs:
                    return rule(*args)
                if accepted is None or accepted.issuperset(kwargs):
                    return rule(*args, **kwargs)
        return self._run(f, args, kwargs, None, ())


def _bind_config(fn: Callable, config: Any) -> Callable:
    def with_config(*args: Any, **kwargs: Any) -> Any:
        return fn(config, *args, **kwargs)

    with_config.__wrapped__ = fn  # type: ignore[attr-defined]
    return with_config


# ---- the two tables and what the registry knows about functions ----------------------------

rrule: RuleTable = _RRuleTable("rrule", libraries=True)
frule = RuleTable("frule", libraries=True)
_non_differentiable: set[Any] = set()
_non_differentiable_lock = threading.Lock()  # readers take snapshots while others register


def mark_non_differentiable(f: Any) -> None:
    if not isinstance(f, Unavailable):
        with _non_differentiable_lock:
            _non_differentiable.add(rules_key(f))


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
        parsed = tuple(annotation_to_types(t, opt_out, f"type {i}") for i, t in enumerate(types_))
        method = _Method(opt_out, parsed, len(parsed), None, None, None, opted_out=True)
    else:
        method = _Method(opt_out, (), 0, object, None, None, opted_out=True)
    table._add(f, method)


def registered_functions() -> list[RuleInfo]:
    """Every function the registry knows, with what it has; sorted by name.

    >>> import numpy as np
    >>> any(info.function is np.sin for info in registered_functions())
    True
    """
    load_all()
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
