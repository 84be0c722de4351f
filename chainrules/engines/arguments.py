"""Arguments and results as structures: which leaves get tracked, and how tangents come back.

An engine differentiates with respect to every float and complex leaf of its arguments:
floats, arrays, and such leaves inside tuples, lists, dicts, namedtuples, dataclasses, objects
and closures (their captured variables). ``Tracker.track`` rebuilds an argument with each such
leaf replaced by a tracked value and remembers the layout in a *plan*; ``collect`` later walks
the plan to assemble one tangent for the whole argument, a ``Tangent`` for a structure.

Aliasing: within one argument, an array reached twice (two fields holding the same array, a
recursive closure reaching its own captured array again) is tracked once, so both places get
the same tangent object, holding the total derivative. Immutable scalars (Python and NumPy
floats) are values, never aliases: each place where one appears is its own leaf. Separate
positional arguments are always separate variables, even when they are the same object.
Cycles (a closure that refers to itself) are walked once and give a cyclic ``Tangent``.

>>> import numpy as np
>>> tracker = Tracker(lambda x, t: ("tracked", x))
>>> value, plan = tracker.track((1.0, "label"))
>>> value
(('tracked', 1.0), 'label')
>>> collect(plan, lambda leaf: 2.0)
Tangent[tuple](2.0, NoTangent())
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..core.structure import decompose, has_tangent_space, is_differentiable_leaf, reaches
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, MutableTangent, Tangent
from ..core.thunks import AbstractThunk
from .derived import DerivedIntegers
from .lazy_values import lazy_zeros_like
from .tracked import Tracked

__all__ = [
    "PLAIN",
    "Leaf",
    "Struct",
    "Tracker",
    "collect",
    "field_of",
    "tangent_of",
    "unit_basis",
    "untrack",
    "unwrap",
    "zeros_like_leaf",
]


class Leaf:
    """A tracked leaf of the plan: the primal it replaced and the tracked value."""

    __slots__ = ("primal", "tracked")

    def __init__(self, primal: Any, tracked: Any) -> None:
        self.primal = primal
        self.tracked = tracked


class Struct:
    """A structure of the plan: its layout and one plan per field (``None``: no tangent)."""

    __slots__ = ("fields", "kind", "mutable", "primal_type")

    def __init__(self, kind: str, primal_type: type, mutable: bool) -> None:
        self.kind = kind
        self.primal_type = primal_type
        self.mutable = mutable
        self.fields: dict[Any, Any] = {}


def field_of(t: Any, key: Any, index: int) -> Any:
    """The tangent of one field, from a structure's tangent (a ``Tangent``, tuple or dict).

    ``key`` names the field as ``decompose`` does (a position, a dict key, an attribute or
    namedtuple field name); ``index`` is its position, for a tangent given as a plain tuple.
    """
    if t is None:
        return ZERO_TANGENT
    if isinstance(t, AbstractZero):
        return t
    if isinstance(t, AbstractThunk):
        t = t.unthunk()
    if isinstance(t, Tangent):
        return t[index] if t.is_positional else t[key]
    if isinstance(t, tuple | list):
        return t[index]
    if isinstance(t, dict):
        return t.get(key, ZERO_TANGENT)
    raise TypeError(f"a {type(t).__name__} was given as the tangent of a structure")


class Tracker:
    """Replaces the differentiable leaves of values by ``make_leaf(primal, tangent)``.

    ``constant(value, tangent)``, when given, is called for each part that has no tangent
    space, so that a tangent given for it (an integer primal) can be refused.
    """

    __slots__ = ("constant", "make_leaf", "memo")

    def __init__(
        self, make_leaf: Callable[[Any, Any], Any], constant: Callable | None = None
    ) -> None:
        self.make_leaf = make_leaf
        self.constant = constant
        self.memo: dict[int, tuple[Any, Any, Any]] = {}  # id -> (primal kept alive, new, plan)

    def track(self, x: Any, tangent: Any = ZERO_TANGENT) -> tuple[Any, Any]:
        """``(x with tracked leaves, plan)``; ``tangent`` is ``x``'s tangent, for forward mode."""
        self.memo.clear()
        return self._track(x, tangent)

    def _track(self, x: Any, t: Any) -> tuple[Any, Any]:
        # A work list, not recursion: a linked list of any length is walked in constant stack.
        # Entries are (x, t, store) to visit, or (x, plan, values, store) to finish a tuple
        # once its fields are tracked; ``store(new, plan)`` puts a result in its parent.
        result: list[Any] = []
        known: dict[int, bool] = {}
        work: list[tuple] = [(x, t, lambda new, plan: result.extend((new, plan)))]
        while work:
            entry = work.pop()
            if len(entry) == 4:
                x, plan, values, store = entry
                new = _rebuild_tuple(x, values)
                self.memo[id(x)] = (x, new, plan)
                store(new, plan)
                continue
            x, t, store = entry
            hit = self.memo.get(id(x))
            if hit is not None:
                store(hit[1], hit[2])
                continue
            fields = decompose(x)
            if fields is None and is_differentiable_leaf(x):
                new = self.make_leaf(x, t)
                leaf = Leaf(x, new)
                if isinstance(x, np.ndarray):  # arrays are mutable: two references are one value
                    self.memo[id(x)] = (x, new, leaf)
                store(new, leaf)
                continue
            if fields is None or not has_tangent_space(x, known):
                if self.constant is not None:
                    self.constant(x, t)
                store(x, None)
                continue
            plan = Struct(fields.kind, fields.primal_type, fields.mutable)
            plan.fields = dict.fromkeys(key for key, _ in fields.items)  # in the fields' order
            children = []
            if isinstance(x, tuple):  # immutable: no cycle can pass through it before it exists
                tracked_fields: dict[Any, Any] = {}
                work.append((x, plan, tracked_fields, store))
                for index, (key, value) in enumerate(fields.items):
                    children.append(
                        (value, field_of(t, key, index), _into(tracked_fields, plan, key))
                    )
            else:
                new = _shell(x)
                self.memo[id(x)] = (x, new, plan)
                store(new, plan)
                for index, (key, value) in enumerate(fields.items):
                    children.append((value, field_of(t, key, index), _into_field(new, plan, key)))
            work.extend(reversed(children))  # popped in the fields' order
        return result[0], result[1]


