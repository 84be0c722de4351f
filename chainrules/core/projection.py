"""``ProjectTo``: put a tangent back into its primal's tangent space.

Rules build a projector for each input in the forward pass, ``project_x = ProjectTo(x)``, and
apply it to what the pullback computes. Projection

* sums away broadcast dimensions (leading ones, and size-1 axes of ``x`` that ``dx`` filled);
* keeps ``x``'s float dtype (float32 stays float32) and takes the real part for real ``x``;
* gives ``NoTangent()`` for integers, booleans, integer arrays and anything else with no
  tangent space;
* gives a Python float for a Python float ``x`` (a complex for a complex), a NumPy scalar of
  the same type for a NumPy scalar;
* projects structures field by field, into a ``Tangent`` of the primal's type;
* passes zeros and ``NotImplementedTangent`` through, and unthunks thunks.

A ``dx`` whose shape cannot be reduced to ``x``'s raises ``ProjectionError`` (a ``ValueError``)
naming both shapes. Projection is idempotent.

>>> import numpy as np
>>> ProjectTo(np.ones((3, 1), dtype=np.float32))(np.ones((2, 3, 4)))
array([[8.],
       [8.],
       [8.]], dtype=float32)
>>> ProjectTo(2.0)(np.complex128(1 + 2j))
1.0
>>> ProjectTo(3)(1.0)
NoTangent()
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .caches import Bounded
from .dtypes import is_complex_dtype
from .errors import ProjectionError
from .lazy import is_lazy
from .namespace import array_namespace, is_compat_array_type
from .primals import TAKEN
from .structure import Fields, decompose, has_tangent_space, is_differentiable_leaf
from .tangents import (
    NO_TANGENT,
    ZERO_TANGENT,
    AbstractZero,
    MutableTangent,
    NotImplementedTangent,
    Tangent,
)
from .thunks import AbstractThunk

__all__ = [
    "ProjectTo",
    "array_projector",
    "plain_projectors",
    "projector",
    "unbroadcast_axes",
    "unit_cotangent",
]

_PASS_THROUGH = (AbstractZero, NotImplementedTangent)
_REAL_SCALAR_TYPES = frozenset({float, int, np.float64, np.float32, np.float16})


class ProjectTo:
    """A projector onto the tangent space of ``x``: ``ProjectTo(x)(dx)``.

    Calling ``ProjectTo(x)`` returns an instance of one of the subclasses below, chosen by the
    type of ``x``; the projector keeps only what it needs (shape, dtype), never ``x`` itself.
    ``has_tangent_space`` is False for primals without one: every cotangent projects to
    ``NoTangent()``, so a rule can skip computing it.
    """

    __slots__ = ()
    has_tangent_space = True

    def __new__(cls, x: Any) -> Any:
        # No __init__: the instance returned is ready (often shared, see projector).
        return projector(x)

    @classmethod
    def _blank(cls) -> Any:
        return object.__new__(cls)

    def __call__(self, dx: Any) -> Any:
        return self._apply(dx, {})

    def _apply(self, dx: Any, memo: dict) -> Any:
        raise NotImplementedError


class _ProjectNoTangent(ProjectTo):
    __slots__ = ()
    has_tangent_space = False

    def _apply(self, dx: Any, memo: dict) -> Any:
        return NO_TANGENT

    def __repr__(self) -> str:
        return "ProjectTo(NoTangent)"


class _ProjectLeaf(ProjectTo):
    """A projector onto a number's or an array's space: zeros pass, thunks are unthunked."""

    __slots__ = ()

    def _apply(self, dx: Any, memo: dict) -> Any:
        if isinstance(dx, _PASS_THROUGH):
            return dx
        if isinstance(dx, AbstractThunk):
            dx = dx.unthunk()
        if isinstance(dx, Tangent):
            raise ProjectionError(f"ProjectTo: cannot project the structural {dx!r} onto {self!r}")
        return self._project(dx)

    def _project(self, dx: Any) -> Any:
        raise NotImplementedError


class _ProjectScalar(_ProjectLeaf):
    """Python float and complex, and NumPy scalars: the result has the primal's type."""

    __slots__ = ("complex", "convert")
    complex: bool
    convert: type

    @classmethod
    def of(cls, x: Any) -> _ProjectScalar:
        self = cls._blank()
        self.convert = type(x)
        self.complex = isinstance(x, complex | np.complexfloating)
        return self

    def __call__(self, dx: Any) -> Any:
        cls = type(dx)
        if cls is self.convert:
            return dx
        if cls in _REAL_SCALAR_TYPES and not self.complex:
            return self.convert(dx)
        return self._apply(dx, {})

    def _project(self, dx: Any) -> Any:
        if not isinstance(dx, float | int | complex | np.ndarray | np.generic):
            # A foreign array (a tracked value during higher-order differentiation): keep it one,
            # reduced to a scalar in its own namespace.
            xp = array_namespace(dx)
            if dx.ndim:
                dx = xp.sum(dx)
            return dx if self.complex else xp.real(dx)
        if np.ndim(dx):
            dx = np.sum(dx)
        if not self.complex:
            dx = dx.real
        return self.convert(dx)

    def __repr__(self) -> str:
        return f"ProjectTo({self.convert.__name__})"


