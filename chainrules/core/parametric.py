"""``parametric_rule``: rules for special functions of parameters, with costly derivatives thunked.

``scalar_rule`` suits most of ``scipy.special``; this variant is for functions with a shape
parameter or an order (``gammainc(a, x)``, ``kv(v, x)``, ``hyp1f1(a, b, x)``), where a partial
may be

* a function ``(x1, ..., xn, y) -> df/dxi`` of the inputs and the output, as in
  ``scalar_rule``;
* a ``SharedPartial(fn, i)``: the ``i``-th of several partials that one ``fn`` computes
  together (one quadrature for both shape derivatives), called once per pullback;
* ``None``: the argument has no tangent (an integer order);
* a ``NotImplementedTangent`` (from ``not_implemented(reason)``), or a function that returns
  one for some inputs: the derivative is not known in closed form and not computed; the
  pullback returns it as the cotangent and the frule returns it as the output tangent when
  that argument's tangent is not zero.

Cotangents of the arguments listed in ``costly`` (those computed by quadrature or series) are
returned as ``Thunk``\\s, so an engine that needs only the derivative in ``x`` never pays for
the others. They are computed on NumPy values only: when a pullback runs on an engine's
tracked arrays (second derivatives), they are ``NotImplementedTangent``, unless the argument
is also listed in ``traceable`` (a series written in operations that an engine records).
Partials are holomorphic derivatives: a complex pullback is ``conj(partial) * dy``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> def scaled_exp(a, x): return a * sc.expit(x)
>>> parametric_rule(scaled_exp, lambda a, x, y: sc.expit(x), lambda a, x, y: y * sc.expit(-x))
>>> y, pullback = rrule(scaled_exp, 2.0, 0.0)
>>> float(y), pullback(1.0)
(1.0, (NoTangent(), 0.5, 0.5))
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .define import fit_to_output
from .dtypes import conj, is_complex
from .namespace import is_numpy, require_numpy
from .projection import ProjectTo
from .registry import frule, function_name, rrule
from .structure import is_differentiable_leaf
from .tangents import NO_TANGENT, ZERO_TANGENT, NotImplementedTangent, not_implemented
from .thunks import Thunk
from .zeros import is_zero, vanishes

__all__ = ["SharedPartial", "numpy_only", "parametric_rule"]


def parametric_rule(
    f: Any,
    *partials: Any,
    costly: Sequence[int] = (),
    traceable: Sequence[int] = (),
    keywords: Sequence[str] = (),
    required: int | None = None,
    forward: Callable | None = None,
) -> None:
    """Register the rrule and frule of an elementwise ``f`` from its partials (see module doc).

    ``costly`` holds the positions of arguments whose cotangents are thunked; those also in
    ``traceable`` are computed on an engine's tracked arrays too. When
    ``required`` is given, the trailing arguments after the first ``required`` are optional;
    partials are called with the arguments given. ``keywords`` names the optional trailing
    parameters that may also be passed by keyword: partials see them as positional arguments,
    and, as keywords, they get no cotangent. ``forward`` computes the value in place of ``f``
    (for a ``f`` that would convert an engine's arrays to NumPy).
    """
    name = function_name(f)
    arity = len(partials)
    fewest = arity if required is None else required
    costly_set = frozenset(costly)
    numpy_only_set = costly_set - frozenset(traceable)
    evaluate = f if forward is None else forward

    def parametric_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        _check_arity(name, args, fewest, arity)
        require_numpy(f, *args)
        y = evaluate(*args, **kwargs)
        extra = tuple(kwargs[k] for k in keywords if k in kwargs)
        active = [
            p is not None and is_differentiable_leaf(a)
            for a, p in zip(args, partials, strict=False)
        ]
        projectors: list[Any] = [
            ProjectTo(a) if on else None for a, on in zip(args, active, strict=True)
        ]
        conjugate = is_complex(y) or any(map(is_complex, args))

        memo: dict[Any, Any] = {}

        def cotangent(i: int, dy: Any) -> Any:
            if i in numpy_only_set and not is_numpy(*args, dy):
                return numpy_only(name, i)
            d = _evaluate(partials[i], memo, (*args, *extra, y))
            if isinstance(d, NotImplementedTangent):
                return d
            return projectors[i](conj(d) * dy if conjugate else d * dy)

        def parametric_pullback(dy: Any) -> tuple[Any, ...]:
            grads: list[Any] = [NO_TANGENT]
            for i, project in enumerate(projectors):
                partial = partials[i]
                if project is None:
                    grads.append(NO_TANGENT)
                elif isinstance(partial, NotImplementedTangent):
                    grads.append(partial)
                elif i in costly_set:
                    grads.append(Thunk(functools.partial(cotangent, i, dy)))
                else:
                    grads.append(cotangent(i, dy))
            return tuple(grads)

        return y, parametric_pullback

    def parametric_frule(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        _check_arity(name, args, fewest, arity)
        require_numpy(f, *args)
        y = evaluate(*args, **kwargs)
        extra = tuple(kwargs[k] for k in keywords if k in kwargs)
        memo: dict[Any, Any] = {}
        total: Any = ZERO_TANGENT
        given = zip(partials, tangents[1 : len(args) + 1], strict=False)
        for i, (partial, dx) in enumerate(given):
            if partial is None or is_zero(dx):
                continue
            if isinstance(partial, NotImplementedTangent):
                if vanishes(dx):
                    continue
                return y, partial
            if i in numpy_only_set and not is_numpy(*args, dx):
                d: Any = numpy_only(name, i)
            else:
                d = _evaluate(partial, memo, (*args, *extra, y))
            if isinstance(d, NotImplementedTangent):
                if vanishes(dx):
                    continue
                return y, d
            total = total + d * dx
        return y, fit_to_output(total, y)

    rules: tuple[tuple[Any, Any], ...] = ((parametric_rrule, rrule), (parametric_frule, frule))
    for rule, table in rules:
        table.register(f, keywords=keywords)(rule)


@dataclass(frozen=True)
class SharedPartial:
    """The ``index``-th of several partials that ``fn(*args, y)`` computes together.

    Partials sharing one ``fn`` (both shape derivatives of ``betainc``, from one quadrature)
    call it once per pullback or frule call.

    >>> both = lambda a, b, y: (b, a)
    >>> SharedPartial(both, 1)(2.0, 3.0, None)
    2.0
    """

    fn: Callable[..., Any]
    index: int

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)[self.index]


def _evaluate(partial: Any, memo: dict[Any, Any], args: tuple) -> Any:
    if not isinstance(partial, SharedPartial):
        return partial(*args)
    if partial.fn not in memo:
        memo[partial.fn] = partial.fn(*args)
    return memo[partial.fn][partial.index]


def numpy_only(name: str, i: int) -> NotImplementedTangent:
    """The tangent of a numerically computed derivative asked for on an engine's arrays."""
    ordinal = ("first", "second", "third", "fourth")[i]
    return not_implemented(
        f"derivative of {name} in its {ordinal} argument on an engine's tracked arrays: it is "
        "computed numerically on NumPy values only, so it cannot be differentiated again"
    )


def _check_arity(name: str, args: tuple, fewest: int, arity: int) -> None:
    if not fewest <= len(args) <= arity:
        expected = arity if fewest == arity else f"{fewest} to {arity}"
        raise TypeError(f"{name} takes {expected} positional arguments, got {len(args)}")
