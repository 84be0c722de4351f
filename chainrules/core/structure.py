"""How primals decompose into fields: the one place that knows Python's object layouts.

A primal is either a *leaf* (a number, an array, a string, a module, a plain function...) or a
*structure* with fields: tuples and lists (positional), dicts (by key), namedtuples,
dataclasses, objects with ``__dict__`` or ``__slots__`` (by name), and closures (by free
variable, over the contents of their cells). ``zero_tangent``, ``ProjectTo`` and the testing
harness all walk primals through ``decompose`` and put them back together with ``rebuild``.

>>> decompose((1.0, "a"))
Fields(kind='positional', primal_type=<class 'tuple'>, items=((0, 1.0), (1, 'a')), mutable=False)
>>> decompose(2.0) is None
True
"""

from __future__ import annotations

import copy
import dataclasses
import types
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .tangents import AbstractZero, NotImplementedTangent, Tangent
from .thunks import AbstractThunk

__all__ = [
    "Fields",
    "decompose",
    "has_tangent_space",
    "is_differentiable_leaf",
    "reaches",
    "rebuild",
]


class Fields(NamedTuple):
    """The fields of a structured primal, in the order ``rebuild`` takes them back."""

    kind: str  # "positional", "named" or "mapping", as in ``Tangent``
    primal_type: type
    items: tuple[tuple[Any, Any], ...]
    mutable: bool


_LEAF_TYPES = (
    int,
    float,
    complex,
    str,
    bytes,
    bytearray,
    type(None),
    type(Ellipsis),
    slice,
    range,
    type,
    types.ModuleType,
    types.BuiltinFunctionType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    np.ndarray,
    np.generic,
    np.dtype,
    np.ufunc,
    AbstractZero,
    AbstractThunk,
    NotImplementedTangent,
    Tangent,
)


def _is_array_like(x: Any) -> bool:
    return hasattr(type(x), "__array_namespace__") or (
        hasattr(x, "shape") and hasattr(x, "dtype") and hasattr(x, "ndim")
    )


def is_differentiable_leaf(x: Any) -> bool:
    """Whether a leaf has a tangent space: real and complex floats and float arrays.

    >>> is_differentiable_leaf(1.0), is_differentiable_leaf(1), is_differentiable_leaf(True)
    (True, False, False)
    """
    if isinstance(x, float | complex):
        return True
    if isinstance(x, np.ndarray | np.generic):
        return x.dtype.kind in "fc"
    if _is_array_like(x) and not isinstance(x, Tangent):
        return _foreign_dtype_is_inexact(x)
    return False


def _foreign_dtype_is_inexact(x: Any) -> bool:
    dtype = x.dtype
    if isinstance(dtype, np.dtype):
        return dtype.kind in "fc"
    is_floating = getattr(dtype, "is_floating_point", None)  # torch dtypes
    if is_floating is not None:
        return bool(is_floating or dtype.is_complex)
    try:
        return np.dtype(dtype).kind in "fc"
    except TypeError:
        return "float" in str(dtype) or "complex" in str(dtype)


def decompose(x: Any) -> Fields | None:
    """The fields of a structured primal, or ``None`` for a leaf."""
    if isinstance(x, _LEAF_TYPES) or _is_array_like(x):
        return None
    cls = type(x)
    if isinstance(x, tuple):
        if hasattr(cls, "_fields"):
            return Fields("named", cls, tuple(zip(cls._fields, x, strict=True)), False)
        return Fields("positional", cls, tuple(enumerate(x)), False)
    if isinstance(x, list):
        return Fields("positional", cls, tuple(enumerate(x)), True)
    if isinstance(x, dict):
        return Fields("mapping", cls, tuple(x.items()), True)
    if isinstance(x, types.FunctionType):
        if not x.__closure__:
            return None
        items = []
        for name, cell in zip(x.__code__.co_freevars, x.__closure__, strict=True):
            try:
                items.append((name, cell.cell_contents))
            except ValueError:  # an empty cell: the variable is not bound yet
                continue
        return Fields("named", types.FunctionType, tuple(items), False)
    if isinstance(x, types.MethodType | property):
        return None
    if dataclasses.is_dataclass(x):
        frozen = cls.__dataclass_params__.frozen
        fields = tuple((f.name, getattr(x, f.name)) for f in dataclasses.fields(x))
        return Fields("named", cls, fields, not frozen)
    names = _attribute_names(x)
    if names is None:
        return None
    return Fields("named", cls, tuple((n, getattr(x, n)) for n in names), True)


def _attribute_names(x: Any) -> list[str] | None:
    names: list[str] = list(getattr(x, "__dict__", {}) or ())
    has_layout = hasattr(x, "__dict__")
    for klass in type(x).__mro__:
        slots = klass.__dict__.get("__slots__")
        if slots is None:
            continue
        has_layout = True
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(x, slot) and slot not in names:
                names.append(slot)
    return names if has_layout else None


