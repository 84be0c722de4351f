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
    "direction_tangent",
    "inner",
    "make_rng",
    "rand_tangent",
    "times_power_of_two",
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
    return direction_tangent(x, rng, None)


def build_tangent(
    x: Any,
    values: Callable[[tuple[int, ...], bool], np.ndarray],
    leaf_scale: Callable[[Any], Any] | None = None,
) -> Any:
    """A tangent of ``x`` whose leaves come from ``values(shape, is_complex)``, multiplied by
    ``leaf_scale(leaf)`` when given (NumPy and Python leaves).

    The walk is ``zero_tangent``'s: cycle-safe, and one tangent per object reached twice.
    """
    return _TangentBuilder(values, leaf_scale).build(x)


class _TangentBuilder:
    __slots__ = ("differentiable", "leaf_scale", "memo", "values")

    def __init__(
        self,
        values: Callable[[tuple[int, ...], bool], np.ndarray],
        leaf_scale: Callable[[Any], Any] | None = None,
    ) -> None:
        self.values = values
        self.leaf_scale = leaf_scale
        self.memo: dict[int, tuple[Any, Any]] = {}  # id -> (primal kept alive, tangent)
        self.differentiable: dict[int, bool] = {}

    def build(self, x: Any) -> Any:
        # A work list, not recursion: a linked list of a thousand objects is a thousand deep.
        # Nodes are visited depth first in field order, as a recursive walk would, so a seed
        # draws the same tangents; each structure's tangent exists before its fields are
        # visited (cycles end there) and is filled in once the walk is over.
        shells: list[tuple[Any, dict, Any]] = []
        stack = [x]
        while stack:
            node = stack.pop()
            if id(node) in self.memo:
                continue
            if isinstance(node, WithTangent):
                self.memo[id(node)] = (node, node.tangent)
                continue
            fields = decompose(node)
            if fields is None:
                self.memo[id(node)] = (node, self._leaf(node))
                continue
            if not has_tangent_space(node, self.differentiable):
                self.memo[id(node)] = (node, NO_TANGENT)
                continue
            cls = MutableTangent if fields.mutable else Tangent
            positional = fields.kind == "positional"
            backing: dict[Any, Any] = {}
            tangent = cls._from_backing(
                fields.primal_type, fields.kind, () if positional else backing
            )
            self.memo[id(node)] = (node, tangent)
            items = list(fields.items)
            shells.append((tangent, backing, items))
            stack.extend(value for _, value in reversed(items))
        for tangent, backing, items in shells:
            for key, value in items:
                backing[key] = self.memo[id(value)][1]
            if tangent.is_positional:
                object.__setattr__(tangent, "_backing", tuple(backing.values()))
        return self.memo[id(x)][1]

    def _leaf(self, x: Any) -> Any:
        if not is_differentiable_leaf(x):
            return NO_TANGENT
        if isinstance(x, float):
            return float(self._scaled(x, self.values((), False)))
        if isinstance(x, complex):
            return complex(self._scaled(x, self.values((), True)))
        if isinstance(x, np.ndarray | np.generic):
            drawn = self._scaled(x, self.values(x.shape, x.dtype.kind == "c")).astype(x.dtype)
            return drawn if isinstance(x, np.ndarray) else x.dtype.type(drawn)
        xp = array_namespace(x)
        drawn = self.values(tuple(x.shape), "complex" in str(x.dtype))
        return xp.astype(xp.asarray(drawn), x.dtype)

    def _scaled(self, x: Any, drawn: np.ndarray) -> np.ndarray:
        return drawn if self.leaf_scale is None else drawn * self.leaf_scale(x)


def direction_tangent(x: Any, rng: Any, leaf_scale: Callable[[Any], Any] | None) -> Any:
    """``rand_tangent(x, rng)`` with each leaf's entries multiplied by ``leaf_scale(leaf)``:
    the harness's directions, whose finite-difference steps follow the inputs' magnitudes."""
    generator = make_rng(rng)

    def normal(shape: tuple[int, ...], is_complex: bool) -> np.ndarray:
        values = generator.standard_normal(shape)
        if is_complex:
            values = values + 1j * generator.standard_normal(shape)
        return np.asarray(values)

    return build_tangent(x, normal, leaf_scale)