def _into(values: dict, plan: Struct, key: Any) -> Callable[[Any, Any], None]:
    def store(new: Any, field_plan: Any) -> None:
        values[key] = new
        plan.fields[key] = field_plan

    return store


def _into_field(structure: Any, plan: Struct, key: Any) -> Callable[[Any, Any], None]:
    def store(new: Any, field_plan: Any) -> None:
        _set_field(structure, key, new)
        plan.fields[key] = field_plan

    return store


def _rebuild_tuple(x: tuple, values: dict[Any, Any]) -> tuple:
    if hasattr(type(x), "_fields"):
        return x._replace(**values)  # type: ignore[attr-defined]
    elements = [values[i] for i in range(len(x))]
    return tuple(elements) if type(x) is tuple else type(x)(elements)


def _shell(x: Any) -> Any:
    """A copy of a mutable structure whose fields are then set one by one (cycles allowed)."""
    if isinstance(x, types.FunctionType):
        cells = tuple(types.CellType() for _ in x.__code__.co_freevars)
        for cell, old in zip(cells, x.__closure__ or (), strict=True):
            try:
                cell.cell_contents = old.cell_contents
            except ValueError:  # an unbound cell stays unbound
                pass
        new = types.FunctionType(x.__code__, x.__globals__, x.__name__, x.__defaults__, cells)
        new.__kwdefaults__ = x.__kwdefaults__
        new.__dict__.update(x.__dict__)
        return new
    if isinstance(x, list):
        return list(x)
    return copy.copy(x)


def _set_field(new: Any, key: Any, value: Any) -> None:
    if isinstance(new, types.FunctionType):
        index = new.__code__.co_freevars.index(key)
        new.__closure__[index].cell_contents = value  # type: ignore[index]
    elif isinstance(new, list | dict):
        new[key] = value
    else:
        object.__setattr__(new, key, value)


