"""Walking primals: copies, perturbations, upcasts, value equality and leaf paths.

Every walk goes through ``chainrules.core.structure.decompose`` with a memo keyed by object
identity, so cyclic object graphs end, and an object reached twice (one array held in two
fields) is treated once and stays shared in whatever the walk builds. Mutable structures
(lists, dicts, objects, dataclasses) are copied shell first and filled in afterwards, and
closures get fresh cells, so cycles through them are rebuilt faithfully; an immutable tuple
that lies on a cycle is the one case rebuilt with its back-reference left pointing at the
original.

Paths name where a leaf sits: ``args[1].weights['b']`` (positional ``[i]``, mapping
``[key]``, named field or closure variable ``.name``).

>>> import numpy as np
>>> x = {"w": np.ones(2), "n": 3}
>>> [path for path, _ in iter_leaves(x, "args[0]")]
["args[0]['w']", "args[0]['n']"]
>>> perturb(x, {"w": np.ones(2)}, 0.5)["w"]
array([1.5, 1.5])
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from chainrules.core.structure import decompose, rebuild
from chainrules.core.tangents import AbstractZero, Tangent
from chainrules.core.thunks import unthunk

__all__ = [
    "copy_primal",
    "field_path",
    "first_difference",
    "iter_leaves",
    "map_primal",
    "moves_nothing",
    "perturb",
    "same_values",
    "upcast",
]

_IN_PROGRESS = object()


def field_path(prefix: str, kind: str, key: Any) -> str:
    """The path of field ``key`` of a structure of ``kind`` found at ``prefix``.

    >>> field_path("args[1]", "named", "weights"), field_path("x", "mapping", "b")
    ('args[1].weights', "x['b']")
    """
    if kind == "positional":
        return f"{prefix}[{key}]"
    if kind == "mapping":
        return f"{prefix}[{key!r}]"
    return f"{prefix}.{key}"


def tangent_field(tangent: Any, kind: str, key: Any) -> Any:
    """The part of ``tangent`` that belongs to field ``key``: a zero when there is none."""
    tangent = unthunk(tangent)
    if tangent is None or isinstance(tangent, AbstractZero):
        return tangent
    if isinstance(tangent, Tangent):
        if tangent.is_positional:
            return tangent.backing[key] if key < len(tangent.backing) else None
        return tangent.backing.get(key)
    if kind == "positional" and isinstance(tangent, tuple | list):
        return tangent[key]
    if kind == "mapping" and isinstance(tangent, dict):
        return tangent.get(key)
    return None


def iter_leaves(x: Any, prefix: str = "x") -> Iterator[tuple[str, Any]]:
    """Every distinct leaf reachable from ``x``, with its path, each once (cycle-safe)."""
    seen: set[int] = set()
    stack: list[tuple[str, Any]] = [(prefix, x)]
    while stack:
        path, node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        fields = decompose(node)
        if fields is None:
            yield path, node
            continue
        children = [(field_path(path, fields.kind, k), v) for k, v in fields.items]
        stack.extend(reversed(children))


def map_primal(x: Any, leaf_fn: Callable[[Any, Any], Any], tangent: Any = None) -> Any:
    """A copy of ``x`` with every leaf replaced by ``leaf_fn(leaf, leaf_tangent)``.

    ``tangent`` is walked alongside ``x`` (a ``Tangent`` with the same fields, or a zero, or
    ``None``); each leaf receives its part, or ``None`` when there is none. Structure is
    copied, never changed in place; cycles and aliasing are kept.
    """
    return _PrimalMapper(leaf_fn).build(x, tangent)


class _PrimalMapper:
    """The walk of ``map_primal``, on a work list: object graphs thousands deep (a linked list)
    do not reach Python's recursion limit."""

    __slots__ = ("leaf_fn", "memo")

    def __init__(self, leaf_fn: Callable[[Any, Any], Any]) -> None:
        self.leaf_fn = leaf_fn
        self.memo: dict[int, tuple[Any, Any]] = {}  # id -> (original kept alive, new)

    def build(self, x: Any, tangent: Any) -> Any:
        # Frames are ("enter", node, tangent) and ("exit", node, fields' children, target):
        # mutable structures and closures get their new shell on entering (so cycles through
        # them are rebuilt), immutable ones are rebuilt on exit from their finished fields.
        stack: list[tuple] = [("enter", x, tangent)]
        while stack:
            frame = stack.pop()
            if frame[0] == "exit":
                self._finish(*frame[1:])
                continue
            _, node, t = frame
            if id(node) in self.memo:
                continue
            fields = decompose(node)
            if fields is None:
                self.memo[id(node)] = (node, self.leaf_fn(node, unthunk(t)))
                continue
            children = [(k, v, tangent_field(t, fields.kind, k)) for k, v in fields.items]
            if isinstance(node, types.FunctionType):
                target: Any = self._closure_shell(node, children)
            elif fields.mutable or _settable(node):
                target = copy.copy(node)
            else:
                target = None  # rebuilt on exit
            self.memo[id(node)] = (node, _IN_PROGRESS if target is None else target)
            stack.append(("exit", node, fields.kind, children, target))
            stack.extend(("enter", v, ct) for _, v, ct in reversed(children))
        return self._new(x)

    def _new(self, x: Any) -> Any:
        new = self.memo[id(x)][1]
        return x if new is _IN_PROGRESS else new  # an immutable on a cycle: see the module

    def _finish(self, node: Any, kind: str, children: list, target: Any) -> None:
        if target is None:
            new = rebuild(node, {key: self._new(value) for key, value, _ in children})
            self.memo[id(node)] = (node, new)
        elif isinstance(node, types.FunctionType):
            cells = dict(zip(node.__code__.co_freevars, target.__closure__ or (), strict=True))
            for key, value, _ in children:
                cells[key].cell_contents = self._new(value)
        else:
            for key, value, _ in children:
                _set_field(target, kind, key, self._new(value))

    @staticmethod
    def _closure_shell(fn: types.FunctionType, children: list) -> types.FunctionType:
        names = {key for key, _, _ in children}
        cells = tuple(
            types.CellType() if name in names else cell
            for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True)
        )
        new = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, cells)
        new.__kwdefaults__ = fn.__kwdefaults__
        new.__dict__.update(fn.__dict__)
        new.__qualname__ = fn.__qualname__
        return new