class _ProjectArray(_ProjectLeaf):
    """Arrays of any library: un-broadcast, then real part and dtype of the primal.

    A projector holds only the primal's shape and dtype, so one serves every array of that
    shape and dtype (NumPy's are shared, see ``projector``), and it remembers the axes
    that un-broadcast each cotangent shape it has met: they are worked out once. A dask
    array's projector holds its chunks too, which its cotangents take.
    """

    __slots__ = ("array_type", "axes", "chunks", "complex", "dtype", "scalar_type", "shape")
    array_type: type | None  # the primal's type when another library's in-memory array
    axes: Bounded  # cotangent shape -> the axes that sum it to shape
    chunks: Any  # a dask array's chunks, which its cotangents take; None for other arrays
    complex: bool
    dtype: Any
    scalar_type: type | None  # NumPy's scalar type for the dtype, None for other libraries
    shape: tuple[int, ...]

    @classmethod
    def of(cls, x: Any) -> _ProjectArray:
        lazy = is_lazy(x)
        self = cls.made(tuple(x.shape), x.dtype, x.chunks if lazy else None)
        if not lazy and type(x) is not np.ndarray:
            self.array_type = type(x)
        return self

    @classmethod
    def made(cls, shape: tuple[int, ...], dtype: Any, chunks: Any = None) -> _ProjectArray:
        self = cls._blank()
        self.shape = shape
        self.dtype = dtype
        self.complex = is_complex_dtype(dtype)
        self.scalar_type = dtype.type if isinstance(dtype, np.dtype) else None
        self.array_type = None
        self.axes = Bounded(_CACHED_SHAPES)
        self.chunks = chunks
        return self

    def __call__(self, dx: Any) -> Any:
        cls = type(dx)
        if cls is np.ndarray:
            dtype = dx.dtype  # the frequent case: nothing but the shape to fit
            if dtype is self.dtype or dtype == self.dtype:
                return dx if dx.shape == self.shape else self._summed(dx)
        elif cls is self.scalar_type and not self.shape:  # ufuncs give 0-d results as scalars
            return np.array(dx)  # a new 0-d array, as np.asarray would make, in half the time
        elif cls is self.array_type and dx.dtype == self.dtype and dx.shape == self.shape:
            return dx  # the primal's library's array, that fits: as _project gives it
        return self._apply(dx, {})

    def _project(self, dx: Any) -> Any:
        if isinstance(dx, float | int | complex | np.generic):
            dx = np.asarray(dx)
        if type(dx) is np.ndarray:
            if dx.shape != self.shape:
                dx = self._summed(dx)
            if not self.complex and dx.dtype.kind == "c":
                dx = dx.real
            return dx if dx.dtype == self.dtype else dx.astype(self.dtype)
        if self.chunks is None and dx.dtype == self.dtype and dx.shape == self.shape:
            return dx  # another library's array that fits: as below, with nothing to change
        xp = array_namespace(dx)
        dx_shape = tuple(dx.shape)
        if dx_shape != self.shape:
            axes = self._unbroadcast(dx_shape)
            if axes:
                dx = xp.sum(dx, axis=axes)
            dx = xp.reshape(dx, self.shape)
        if not self.complex and is_complex_dtype(dx.dtype):
            dx = xp.real(dx)
        if dx.dtype != self.dtype:
            dx = xp.astype(dx, self.dtype)
        if self.chunks is not None and is_lazy(dx) and dx.chunks != self.chunks:
            dx = dx.rechunk(self.chunks)  # a reduction's cotangent, broadcast as one chunk
        return dx

    def _summed(self, dx: np.ndarray) -> np.ndarray:
        """A NumPy ``dx`` of another shape summed over the axes that broadcast ``shape`` to it,
        reshaped to ``shape``."""
        axes = self._unbroadcast(dx.shape)
        if axes:
            dx = np.add.reduce(dx, axis=axes)
            if type(dx) is np.ndarray and dx.shape == self.shape:
                return dx
        return np.asarray(dx).reshape(self.shape)  # NumPy sums to a scalar at 0-d

    def _unbroadcast(self, dx_shape: tuple) -> tuple[int, ...]:
        axes = self.axes.get(dx_shape)
        if axes is None:
            axes = self.axes.keep(dx_shape, unbroadcast_axes(self.shape, dx_shape))
        return axes

    def __repr__(self) -> str:
        return f"ProjectTo(array shape={self.shape} dtype={self.dtype})"