def copy_tangent(t: Any) -> Any:
    """A copy of a tangent with its arrays copied (structure, cycles and thunks kept)."""
    memo: dict[int, Any] = {}
    shells: list[tuple[Any, dict, Any]] = []
    stack = [t]
    while stack:  # a work list: structural tangents may be nested thousands deep
        x = stack.pop()
        if id(x) in memo:
            continue
        if not isinstance(x, Tangent):
            memo[id(x)] = x.copy() if isinstance(x, np.ndarray) else x
            continue
        positional = x.is_positional
        backing: dict[Any, Any] = {}
        memo[id(x)] = type(x)._from_backing(x.primal_type, x._kind, () if positional else backing)
        items = list(x.items())
        shells.append((memo[id(x)], backing, items))
        stack.extend(value for _, value in reversed(items))
    for new, backing, items in shells:
        for key, value in items:
            backing[key] = memo[id(value)]
        if new.is_positional:
            object.__setattr__(new, "_backing", tuple(backing.values()))
    return memo[id(t)]


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


# Within this range of magnitudes a plain vdot neither overflows nor loses digits to
# subnormal products; outside it each side is brought near 1 first (by a power of two, exact).
_PLAIN_RANGE = 2.0**-400, 2.0**400


def _leaf_inner(a: Any, b: Any, absolute: bool, exponent: int) -> float:
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
        xa, xb = np.abs(xa), np.abs(xb)
    ea, eb = _exponent_of_largest(xa), _exponent_of_largest(xb)
    if ea == eb == exponent == 0:
        return float(np.vdot(xa, xb).real)
    with np.errstate(over="ignore", invalid="ignore"):
        product = np.vdot(times_power_of_two(xa, -ea), times_power_of_two(xb, -eb)).real
        return float(np.ldexp(product, ea + eb + exponent))


def _exponent_of_largest(x: np.ndarray) -> int:
    """0 when ``x``'s largest finite magnitude is inside ``_PLAIN_RANGE`` (or there is none),
    else the power of two of that magnitude."""
    if not x.size:
        return 0
    largest = float(np.max(np.abs(x)))
    if _PLAIN_RANGE[0] <= largest <= _PLAIN_RANGE[1]:  # the common case: one reduction
        return 0
    if not np.isfinite(largest):
        with np.errstate(invalid="ignore"):
            magnitude = np.abs(x)
            largest = float(np.max(magnitude, where=np.isfinite(magnitude), initial=0.0))
    if largest == 0.0 or _PLAIN_RANGE[0] <= largest <= _PLAIN_RANGE[1]:
        return 0
    return int(np.frexp(largest)[1])


def times_power_of_two(x: Any, exponent: int) -> Any:
    """``x * 2**exponent``, exact (barring overflow and underflow), for real and complex values
    and exponents beyond float64's range of powers.

    >>> times_power_of_two(np.array([1.5, -3.0]), 4)
    array([ 24., -48.])
    >>> times_power_of_two(complex(float("inf"), 1.0), -1)  # no 0 * inf from a 1j *
    array(inf+0.5j)
    """
    x = np.asarray(x)
    if not exponent:
        return x
    if x.dtype.kind != "c":
        return np.ldexp(x.astype(np.result_type(x.dtype, np.float64), copy=False), exponent)
    out = np.empty(x.shape, dtype=np.result_type(x.dtype, np.complex128))
    out.real = np.ldexp(x.real, exponent)
    out.imag = np.ldexp(x.imag, exponent)
    return out


def _inner(a: Any, b: Any, absolute: bool, exponent: int = 0) -> float:
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
        total += _leaf_inner(x, y, absolute, exponent)
    return total


def inner(a: Any, b: Any, exponent: int = 0) -> float:
    """The real inner product ``Re <a, b> = Re sum(conj(a) * b)`` of two tangents, times
    ``2**exponent``.

    Structures are summed field by field; zeros contribute nothing. Computed in at least
    float64 whatever the tangents' dtypes, and without intermediate overflow or underflow:
    only a result beyond float64's range is infinite.

    >>> inner(1j, 2j), inner(Tangent(tuple, 1.0, 2.0), Tangent(tuple, 3.0, 0.5))
    (2.0, 4.0)
    """
    return _inner(a, b, absolute=False, exponent=exponent)


def abs_inner(a: Any, b: Any, exponent: int = 0) -> float:
    """``sum(|a| * |b|) * 2**exponent``: the scale of ``inner(a, b)`` before cancellation,
    for tolerances."""
    return _inner(a, b, absolute=True, exponent=exponent)
