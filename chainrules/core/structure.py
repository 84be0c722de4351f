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
from typing import Any, NamedTuple

import numpy as np

from .tangents import AbstractZero, NotImplementedTangent, Tangent
from .thunks import AbstractThunk

__all__ = ["Fields", "decompose", "has_tangent_space", "is_differentiable_leaf", "rebuild"]


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

    ``known`` memoizes answers by ``id`` across calls on one object graph.

    >>> has_tangent_space((1, "a")), has_tangent_space([1, (2, 3.5)])
    (False, True)
    """
    known = {} if known is None else known
    stack, seen = [x], {id(x)}
    while stack:
        node = stack.pop()
        answer = known.get(id(node))
        if answer is not None:
            if answer:
                known[id(x)] = True
                return True
            continue
        fields = decompose(node)
        if fields is None:
            if is_differentiable_leaf(node):
                known[id(x)] = True
                return True
            continue
        for _, value in fields.items:
            if id(value) not in seen:
                seen.add(id(value))
                stack.append(value)
    # Nothing reachable from x is differentiable, so the same holds for everything seen.
    for node_id in seen:
        known[node_id] = False
    return False


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
