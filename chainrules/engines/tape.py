"""The reverse engine's tape: the calls a level recorded, and the backward pass over them.

Each call with a rule takes the next index on its level's ``Tape``, where the tape keeps the
rule's pullback and, for each tracked value in the arguments, where its cotangent sits in the
pullback's result (``grads[i]``, or a field of it: an element of ``np.concatenate``'s list, a
captured variable of a closure) and the index of the call that produced it. Inputs are entries
with no pullback. A rule with several outputs (a tuple, a namedtuple) gets one small entry per
tracked output that places the output's cotangent in a ``Tangent`` of the whole result.

``backward`` walks the tape once from the newest call to the oldest, calling each pullback
whose output received a cotangent and adding the cotangents of its arguments (``add``, never
in place, so a cotangent handed out is never changed afterwards). Cotangents for constant
arguments are never unthunked, so a rule's ``Thunk`` for them is never computed, also while an
outer differentiation is running (a second derivative): the sweep then calls each pullback
with thunks deferred, and unthunks the cotangents of the tracked arguments at once, so that
everything they compute is recorded by the outer level before its own backward pass, and
nothing is computed for the constants (an order derivative of ``jv(2.5, x)`` in a Hessian in
``x``).

>>> import numpy as np
>>> from chainrules.engines import reverse
>>> y, pullback = reverse.vjp(np.sin, 0.0)
>>> pullback(2.0)
(2.0,)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..core.errors import ChainRulesError, ProjectionError
from ..core.names import function_name
from ..core.primals import FLOAT64
from ..core.registry import rrule
from ..core.structure import has_tangent_space
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NotImplementedTangent, Tangent
from ..core.thunks import AbstractThunk, eager_thunks
from .arguments import PLAIN, Leaf, field_of, unwrap
from .derived import DerivedIntegers, plain, taint
from .levels import Level, open_levels
from .tracked import Tracked, inexact, keywords_as_positions, rebuild_sequence, without_rule
from .tripwires import NoRuleError

__all__ = ["ReverseLevel", "ReverseTracked", "Tape", "backward", "rule_keywords"]


class Tape:
    """The calls a level recorded, by index: for each, its pullback (``None`` for an input),
    the function, and where its arguments' cotangents go.

    ``parents[k]`` is flat, three entries per tracked argument of call ``k``: the index of its
    cotangent in the pullback's result, the path to it inside that cotangent (``None``: the
    whole of it), and the index of the call that produced the argument. Three lists, not an
    object per call, and calls referred to by index: Python's garbage collector stops visiting
    a tuple of numbers, ``None`` and keys at its first collection, so that the pullback is the
    one object per call it keeps visiting while the tape lives. Each object it tracks brings
    its next full collection, which visits every object of the process, sooner.
    """

    __slots__ = ("functions", "parents", "pullbacks")

    def __init__(self) -> None:
        self.pullbacks: list[Any] = []
        self.parents: list[tuple] = []
        self.functions: list[Any] = []

    def record(self, pullback: Any, parents: tuple, function: Any) -> int:
        """Append a call; its index."""
        index = len(self.pullbacks)
        self.pullbacks.append(pullback)
        self.parents.append(parents)
        self.functions.append(function)
        return index

    def __len__(self) -> int:
        return len(self.pullbacks)

    def __repr__(self) -> str:
        return f"<tape of {len(self)} calls>"


_new = object.__new__

# The positions ``needed`` is told for the calls of two arguments that ``apply`` tells at once.
_FIRST, _SECOND, _BOTH = (1,), (2,), (1, 2)
# Where each argument's entry starts among a call's flat parents (see Tape), by their length.
_STARTS = tuple(tuple(range(0, n, 3)) for n in range(3 * 8 + 1))


class ReverseTracked(Tracked):
    """A value tracked by the reverse engine: the index on its level's tape of the call that
    produced it."""

    __slots__ = ("index",)

    def __init__(self, value: Any, level: Level, index: int) -> None:
        self.value = value
        self.level = level
        self.index = index


class _Select:
    """The pullback of one output of a rule with several: a ``Tangent`` of the whole result."""

    __slots__ = ("key", "result_type", "size")

    def __init__(self, result: Any, key: int) -> None:
        self.result_type = type(result)
        self.size = len(result)
        self.key = key

    def __call__(self, dy: Any) -> tuple[Any, Any]:
        cls = self.result_type
        if hasattr(cls, "_fields"):
            fields = {name: ZERO_TANGENT for name in cls._fields}
            fields[cls._fields[self.key]] = dy
            return NO_TANGENT, Tangent(cls, **fields)
        elements = [ZERO_TANGENT] * self.size
        elements[self.key] = dy
        return NO_TANGENT, Tangent(cls, *elements)


def untracked_structure_error(f: Any) -> ChainRulesError:
    return ChainRulesError(
        f"the rule for {function_name(f)} returned a structure whose float values the engine "
        f"cannot track (only a value, or a tuple, namedtuple or list of values); its "
        f"derivative would be lost"
    )


class ReverseLevel(Level):
    """A level of the reverse engine: it records rules' pullbacks on its tape."""

    __slots__ = ("config", "tape")

    def __init__(self, config: Any) -> None:
        super().__init__("reverse")
        self.config = config
        self.tape = Tape()

    def input(self, value: Any) -> ReverseTracked:
        """A new input of the differentiation, tracked from ``value``."""
        return ReverseTracked(value, self, self.tape.record(None, (), None))

    def apply(self, f: Any, args: tuple, kwargs: dict) -> Any:
        if kwargs:
            args, kwargs = rule_keywords(f, args, kwargs, self)
        # The frequent calls told at once: one or two arguments, each a value of this level or
        # a plain number (``sin(x)``, ``x * 1.01``, ``x + y``); any other, ``_arguments``.
        values: Any = None
        parents: tuple
        positions: Any = None  # those of the tracked arguments, told to needed
        if len(args) == 1:
            a = args[0]
            if type(a) is ReverseTracked and a.level is self:
                values, parents = (a.value,), (1, None, a.index)
        elif len(args) == 2:
            a, b = args
            if type(a) is ReverseTracked and a.level is self:
                if type(b) is ReverseTracked and b.level is self:
                    values, parents = (a.value, b.value), (1, None, a.index, 2, None, b.index)
                    positions = _BOTH
                elif type(b) in PLAIN:
                    values, parents, positions = (a.value, b), (1, None, a.index), _FIRST
            elif type(b) is ReverseTracked and b.level is self and type(a) in PLAIN:
                values, parents, positions = (a, b.value), (2, None, b.index), _SECOND
        if values is None:
            values, parents = self._arguments(args)
        result = rrule._run(f, values, kwargs, self.config, ())
        if result is None:
            return without_rule(self, f, args, kwargs, values)
        y, pullback = result
        cls = type(y)
        if cls is np.ndarray:  # the frequent results, told by their type
            recorded = y.dtype is FLOAT64 or y.dtype.kind in "fc"
            if recorded and len(values) > 1:
                # Several arguments: the pullback may let go of what only the constants'
                # cotangents need (an array kept alive until the backward pass), or, with every
                # argument tracked, give numbers rather than thunks the sweep would unthunk.
                needed = getattr(pullback, "needed", None)
                if needed is not None:
                    needed(parents[0::3] if positions is None else positions)
        elif cls is np.float64 or cls is float:
            recorded = True
        else:
            recorded = inexact(y)
            if recorded and isinstance(y, Tracked) and y.level is self:
                raise ChainRulesError(
                    f"the rule for {function_name(f)} computed with values of the "
                    f"differentiation that called it, hidden where the engine could not "
                    f"unwrap them; their derivative would be lost"
                )
        if recorded:
            tape = self.tape  # as tape.record(...), inlined: once per operation
            tracked = _new(ReverseTracked)
            tracked.value, tracked.level, tracked.index = y, self, len(tape.pullbacks)
            tape.pullbacks.append(pullback)
            tape.parents.append(parents)
            tape.functions.append(f)
            return tracked
        if isinstance(y, tuple | list):
            return self._outputs(y, self.tape.record(pullback, parents, f), f)
        if has_tangent_space(y):
            raise untracked_structure_error(f)
        return taint(y)  # no tangent space: nothing to record

    def _arguments(self, args: tuple) -> tuple[Any, tuple]:
        """The arguments as the rule takes them, this level's tracked values replaced by their
        values (also inside lists, tuples and the structures ``unwrap`` walks), and the flat
        ``parents`` of the tape (see ``Tape``)."""
        parents: list = []
        values: Any = args
        i = 0
        for a in args:
            i += 1
            cls = type(a)
            if cls is ReverseTracked or (cls not in PLAIN and isinstance(a, Tracked)):
                if a.level is not self:
                    continue
                new = a.value
                parents += (i, None, a.index)
            elif cls in PLAIN:
                continue
            else:
                found: list[tuple] = []
                new = unwrap(a, self, (), found, {})
                for path, t in found:
                    parents += (i, path, t.index)
                if new is a:
                    continue
            if values is args:
                values = list(args)
            values[i - 1] = new
        return values, tuple(parents)

    def _outputs(self, y: tuple | list, index: int, f: Any) -> Any:
        """The outputs of call ``index`` of ``f``, each tracked by an entry of its own."""
        parent = (1, None, index)
        elements = []
        for key, element in enumerate(y):
            if inexact(element):
                select = self.tape.record(_Select(y, key), parent, f)
                element = ReverseTracked(element, self, select)
            elif has_tangent_space(element):
                raise untracked_structure_error(f)
            else:
                element = taint(element)
            elements.append(element)
        return rebuild_sequence(y, elements)


