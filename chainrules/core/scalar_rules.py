"""The rrules ``scalar_rule`` builds from partial derivatives, for elementwise functions.

An rrule computes ``y = f(*args)`` and a pullback that multiplies the cotangent by each
partial (conjugated for complex values: a holomorphic ``f``'s pullback is ``conj(f'(z)) *
dy``) and projects the product onto its argument, un-broadcasting it; an frule sums the
partials times the tangents and broadcasts the sum to the output. Partials are evaluated
lazily, in the pullback, from the inputs and the output.

These rules carry the registration protocol themselves (``chainrules.core.protocol``), in
paths specialised for the common calls, since they are the most frequent of all: one input
and one output; several inputs and one output (``multiply``, ``arctan2``); several outputs.
On Python floats and NumPy arrays a rule goes straight to the ufunc and its projectors,
which are shared by arguments of one shape and dtype (``chainrules.core.projection``).

>>> import numpy as np
>>> rule = elementwise_rrule(np.multiply, ((lambda x1, x2, y: x2, lambda x1, x2, y: x1),), False)
>>> y, pullback = rule(np.array([1.0, 2.0]), 3.0)
>>> y, pullback.__name__, pullback(np.ones(2))
(array([3., 6.]), 'multiply_pullback', (NoTangent(), array([3., 3.]), 3.0))
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from .calls import call
from .dtypes import conj, is_complex
from .errors import ArrayTypeError, TangentTypeError
from .lazy import is_lazy, lazily, lazy_pullback, per_chunk
from .names import function_name, short_name
from .namespace import array_namespace, numpy_dispatches
from .partials import Partial, reads, unit_sign
from .projection import projector
from .protocol import (
    SCALAR_COTANGENTS,
    NamedPullback,
    check_arguments,
    check_cotangent,
    check_cotangent_shape,
    named_pullback_class,
    output_shape,
    renamed_inner,
)
from .tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NotImplementedTangent
from .thunks import AbstractThunk, Thunk, thunks_are_eager, unthunk

__all__ = [
    "LAZY_FROM",
    "direct_and_apply",
    "elementwise_rrule",
    "plain",
    "primal_of",
]


def _unit_cotangent(sign: int, project: Any, dy: Any) -> Any:
    """``project(sign * dy)`` for ``sign`` 1 or -1 and real values, with no product over ``dy``.

    Negating after projection is exact (rounding is symmetric), and un-broadcasting first
    makes the negation cheap; projecting again keeps the primal's type (NumPy negates a 0-d
    array into a scalar). Complex values take the product instead, which treats the signs of
    zero parts differently from a negation.
    """
    dx = project(dy)
    return dx if sign > 0 else project(-dx)


def primal_of(f: Any) -> Callable:
    """How a rule computes ``f``: directly for a ufunc on the values NumPy's ufuncs take or
    hand on (NumPy's, Python's, and every type with ``__array_ufunc__``: an engine's tracked
    values, dask arrays), else through ``call``, so that an engine's tracked values (a pullback
    differentiated again) reach ``math.exp`` or a compiled kernel as ``f``'s rule.

    A ufunc given arrays that NumPy cannot dispatch (torch tensors, JAX arrays) computes with
    its namesake in their array namespace; one that has none there (SciPy's ufuncs) raises
    ``ArrayTypeError`` naming ``f``, so that adapters run the rule on NumPy copies.
    """
    if not isinstance(f, np.ufunc):
        return functools.partial(call, f)
    names = (f.__name__, _ARRAY_API_NAMES.get(f.__name__, f.__name__))
    own = getattr(np, f.__name__, None) is f  # SciPy's ufuncs have no namesake elsewhere
    several = f.nout > 1  # dask applies these to no array: chunk by chunk, exactly

    def ufunc_or_namesake(*args: Any, **kwargs: Any) -> Any:
        if all(map(numpy_dispatches, args)):
            if several and any(map(is_lazy, args)):
                return per_chunk(f, args, kwargs)
            return f(*args, **kwargs)
        xp = array_namespace(*args)
        namesake = next((getattr(xp, n) for n in names if hasattr(xp, n)), None) if own else None
        if namesake is None:
            kinds = sorted({type(a).__name__ for a in args if not numpy_dispatches(a)})
            raise ArrayTypeError(
                f"{function_name(f)} is a NumPy ufunc with no counterpart in the namespace "
                f"of {', '.join(kinds)}"
            )
        # A NumPy constant beside them (ldexp's integer exponents) as an array of theirs.
        args = tuple(xp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)
        return namesake(*args, **kwargs)

    return ufunc_or_namesake


def direct_and_apply(f: Any) -> tuple[Callable, Callable]:
    """``f`` itself for plain values (floats, NumPy arrays: no detour), and ``primal_of(f)``."""
    apply = primal_of(f)
    return (f if isinstance(f, np.ufunc) else apply), apply


# Values a ufunc computes on directly, tested by type on the rules' hot path.
_TAKEN = frozenset({float, int, complex, np.ndarray, np.float64, np.float32})


def plain(args: tuple) -> bool:
    """Whether every argument is a value the ufunc takes directly and the rules follow: a
    Python number, a NumPy float scalar, or a NumPy array that does not hold objects."""
    for a in args:
        cls = type(a)
        if cls not in _TAKEN or (cls is np.ndarray and a.dtype.kind == "O"):
            return False
    return True


def _outputs(f: Any, direct: Callable, apply: Callable, args: tuple, kwargs: dict) -> Any:
    """``f(*args, **kwargs)``: directly on plain values, else after the arguments' check."""
    if plain(args):
        return direct(*args, **kwargs)
    check_arguments(f, args)
    return apply(*args, **kwargs)


def _plain_kind(args: tuple) -> int:
    """``plain(args)`` and ``_has_complex(args)`` in one pass: -1 when an argument is not
    plain, else 1 when one is complex and 0 when all are real."""
    kind = 0
    for a in args:
        cls = type(a)
        if cls is float or cls is np.float64 or cls is int or cls is np.float32:
            continue
        if cls is np.ndarray:
            dtype_kind = a.dtype.kind
            if dtype_kind == "c":
                kind = 1
            elif dtype_kind == "O":
                return -1
        elif cls is complex:
            kind = 1
        else:
            return -1
    return kind


def _has_complex(values: Any) -> bool:
    """Whether any of ``values`` (or ``values`` itself, when not a tuple) is complex."""
    if type(values) is not tuple:
        values = (values,)
    for v in values:
        cls = type(v)
        if cls is float or cls is int or cls is np.float64:
            continue
        if cls is np.ndarray:
            if v.dtype.kind == "c":
                return True
        elif is_complex(v):
            return True
    return False


# NumPy's names of ufuncs whose array-API names differ.
_ARRAY_API_NAMES = {
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "arctan2": "atan2",
    "power": "pow",
    "absolute": "abs",
    "conjugate": "conj",
    "true_divide": "divide",
}


def elementwise_rrule(f: Any, rows: tuple[tuple[Partial, ...], ...], multi: bool) -> Callable:
    """The rrule of ``f`` from its rows of partials (one row per output, one partial per input;
    ``multi``: ``f`` returns a tuple of outputs), its pullback named after ``f``."""
    if multi:
        names = {"scalar_pullback": f"{short_name(f)}_pullback"}
        return renamed_inner(_multi_output_rrule, names)(f, rows)
    if len(rows[0]) == 1 and rows[0][0] is not None:
        return _unary_rrule(f, rows[0][0])
    return _single_output_rrule(f, rows[0])


# ---- one output: the pullback is one small object per call --------------------------------
#
# An engine keeps every pullback on its tape until the backward pass, so what a pullback holds
# is what Python's garbage collector visits again and again while the tape grows: a closure
# is a function, a tuple and a cell per captured variable; these pullbacks are one object of
# a class made for each function (named after it, ``sin_pullback``, in tracebacks too).


def _unary_rrule(f: Any, partial: Callable[..., Any]) -> Callable:
    """One input, one output: the most frequent rule of all, kept lean."""
    sign = unit_sign(partial)
    direct, apply = direct_and_apply(f)
    named = functools.partial(named_pullback_class, f=f, partial=partial, sign=sign)
    pullback_class = named(_UnaryPullback, f)
    # Python's floats and NumPy's float64 scalars, real in and out: a class for each, which
    # knows the shape, the projector and that nothing is complex (see _RealUnaryPullback).
    real_classes = {
        t: named(_RealUnaryPullback, f, convert=t, project=projector(t(0.0)))
        for t in (float, np.float64)
    }
    new = object.__new__
    keep_x, keep_y = reads(partial, 1)

    def scalar_rrule(x: Any, **kwargs: Any) -> tuple[Any, Callable]:
        cls = type(x)
        lazy = False
        if cls is float or cls is np.float64:
            y = direct(x, **kwargs)
            if type(y) is np.float64 or type(y) is float:  # the hot path of scalar code
                pullback: Any = new(real_classes[cls])
                pullback.x = x if keep_x else None
                pullback.y = y if keep_y else None
                return y, pullback
            shape: Any = ()  # elementwise: the output has the input's shape
            complex_case = is_complex(y)
        elif cls is np.ndarray and x.dtype.kind != "O":
            y = direct(x, **kwargs)
            shape = x.shape
            complex_case = x.dtype.kind == "c" or _has_complex(y)
        else:  # NumPy scalars, ints and complex go straight on; arrays of objects are refused
            if cls is np.ndarray or cls not in _TAKEN:
                lazy = check_arguments(f, (x,))
            if cls in _TAKEN:
                y = direct(x, **kwargs)
            else:
                y = apply(x, **kwargs) if not lazy else lazily(f, apply, (x,), kwargs)
            shape = output_shape(y)
            complex_case = is_complex(x) or is_complex(y)
        pullback = new(pullback_class)
        pullback.shape = shape
        pullback.x = x if keep_x else None  # what the partial never reads is not kept alive
        pullback.y = y if keep_y else None
        pullback.project, pullback.complex_case = projector(x), complex_case
        return y, (pullback if not lazy else lazy_pullback(f, pullback, y))

    scalar_rrule.__qualname__ = f"scalar_rrule[{short_name(f)}]"
    return scalar_rrule


class _UnaryPullback(NamedPullback):
    """The pullback of a one-input elementwise function (subclassed per function)."""

    __slots__ = ("complex_case", "project", "shape", "x", "y")
    complex_case: bool
    project: Any
    shape: Any
    x: Any
    y: Any
    f: Any  # these three on the subclass of each function
    partial: Any
    sign: int

    def __call__(self, dy: Any) -> tuple[Any, Any]:
        cls = type(dy)
        if not (cls is np.ndarray and dy.shape == self.shape) and not (
            cls in SCALAR_COTANGENTS and self.shape == ()
        ):
            dy = _checked_cotangent(self.f, self.shape, dy)
            if dy is None:
                return NO_TANGENT, self.project(ZERO_TANGENT)
        complex_case = self.complex_case
        if self.sign and not complex_case and not is_complex(dy):
            return NO_TANGENT, _unit_cotangent(self.sign, self.project, dy)
        d = self.partial(self.x, self.y)
        return NO_TANGENT, self.project((conj(d) if complex_case else d) * dy)


class _RealUnaryPullback(_UnaryPullback):
    """The pullback of a one-input elementwise function at a real Python or NumPy float with a
    real result: shape, projector and the absence of complex numbers known from the class
    (one per function and type: ``convert``), so that a real scalar cotangent goes straight
    through. Anything else takes ``_UnaryPullback``'s way."""

    __slots__ = ()
    shape = ()
    complex_case = False
    convert: type  # float or np.float64, with ``project`` on the subclass

    def __call__(self, dy: Any) -> tuple[Any, Any]:
        cls = type(dy)
        if cls is float or cls is np.float64:
            sign = self.sign
            if not sign:
                dx = self.partial(self.x, self.y) * dy
            else:  # as _unit_cotangent: projected, then negated (exact for real numbers)
                dx = dy if sign > 0 else -dy
            kind = type(dx)
            if kind is self.convert:
                return NO_TANGENT, dx
            if kind is float or kind is np.float64:
                return NO_TANGENT, self.convert(dx)
            return NO_TANGENT, self.project(dx)
        return _UnaryPullback.__call__(self, dy)


def _checked_cotangent(f: Any, shape: Any, dy: Any) -> Any:
    """``dy`` unthunked, or ``None`` for a zero; raises naming ``f`` unless it fits the
    output's ``shape``."""
    if isinstance(dy, AbstractThunk):
        dy = dy.unthunk()
    if isinstance(dy, AbstractZero):
        return None
    check_cotangent_shape(f, shape, dy)
    return dy


# From this many output elements on, the cotangents of a several-input function are thunks:
# of ``x * c`` an engine tracking ``x`` then never computes ``sum(x * dy)`` for the constant
# ``c``; below it a thunk costs more than it could save.
LAZY_FROM = 256


def _single_output_rrule(f: Any, row: tuple[Partial, ...]) -> Callable:
    """Several inputs, one output (``multiply``, ``arctan2``, ``xlogy``)."""
    direct, apply = direct_and_apply(f)
    named = functools.partial(
        named_pullback_class,
        f=f,
        row=row,
        signs=tuple(map(unit_sign, row)),
        indices=range(len(row)),
        reading=tuple(None if p is None else reads(p, len(row)) for p in row),
        plans={},
        unasked_cotangents={},
    )
    pullback_class = named(_SingleOutputPullback, f)
    # Real scalars (Python floats and ints, NumPy float64 scalars) with a real scalar result: a
    # class per combination of argument types, whose projectors the types decide.
    real_classes: dict[tuple, Any] = {}

    def real_class(types: tuple) -> Any:
        if not all(t in _REAL_SCALARS for t in types) or len(types) != len(row):
            return False
        projectors = tuple(projector(t(0)) for t in types)
        lanes = tuple(
            (t, project, partial, sign)
            if partial is not None and project.has_tangent_space
            else None
            for t, project, partial, sign in zip(
                types, projectors, row, map(unit_sign, row), strict=True
            )
        )
        floats = np.float64 in types or float in types
        compute = _SCALAR_OPERATORS.get(f) if floats and int not in types else None
        return named(
            _RealSingleOutputPullback,
            f,
            lanes=lanes,
            projectors=projectors,
            compute=direct if compute is None else compute,
        )

    new = object.__new__
    read = [reads(p, len(row)) for p in row if p is not None]
    keep = [any(r[i] for r in read) for i in range(len(row) + 1)]
    keep_args, keep_y = keep[:-1], keep[-1]
    keep_all_args = all(keep_args)
    nothing_kept = (None,) * len(row) if not any(keep_args) else None

    def scalar_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        types = tuple(map(type, args))
        real = real_classes.get(types)
        if real is None:
            real = real_class(types)
            if len(real_classes) < _CACHED_TYPES:
                real_classes[types] = real
        lazy = False
        if real and not kwargs:
            y = real.compute(*args)
            kind = 0
            if type(y) is np.float64 or type(y) is float:  # the hot path of scalar code
                pullback: Any = new(real)
                pullback.args = args if keep_all_args else nothing_kept or _kept(args, keep_args)
                pullback.y = y if keep_y else None
                return y, pullback
        else:
            kind = _plain_kind(args)
            if kind >= 0:
                y = direct(*args, **kwargs)
            else:
                lazy = check_arguments(f, args)
                y = apply(*args, **kwargs) if not lazy else lazily(f, apply, args, kwargs)
        pullback = new(pullback_class)
        # What no partial reads is not kept alive (``add`` keeps neither inputs nor output).
        if keep_all_args:
            pullback.args = args
        elif nothing_kept is not None and len(args) == len(nothing_kept):
            pullback.args = nothing_kept
        else:
            pullback.args = _kept(args, keep_args)
        pullback.y = y if keep_y else None
        cls = type(y)
        pullback.projectors = tuple(map(projector, args))
        if cls is np.ndarray:
            pullback.shape = y.shape
            pullback.complex_case = (
                kind == 1 or y.dtype.kind == "c" or (kind < 0 and _has_complex(args))
            )
            pullback.lazy = y.size >= LAZY_FROM
        else:
            scalar = cls in SCALAR_COTANGENTS
            pullback.shape = () if scalar else output_shape(y)
            pullback.complex_case = (
                kind == 1 or (kind < 0 and _has_complex(args)) or (not scalar and _has_complex(y))
            )
            pullback.lazy = False
        pullback.released = ()
        return y, (pullback if not lazy else lazy_pullback(f, pullback, y))

    scalar_rrule.__qualname__ = f"scalar_rrule[{short_name(f)}]"
    return scalar_rrule


def _kept(args: tuple, keep: list[bool]) -> tuple:
    """``args`` with ``None`` where ``keep`` is false."""
    return tuple([a if k else None for a, k in zip(args, keep, strict=True)])


class _SingleOutputPullback(NamedPullback):
    """The pullback of a several-input, one-output elementwise function (subclassed per
    function)."""

    __slots__ = ("args", "complex_case", "lazy", "projectors", "released", "shape", "y")
    args: tuple
    complex_case: bool
    lazy: bool  # cotangents as thunks (see LAZY_FROM)
    projectors: tuple[Any, ...]
    released: tuple[int, ...]  # arguments whose cotangents an engine said it will not ask for
    shape: Any
    y: Any
    f: Any  # these six on the subclass of each function
    row: tuple[Partial, ...]
    signs: tuple[int, ...]
    indices: range
    reading: tuple[tuple[bool, ...] | None, ...]  # per argument, what its partial reads
    plans: dict[tuple[int, ...], tuple]  # what needed(positions) keeps, per positions
    unasked_cotangents: dict[int, NotImplementedTangent]  # per argument, see unasked

    def __call__(self, dy: Any) -> tuple[Any, ...]:
        cls = type(dy)
        if not (cls is np.ndarray and dy.shape == self.shape) and not (
            cls in SCALAR_COTANGENTS and self.shape == ()
        ):
            dy = _checked_cotangent(self.f, self.shape, dy)
            if dy is None:
                zeros = (self.cotangent(i, ZERO_TANGENT, True) for i in self.indices)
                return (NO_TANGENT, *zeros)
        if cls is np.ndarray:
            real = not self.complex_case and dy.dtype.kind != "c"
        else:
            real = not self.complex_case and not _has_complex(dy)
        if self.lazy and not self.released and not thunks_are_eager():
            # Large arrays: a caller computes only what it asks for. An engine that said what it
            # will ask for (needed) gets numbers at once, and no thunks to make and unthunk.
            grads: list[Any] = [NO_TANGENT]
            for i in self.indices:
                thunk = _new(_Cotangent)
                thunk.pullback, thunk.i, thunk.dy, thunk.real = self, i, dy, real
                grads.append(thunk)
            return tuple(grads)
        # cotangent(i, dy, real) for each argument, inlined: the frequent case
        grads = [NO_TANGENT]
        args, y, complex_case, released = self.args, self.y, self.complex_case, self.released
        i = -1
        for project, derivative, sign in zip(self.projectors, self.row, self.signs, strict=True):
            i += 1
            if derivative is None or not project.has_tangent_space:
                grads.append(NO_TANGENT)
            elif released and i in released:
                grads.append(self.unasked(i))
            elif sign and real:
                grads.append(_unit_cotangent(sign, project, dy))
            else:
                d = derivative(*args, y)
                grads.append(project((conj(d) if complex_case else d) * dy))
        return tuple(grads)

    def needed(self, positions: tuple[int, ...]) -> None:
        plan = self.plans.get(positions)
        if plan is None:  # decided once per function and tracked positions
            plan = self.plans[positions] = _release_plan(self.reading, positions)
        released, keep_args, keep_y = plan
        if not released:
            return
        self.args = tuple([a if k else None for a, k in zip(self.args, keep_args, strict=False)])
        if not keep_y:
            self.y = None
        self.released = released

    def unasked(self, i: int) -> NotImplementedTangent:
        """The cotangent of argument ``i`` when it was let go of (see needed): never a number;
        one per function and argument, made at the first time it is asked for."""
        found = self.unasked_cotangents.get(i)
        if found is None:
            found = self.unasked_cotangents[i] = NotImplementedTangent(
                f"the cotangent of argument {i + 1} of {function_name(self.f)}, which the "
                f"engine that recorded the call said it would not ask for"
            )
        return found

    def cotangent(self, i: int, dy: Any, real: bool) -> Any:
        """The cotangent of argument ``i``: ``NoTangent()`` without a partial or a space."""
        project, derivative = self.projectors[i], self.row[i]
        if derivative is None or not project.has_tangent_space:
            return NO_TANGENT
        if i in self.released:
            return self.unasked(i)
        if isinstance(dy, AbstractZero):
            return project(dy)
        sign = self.signs[i]
        if sign and real:
            return _unit_cotangent(sign, project, dy)
        d = derivative(*self.args, self.y)
        return project((conj(d) if self.complex_case else d) * dy)


class _RealSingleOutputPullback(_SingleOutputPullback):
    """The pullback of a several-input elementwise function at real scalars with a real scalar
    result: projectors and the absence of complex numbers known from the class (one per
    function and combination of argument types), so that a real scalar cotangent goes
    straight through. Anything else takes ``_SingleOutputPullback``'s way."""

    __slots__ = ()
    shape = ()
    complex_case = False
    lazy = False
    released = ()
    # on the subclass, with ``projectors``: per argument, None where it gets NoTangent(), else
    # (its type, its projector, the partial, the partial's unit sign)
    lanes: tuple[tuple[type, Any, Callable[..., Any], int] | None, ...]

    def __call__(self, dy: Any) -> tuple[Any, ...]:
        cls = type(dy)
        if cls is not float and cls is not np.float64:
            return _SingleOutputPullback.__call__(self, dy)
        args, y = self.args, self.y
        grads: list[Any] = [NO_TANGENT]
        for lane in self.lanes:
            if lane is None:
                grads.append(NO_TANGENT)
                continue
            convert, project, partial, sign = lane
            if not sign:
                dx = partial(*args, y) * dy
            else:  # as _unit_cotangent: projected, then negated (exact for real numbers)
                dx = dy if sign > 0 else -dy
            kind = type(dx)
            if kind is convert:
                grads.append(dx)
            elif kind is float or kind is np.float64:
                grads.append(convert(dx))
            else:
                grads.append(project(dx))
        return tuple(grads)

    def needed(self, positions: tuple[int, ...]) -> None:
        """Numbers are small: this keeps everything."""


_REAL_SCALARS = frozenset({float, int, np.float64})


def _scalar_operator(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``op`` on NumPy's float64 scalars: what the ufunc computes of two Python or NumPy
    floats, the same number (and the same warnings) without the ufunc's dispatch, which costs
    more than the arithmetic (a ufunc's 0.7 us against 0.05 us)."""

    def on_float64(x1: Any, x2: Any) -> Any:
        return op(np.float64(x1), x2)

    return on_float64


# The ufuncs whose real scalar cases are NumPy's scalar arithmetic.
_SCALAR_OPERATORS = {
    np.add: _scalar_operator(operator.add),
    np.subtract: _scalar_operator(operator.sub),
    np.multiply: _scalar_operator(operator.mul),
    np.true_divide: _scalar_operator(operator.truediv),
}
# Combinations of argument types a rule keeps a pullback class for (beyond, none is kept).
_CACHED_TYPES = 64


_new = object.__new__


class _Cotangent(Thunk):
    """The cotangent of argument ``i`` of a several-input pullback, computed when unthunked: a
    ``Thunk`` without a function made for it."""

    __slots__ = ("dy", "i", "pullback", "real")
    dy: Any
    i: int
    pullback: _SingleOutputPullback
    real: bool

    def unthunk(self) -> Any:
        return self.pullback.cotangent(self.i, self.dy, self.real)

    def __repr__(self) -> str:
        return f"Thunk(the cotangent of argument {self.i + 1} of {type(self.pullback).__name__})"


def _release_plan(
    reading: tuple[tuple[bool, ...] | None, ...], positions: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[bool, ...], bool]:
    """For an engine that will ask for the cotangents of ``positions`` (1-based) only: the
    arguments released, and which arguments and whether the output the partials of the others
    still read."""
    wanted = {p - 1 for p in positions}
    released = tuple(i for i in range(len(reading)) if i not in wanted)
    keep = [False] * (len(reading) + 1)
    for i in wanted:
        read = reading[i]
        if read is not None:
            keep = [k or r for k, r in zip(keep, read, strict=True)]
    return released, tuple(keep[:-1]), keep[-1]


def _multi_output_rrule(f: Any, rows: tuple[tuple[Partial, ...], ...]) -> Callable:
    """Several outputs (``frexp``, ``modf``, ``divmod``): a cotangent per output."""
    active = [any(r[i] is not None for r in rows) for i in range(len(rows[0]))]
    direct, apply = direct_and_apply(f)

    def scalar_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        if not plain(args) and check_arguments(f, args):  # dask arrays
            y, pullback = lazily(f, scalar_rrule_eagerly, args, kwargs)
            return y, lazy_pullback(f, pullback, y)
        return scalar_rrule_eagerly(*args, **kwargs)

    def scalar_rrule_eagerly(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        y = _outputs(f, direct, apply, args, kwargs)
        projectors = [projector(a) if on else None for a, on in zip(args, active, strict=True)]
        complex_case = _has_complex(args) or _has_complex(y)

        def scalar_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if not isinstance(dy, AbstractZero):
                check_cotangent(f, y, dy)
            outputs = _output_cotangents(dy, len(rows))
            grads: list[Any] = [NO_TANGENT]
            for i, project in enumerate(projectors):
                if project is None or not project.has_tangent_space:
                    grads.append(NO_TANGENT)
                    continue
                total: Any = ZERO_TANGENT
                for r, dy_r in zip(rows, outputs, strict=True):
                    partial = r[i]
                    if partial is None or isinstance(dy_r, AbstractZero):
                        continue
                    d = partial(*args, y)
                    total = total + (conj(d) if complex_case else d) * dy_r
                grads.append(project(total))
            return tuple(grads)

        return y, scalar_pullback

    return scalar_rrule


def _output_cotangents(dy: Any, n: int) -> tuple[Any, ...]:
    if isinstance(dy, AbstractZero):
        return (dy,) * n
    values = tuple(unthunk(d) for d in dy)
    if len(values) != n:
        raise TangentTypeError(f"expected a cotangent for each of {n} outputs, got {len(values)}")
    return values
