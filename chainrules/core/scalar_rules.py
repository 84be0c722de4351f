"""The rrules ``scalar_rule`` builds from partial derivatives, for elementwise functions.

An rrule computes ``y = f(*args)`` and a pullback that multiplies the cotangent by each
partial (conjugated for complex values: a holomorphic ``f``'s pullback is ``conj(f'(z)) *
dy``) and projects the product onto its argument, un-broadcasting it; an frule sums the
partials times the tangents and broadcasts the sum to the output. Partials are evaluated
lazily, in the pullback, from the inputs and the output.

These rules carry the registration protocol themselves (``chainrules.core.protocol``), in
paths specialised for the common calls, since they are the most frequent of all: one input
and one output (here); several inputs and one output (``multiply``, ``arctan2``:
``chainrules.core.several_input_rules``); several outputs (here). On Python floats and NumPy
arrays a rule goes straight to the ufunc (``chainrules.core.primals``) and its projectors,
which are shared by arguments of one shape and dtype (``chainrules.core.projection``).

>>> import numpy as np
>>> rule = elementwise_rrule(np.multiply, ((lambda x1, x2, y: x2, lambda x1, x2, y: x1),), False)
>>> y, pullback = rule(np.array([1.0, 2.0]), 3.0)
>>> y, pullback.__name__, pullback(np.ones(2))
(array([3., 6.]), 'multiply_pullback', (NoTangent(), array([3., 3.]), 3.0))
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from .dtypes import conj, is_complex
from .errors import TangentTypeError
from .lazy import lazily, lazy_pullback
from .names import short_name
from .partials import Partial, reads, unit_sign
from .primals import FLOAT64, TAKEN, direct_and_apply, has_complex, plain
from .projection import array_projector, projector, unit_cotangent
from .protocol import (
    CheckedPullback,
    check_arguments,
    check_cotangent,
    named_pullback_class,
    output_shape,
    own_code,
    renamed_inner,
)
from .several_input_rules import single_output_rrule
from .tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero
from .thunks import unthunk

__all__ = ["elementwise_rrule"]


def elementwise_rrule(f: Any, rows: tuple[tuple[Partial, ...], ...], multi: bool) -> Callable:
    """The rrule of ``f`` from its rows of partials (one row per output, one partial per input;
    ``multi``: ``f`` returns a tuple of outputs), its pullback named after ``f``."""
    if multi:
        names = {"scalar_pullback": f"{short_name(f)}_pullback"}
        return renamed_inner(_multi_output_rrule, names)(f, rows)
    if len(rows[0]) == 1 and rows[0][0] is not None:
        return _unary_rrule(f, rows[0][0])
    return single_output_rrule(f, rows[0])


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
    # Python's floats, NumPy's float64 scalars and 0-d float64 arrays, real in and out: a class
    # for each, which knows the shape, the projector and that nothing is complex (see
    # _RealUnaryPullback); float64 arrays of any other shape, whose shape each call gives, a
    # class of their own (_RealArrayUnaryPullback).
    real_classes = {
        t: named(_RealUnaryPullback, f, convert=t, project=projector(t(0.0)))
        for t in (float, np.float64)
    }
    real_0d_class = named(_RealUnaryPullback, f, convert=np.array, project=projector(np.array(0.0)))
    real_array_class = named(_RealArraySignedPullback if sign else _RealArrayUnaryPullback, f)
    keep_x, keep_y = reads(partial, 1)
    ufunc = isinstance(f, np.ufunc)  # gives a 0-d array's value as NumPy's scalar: see below

    def scalar_rrule(x: Any, **kwargs: Any) -> tuple[Any, Callable]:
        cls = type(x)
        lazy = False
        if cls is float or cls is np.float64:
            # without keywords, without **{}: an empty dictionary costs the ufunc's call 0.14 us
            y = direct(x, **kwargs) if kwargs else direct(x)
            if type(y) is np.float64 or type(y) is float:  # the hot path of scalar code
                pullback: Any = real_classes[cls]()
                pullback.x = x if keep_x else None
                pullback.y = y if keep_y else None
                return y, pullback
            shape: Any = ()  # elementwise: the output has the input's shape
            complex_case = is_complex(y)
        elif cls is np.ndarray and x.dtype is FLOAT64:  # the hot path of array code
            if x.shape or kwargs or not ufunc:
                y = direct(x, **kwargs) if kwargs else direct(x)
                if type(y) is np.ndarray and y.dtype is FLOAT64:
                    pullback = real_array_class()
                    pullback.shape = x.shape  # and no projector: see _RealArrayUnaryPullback
                    pullback.x = x if keep_x else None
                    pullback.y = y if keep_y else None
                    return y, pullback
                scalar = x[()] if not x.shape else None
            else:  # a 0-d array: the ufunc computes its scalar, with the same loop, sooner
                scalar = x[()]
                y = direct(scalar)
            if type(y) is np.float64 and scalar is not None:
                pullback = real_0d_class()
                pullback.x = scalar if keep_x else None  # see _UnaryPullback.cotangents
                pullback.y = y if keep_y else None
                return y, pullback
            shape = x.shape
            complex_case = has_complex(y)
        elif cls is np.ndarray and x.dtype.kind != "O":
            y = direct(x, **kwargs) if kwargs else direct(x)
            shape = x.shape
            kind = x.dtype.kind
            if type(y) is np.ndarray:
                complex_case = kind == "c" or y.dtype.kind == "c"
            else:
                complex_case = kind == "c" or (type(y) is not np.float64 and has_complex(y))
        else:  # NumPy scalars, ints and complex go straight on; arrays of objects are refused
            if cls is np.ndarray or cls not in TAKEN:
                lazy = check_arguments(f, (x,))
            if cls in TAKEN:
                y = direct(x, **kwargs)
            else:
                y = apply(x, **kwargs) if not lazy else lazily(f, apply, (x,), kwargs)
            shape = output_shape(y)
            complex_case = is_complex(x) or is_complex(y)
        pullback = pullback_class()
        pullback.shape = shape
        pullback.project, pullback.complex_case = projector(x), complex_case
        if keep_x and cls is np.ndarray and not shape:
            x = x[()]  # 0-d: the partial evaluated on NumPy's scalar (see _UnaryPullback)
        pullback.x = x if keep_x else None  # what the partial never reads is not kept alive
        pullback.y = y if keep_y else None
        return y, (pullback if not lazy else lazy_pullback(f, pullback, y))

    return own_code(scalar_rrule, f"scalar_rrule[{short_name(f)}]")


class _UnaryPullback(CheckedPullback):
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

    def zeros(self) -> tuple[Any, Any]:
        return NO_TANGENT, self.project(ZERO_TANGENT)

    def cotangents(self, dy: Any) -> tuple[Any, Any]:
        complex_case = self.complex_case
        if self.sign and not complex_case and not is_complex(dy):
            return NO_TANGENT, unit_cotangent(self.sign, self.project, dy)
        if type(dy) is np.ndarray and not dy.shape:
            # 0-d: the product of NumPy's scalars, a third of the time of 0-d arrays' (the
            # projector makes the 0-d array); the rule keeps a 0-d x as a scalar for the same
            # reason
            dy = dy[()]
        d = self.partial(self.x, self.y)
        return NO_TANGENT, self.project((conj(d) if complex_case else d) * dy)


class _RealUnaryPullback(_UnaryPullback):
    """The pullback of a one-input elementwise function at a real Python or NumPy float, or a
    0-d float64 array (kept as its scalar, see ``_UnaryPullback.cotangents``), with a real
    result: shape, projector and the absence of complex numbers known from the class (one per
    function and kind of argument: ``convert``), so that a real cotangent (a float, or a 0-d
    float64 array, multiplied as its scalar) goes straight through. Anything else takes
    ``_UnaryPullback``'s way."""

    __slots__ = ()
    shape = ()
    complex_case = False
    # float, np.float64, or np.array for a 0-d float64 array, with ``project`` on the subclass
    convert: Callable[[Any], Any]

    def __call__(self, dy: Any) -> tuple[Any, Any]:
        cls = type(dy)
        if cls is not float and cls is not np.float64:
            if cls is not np.ndarray or dy.dtype is not FLOAT64 or dy.shape:
                return CheckedPullback.__call__(self, dy)
            dy = dy[()]  # a 0-d float64 cotangent: as NumPy's scalar
        sign = self.sign
        if not sign:
            dx = self.partial(self.x, self.y) * dy
        else:  # as unit_cotangent: projected, then negated (exact for real numbers)
            dx = dy if sign > 0 else -dy
        # onto the argument's kind: a real float converted, anything else projected
        convert = self.convert
        kind = type(dx)
        if kind is not convert:
            dx = convert(dx) if kind is float or kind is np.float64 else self.project(dx)
        return NO_TANGENT, dx