def rule_keywords(f: Any, args: tuple, kwargs: dict, level: Level) -> tuple[tuple, dict]:
    """``(args, kwargs)`` for a rule: tracked keywords moved to positions, integers plain."""
    moved = keywords_as_positions(f, args, kwargs, level)
    if moved is None:
        raise tracked_keyword_error(f, kwargs)
    args, kwargs = moved
    if any(type(v) is DerivedIntegers for v in kwargs.values()):
        kwargs = {k: plain(v) for k, v in kwargs.items()}
    return args, kwargs


def tracked_keyword_error(f: Any, kwargs: dict) -> NoRuleError:
    names = ", ".join(k for k, v in kwargs.items() if isinstance(v, Tracked | list | tuple))
    return NoRuleError(
        f"{function_name(f)} received a tracked value by keyword ({names}=...) "
        f"that cannot be passed by position: rules give derivatives only for positional "
        f"arguments. Pass it positionally."
    )


def _element(ct: Any, path: tuple) -> Any:
    for key, index in path:
        if isinstance(ct, AbstractZero):
            return ct
        ct = field_of(ct, key, index)
    return ct


def backward(level: ReverseLevel, seeds: Iterable[tuple[int, Any]]) -> list[Any]:
    """Run the tape backwards from ``(index, cotangent)`` seeds; the cotangent of every call on
    the tape, by its index (``None`` where none arrived)."""
    seeds = list(seeds)
    start = max((index for index, _ in seeds), default=-1)
    cotangents: list[Any] = [None] * (start + 1)
    for index, ct in seeds:
        _accumulate(cotangents, index, ct)
    if open_levels():
        with eager_thunks(False):  # constants' thunks stay uncomputed
            _sweep(level.tape, cotangents, start)
    else:
        _sweep(level.tape, cotangents, start)
    return cotangents


