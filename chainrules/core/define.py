"""Helpers that declare rules: ``scalar_rule``, ``non_differentiable``, ``ignore_derivatives``.

``scalar_rule(f, *partials)`` is for elementwise functions: each partial derivative is given
as a function of the inputs and the output, and the frule and rrule follow, with broadcasting,
un-broadcasting, projection and the complex convention (a holomorphic ``f``'s pullback is
``conj(f'(z)) * dy``) taken care of.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> def softsign(x): return x / (1 + abs(x))
>>> scalar_rule(softsign, lambda x, y: (1 - abs(y)) ** 2)
>>> y, pullback = rrule(softsign, 1.0)
>>> y, pullback(1.0)
(0.5, (NoTangent(), 0.25))
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .calls import call
from .dtypes import conj, has_tangent, is_complex
from .errors import ArrayTypeError, RuleDefinitionError, TangentTypeError
from .lazy import is_lazy, per_chunk
from .names import short_name
from .namespace import array_namespace, numpy_dispatches
from .projection import ProjectTo, projector
from .protocol import check_arguments, check_cotangent, check_tangents, output_shape, renamed_inner
from .registry import _Method, frule, function_name, mark_non_differentiable, rrule
from .tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from .thunks import AbstractThunk, unthunk

__all__ = [
    "constant",
    "fit_to_output",
    "ignore_derivatives",
    "non_differentiable",
    "scalar_rule",
    "scalar_rule_like",
]

Partial = Callable[..., Any] | None
_partials: dict[Any, tuple] = {}  # what scalar_rule registered each function with
_UFUNC_KEYWORDS = ("dtype", "casting", "order", "subok")


def scalar_rule(f: Any, *partials: Any, keywords: tuple[str, ...] | None = None) -> None:
    """Register the frule and the rrule of an elementwise function from its partials.

    ``partials`` holds one entry per input: a function ``(x1, ..., xn, y) -> df/dxi`` of the
    inputs and the output, ``constant(c)`` for a partial that is the number ``c`` everywhere,
    or ``None`` for an input without a tangent (an integer exponent, say). For a function
    with several outputs, pass one tuple of such entries per output; ``y`` is then the tuple
    of outputs, and an output of integer dtype (``frexp``'s exponent) has no tangent.

    Partials of a complex function are its complex derivative, so they describe holomorphic
    functions; write non-holomorphic ones (``abs``, ``angle``) as full rules. ``keywords`` are
    the keyword arguments passed through to ``f`` (by default those of a ufunc that do not
    change the result's value: dtype, casting, order, subok); any other keyword raises
    ``RuleKeywordError``. ``out=`` and ``where=`` are never accepted.

    >>> import math
    >>> def hypot(x, y): return math.sqrt(x * x + y * y)
    >>> scalar_rule(hypot, lambda x, y, z: x / z, lambda x, y, z: y / z)
    >>> frule((None, 1.0, 0.0), hypot, 3.0, 4.0)
    (5.0, 0.6)
    """
    if not partials:
        raise RuleDefinitionError(f"scalar_rule({function_name(f)}): give at least one partial")
    rows = partials if isinstance(partials[0], tuple) else (partials,)
    arity = len(rows[0])
    for row in rows:
        if not isinstance(row, tuple) or len(row) != arity:
            raise RuleDefinitionError(
                f"scalar_rule({function_name(f)}): every output needs one partial per input "
                f"({arity}), got {row!r}"
            )
        for p in row:
            if p is not None and not callable(p):
                raise RuleDefinitionError(
                    f"scalar_rule({function_name(f)}): partial {p!r} is not callable or None"
                )
    if keywords is None:
        keywords = _UFUNC_KEYWORDS if isinstance(f, np.ufunc) else ()
    multi = len(rows) > 1 or isinstance(partials[0], tuple)
    signature = inspect.Signature(
        [inspect.Parameter(f"x{i + 1}", inspect.Parameter.POSITIONAL_ONLY) for i in range(arity)]
        + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None) for k in keywords]
    )
    rule_r = _scalar_rrule(f, rows, multi)
    rule_f = _scalar_frule(f, rows, multi, arity)
    for rule, table in ((rule_r, rrule), (rule_f, frule)):
        rule.__signature__ = signature  # type: ignore[attr-defined]
        rule.__qualname__ = f"scalar_{table.kind}[{function_name(f)}]"
        table._add(f, _Method(rule, (object,) * arity, arity, None, frozenset(keywords), None))
    _partials[f] = partials


def scalar_rule_like(f: Any, like: Any, *, keywords: tuple[str, ...] | None = None) -> None:
    """Register for ``f`` the partials that ``scalar_rule`` registered for ``like``.

    For a function that computes the same mathematical function as ``like`` (a fast
    approximation, another implementation): the rule is written once, and its partials are
    evaluated on ``f``'s own inputs and output. ``keywords`` are ``f``'s, as for
    ``scalar_rule``. Raises ``RuleDefinitionError`` when ``like`` has no rule made by
    ``scalar_rule``.

    >>> import math
    >>> def exp_exact(x): return math.exp(x)
    >>> scalar_rule(exp_exact, lambda x, y: y)
    >>> def exp_by_series(x): return sum(x**k / math.factorial(k) for k in range(20))
    >>> scalar_rule_like(exp_by_series, exp_exact)
    >>> frule((None, 1.0), exp_by_series, 0.0)
    (1.0, 1.0)
    """
    partials = _partials.get(like)
    if partials is not None:
        scalar_rule(f, *partials, keywords=keywords)
        return
    raise RuleDefinitionError(
        f"scalar_rule_like({function_name(f)}, {function_name(like)}): "
        f"{function_name(like)} has no rule made by scalar_rule"
    )


_REAL_SCALARS = (float, np.float64, np.float32)


class constant:  # lower case: it reads as a value in a scalar_rule row
    """A partial derivative that is the number ``value`` at every input: ``constant(1.0)``.

    Called like any partial, it gives ``value``. ``scalar_rule`` recognises the partials 1 and
    -1: their pullbacks pass the cotangent through (negated after projection), with the same
    result as multiplying by the partial, and no pass over the cotangent for the product.

    >>> constant(-1.0)(2.0, 3.0, -1.0), constant(-1.0)
    (-1.0, constant(-1.0))
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, *args: Any) -> Any:
        return self.value

    def __repr__(self) -> str:
        return f"constant({self.value!r})"


def _unit_sign(partial: Partial) -> int:
    """1 or -1 for the partials ``constant(1)`` and ``constant(-1)``, 0 for any other."""
    if isinstance(partial, constant) and isinstance(partial.value, int | float):
        if partial.value == 1:
            return 1
        if partial.value == -1:
            return -1
    return 0


def _unit_cotangent(sign: int, project: Any, dy: Any) -> Any:
    """``project(sign * dy)`` for ``sign`` 1 or -1 and real values, with no product over ``dy``.

    Negating after projection is exact (rounding is symmetric), and un-broadcasting first
    makes the negation cheap; projecting again keeps the primal's type (NumPy negates a 0-d
    array into a scalar). Complex values take the product instead, which treats the signs of
    zero parts differently from a negation.
    """
    dx = project(dy)
    return dx if sign > 0 else project(-dx)


def _primal(f: Any) -> Callable:
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


# Values a ufunc computes on directly, tested by type on the rules' hot path.
_TAKEN = frozenset({float, int, complex, np.ndarray, np.float64, np.float32})


def _all_taken(args: tuple) -> bool:
    for a in args:
        if type(a) not in _TAKEN:
            return False
    return True


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


def _unary_rrule(f: Any, partial: Callable[..., Any]) -> Callable:
    """The common case, kept lean: one input, one output."""
    sign = _unit_sign(partial)
    apply = _primal(f)
    direct = f if isinstance(f, np.ufunc) else apply  # floats and NumPy arrays: no detour

    def scalar_rrule(x: Any, **kwargs: Any) -> tuple[Any, Callable]:
        cls = type(x)
        if cls is np.ndarray:
            if x.dtype.kind == "O":
                check_arguments(f, (x,))
            y = direct(x, **kwargs)
        elif cls in _TAKEN:
            y = direct(x, **kwargs)
        else:
            check_arguments(f, (x,))
            y = apply(x, **kwargs)
        project = projector(x)
        complex_case = not (cls in _REAL_SCALARS and type(y) in _REAL_SCALARS) and (
            is_complex(x) or is_complex(y)
        )
        shape = output_shape(y)

        def scalar_pullback(dy: Any) -> tuple[Any, Any]:
            if type(dy) is np.ndarray:
                if dy.shape != shape:
                    check_cotangent(f, y, dy)
            elif isinstance(dy, AbstractThunk):
                dy = dy.unthunk()
            if isinstance(dy, AbstractZero):
                return NO_TANGENT, project(dy)
            if type(dy) is not np.ndarray and type(dy) is not float:
                check_cotangent(f, y, dy)
            if sign and not complex_case and not is_complex(dy):
                return NO_TANGENT, _unit_cotangent(sign, project, dy)
            d = partial(x, y)
            return NO_TANGENT, project((conj(d) if complex_case else d) * dy)

        return y, scalar_pullback

    return scalar_rrule


def _scalar_rrule(f: Any, rows: tuple[tuple[Partial, ...], ...], multi: bool) -> Callable:
    names = {"scalar_pullback": f"{short_name(f)}_pullback"}
    if not multi and len(rows[0]) == 1 and rows[0][0] is not None:
        return renamed_inner(_unary_rrule, names)(f, rows[0][0])
    return renamed_inner(_general_rrule, names)(f, rows, multi)


def _general_rrule(f: Any, rows: tuple[tuple[Partial, ...], ...], multi: bool) -> Callable:
    """Several inputs or outputs."""
    active = [any(r[i] is not None for r in rows) for i in range(len(rows[0]))]
    signs = [_unit_sign(p) for p in rows[0]]
    apply = _primal(f)
    direct = f if isinstance(f, np.ufunc) else apply

    def scalar_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        check_arguments(f, args)
        y = (direct if _all_taken(args) else apply)(*args, **kwargs)
        projectors = [projector(a) if on else None for a, on in zip(args, active, strict=True)]
        complex_case = any(map(is_complex, args)) or any(map(is_complex, y if multi else (y,)))
        real_case = not (multi or complex_case)

        def scalar_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if not isinstance(dy, AbstractZero):
                check_cotangent(f, y, dy)
            outputs = _output_cotangents(dy, len(rows)) if multi else (dy,)
            grads: list[Any] = [NO_TANGENT]
            for i, project in enumerate(projectors):
                if project is None or not project.has_tangent_space:
                    grads.append(NO_TANGENT)
                    continue
                if signs[i] and real_case and not is_complex(dy):
                    grads.append(_unit_cotangent(signs[i], project, dy))
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


def _scalar_frule(
    f: Any, rows: tuple[tuple[Partial, ...], ...], multi: bool, arity: int
) -> Callable:
    apply = _primal(f)
    direct = f if isinstance(f, np.ufunc) else apply

    def scalar_frule(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        if len(tangents) != arity + 1:
            raise TangentTypeError(
                f"frule for {function_name(f)}: expected {arity + 1} tangents (df, dx1, ...), "
                f"got {len(tangents)}"
            )
        check_arguments(f, args)
        check_tangents(f, tangents, args)
        y = (direct if _all_taken(args) else apply)(*args, **kwargs)
        outputs = y if multi else (y,)
        dys = []
        for r, y_r in zip(rows, outputs, strict=True):
            if not has_tangent(y_r):
                dys.append(NO_TANGENT)
                continue
            total: Any = ZERO_TANGENT
            for partial, dx in zip(r, tangents[1:], strict=True):
                dx = unthunk(dx)
                if partial is None or isinstance(dx, AbstractZero) or dx is None:
                    continue
                sign = _unit_sign(partial)
                if sign and not is_complex(dx):
                    total = total + (dx if sign > 0 else -dx)
                else:
                    total = total + partial(*args, y) * dx
            dys.append(fit_to_output(total, y_r))
        return y, (Tangent(tuple, *dys) if multi else dys[0])

    return scalar_frule


def fit_to_output(dy: Any, y: Any) -> Any:
    """The frule's output tangent, broadcast to ``y``'s shape and projected onto its space."""
    if isinstance(dy, AbstractZero):
        return dy
    shape = getattr(y, "shape", ())
    if getattr(dy, "shape", ()) != shape:
        xp = array_namespace(dy, y)
        dy = xp.asarray(xp.broadcast_to(xp.asarray(dy), shape), copy=True)
    return ProjectTo(y)(dy)


# ---- functions with no derivative ---------------------------------------------------------


def non_differentiable(*functions: Any) -> None:
    """Declare functions whose outputs have no tangent (predicates, argmax, integer results).

    Their rrule returns the primal and a pullback giving ``NoTangent()`` for every argument;
    their frule gives ``NoTangent()`` as the output tangent. The coverage report lists them as
    declared non-differentiable.

    >>> import numpy as np
    >>> non_differentiable(np.argmax)
    >>> y, pullback = rrule(np.argmax, np.array([1.0, 3.0]))
    >>> y, pullback(1.0)
    (np.int64(1), (NoTangent(), NoTangent()))
    """
    for f in functions:
        rule_r, rule_f = _non_differentiable_rules(f)
        rrule._add(f, _Method(rule_r, (), 0, object, None, None))
        frule._add(f, _Method(rule_f, (), 0, object, None, None))
        mark_non_differentiable(f)


def _non_differentiable_rules(f: Any) -> tuple[Callable, Callable]:
    def non_differentiable_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        y = f(*args, **kwargs)
        cotangents = (NO_TANGENT,) * (len(args) + 1)

        def non_differentiable_pullback(dy: Any) -> tuple[Any, ...]:
            return cotangents

        return y, non_differentiable_pullback

    def non_differentiable_frule(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        return f(*args, **kwargs), NO_TANGENT

    return non_differentiable_rrule, non_differentiable_frule


def ignore_derivatives(x: Any) -> Any:
    """``x`` (or ``x()`` for a callable) with every derivative through it cut off.

    Engines see a rule whose pullback gives ``NoTangent()`` and whose frule gives
    ``NoTangent()``: use it for values that feed a computation but are not differentiated
    (a step size, logging, a running statistic).

    An engine's tracked values, which never reach a rule through this plain Python call,
    cut themselves off: their type's ``_chainrules_ignore_derivatives(value)`` gives the value.

    >>> ignore_derivatives(2.0), ignore_derivatives(lambda: 3.0)
    (2.0, 3.0)
    """
    value = x() if callable(x) else x
    untracked = getattr(type(value), "_chainrules_ignore_derivatives", None)
    return value if untracked is None else untracked(value)


non_differentiable(ignore_derivatives)