class _RealArrayUnaryPullback(_UnaryPullback):
    """The pullback of a one-input elementwise function at a float64 array (not 0-d) with a
    float64 result: the absence of complex numbers known from the class (one per function), so
    that a float64 cotangent of the output's shape goes straight through, and a float64 product
    needs no projector's call (an elementwise partial times the cotangent has the cotangent's
    shape). Anything else takes ``_UnaryPullback``'s way."""

    __slots__ = ()
    complex_case = False

    @property  # _UnaryPullback's slot, which this class never sets
    def project(self) -> Any:
        """The argument's projector, found when a cotangent takes the general way (shape and
        dtype tell it): the rule does not look it up for the calls that never need it."""
        return array_projector(self.shape, FLOAT64)

    def __call__(self, dy: Any) -> tuple[Any, Any]:
        if type(dy) is np.ndarray and dy.dtype is FLOAT64 and dy.shape == self.shape:
            dx = self.partial(self.x, self.y) * dy
            if type(dx) is np.ndarray and dx.dtype is FLOAT64:
                return NO_TANGENT, dx
            return NO_TANGENT, self.project(dx)
        return CheckedPullback.__call__(self, dy)


class _RealArraySignedPullback(_RealArrayUnaryPullback):
    """``_RealArrayUnaryPullback`` for the partials ``constant(1)`` and ``constant(-1)``
    (``sign``): the cotangent itself, or negated."""

    __slots__ = ()

    def __call__(self, dy: Any) -> tuple[Any, Any]:
        if type(dy) is np.ndarray and dy.dtype is FLOAT64 and dy.shape == self.shape:
            return NO_TANGENT, (dy if self.sign > 0 else -dy)
        return CheckedPullback.__call__(self, dy)


def _multi_output_rrule(f: Any, rows: tuple[tuple[Partial, ...], ...]) -> Callable:
    """Several outputs (``frexp``, ``modf``, ``divmod``): a cotangent per output."""
    active = [any(r[i] is not None for r in rows) for i in range(len(rows[0]))]
    direct, apply = direct_and_apply(f)

    def scalar_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        if plain(args):
            return scalar_rrule_on(direct, args, kwargs)
        if check_arguments(f, args):  # dask arrays
            y, pullback = lazily(f, scalar_rrule_on, (apply, args, kwargs), {})
            return y, lazy_pullback(f, pullback, y)
        return scalar_rrule_on(apply, args, kwargs)

    def scalar_rrule_on(compute: Callable, args: tuple, kwargs: dict) -> tuple[Any, Callable]:
        y = compute(*args, **kwargs)
        projectors = [projector(a) if on else None for a, on in zip(args, active, strict=True)]
        complex_case = has_complex(args) or has_complex(y)

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