def unit_cotangent(sign: int, project: Any, dy: Any) -> Any:
    """``project(sign * dy)`` for ``sign`` 1 or -1 and real values, with no product over ``dy``.

    Negating after projection is exact (rounding is symmetric), and un-broadcasting first
    makes the negation cheap; projecting again keeps the primal's type (NumPy negates a 0-d
    array into a scalar). Complex values take the product instead, which treats the signs of
    zero parts differently from a negation.
    """
    dx = project(dy)
    return dx if sign > 0 else project(-dx)


def unbroadcast_axes(shape: tuple[int, ...], dx_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The axes of ``dx_shape`` to sum so that the result reshapes to ``shape``.

    Raises ``ProjectionError`` naming both shapes when ``dx_shape`` is not a broadcast of
    ``shape``.

    >>> unbroadcast_axes((3, 1), (2, 3, 4))
    (0, 2)
    """
    lead = len(dx_shape) - len(shape)
    if lead < 0:
        raise ProjectionError(
            f"ProjectTo: a tangent of shape {dx_shape} cannot be projected onto shape {shape}"
        )
    axes = list(range(lead))
    for i, n in enumerate(shape):
        m = dx_shape[lead + i]
        if n == m:
            continue
        if n != 1:
            raise ProjectionError(
                f"ProjectTo: a tangent of shape {dx_shape} cannot be projected onto shape {shape}"
            )
        axes.append(lead + i)
    return tuple(axes)


class _ProjectStructure(ProjectTo):
    """Tuples, lists, dicts, namedtuples, dataclasses, objects and closures, field by field."""

    __slots__ = ("fields", "kind", "mutable", "primal_type")
    fields: dict[Any, ProjectTo]
    kind: str
    mutable: bool
    primal_type: type

    def _apply(self, dx: Any, memo: dict) -> Any:
        # A work list rather than recursion, so that deep structures cannot overflow the stack.
        pending: list[tuple[_ProjectStructure, dict, dict, Tangent]] = []
        out = self._start(dx, memo, pending)
        while pending:
            projector, values, backing, target = pending.pop()
            for key, project in projector.fields.items():
                if isinstance(project, _ProjectStructure):
                    backing[key] = project._start(values[key], memo, pending)
                else:
                    backing[key] = project._apply(values[key], memo)
            if projector.kind == "positional":
                object.__setattr__(target, "_backing", tuple(backing.values()))
        return out

    def _start(self, dx: Any, memo: dict, pending: list) -> Any:
        """The tangent for ``dx``, returned empty; its fields are queued on ``pending``."""
        if isinstance(dx, _PASS_THROUGH):
            return dx
        if isinstance(dx, AbstractThunk):
            dx = dx.unthunk()
        hit = memo.get(id(dx))
        if hit is not None:
            return hit[1]
        cls = MutableTangent if self.mutable else Tangent
        values = self._fields_of(dx)
        backing: dict[Any, Any] = {}
        positional = self.kind == "positional"
        out = cls._from_backing(self.primal_type, self.kind, () if positional else backing)
        memo[id(dx)] = (dx, out)
        pending.append((self, values, backing, out))
        return out

    def _fields_of(self, dx: Any) -> dict[Any, Any]:
        if isinstance(dx, Tangent):
            if dx.is_positional != (self.kind == "positional") or (
                dx.is_positional and len(dx) != len(self.fields)
            ):
                raise ProjectionError(f"ProjectTo: {dx!r} does not match {self!r}")
            return {
                k: dx[k] if dx.is_positional else dx.backing.get(k, ZERO_TANGENT)
                for k in self.fields
            }
        if (
            self.kind == "positional"
            and isinstance(dx, tuple | list)
            and len(dx) == len(self.fields)
        ):
            return dict(enumerate(dx))
        if self.kind == "mapping" and isinstance(dx, dict):
            return {k: dx.get(k, ZERO_TANGENT) for k in self.fields}
        raise ProjectionError(f"ProjectTo: a {type(dx).__name__} given for {self!r}")

    def __repr__(self) -> str:
        return f"ProjectTo({getattr(self.primal_type, '__name__', self.primal_type)} structure)"


def _project_to(x: Any, memo: dict[int, Any]) -> ProjectTo:
    """The projector for ``x``; structures are built with a work list, never by recursion."""
    known: dict[int, bool] = {}
    pending: list[tuple[_ProjectStructure, Fields]] = []
    root = _projector_of(x, memo, known, pending)
    while pending:
        projector, fields = pending.pop()
        for key, value in fields.items:
            projector.fields[key] = _projector_of(value, memo, known, pending)
    return root


def _projector_of(x: Any, memo: dict[int, Any], known: dict[int, bool], pending: list) -> Any:
    hit = memo.get(id(x))
    if hit is not None:
        return hit[1]
    fields = decompose(x)
    if fields is None:
        if not is_differentiable_leaf(x):
            return _NO_TANGENT_PROJECTOR
        if isinstance(x, float | complex | np.generic):
            return _ProjectScalar.of(x)
        return projector(x) if type(x) is np.ndarray else _ProjectArray.of(x)
    if has_tangent_space(x, known):
        structure = _ProjectStructure._blank()
        structure.primal_type = fields.primal_type
        structure.kind = fields.kind
        structure.mutable = fields.mutable
        structure.fields = {}
        pending.append((structure, fields))
        found: ProjectTo = structure
    else:
        found = _NO_TANGENT_PROJECTOR
    # Registered before any field is visited: a cycle back to x ends here.
    memo[id(x)] = (x, found)
    return found


# How many entries a cache keyed by shapes keeps: enough for the shapes of a program (see
# chainrules.core.caches).
_CACHED_SHAPES = 1024
_array_projectors: Bounded = Bounded(_CACHED_SHAPES)
_foreign_projectors: Bounded = Bounded(_CACHED_SHAPES)


_NO_TANGENT_PROJECTOR = _ProjectNoTangent._blank()
_FLOAT_PROJECTOR = _ProjectScalar.of(0.0)
_COMPLEX_PROJECTOR = _ProjectScalar.of(0j)
# A scalar's projector holds only its type: one per type serves them all.
_SHARED: dict[type, ProjectTo] = {
    float: _FLOAT_PROJECTOR,
    complex: _COMPLEX_PROJECTOR,
    int: _NO_TANGENT_PROJECTOR,
    bool: _NO_TANGENT_PROJECTOR,
    **{t: _ProjectScalar.of(t(0)) for t in (np.float64, np.float32, np.complex128, np.complex64)},
}


def array_projector(shape: tuple[int, ...], dtype: np.dtype) -> ProjectTo:
    """``projector(x)`` for a NumPy array ``x`` of ``shape`` and inexact ``dtype``, from those
    alone: a pullback that keeps them need not keep ``x``.

    >>> array_projector((2,), np.dtype(np.float64)) is projector(np.ones(2))
    True
    """
    key = (shape, dtype)
    found = _array_projectors.get(key)
    if found is None:
        found = _array_projectors.keep(key, _ProjectArray.made(shape, dtype))
    return found


def projector(x: Any) -> ProjectTo:
    """``ProjectTo(x)``, as rules on the hot path call it: a shared projector for a number of
    a given type, and for the NumPy arrays of a given shape and dtype.

    >>> projector(2.0)(np.float64(3.0))
    3.0
    >>> projector(np.ones(2)) is projector(np.zeros(2))
    True
    """
    cls = type(x)
    if cls is np.ndarray:
        dtype = x.dtype
        if dtype.kind not in "fc":
            return _NO_TANGENT_PROJECTOR
        found = _array_projectors.get((x.shape, dtype))  # inlined: the hot path of every rule
        return found if found is not None else array_projector(x.shape, dtype)
    shared = _SHARED.get(cls)
    if shared is not None:
        return shared
    if is_compat_array_type(cls):  # PyTorch's, JAX's arrays: shared by type, shape and dtype
        key = (cls, tuple(x.shape), x.dtype)
        found = _foreign_projectors.get(key)
        if found is None:
            found = _project_to(x, {})
            if not isinstance(found, _ProjectArray) or found.chunks is None:  # not dask's
                found = _foreign_projectors.keep(key, found)
        return found
    return _project_to(x, {})


# The scalars ufuncs take directly: each one's projector and whether it is complex.
_PLAIN_SCALARS: dict[type, tuple[ProjectTo, int]] = {
    t: (_SHARED[t], int(t is complex)) for t in TAKEN if t is not np.ndarray
}


def plain_projectors(args: tuple) -> tuple[int, tuple[ProjectTo, ...]] | None:
    """The projectors of plain arguments (Python numbers, NumPy float scalars, NumPy arrays not
    of objects), and 1 when one of them is complex, else 0: in one pass, as ``projector`` and
    ``primals.plain`` in turn would give them, in a tuple shared by the calls with the same
    projectors. ``None`` when an argument is not plain.

    >>> kind, (to_x, to_c) = plain_projectors((np.ones(2), 2.0))
    >>> kind, to_x is projector(np.ones(2)), to_c is projector(2.0)
    (0, True, True)
    >>> plain_projectors((1j, 2))[0], plain_projectors((np.ones(2, dtype=object),))
    (1, None)
    """
    kind = 0
    projectors = []
    for a in args:
        cls = type(a)
        if cls is np.ndarray:
            dtype = a.dtype
            dtype_kind = dtype.kind
            if dtype_kind == "f" or dtype_kind == "c":
                found = _array_projectors.get((a.shape, dtype))  # as in projector, inlined
                projectors.append(found if found is not None else array_projector(a.shape, dtype))
                if dtype_kind == "c":
                    kind = 1
            elif dtype_kind == "O":
                return None
            else:
                projectors.append(_NO_TANGENT_PROJECTOR)
        else:
            scalar = _PLAIN_SCALARS.get(cls)
            if scalar is None:
                return None
            projectors.append(scalar[0])
            kind |= scalar[1]
    made = tuple(projectors)
    shared = _projector_tuples.get(made)  # one per combination: see _projector_tuples
    return kind, (shared if shared is not None else _projector_tuples.keep(made, made))


# The tuples plain_projectors gives, one per combination of projectors: a rule's pullback keeps
# one, and a shared one is not another object for the garbage collector to visit while an
# engine's tape holds the pullback.
_projector_tuples: Bounded = Bounded(_CACHED_SHAPES)