def _settable(x: Any) -> bool:
    """Immutable only by convention (frozen dataclasses): fields can still be set on a copy."""
    return not isinstance(x, tuple)


def _set_field(obj: Any, kind: str, key: Any, value: Any) -> None:
    if kind in ("positional", "mapping"):
        obj[key] = value
    else:
        object.__setattr__(obj, key, value)


def _copy_leaf(leaf: Any, _: Any) -> Any:
    if isinstance(leaf, np.ndarray):
        return leaf.copy()
    try:
        return copy.deepcopy(leaf)
    except Exception:  # an uncopyable leaf (a lock, a generator) is compared by identity
        return leaf


def copy_primal(x: Any) -> Any:
    """A deep copy of ``x`` that also copies the contents of closures' cells.

    >>> import numpy as np
    >>> def make(a):
    ...     return lambda: a
    >>> f = make(np.zeros(2))
    >>> copy_primal(f)() is f(), np.array_equal(copy_primal(f)(), f())
    (False, True)
    """
    return map_primal(x, _copy_leaf)


def _add_leaf(t: float) -> Callable[[Any, Any], Any]:
    def add_scaled(leaf: Any, dleaf: Any) -> Any:
        if dleaf is None or isinstance(dleaf, AbstractZero | Tangent):
            return leaf
        moved = leaf + t * dleaf
        if isinstance(leaf, np.generic):
            return leaf.dtype.type(moved)
        if isinstance(leaf, float | complex) and isinstance(moved, np.generic):
            return type(leaf)(moved)
        return moved

    return add_scaled


def perturb(x: Any, dx: Any, t: float) -> Any:
    """``x + t * dx``, leaf by leaf: the primal moved along a tangent, as a new object.

    >>> perturb((1.0, 2), (0.5, None), 2.0)
    (2.0, 2)
    """
    return map_primal(x, _add_leaf(t), dx)


def moves_nothing(x: Any, dx: Any) -> bool:
    """Whether ``dx`` has no non-zero entry (an empty array has none at all), so that
    ``perturb(x, dx, t)`` equals ``x`` for every ``t``: along it, every derivative is exactly
    0 (the Jacobian times nothing), whatever ``f``'s value, NaN included.

    >>> moves_nothing((np.zeros(0), 2.0), (np.zeros(0), 0.0)), moves_nothing(1.0, 0.5)
    (True, False)
    """
    for _, _, part in iter_leaf_tangents(x, dx, ""):
        if part is None or isinstance(part, AbstractZero | Tangent):
            continue
        if np.any(np.asarray(part) != 0):
            return False
    return True


_WIDER = {
    np.dtype(np.float16): np.dtype(np.float64),
    np.dtype(np.float32): np.dtype(np.float64),
    np.dtype(np.complex64): np.dtype(np.complex128),
}


def _upcast_leaf(leaf: Any, _: Any) -> Any:
    if isinstance(leaf, np.ndarray | np.generic) and leaf.dtype in _WIDER:
        wide = _WIDER[leaf.dtype]
        return leaf.astype(wide) if isinstance(leaf, np.ndarray) else wide.type(leaf)
    return leaf