def zeros_like_leaf(x: Any) -> Any:
    """A plain zero of a leaf's tangent space (the leaf may be tracked by an outer level)."""
    if isinstance(x, float):
        return 0.0
    if isinstance(x, complex):
        return 0j
    if isinstance(x, np.generic):
        return x.dtype.type(0)
    lazy = lazy_zeros_like(x)
    return np.zeros(x.shape, x.dtype) if lazy is None else lazy


def unit_basis(shape: tuple[int, ...], dtype: Any) -> Iterator[Any]:
    """The standard basis of arrays of ``shape``: one-hot arrays in flat (C) order.

    A 0-d basis element is yielded as a scalar, as a scalar function takes and returns one.

    >>> [e.tolist() for e in unit_basis((2,), np.float64)]
    [[1.0, 0.0], [0.0, 1.0]]
    """
    for k in range(int(np.prod(shape))):
        basis = np.zeros(shape, dtype)
        basis.flat[k] = 1
        yield basis if shape else basis[()]


def collect(plan: Any, leaf_tangent: Callable[[Leaf], Any]) -> Any:
    """One tangent for a tracked value: ``leaf_tangent(leaf)`` at each leaf, structures around.

    Aliased leaves get one and the same tangent object; a cyclic plan gives a cyclic tangent.
    A work list, not recursion, walks the plan, so any depth is fine.
    """
    memo: dict[int, Any] = {}
    root: dict[Any, Any] = {}
    positional: list[tuple[Any, dict]] = []  # tangents whose tuple is set once fields are in
    work: list[tuple[Any, dict, Any]] = [(plan, root, None)]
    while work:
        plan, into, key = work.pop()
        if plan is None:
            into[key] = NO_TANGENT
            continue
        hit = memo.get(id(plan))
        if hit is not None:
            into[key] = hit
            continue
        if isinstance(plan, Leaf):
            into[key] = memo[id(plan)] = leaf_tangent(plan)
            continue
        cls = MutableTangent if plan.mutable else Tangent
        backing = dict.fromkeys(plan.fields)  # in the fields' order
        is_positional = plan.kind == "positional"
        tangent = cls._from_backing(plan.primal_type, plan.kind, () if is_positional else backing)
        into[key] = memo[id(plan)] = tangent
        if is_positional:
            positional.append((tangent, backing))
        work.extend((field, backing, k) for k, field in reversed(plan.fields.items()))
    for tangent, backing in positional:
        object.__setattr__(tangent, "_backing", tuple(backing.values()))
    return root[None]


def untrack(y: Any, is_mine: Callable[[Any], bool]) -> tuple[Any, Any]:
    """``(y with this level's tracked leaves replaced by their values, plan)`` for a result.

    A work list, not recursion, walks the result, so any depth is fine.
    """
    memo: dict[int, Any] = {}
    result: list[Any] = []
    work: list[tuple] = [(y, lambda new, plan: result.extend((new, plan)))]
    while work:
        entry = work.pop()
        if len(entry) == 4:
            y, plan, values, store = entry
            if isinstance(y, tuple):
                new = _rebuild_tuple(y, values)
            else:
                new = _shell(y)
                for key, value in values.items():
                    _set_field(new, key, value)
            memo[id(y)] = (y, new, plan)
            store(new, plan)
            continue
        y, store = entry
        if is_mine(y):
            store(y.value, Leaf(y.value, y))
            continue
        if type(y) is DerivedIntegers:  # a result leaves the engine as plain numbers
            store(y.value, None)
            continue
        hit = memo.get(id(y))
        if hit is not None:
            store(hit[1], hit[2])
            continue
        fields = decompose(y)
        if fields is None:
            # a constant float result: its tangent is zero
            store(y, Leaf(y, None) if is_differentiable_leaf(y) else None)
            continue
        plan = Struct(fields.kind, fields.primal_type, fields.mutable)
        plan.fields = dict.fromkeys(key for key, _ in fields.items)
        plain_fields: dict[Any, Any] = dict.fromkeys(plan.fields)
        memo[id(y)] = (y, y, plan)
        work.append((y, plan, plain_fields, store))
        work.extend(
            (value, _into(plain_fields, plan, key)) for key, value in reversed(fields.items)
        )
    return result[0], result[1]


