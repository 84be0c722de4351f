"""The rrules ``scalar_rule`` builds for elementwise functions of several inputs and one
output (``multiply``, ``arctan2``, ``xlogy``): see ``chainrules.core.scalar_rules``.

The pullback is one small object of a class per function. Large outputs give their cotangents
as thunks (``LAZY_FROM``), so that a caller computes only those it asks for; an engine that
says which arguments it tracks (``needed``) gets numbers, and the pullback lets go of what only
the others would read (or, all tracked, nothing). Real scalars, and float64 arrays beside real
scalars, take a class per function and combination of argument types, which knows that
nothing is complex and the scalars' projectors; the rule plans, once per pair of shapes, how
each float64 array's cotangent is un-broadcast (``_broadcast_plan``), and gives a cotangent
that is the output's cotangent itself (``add``'s of an argument of the output's shape) as it
is, never as a thunk.

>>> import numpy as np
>>> rule = single_output_rrule(np.multiply, (lambda x1, x2, y: x2, lambda x1, x2, y: x1))
>>> y, pullback = rule(2.0, np.float64(3.0))
>>> y, pullback(1.0)
(np.float64(6.0), (NoTangent(), 3.0, np.float64(2.0)))
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .caches import Bounded
from .dtypes import conj
from .lazy import lazily, lazy_pullback
from .names import function_name, short_name
from .partials import Partial, picked, reads, unit_sign
from .primals import (
    FLOAT64,
    FLOAT64_OPERATORS,
    REAL_0D,
    REAL_ARRAY,
    REAL_SCALARS,
    SCALAR_OPERATORS,
    direct_and_apply,
    has_complex,
)
from .projection import (
    array_projector,
    plain_projectors,
    projector,
    unbroadcast_axes,
    unit_cotangent,
)
from .protocol import (
    SCALAR_COTANGENTS,
    CheckedPullback,
    check_arguments,
    named_pullback_class,
    output_shape,
    own_code,
)
from .tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NotImplementedTangent
from .thunks import Thunk, is_eager, thunks_are_eager

__all__ = ["LAZY_FROM", "single_output_rrule"]


# From this many output elements on, the cotangents of a several-input function are thunks:
# of ``x * c`` an engine tracking ``x`` then never computes ``sum(x * dy)`` for the constant
# ``c``; below it a thunk costs more than it could save.
LAZY_FROM = 256

# ``released`` once an engine said it will ask for every cotangent (see ``needed``): nothing is
# let go of (no argument has the index -1), and the cotangents come as numbers at once, not as
# thunks the engine would unthunk at once.
ASKED_FOR_ALL = (-1,)


def single_output_rrule(f: Any, row: tuple[Partial, ...]) -> Callable:
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
    # Real scalars (Python floats and ints, NumPy float64 scalars, 0-d float64 arrays: REAL_0D)
    # with a real scalar result: a class per combination of argument types, whose projectors
    # the types decide.
    real_classes = Bounded(_CACHED_TYPES)
    picks = tuple(picked(p, len(row)) for p in row)  # multiply's: the other argument

    def real_class(types: tuple) -> Any:
        if len(types) != len(row):
            return False
        if types[0] is REAL_ARRAY:
            return array_class(types)
        if not all(t in REAL_SCALARS or t is REAL_0D for t in types):
            return False
        projectors = tuple(projector(_zero_of(t)) for t in types)
        lanes = tuple(
            (np.array if t is REAL_0D else t, project, partial, sign, pick)
            if partial is not None and project.has_tangent_space
            else None
            for t, project, partial, sign, pick in zip(
                types, projectors, row, map(unit_sign, row), picks, strict=True
            )
        )
        floats = np.float64 in types or float in types or REAL_0D in types
        # NumPy's float64 first (a 0-d array's scalar): the operator as it is
        operators = FLOAT64_OPERATORS if types[0] in (REAL_0D, np.float64) else SCALAR_OPERATORS
        compute = operators.get(f) if floats and int not in types else None
        return named(
            _RealSingleOutputPullback,
            f,
            lanes=lanes,
            projectors=projectors,
            compute=direct if compute is None else compute,
        )

    def array_class(types: tuple) -> Any:
        if not all(t in REAL_SCALARS or t is REAL_ARRAY for t in types):
            return False
        scalar_projectors = tuple(None if t is REAL_ARRAY else projector(t(0)) for t in types)
        lanes = tuple(
            (partial, sign, project, pick)
            if partial is not None and (project is None or project.has_tangent_space)
            else None
            for project, partial, sign, pick in zip(
                scalar_projectors, row, map(unit_sign, row), picks, strict=True
            )
        )
        return named(
            _RealArraySingleOutputPullback,
            f,
            lanes=lanes,
            scalar_projectors=scalar_projectors,
            compute=direct,
        )

    read = [reads(p, len(row)) for p in row if p is not None]
    keep = [any(r[i] for r in read) for i in range(len(row) + 1)]
    keep_args, keep_y = keep[:-1], keep[-1]
    keep_all_args = all(keep_args)
    nothing_kept = (None,) * len(row) if not any(keep_args) else None

    # Beside a float64 array (first) and a 0-d one, the second argument's type (REAL_ARRAY: a
    # float64 array, REAL_0D: a 0-d one) -> the class of the pair, False where there is none:
    # the arithmetic operators' calls, whose way below is inlined here.
    array_pairs = Bounded(_CACHED_TYPES)
    scalar_pairs = Bounded(_CACHED_TYPES)

    def pair_class(first: Any, second: Any) -> Any:
        found = second is not None and len(row) == 2 and real_class((first, second))
        return (array_pairs if first is REAL_ARRAY else scalar_pairs).keep(second, found)

    def scalar_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        real: Any
        pullback: Any
        scalars: Any
        if len(args) == 2 and not kwargs and type(args[0]) is np.ndarray:
            a, b = args
            second: Any = type(b)
            if second is np.ndarray:
                second = REAL_ARRAY if b.dtype is FLOAT64 else None
            if a.dtype is not FLOAT64:
                pass
            elif a.ndim:  # a float64 array, and a float64 array or a real number
                real = array_pairs.get(second)
                if real is None:
                    real = pair_class(REAL_ARRAY, second)
                if real:
                    y = direct(a, b)
                    if type(y) is np.ndarray and y.dtype is FLOAT64:
                        pullback = real()
                        pullback.args = (
                            args if keep_all_args else nothing_kept or _kept(args, keep_args)
                        )
                        pullback.y = y if keep_y else None
                        pullback.shape = y.shape
                        plan = None  # a number beside an array, or two of one shape
                        if second is REAL_ARRAY:
                            shapes = a.shape, b.shape
                            if shapes[0] != shapes[1]:
                                plan = _pair_plans.get(shapes)
                                if plan is None:
                                    plan = _pair_plan(shapes, y.shape)
                        pullback.plan = plan
                        pullback.released = ()
                        return y, pullback
                    # Not a float64 result: the general way, which computes it again, now and
                    # for this pair's later calls (a ufunc's result type is the same for all).
                    array_pairs.keep(second, False)
            else:  # a 0-d float64 array, and one or a real number: computed and kept as
                if second is REAL_ARRAY:  # NumPy's scalars (see cotangent)
                    second = None if b.shape else REAL_0D
                real = scalar_pairs.get(second)
                if real is None:
                    real = pair_class(REAL_0D, second)
                if real:
                    scalars = a[()], (b if second is not REAL_0D else b[()])
                    y = real.compute(*scalars)
                    if type(y) is np.float64 or type(y) is float:
                        pullback = real()
                        pullback.args = (
                            scalars if keep_all_args else nothing_kept or _kept(scalars, keep_args)
                        )
                        pullback.y = y if keep_y else None
                        return y, pullback
                    scalar_pairs.keep(second, False)  # not a real result: as above
        real = False
        types: Any = None
        scalars = None
        if not args or type(args[0]) is not np.ndarray:  # numbers: the scalars' way
            types = tuple(map(type, args))
        elif len(args) != 2 and not kwargs and args[0].dtype is FLOAT64:  # (two: the pairs')
            if args[0].ndim:  # float64 arrays: the real arrays' way (ndim: no tuple made)
                types = _real_array_types(args)
            else:  # a 0-d float64 array's: the scalars'
                types, scalars = _real_0d_types(args)
        if types is not None:
            real = real_classes.get(types)
            if real is None:
                real = real_classes.keep(types, real_class(types))
        lazy = False
        if real and not kwargs:
            if scalars is not None:
                args = scalars  # 0-d arrays computed and kept as NumPy's scalars (see cotangent)
            y = real.compute(*args)
            if not real.arrays:  # real scalars
                if type(y) is np.float64 or type(y) is float:  # the hot path of scalar code
                    pullback = real()
                    pullback.args = (
                        args if keep_all_args else nothing_kept or _kept(args, keep_args)
                    )
                    pullback.y = y if keep_y else None
                    return y, pullback
                kind, projectors = 0, real.projectors
            elif type(y) is np.ndarray and y.dtype is FLOAT64:  # real arrays: the same
                pullback = real()
                pullback.args = args if keep_all_args else nothing_kept or _kept(args, keep_args)
                pullback.y = y if keep_y else None
                pullback.shape = shape = y.shape
                pullback.plan = _broadcast_plan(args, shape)
                pullback.released = ()
                return y, pullback
            else:
                kind, projectors = plain_projectors(args)  # type: ignore[misc]
        else:
            planned = plain_projectors(args)
            if planned is not None:
                kind, projectors = planned
                y = direct(*args, **kwargs) if kwargs else direct(*args)  # see _unary_rrule
            else:
                lazy = check_arguments(f, args)
                y = apply(*args, **kwargs) if not lazy else lazily(f, apply, args, kwargs)
                kind, projectors = -1, tuple(map(projector, args))
        pullback = pullback_class()
        # What no partial reads is not kept alive (``add`` keeps neither inputs nor output).
        if keep_all_args:
            pullback.args = args
        elif nothing_kept is not None and len(args) == len(nothing_kept):
            pullback.args = nothing_kept
        else:
            pullback.args = _kept(args, keep_args)
        pullback.y = y if keep_y else None
        cls = type(y)
        pullback.projectors = projectors
        if cls is np.ndarray:
            pullback.shape = y.shape
            pullback.complex_case = (
                kind == 1 or y.dtype.kind == "c" or (kind < 0 and has_complex(args))
            )
            pullback.lazy = y.size >= LAZY_FROM
        else:
            scalar = cls in SCALAR_COTANGENTS
            pullback.shape = () if scalar else output_shape(y)
            pullback.complex_case = (
                kind == 1 or (kind < 0 and has_complex(args)) or (not scalar and has_complex(y))
            )
            pullback.lazy = False
            if scalar and kind >= 0 and nothing_kept is None:
                pullback.args = _scalars(pullback.args)  # 0-d arrays: see cotangent()
        pullback.released = ()
        return y, (pullback if not lazy else lazy_pullback(f, pullback, y))

    return own_code(scalar_rrule, f"scalar_rrule[{short_name(f)}]")


def _scalars(args: tuple) -> tuple:
    """``args`` with each 0-d NumPy array replaced by its scalar."""
    return tuple([a[()] if type(a) is np.ndarray else a for a in args])


def _real_0d_types(args: tuple) -> tuple[tuple, tuple]:
    """For arguments the first of which is a 0-d float64 array: their types (``REAL_0D`` for
    a 0-d float64 array), and the arguments with each 0-d float64 array replaced by its
    scalar. (Two arguments take the pairs' way of ``single_output_rrule``.)"""
    real = [type(a) is np.ndarray and a.dtype is FLOAT64 and not a.shape for a in args]
    types = tuple([REAL_0D if r else type(a) for a, r in zip(args, real, strict=True)])
    return types, tuple([a[()] if r else a for a, r in zip(args, real, strict=True)])


def _real_array_types(args: tuple) -> tuple:
    """For arguments the first of which is a float64 array: their types, ``REAL_ARRAY`` for a
    float64 array. (Two arguments take the pairs' way of ``single_output_rrule``.)"""
    return tuple(
        [REAL_ARRAY if type(a) is np.ndarray and a.dtype is FLOAT64 else type(a) for a in args]
    )


def _broadcast_plan(args: tuple, shape: tuple[int, ...]) -> tuple | None:
    """``None`` when every array among ``args`` has the output's ``shape``; else, per argument,
    ``None`` for a number or an array of that shape, and ``(its shape, the axes of the output
    that sum onto it)`` for a broadcast array: decided once per combination of shapes, so that
    a pullback un-broadcasts without working it out again. (Two arguments: ``_pair_plan``.)"""
    shapes = tuple([a.shape if type(a) is np.ndarray else None for a in args])
    for s in shapes:
        if s is not None and s != shape:
            return _plan(shapes, shape)
    return None


def _plan(shapes: tuple, shape: tuple[int, ...]) -> tuple:
    """``_broadcast_plan`` for arguments of ``shapes`` (``None`` for a number) and an output of
    ``shape``, kept per combination."""
    key = (shapes, shape)
    found = _plans.get(key)
    if found is None:
        found = _plans.keep(
            key,
            tuple(
                None if s is None or s == shape else (s, unbroadcast_axes(s, shape)) for s in shapes
            ),
        )
    return found


def _pair_plan(shapes: tuple[tuple[int, ...], tuple[int, ...]], shape: tuple[int, ...]) -> tuple:
    """``_broadcast_plan`` of two arrays of different ``shapes``, kept per pair of shapes."""
    return _pair_plans.keep(shapes, _plan(shapes, shape))


def _summed(dx: np.ndarray, fit: tuple, sign: int) -> np.ndarray:
    """``sign * dx`` (``sign`` 1 or -1) summed onto an argument broadcast to ``dx``'s shape,
    where ``fit`` is its entry in ``_broadcast_plan``: negated after the sum, which is exact."""
    shape, axes = fit
    summed = np.add.reduce(dx, axis=axes)
    if sign < 0:
        summed = -summed
    if type(summed) is np.ndarray and summed.shape == shape:
        return summed
    return np.asarray(summed).reshape(shape)  # a summed axis of length 1 kept, or 0-d


def _zero_of(t: type) -> Any:
    """A zero of type ``t`` in ``real_class``'s types."""
    return np.array(0.0) if t is REAL_0D else t(0)


def _kept(args: tuple, keep: list[bool]) -> tuple:
    """``args`` with ``None`` where ``keep`` is false."""
    return tuple([a if k else None for a, k in zip(args, keep, strict=True)])


class _SingleOutputPullback(CheckedPullback):
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

    def zeros(self) -> tuple[Any, ...]:
        return (NO_TANGENT, *[self.cotangent(i, ZERO_TANGENT, True) for i in self.indices])

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        if type(dy) is np.ndarray:
            real = not self.complex_case and dy.dtype.kind != "c"
        else:
            real = not self.complex_case and not has_complex(dy)
        if self.lazy and not self.released and not thunks_are_eager():
            # Large arrays: a caller computes only what it asks for. An engine that said what it
            # will ask for (needed) gets numbers at once, and no thunks to make and unthunk.
            grads: list[Any] = [NO_TANGENT]
            for i in self.indices:
                thunk = _new(_Cotangent)
                thunk.pullback, thunk.i, thunk.dy, thunk.real = self, i, dy, real
                grads.append(thunk)
            return tuple(grads)
        cotangent = self.cotangent
        if len(self.row) == 2:  # the arithmetic operators: no loop to set up
            return NO_TANGENT, cotangent(0, dy, real), cotangent(1, dy, real)
        return (NO_TANGENT, *[cotangent(i, dy, real) for i in self.indices])

    def needed(self, positions: tuple[int, ...]) -> None:
        plan = self.plans.get(positions)
        if plan is None:  # decided once per function and tracked positions
            plan = self.plans[positions] = _release_plan(self.reading, positions)
        released, keep_args, keep_y = plan
        if not released:  # every cotangent will be asked for: numbers at once, not thunks
            self.released = ASKED_FOR_ALL
            return
        args = self.args
        if len(args) == 2:  # the arithmetic operators: no loop to set up
            a, b = args
            keep_a, keep_b = keep_args
            self.args = (a if keep_a else None, b if keep_b else None)
        else:  # zip without strict= (strict=False): the keyword alone costs 0.2 us a call
            self.args = tuple([a if k else None for a, k in zip(args, keep_args)])  # noqa: B905
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
            return unit_cotangent(sign, project, dy)
        d = derivative(*self.args, self.y)
        if type(dy) is np.ndarray and not dy.shape:
            dy = dy[()]  # 0-d: NumPy's scalars, as in scalar_rules' _UnaryPullback.cotangents
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
    # (its type, np.array for a 0-d float64 array, its projector, the partial, the partial's
    # unit sign, the argument the partial is or None: see partials.picked). The rule computes
    # with, and the pullback keeps, a 0-d array's scalar.
    lanes: tuple[tuple[Callable[..., Any], Any, Callable[..., Any], int, Any] | None, ...]
    arrays = False  # (see _RealArraySingleOutputPullback)

    def __call__(self, dy: Any) -> tuple[Any, ...]:
        cls = type(dy)
        if cls is not float and cls is not np.float64:
            if cls is not np.ndarray or dy.dtype is not FLOAT64 or dy.shape:
                return CheckedPullback.__call__(self, dy)
            dy = dy[()]  # a 0-d float64 cotangent: as NumPy's scalar
        args, y = self.args, self.y
        grads: list[Any] = [NO_TANGENT]
        for lane in self.lanes:
            if lane is None:
                grads.append(NO_TANGENT)
                continue
            convert, project, partial, sign, pick = lane
            if sign:  # as unit_cotangent: projected, then negated (exact for real numbers)
                dx = dy if sign > 0 else -dy
            elif pick is not None:
                dx = args[pick] * dy
            else:
                dx = partial(*args, y) * dy
            kind = type(dx)  # onto the argument's kind: a real float converted, else projected
            if kind is not convert:
                dx = convert(dx) if kind is float or kind is np.float64 else project(dx)
            grads.append(dx)
        return tuple(grads)

    def needed(self, positions: tuple[int, ...]) -> None:
        """Numbers are small: this keeps everything."""


class _RealArraySingleOutputPullback(_SingleOutputPullback):
    """The pullback of a several-input elementwise function at float64 arrays (the first
    argument one, not 0-d) and real scalars with a float64 array result: the absence of complex
    numbers and the scalars' projectors known from the class (one per function and combination
    of argument types), and how each array argument's cotangent is un-broadcast from the rule
    (``plan``), so that a float64 cotangent of the output's shape goes straight through, and a
    cotangent that fits its array argument needs no projector's call. Anything else takes
    ``_SingleOutputPullback``'s way."""

    __slots__ = ("plan",)
    plan: tuple[Any, ...] | None  # see _broadcast_plan
    arrays = True  # the rule tells this class from _RealSingleOutputPullback by it
    complex_case = False
    # on the subclass: per argument, None where it gets NoTangent(), else (the partial, its unit
    # sign, the projector of a number or None for an array, the argument the partial is or
    # None); and per argument the projector of a number, None for an array.
    lanes: tuple[tuple[Callable[..., Any], int, Any, Any] | None, ...]
    scalar_projectors: tuple[Any, ...]

    @property  # _SingleOutputPullback's slot, which this class never sets
    def projectors(self) -> tuple[Any, ...]:  # type: ignore[override]
        """Every argument's projector, found when a cotangent takes the general way."""
        return tuple(
            array_projector(self.argument_shape(i), FLOAT64) if project is None else project
            for i, project in enumerate(self.scalar_projectors)
        )

    @property  # as the rule would set it: see LAZY_FROM
    def lazy(self) -> bool:  # type: ignore[override]
        return math.prod(self.shape) >= LAZY_FROM

    def argument_shape(self, i: int) -> tuple[int, ...]:
        """The shape of array argument ``i``."""
        plan = self.plan
        fit = None if plan is None else plan[i]
        return self.shape if fit is None else fit[0]

    def __call__(self, dy: Any) -> tuple[Any, ...]:
        if type(dy) is not np.ndarray or dy.dtype is not FLOAT64 or dy.shape != self.shape:
            return CheckedPullback.__call__(self, dy)
        if self.released or dy.size < LAZY_FROM or is_eager():
            cotangent = self.real_cotangent
        else:  # large arrays: thunks, as _SingleOutputPullback.cotangents makes them
            cotangent = self.deferred
        if len(self.lanes) == 2:
            return NO_TANGENT, cotangent(0, dy), cotangent(1, dy)
        return (NO_TANGENT, *[cotangent(i, dy) for i in self.indices])

    def deferred(self, i: int, dy: np.ndarray) -> Any:
        """``real_cotangent(i, dy)`` as a thunk, but for a cotangent that is ``dy`` itself
        (``add``'s of an argument of the output's shape), which costs nothing to give."""
        lane = self.lanes[i]
        if lane is None:
            return NO_TANGENT
        if lane[1] > 0 and lane[2] is None:
            plan = self.plan
            if plan is None or plan[i] is None:
                return dy
        thunk = _new(_RealCotangent)
        thunk.pullback, thunk.i, thunk.dy = self, i, dy
        return thunk

    def cotangent(self, i: int, dy: Any, real: bool) -> Any:
        if not real or type(dy) is not np.ndarray or dy.dtype is not FLOAT64:
            return _SingleOutputPullback.cotangent(self, i, dy, real)
        return self.real_cotangent(i, dy)

    def real_cotangent(self, i: int, dy: np.ndarray) -> Any:
        """The cotangent of argument ``i`` for a float64 ``dy`` of the output's shape."""
        lane = self.lanes[i]
        if lane is None:
            return NO_TANGENT
        if i in self.released:
            return self.unasked(i)
        partial, sign, project, pick = lane
        if project is None:  # an array's: un-broadcast as the rule's plan says
            plan = self.plan
            fit = None if plan is None else plan[i]
            if sign:
                if fit is None:
                    return dy if sign > 0 else -dy
                return _summed(dy, fit, sign)
        elif sign:  # a number's: summed
            return unit_cotangent(sign, project, dy)
        dx = (self.args[pick] if pick is not None else partial(*self.args, self.y)) * dy
        if project is not None:
            return project(dx)
        if type(dx) is np.ndarray and dx.dtype is FLOAT64 and dx.shape == self.shape:
            return dx if fit is None else _summed(dx, fit, 1)
        return array_projector(self.shape if fit is None else fit[0], FLOAT64)(dx)


# Combinations of argument types a rule keeps a pullback class for (beyond, none is kept).
_CACHED_TYPES = 64

# Combinations of argument shapes whose un-broadcasting is kept (see _broadcast_plan), and
# pairs of shapes, the arithmetic operators' (see _pair_plan).
_plans = Bounded(256)
_pair_plans = Bounded(256)


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


class _RealCotangent(_Cotangent):
    """A ``_Cotangent`` of a pullback at float64 arrays, whose ``dy`` (float64, of the output's
    shape) the pullback checked when it made the thunk."""

    __slots__ = ()
    pullback: _RealArraySingleOutputPullback

    def unthunk(self) -> Any:
        return self.pullback.real_cotangent(self.i, self.dy)


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
