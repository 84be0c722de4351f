"""Rules for parameter gradients: the derivatives of a special function in its parameters, as a
function with rules of its own, so that they differentiate again.

A rule whose parameter derivatives are computed numerically (``betainc`` in ``a`` and ``b``,
``hyp2f1`` in ``a``, ``b``, ``c``) calls a function ``gradient(*args)`` that returns them
together, ``(df/dp_1, ..., df/dp_k)`` for the first ``k`` arguments, through ``call``: on an
engine's tracked values the call is recorded, and differentiated by the rules registered here.

* In the parameters, the gradient's Jacobian is ``f``'s Hessian, ``hessian(*args)``: its upper
  triangle row by row (``f_11, f_12, ..., f_kk``), computed numerically on NumPy values only,
  thunked, once per pullback for every parameter's cotangent. A third derivative there is a
  ``NotImplementedTangent`` naming the gradient function.
* In each further argument ``x``, ``slopes(*args)`` gives, per further argument, the ``k``
  derivatives ``d/dx df/dp_i``, written with functions that have rules (typically the gradient
  itself at shifted parameters), so these differentiate to any order.

Complex arguments follow the holomorphic convention: a cotangent is ``conj(J) dy``.

>>> import numpy as np
>>> def grad_xy(a, b, x):  # f = a**2 b x, its gradient in (a, b)
...     return 2 * a * b * x, a * a * x
>>> gradient_rules(
...     grad_xy, lambda a, b, x: (2 * b * x, 2 * a * x, 0 * x),
...     lambda a, b, x: ((2 * a * b, a * a),), 2)
>>> from chainrules.core.registry import rrule
>>> (ga, gb), pullback = rrule(grad_xy, 1.0, 2.0, 3.0)
>>> [float(unthunk(c)) for c in pullback((1.0, 0.0))[1:]]  # f_aa, f_ab, then d/dx f_a
[12.0, 6.0, 4.0]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ....core.calls import call
from ....core.define import fit_to_output
from ....core.dtypes import conj, is_complex
from ....core.namespace import is_numpy
from ....core.parametric import SharedPartial, numpy_only, parametric_rule
from ....core.projection import ProjectTo
from ....core.registry import frule, function_name, rrule
from ....core.structure import is_differentiable_leaf
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import Thunk, unthunk
from ....core.zeros import is_zero, vanishes

__all__ = [
    "derivative_rules",
    "gradient_rules",
    "hessian_rows",
    "parameter_derivative_rules",
    "parameter_gradient_rules",
]


def hessian_rows(upper: tuple, k: int) -> list[list[Any]]:
    """The full symmetric ``k x k`` rows from the upper triangle ``(h_11, h_12, ..., h_kk)``.

    >>> hessian_rows((1, 2, 3), 2)
    [[1, 2], [2, 3]]
    """
    rows: list[list[Any]] = [[None] * k for _ in range(k)]
    position = 0
    for i in range(k):
        for j in range(i, k):
            rows[i][j] = rows[j][i] = upper[position]
            position += 1
    return rows


def _combination(row: Any, tangents: Any, conjugate: bool) -> Any:
    """``sum_j row[j] t_j`` over the nonzero tangents (``conj(row[j])`` when ``conjugate``)."""
    total: Any = ZERO_TANGENT
    for weight, t in zip(row, tangents, strict=True):
        if not is_zero(t):
            total = total + (conj(weight) if conjugate else weight) * t
    return total


def _on_numpy(values: tuple, tangents: tuple) -> bool:
    return is_numpy(*values, *(t for t in tangents if not is_zero(t)))


def gradient_rules(
    gradient: Callable[..., tuple],
    hessian: Callable[..., tuple],
    slopes: Callable[..., tuple],
    parameters: int,
    constants: Sequence[int] = (),
) -> None:
    """Register the rrule and frule of ``gradient`` (see the module doc).

    ``parameters`` is ``k``, the number of leading arguments that ``gradient`` differentiates
    in; ``hessian`` and ``slopes`` take the same arguments as ``gradient``. The further
    arguments at the positions ``constants`` (integer degrees) have no tangent: their entries
    of ``slopes`` are not read.
    """
    name = function_name(gradient)
    k = parameters

    def active(i: int, v: Any) -> bool:
        return i not in constants and is_differentiable_leaf(v)

    def gradient_rrule(*args: Any) -> tuple[Any, Any]:
        y = call(gradient, *args)
        projectors = [ProjectTo(v) if active(i, v) else None for i, v in enumerate(args)]
        memo: list[Any] = []

        def parameter_cotangent(i: int, dy: tuple, conjugate: bool) -> Any:
            if not _on_numpy(args, dy):
                return numpy_only(name, i)
            if not memo:
                memo.append(hessian_rows(hessian(*args), k))
            project = projectors[i]
            assert project is not None  # asked only for differentiable parameters
            return project(_combination(memo[0][i], dy, conjugate))

        def gradient_pullback(dy: Any) -> tuple[Any, ...]:
            dy = tuple(unthunk(d) for d in dy)
            conjugate = any(map(is_complex, (*args, *dy)))
            grads: list[Any] = [NO_TANGENT]
            for i in range(k):
                if projectors[i] is None:
                    grads.append(NO_TANGENT)
                else:
                    grads.append(Thunk(functools.partial(parameter_cotangent, i, dy, conjugate)))
            rest = [p is not None for p in projectors[k:]]
            found = slopes(*args) if any(rest) else ()
            for j, project in enumerate(projectors[k:]):
                if project is None:
                    grads.append(NO_TANGENT)
                else:
                    grads.append(project(_combination(found[j], dy, conjugate)))
            return tuple(grads)

        return y, gradient_pullback

    def gradient_frule(tangents: tuple, *args: Any) -> tuple[Any, Any]:
        y = call(gradient, *args)
        given = [
            t if active(i, v) and not vanishes(t) else ZERO_TANGENT
            for i, (v, t) in enumerate(zip(args, tangents[1 : len(args) + 1], strict=True))
        ]
        out: list[Any] = [ZERO_TANGENT] * k
        if not all(is_zero(t) for t in given[:k]):
            if not _on_numpy(args, tuple(given[:k])):
                first = next(i for i in range(k) if not is_zero(given[i]))
                return y, numpy_only(name, first)
            rows = hessian_rows(hessian(*args), k)
            out = [_combination(rows[i], given[:k], False) for i in range(k)]
        if not all(is_zero(t) for t in given[k:]):
            found = slopes(*args)
            for j, t in enumerate(given[k:]):
                if not is_zero(t):
                    out = [o + s * t for o, s in zip(out, found[j], strict=True)]
        return y, Tangent(tuple, *(fit_to_output(o, yi) for o, yi in zip(out, y, strict=True)))

    rrule.register(gradient)(gradient_rrule)
    frule.register(gradient)(gradient_frule)


def parameter_gradient_rules(
    f: Any,
    gradient: Callable[..., tuple],
    hessian: Callable[..., tuple],
    slopes: Callable[..., tuple],
    *argument_partials: Any,
    positions: Sequence[int] | None = None,
) -> None:
    """The rules of ``f`` and of ``gradient``, its derivatives in its parameters.

    ``positions`` are the parameters' positions among ``f``'s arguments (the leading ``k``
    by default, ``k`` being ``f``'s arity less the number of ``argument_partials``);
    ``gradient`` takes the parameters first, then the other arguments in order, and gets
    ``gradient_rules(gradient, hessian, slopes, k)`` (an argument whose partial is ``None``
    has no tangent there either). ``f``'s partials in its parameters are
    ``call(gradient, ...)``, thunked and traceable, one call for all of them;
    ``argument_partials`` are its partials in its other arguments, in order, as
    ``parametric_rule`` takes them.
    """
    arity = _arity(f)
    k = arity - len(argument_partials)
    chosen = tuple(range(k)) if positions is None else tuple(positions)
    others = [i for i in range(arity) if i not in chosen]
    constants = [k + j for j, partial in enumerate(argument_partials) if partial is None]
    gradient_rules(gradient, hessian, slopes, k, constants)

    def parameters(*args: Any) -> tuple:
        # the partials see (*args, y)
        return call(gradient, *(args[i] for i in chosen), *(args[i] for i in others))

    parameters.__qualname__ = f"{function_name(gradient)}_partials"
    partials: list[Any] = [None] * arity
    for index, i in enumerate(chosen):
        partials[i] = SharedPartial(parameters, index)
    for i, partial in zip(others, argument_partials, strict=True):
        partials[i] = partial
    parametric_rule(f, *partials, costly=chosen, traceable=chosen)


def derivative_rules(
    derivative: Callable[..., Any],
    second: Callable[..., Any],
    slope: Callable[..., Any],
    arity: int,
    position: int = 0,
) -> None:
    """The rules of ``derivative``, a function's derivative in its parameter at ``position``
    (a function of the same ``arity`` arguments): ``second(*args)``, the second derivative
    there, on NumPy values, thunked; ``slope(*args, y)`` its derivative in the last argument,
    written with functions that have rules; the other arguments (integer degrees) have no
    tangent."""
    partials: list[Any] = [None] * arity
    partials[position] = lambda *args: second(*args[:-1])
    partials[-1] = slope
    parametric_rule(
        derivative,
        *partials,
        costly=(position,),
        forward=functools.partial(call, derivative),
    )


def parameter_derivative_rules(
    f: Any,
    derivative: Callable[..., Any],
    second: Callable[..., Any],
    slope: Callable[..., Any],
    *argument_partials: Any,
    position: int = 0,
) -> None:
    """``parameter_gradient_rules`` for one parameter: ``derivative`` is ``f``'s derivative in
    its argument at ``position``, a function of the same arguments with ``derivative_rules``;
    ``argument_partials`` are ``f``'s partials in its other arguments, in order: ``None``
    (no tangent, in ``derivative`` either) but for the last, the argument of ``slope``."""
    derivative_rules(derivative, second, slope, len(argument_partials) + 1, position)
    partials = list(argument_partials)
    partials.insert(position, lambda *args: call(derivative, *args[:-1]))
    parametric_rule(f, *partials, costly=(position,), traceable=(position,))


def _arity(f: Any) -> int:
    nin = getattr(f, "nin", None)
    if nin is None:
        raise TypeError(f"{function_name(f)}: the arity of a non-ufunc is not known here")
    return int(nin)