# ---- the arguments of one call: this level's tracked values, wherever they sit ---------------

PLAIN = frozenset(
    {float, int, bool, complex, str, bytes, type(None), slice, type(Ellipsis), np.ndarray}
)
_LEAVES = (np.generic, np.ndarray, np.dtype, np.ufunc, type, types.ModuleType, range)


def unwrap(a: Any, level: Any, path: tuple, found: list, memo: dict[int, Any]) -> Any:
    """``a`` with the values of ``level``'s tracked values in their place.

    Each tracked value found is recorded as ``(path, tracked)``; a path is a tuple of
    ``(key, index)`` steps, read back with ``field_of``. Lists and tuples are walked, and so
    are the structures ``decompose`` knows (namedtuples, dicts, dataclasses, objects, closures:
    a closure over a tracked value is rebuilt over its value), so that a rule is never called
    with a value of the level that is calling it.
    """
    if isinstance(a, Tracked):
        if a.level is level:
            found.append((path, a))
            return a.value
        return a
    cls = type(a)
    if cls in PLAIN:
        return a
    if cls is DerivedIntegers:  # rules compute with plain integers
        return a.value
    if cls is list or cls is tuple:
        out = None
        for j, element in enumerate(a):
            new = unwrap(element, level, (*path, (j, j)), found, memo)
            if new is not element:
                if out is None:
                    out = list(a)
                out[j] = new
        if out is None:
            return a
        return out if cls is list else tuple(out)
    if isinstance(a, _LEAVES):
        return a
    # ``memo`` holds the structures being rebuilt: a cycle back to one of them ends there. A
    # structure met twice without a cycle is rebuilt twice, each place with its own cotangent.
    hit = memo.get(id(a))
    if hit is not None:
        return hit[1]
    fields = decompose(a)
    if fields is None or not _holds(a, level):
        return a
    if isinstance(a, tuple):
        memo[id(a)] = (a, a)
        values = {
            key: unwrap(value, level, (*path, (key, index)), found, memo)
            for index, (key, value) in enumerate(fields.items)
        }
        del memo[id(a)]
        return _rebuild_tuple(a, values)
    new = _shell(a)
    memo[id(a)] = (a, new)
    for index, (key, value) in enumerate(fields.items):
        _set_field(new, key, unwrap(value, level, (*path, (key, index)), found, memo))
    del memo[id(a)]
    return new


def _holds(a: Any, level: Any) -> bool:
    """Whether a tracked value of ``level`` can be reached from ``a`` (cycles allowed)."""

    def verdict(node: Any) -> bool | None:
        if isinstance(node, Tracked):
            return node.level is level
        return False if isinstance(node, _LEAVES) else None

    return reaches(a, verdict)


def tangent_of(a: Any, found: list, constant: Callable[[Any], Any]) -> Any:
    """The tangent of argument ``a`` from ``(path, tangent)`` pairs at its tracked leaves.

    Lists and tuples get a list or tuple of element tangents; other structures a ``Tangent``;
    what holds no tracked value gets ``constant(value)``.
    """
    if not found:
        return constant(a)
    for path, tangent in found:
        if path == ():
            return tangent
    groups: dict[int, list] = {}
    for path, tangent in found:
        groups.setdefault(path[0][1], []).append((path[1:], tangent))
    cls = type(a)
    if cls is list or cls is tuple:
        return cls(tangent_of(e, groups.get(j, []), constant) for j, e in enumerate(a))
    fields = decompose(a)
    if fields is None:
        return constant(a)
    parts = {
        key: tangent_of(value, groups.get(index, []), constant)
        for index, (key, value) in enumerate(fields.items)
    }
    if fields.kind == "positional":
        return Tangent(fields.primal_type, *parts.values())
    if fields.kind == "mapping":
        return Tangent(fields.primal_type, parts)
    return Tangent(fields.primal_type, **parts)
