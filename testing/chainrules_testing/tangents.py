"""Random tangents, primals paired with given tangents, and inner products of tangents.

``rand_tangent(x)`` draws a tangent from ``x``'s tangent space with standard normal entries
(real and imaginary parts each standard normal for complex values), of ``x``'s type and
dtype; ``NoTangent()`` where there is no tangent space. It walks the object graph like
``chainrules.zero_tangent``: cycles end, and an object reached twice gets one tangent.

``with_tangent(x, dx)`` pairs an argument with the tangent the harness should use for it;
``with_tangent(x, NoTangent())`` marks an argument as not differentiated.

>>> import numpy as np
>>> rand_tangent(np.ones(2, dtype=np.float32), rng=0).dtype
dtype('float32')
>>> rand_tangent((1.0, 2, "a"), rng=0)
Tangent[tuple](1.65198961..., NoTangent(), NoTangent())
>>> inner(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
11.0
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from chainrules.core.namespace import array_namespace
from chainrules.core.structure import decompose, has_tangent_space, is_differentiable_leaf
from chainrules.core.tangents import (
    NO_TANGENT,
    AbstractZero,
    MutableTangent,
    NotImplementedTangent,
    Tangent,
)
from chainrules.core.thunks import unthunk

__all__ = [
    "WithTangent",
    "abs_inner",
    "build_tangent",
    "copy_tangent",
    "inner",
    "make_rng",
    "rand_tangent",
    "with_tangent",
]


# Integer seeds select streams of the harness's own: tests commonly draw their inputs from
# np.random.default_rng(seed), and tangents drawn from the same stream would repeat the inputs
# (dx = x, along which a scale-invariant function does not move).
_STREAM = 0x636872  # "chr"


def make_rng(rng: Any = None) -> np.random.Generator:
    """A NumPy ``Generator`` from a generator, an integer seed, or ``None`` (fresh entropy).

    >>> x = np.random.default_rng(0).standard_normal(3)
    >>> bool(np.any(make_rng(0).standard_normal(3) == x))
    False
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    return np.random.default_rng([int(rng), _STREAM])


def rand_tangent(x: Any, rng: Any = None) -> Any:
    """A random tangent of ``x``: same type, shape and dtype, standard normal entries.

    Floats give floats, complex numbers complex numbers, float and complex arrays of every
    dtype arrays of that dtype, NumPy scalars scalars of their type; integers, booleans,
    strings and integer arrays give ``NoTangent()``. Tuples, lists, dicts, namedtuples,
    dataclasses, objects and closures give a ``Tangent`` (``MutableTangent`` for mutable
    ones) of their fields' tangents, or ``NoTangent()`` when nothing inside is
    differentiable. A ``with_tangent(x, dx)`` gives its ``dx``. ``rng`` is a
    ``numpy.random.Generator``, an integer seed or ``None``.

    >>> rand_tangent(3, rng=1), type(rand_tangent(2.0, rng=1)), type(rand_tangent(1j, rng=1))
    (NoTangent(), <class 'float'>, <class 'complex'>)
    """
    generator = make_rng(rng)

    def normal(shape: tuple[int, ...], is_complex: bool) -> np.ndarray:
        values = generator.standard_normal(shape)
        if is_complex:
            values = values + 1j * generator.standard_normal(shape)
        return np.asarray(values)

    return build_tangent(x, normal)


def build_tangent(x: Any, values: Callable[[tuple[int, ...], bool], np.ndarray]) -> Any:
    """A tangent of ``x`` whose leaves come from ``values(shape, is_complex)``.

    The walk is ``zero_tangent``'s: cycle-safe, and one tangent per object reached twice.
    """
    return _TangentBuilder(values).build(x)


class _TangentBuilder:
    __slots__ = ("differentiable", "memo", "values")

    def __init__(self, values: Callable[[tuple[int, ...], bool], np.ndarray]) -> None:
        self.values = values
        self.memo: dict[int, tuple[Any, Any]] = {}  # id -> (primal kept alive, tangent)
        self.differentiable: dict[int, bool] = {}

    def build(self, x: Any) -> Any:
        hit = self.memo.get(id(x))
        if hit is not None:
            return hit[1]
        if isinstance(x, WithTangent):
            self.memo[id(x)] = (x, x.tangent)
            return x.tangent
        fields = decompose(x)
        if fields is None:
            tangent = self._leaf(x)
            self.memo[id(x)] = (x, tangent)
            return tangent
        if not has_tangent_space(x, self.differentiable):
            self.memo[id(x)] = (x, NO_TANGENT)
            return NO_TANGENT
        cls = MutableTangent if fields.mutable else Tangent
        positional = fields.kind == "positional"
        backing: dict[Any, Any] = {}
        tangent = cls._from_backing(fields.primal_type, fields.kind, () if positional else backing)
        self.memo[id(x)] = (x, tangent)  # registered before the fields: cycles end here
        for key, value in fields.items:
            backing[key] = self.build(value)
        if positional:
            object.__setattr__(tangent, "_backing", tuple(backing.values()))
        return tangent

    def _leaf(self, x: Any) -> Any:
        if not is_differentiable_leaf(x):
            return NO_TANGENT
        if isinstance(x, float):
            return float(self.values((), False))
        if isinstance(x, complex):
            return complex(self.values((), True))
        if isinstance(x, np.ndarray | np.generic):
            drawn = self.values(x.shape, x.dtype.kind == "c").astype(x.dtype)
            return drawn if isinstance(x, np.ndarray) else x.dtype.type(drawn)
        xp = array_namespace(x)
        drawn = self.values(tuple(x.shape), "complex" in str(x.dtype))
        return xp.astype(xp.asarray(drawn), x.dtype)