def _accumulate(cotangents: list[Any], index: int, ct: Any) -> None:
    if isinstance(ct, AbstractThunk):
        ct = ct.unthunk()
    existing = cotangents[index]
    cotangents[index] = ct if existing is None else existing + ct


def _sweep(tape: Tape, cotangents: list[Any], start: int) -> None:
    pullbacks, all_parents = tape.pullbacks, tape.parents
    for index in range(start, -1, -1):
        ct = cotangents[index]
        if ct is None:
            continue
        pullback = pullbacks[index]
        if pullback is None:
            continue  # an input: its cotangent stays for the caller
        cotangents[index] = None
        grads = pullback(ct)
        parents = all_parents[index]
        n = len(parents)  # (a range made for each call costs more than the table)
        for k in _STARTS[n] if n < len(_STARTS) else range(0, n, 3):
            i, path, j = parents[k], parents[k + 1], parents[k + 2]
            g = grads[i] if path is None else _element(grads[i], path)
            cls = type(g)
            if cls is not np.ndarray and cls is not np.float64 and cls is not float:
                if isinstance(g, AbstractZero):
                    continue
                if isinstance(g, AbstractThunk):
                    g = g.unthunk()
                if isinstance(g, NotImplementedTangent):
                    raise _not_implemented(tape.functions[index], i, g)
            existing = cotangents[j]
            cotangents[j] = g if existing is None else existing + g


def _not_implemented(f: Any, i: int, g: NotImplementedTangent) -> ChainRulesError:
    return ChainRulesError(
        f"the rule for {function_name(f)} does not give the cotangent of its argument {i}: {g.info}"
    )


def seeds_for(plan: Any, dy: Any, visit: Callable[[Any, Any], None], f: Any = None) -> None:
    """Call ``visit(leaf, cotangent)`` for each tracked leaf of a result plan and ``dy``.

    ``dy`` must have the result's layout: a leaf's seed its shape, a sequence's seed its length;
    otherwise ``ProjectionError`` names ``f`` and both shapes (a seed is never broadcast).
    """
    stack: list[tuple[Any, Any, tuple]] = [(plan, dy, ())]
    seen: set[int] = set()
    while stack:
        p, d, where = stack.pop()
        if p is None or id(p) in seen:
            continue
        seen.add(id(p))
        if isinstance(d, AbstractThunk):
            d = d.unthunk()
        if isinstance(p, Leaf):
            if d is not None and not isinstance(d, AbstractZero):
                _check_seed_shape(f, p.primal, d, where)
            visit(p, d)
            continue
        if isinstance(d, tuple | list) and len(d) != len(p.fields):
            raise ProjectionError(
                f"the cotangent given to the pullback of {function_name(f)}{_at(where)} has "
                f"{len(d)} elements, but the result has {len(p.fields)}"
            )
        for index, (key, field) in enumerate(p.fields.items()):
            stack.append((field, field_of(d, key, index), (*where, key)))


def _at(where: tuple) -> str:
    return " at " + "".join(f"[{key!r}]" for key in where) if where else ""


def _check_seed_shape(f: Any, primal: Any, d: Any, where: tuple) -> None:
    shape = getattr(primal, "shape", ())
    d_shape = getattr(d, "shape", None)
    if d_shape is None:
        d_shape = np.shape(d) if isinstance(d, list | tuple) else ()
    if tuple(d_shape) != tuple(shape):
        raise ProjectionError(
            f"the cotangent given to the pullback of {function_name(f)}{_at(where)} has shape "
            f"{tuple(d_shape)}, but the result has shape {tuple(shape)}: a cotangent has the "
            f"shape of the result it belongs to (it is never broadcast or summed)"
        )