def has_tangent_space(x: Any, known: dict[int, bool] | None = None) -> bool:
    """Whether any differentiable leaf can be reached from ``x``; safe on cyclic graphs.

    Alone, it stops at the first differentiable leaf it finds. Walkers that ask about every
    node of one graph pass one ``known`` dict to all their calls: it memoizes answers by
    ``id``, a structure with a differentiable field is answered at once, and otherwise one
    walk answers for every node it reaches, so the total time is linear in the graph's size.

    >>> has_tangent_space((1, "a")), has_tangent_space([1, (2, 3.5)])
    (False, True)
    """
    if known is None:
        return _reaches_differentiable_leaf(x)
    answer = known.get(id(x))
    if answer is not None:
        return answer
    fields = decompose(x)
    if fields is None:
        return is_differentiable_leaf(x)
    if any(is_differentiable_leaf(value) for _, value in fields.items):
        known[id(x)] = True
        return True
    _mark_tangent_spaces(x, known)
    return known[id(x)]


def _reaches_differentiable_leaf(x: Any) -> bool:
    return reaches(x, lambda node: True if is_differentiable_leaf(node) else None)


def reaches(x: Any, verdict: Callable[[Any], bool | None]) -> bool:
    """Whether the object graph from ``x`` holds a node for which ``verdict`` is True.

    ``verdict(node)`` is True (found), False (do not look inside this node) or None (look
    into its fields, if it has any). Each node is visited once, so cycles are fine.

    >>> reaches([1, (2, "a")], lambda node: node == "a" or None)
    True
    """
    stack, seen = [x], {id(x)}
    while stack:
        node = stack.pop()
        found = verdict(node)
        if found:
            return True
        if found is False:
            continue
        fields = decompose(node)
        if fields is None:
            continue
        for _, value in fields.items:
            if id(value) not in seen:
                seen.add(id(value))
                stack.append(value)
    return False


def _mark_tangent_spaces(x: Any, known: dict[int, bool]) -> None:
    """Record in ``known`` whether each node reachable from ``x`` has a tangent space.

    One walk of the graph, then one walk back from the differentiable leaves along the
    reversed edges. Answers already in ``known`` are trusted and not walked past.
    """
    nodes = {id(x): x}  # keeps every node alive, so that no id is reused during the walk
    parents: dict[int, list[int]] = {}
    reached: list[int] = []
    stack = [x]
    while stack:
        node = stack.pop()
        answer = known.get(id(node))
        if answer is not None:
            if answer:
                reached.append(id(node))
            continue
        fields = decompose(node)
        if fields is None:
            if is_differentiable_leaf(node):
                reached.append(id(node))
            continue
        for _, value in fields.items:
            parents.setdefault(id(value), []).append(id(node))
            if id(value) not in nodes:
                nodes[id(value)] = value
                stack.append(value)
    with_space = set(reached)
    while reached:
        for parent in parents.get(reached.pop(), ()):
            if parent not in with_space:
                with_space.add(parent)
                reached.append(parent)
    for node_id in nodes:
        known[node_id] = node_id in with_space


def rebuild(x: Any, values: dict[Any, Any]) -> Any:
    """A new primal like ``x`` with the fields in ``values`` replaced; ``x`` is not changed.

    >>> rebuild((1.0, 2.0), {1: 5.0})
    (1.0, 5.0)
    """
    fields = decompose(x)
    if fields is None:
        raise TypeError(f"rebuild: {type(x).__name__} is a leaf, it has no fields")
    merged = dict(fields.items)
    merged.update(values)
    cls = fields.primal_type
    if fields.kind == "positional":
        elements = [merged[i] for i in range(len(merged))]
        return (
            elements if isinstance(x, list) else cls(elements) if cls is tuple else cls(*elements)
        )
    if fields.kind == "mapping":
        new = copy.copy(x)
        new.update(merged)
        return new
    if isinstance(x, tuple):  # namedtuple
        return x._replace(**merged)  # type: ignore[attr-defined]
    if isinstance(x, types.FunctionType):
        cells = []
        for name, cell in zip(x.__code__.co_freevars, x.__closure__ or (), strict=True):
            cells.append(types.CellType(merged[name]) if name in merged else cell)
        new_fn = types.FunctionType(
            x.__code__, x.__globals__, x.__name__, x.__defaults__, tuple(cells)
        )
        new_fn.__kwdefaults__ = x.__kwdefaults__
        new_fn.__dict__.update(x.__dict__)
        return new_fn
    new = copy.copy(x)
    for name, value in merged.items():
        object.__setattr__(new, name, value)
    return new