def copy_tangent(t: Any) -> Any:
    """A copy of a tangent with its arrays copied (structure, cycles and thunks kept)."""
    memo: dict[int, Any] = {}

    def copy_of(x: Any) -> Any:
        if id(x) in memo:
            return memo[id(x)]
        if isinstance(x, Tangent):
            positional = x.is_positional
            backing: dict[Any, Any] = {}
            new = type(x)._from_backing(x.primal_type, x._kind, () if positional else backing)
            memo[id(x)] = new
            for key, value in x.items():
                backing[key] = copy_of(value)
            if positional:
                object.__setattr__(new, "_backing", tuple(backing.values()))
            return new
        leaf = x.copy() if isinstance(x, np.ndarray) else x
        memo[id(x)] = leaf
        return leaf

    return copy_of(t)


@dataclass(frozen=True)
class WithTangent:
    """A primal paired with the tangent the harness uses for it (see ``with_tangent``)."""

    primal: Any
    tangent: Any


def with_tangent(x: Any, dx: Any) -> WithTangent:
    """Pair the argument ``x`` with the tangent ``dx`` that the test functions should use.

    ``dx`` becomes the direction of the finite differences for that argument (and its input
    tangent in ``test_frule``). ``with_tangent(x, NoTangent())`` marks ``x`` as not
    differentiated: the rule must then return ``NoTangent()`` for it.

    >>> from chainrules import NoTangent
    >>> with_tangent(0.5, NoTangent())
    WithTangent(primal=0.5, tangent=NoTangent())
    """
    return WithTangent(x, dx)


def split_with_tangent(x: Any) -> tuple[Any, Any]:
    """``(primal, given tangent or None)`` for an argument that may be a ``WithTangent``."""
    if isinstance(x, WithTangent):
        return x.primal, x.tangent
    return x, None


def _leaf_inner(a: Any, b: Any, absolute: bool) -> float:
    if isinstance(a, AbstractZero | NotImplementedTangent) or isinstance(
        b, AbstractZero | NotImplementedTangent
    ):
        return 0.0
    if a is None or b is None:
        return 0.0
    xa = np.asarray(a)
    xb = np.asarray(b)
    if xa.dtype.kind not in "fc" or xb.dtype.kind not in "fc":
        xa, xb = xa.astype(np.float64), xb.astype(np.float64)
    wide = np.result_type(xa.dtype, xb.dtype, np.float64)
    xa, xb = xa.astype(wide, copy=False), xb.astype(wide, copy=False)
    if xa.shape != xb.shape:
        xa, xb = np.broadcast_arrays(xa, xb)
    if absolute:
        return float(np.vdot(np.abs(xa), np.abs(xb)).real)
    return float(np.vdot(xa, xb).real)


def _inner(a: Any, b: Any, absolute: bool) -> float:
    total = 0.0
    seen: set[tuple[int, int]] = set()
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        x, y = unthunk(x), unthunk(y)
        if isinstance(x, Tangent) or isinstance(y, Tangent):
            if not (isinstance(x, Tangent) and isinstance(y, Tangent)):
                if isinstance(x, AbstractZero) or isinstance(y, AbstractZero):
                    continue
                other = x if isinstance(y, Tangent) else y
                raise TypeError(f"inner: a Tangent paired with a {type(other).__name__}")
            if (id(x), id(y)) in seen:  # a cycle: this pair has been counted
                continue
            seen.add((id(x), id(y)))
            keys = range(len(x.backing)) if x.is_positional else set(x.backing) | set(y.backing)
            stack.extend((x[k], y[k]) for k in keys)
            continue
        total += _leaf_inner(x, y, absolute)
    return total


def inner(a: Any, b: Any) -> float:
    """The real inner product ``Re <a, b> = Re sum(conj(a) * b)`` of two tangents.

    Structures are summed field by field; zeros contribute nothing. Computed in at least
    float64 whatever the tangents' dtypes.

    >>> inner(1j, 2j), inner(Tangent(tuple, 1.0, 2.0), Tangent(tuple, 3.0, 0.5))
    (2.0, 4.0)
    """
    return _inner(a, b, absolute=False)


def abs_inner(a: Any, b: Any) -> float:
    """``sum(|a| * |b|)``: the scale of ``inner(a, b)`` before cancellation, for tolerances."""
    return _inner(a, b, absolute=True)