def upcast(x: Any) -> Any:
    """``x`` with float16/float32 leaves widened to float64 (complex64 to complex128).

    >>> upcast((np.float32(1.5), np.ones(1, dtype=np.complex64)))
    (np.float64(1.5), array([1.+0.j]))
    """
    return map_primal(x, _upcast_leaf)


def needs_upcast(x: Any) -> bool:
    """Whether ``x`` holds a NumPy leaf narrower than float64."""
    return any(
        isinstance(leaf, np.ndarray | np.generic) and leaf.dtype in _WIDER
        for _, leaf in iter_leaves(x)
    )


def first_difference(a: Any, b: Any, path: str = "x") -> str | None:
    """The path of the first place where two primals differ in value, or ``None``.

    Arrays must agree in shape, dtype and values (NaNs equal); other leaves by ``==``.

    >>> import numpy as np
    >>> first_difference({"a": np.ones(2)}, {"a": np.array([1.0, 2.0])}, "args[0]")
    "args[0]['a'][1]"
    """
    for where, x, y, same_layout in paired_leaves(a, b, path):
        if not same_layout:
            return where
        found = _leaf_difference(x, y, where)
        if found is not None:
            return found
    return None


def paired_leaves(a: Any, b: Any, path: str) -> Iterator[tuple[str, Any, Any, bool]]:
    """Walk two object graphs side by side, in field order: ``(where, x, y, True)`` for each
    pair of leaves, and ``(where, x, y, False)`` where the two are laid out differently (one a
    structure and the other not, other types or other fields; nothing inside is visited).
    Pairs seen before (cycles, shared fields) and identical objects are skipped.

    >>> [(w, same) for w, _, _, same in paired_leaves((1.0, [2]), (1.5, (2,)), "x")]
    [('x[0]', True), ('x[1]', False)]
    """
    seen: set[tuple[int, int]] = set()
    stack = [(path, a, b)]
    while stack:
        where, x, y = stack.pop()
        if x is y or (id(x), id(y)) in seen:
            continue
        seen.add((id(x), id(y)))
        fx, fy = decompose(x), decompose(y)
        if fx is None and fy is None:
            yield where, x, y, True
            continue
        if (
            fx is None
            or fy is None
            or fx.primal_type is not fy.primal_type
            or [k for k, _ in fx.items] != [k for k, _ in fy.items]
        ):
            yield where, x, y, False
            continue
        for (key, vx), (_, vy) in reversed(list(zip(fx.items, fy.items, strict=True))):
            stack.append((field_path(where, fx.kind, key), vx, vy))


def _leaf_difference(x: Any, y: Any, where: str) -> str | None:
    if isinstance(x, np.ndarray | np.generic) or isinstance(y, np.ndarray | np.generic):
        ax, ay = np.asarray(x), np.asarray(y)
        if ax.shape != ay.shape or ax.dtype != ay.dtype:
            return where
        equal = same_values(ax, ay) if ax.dtype.kind in "fc" else ax == ay
        if np.all(equal):
            return None
        if ax.ndim == 0:
            return where
        index = np.unravel_index(int(np.argmin(equal.ravel())), ax.shape)
        return f"{where}[{', '.join(map(str, index))}]"
    if isinstance(x, float | complex) and isinstance(y, float | complex):
        same = x == y or (x != x and y != y)
        return None if same else where
    try:
        return None if bool(x == y) else where
    except Exception:  # values without a usable equality are compared by identity
        return where


def same_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise: equal, or NaN in the same places (real and imaginary parts apart).

    Equal infinities are equal, whatever a tolerance would say of ``inf - inf``.

    >>> same_values(np.array([np.inf, np.nan, 1.0]), np.array([np.inf, np.nan, -np.inf]))
    array([ True,  True, False])
    """
    if a.dtype.kind != "c" and b.dtype.kind != "c":
        same = a == b
        if a.dtype.kind == "f" or b.dtype.kind == "f":
            same = same | (np.isnan(a) & np.isnan(b))
        return same
    return same_values(np.real(a), np.real(b)) & same_values(np.imag(a), np.imag(b))


def iter_leaf_tangents(
    x: Any, tangent: Any, prefix: str, *, every_reference: bool = False
) -> Iterator[tuple[str, Any, Any]]:
    """``(path, leaf, tangent part)`` for every leaf of ``x``, in field order.

    Each distinct leaf is visited once, unless ``every_reference``: then a leaf held in two
    fields is visited through both (structures are still visited once, so cycles end).
    """
    seen: set[int] = set()
    stack: list[tuple[str, Any, Any]] = [(prefix, x, tangent)]
    while stack:
        path, node, t = stack.pop()
        fields = decompose(node)
        if fields is None:
            if every_reference or id(node) not in seen:
                seen.add(id(node))
                yield path, node, unthunk(t)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        children = [
            (field_path(path, fields.kind, k), v, tangent_field(t, fields.kind, k))
            for k, v in fields.items
        ]
        stack.extend(reversed(children))
