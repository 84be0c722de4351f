"""Second-order checks: a rule's pullback (or pushforward), differentiated by the reverse engine.

For the rrule, ``g(args, dy) = Re <pullback(dy), w>`` for a random ``w`` is a scalar function
of the differentiable arguments and of ``dy``; the reverse engine of ``chainrules.engines``
computes its gradient by running the pullback on tracked values, and the dot-product identity
checks that gradient against finite differences of ``g`` along one direction: the arguments
move along the first-order check's tangents (random, or given with ``with_tangent``), ``dy``
along a random one (array and scalar arguments vary; structured arguments and ``f``'s own
state are held fixed). The
frule is checked the same way with ``g(args, dxs) = Re <frule(dxs), w>``. A pullback written
in operations that the engine cannot see through, or that is inexact at zeros (``y / x``),
fails here although its first derivatives are right.

Until ``chainrules.engines.reverse`` exists (with ``vjp`` and ``grad``), asking for the
check raises ``SecondOrderUnavailable``.

>>> engine = reverse_engine()
>>> engine is None or (hasattr(engine, "grad") and hasattr(engine, "vjp"))
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.core.structure import decompose, is_differentiable_leaf
from chainrules.core.tangents import AbstractZero, NotImplementedTangent, Tangent
from chainrules.core.thunks import unthunk

from .checks import input_path
from .failures import (
    RuleTestFailure,
    SecondOrderMismatch,
    SecondOrderUnavailable,
    SecondOrderUntraceable,
)
from .finite_differences import FDEstimate, directional_derivative, method_name, step_scale
from .primals import moves_nothing, perturb, upcast
from .report import errors_line
from .rounding import root_mean_square, weighted_size
from .tangents import abs_inner, inner, rand_tangent, times_power_of_two
from .tolerances import ROUNDING_FACTOR, agree, settles

__all__ = ["check_second_order_frule", "check_second_order_rrule", "reverse_engine"]


def reverse_engine() -> Any:
    """The module ``chainrules.engines.reverse`` if it provides ``vjp`` and ``grad``, else None."""
    try:
        reverse = importlib.import_module("chainrules.engines.reverse")
    except ImportError:
        return None
    if not (hasattr(reverse, "vjp") and hasattr(reverse, "grad")):
        return None
    return reverse


def _require_engine(name: str) -> Any:
    reverse = reverse_engine()
    if reverse is None:
        raise SecondOrderUnavailable(
            f"check_second_order=True for {name} needs the reverse engine "
            "(chainrules.engines.reverse, providing vjp and grad), which is not available yet; "
            "call without check_second_order"
        )
    return reverse


def _traced_inner(c: Any, w: Any) -> Any:
    """``Re <c, w>`` written in operations a tracing engine records (``w`` is constant)."""
    c = unthunk(c)
    if isinstance(c, NotImplementedTangent):
        raise SecondOrderUnavailable(
            f"the pullback gives NotImplementedTangent on the engine's tracked values "
            f"({c.info}); call with check_second_order=False for this argument"
        )
    if isinstance(c, AbstractZero) or isinstance(w, AbstractZero):
        return 0.0
    if isinstance(c, Tangent):
        total: Any = 0.0
        keys = range(len(c.backing)) if c.is_positional else c.backing.keys()
        for k in keys:
            total = total + _traced_inner(c[k], w[k] if isinstance(w, Tangent) else 0.0)
        return total
    if np.iscomplexobj(np.asarray(w)):
        return np.sum(np.real(np.conj(w) * c))
    if isinstance(c, complex):
        return np.sum(w * c.real)
    return np.sum(w * c)


def _is_array_argument(x: Any) -> bool:
    return decompose(x) is None and is_differentiable_leaf(x)


def _log2_size(c: Any, w: Any) -> float:
    """``log2`` of the size of ``<c, w>``, from the largest finite elements (no overflow)."""
    total = 0.0
    for a in (unthunk(c), w):
        if isinstance(a, AbstractZero | NotImplementedTangent | Tangent):
            return -np.inf
        magnitude = np.abs(np.asarray(a))
        finite = magnitude[np.isfinite(magnitude)] if magnitude.ndim else magnitude[None]
        largest = float(np.max(finite, initial=0.0))
        if largest == 0.0 or not np.isfinite(largest):
            return -np.inf
        total += np.log2(largest)
    return total


def _weight_exponent(log2_g: float, values: list) -> int:
    """The power of two for the weights ``w`` that keeps the gradient of ``g`` representable.

    ``g``'s gradient in a value of size ``s`` is about ``g / s``: at 1e-300 a pullback of
    size 1e300 has second derivatives of 1e600. ``log2_g`` is ``log2 |g|``. Ordinary sizes
    give 0 (nothing changes).
    """
    if not np.isfinite(log2_g):
        return 0
    smallest = min((float(np.min(step_scale(v), initial=1.0)) for v in values), default=1.0)
    largest_gradient = log2_g - np.log2(min(smallest, 1.0))
    exponent = -round(max(largest_gradient, log2_g))
    return 0 if abs(exponent) <= 100 else int(np.clip(exponent, -1000, 1000))


def _compare(
    setup: Any,
    g: Callable,
    values: list,
    directions: list,
    names: list[str],
    fdm: Any,
    what: str,
    scaled_by: int = 0,
    noise: float = 0.0,
    terms: float = 0.0,
) -> None:
    """``terms``: the size of ``g``'s own terms (see ``_terms``), which its rounding is
    relative to."""
    reverse = _require_engine(setup.ctx.name)
    # Single-precision values move in double precision, as for the first-order differences:
    # steps of a float32 primal are rounded away before they reach the derivative.
    values = [upcast(v) for v in values]
    directions = [upcast(d) for d in directions]
    argnums = tuple(range(len(values)))
    try:
        gradient = reverse.grad(g, argnums=argnums)(*values)
    except RuleTestFailure:
        raise
    except Exception as error:  # whatever the rule raised on tracked values: its author's to see
        setup.ctx.fail(
            SecondOrderUntraceable,
            f"the {what} raised {type(error).__name__} when the reverse engine ran it on "
            "tracked values",
            f"{error}"[:500],
            "a rule that leaves the engine (float(x), np.asarray(x), compiled code) cannot be "
            "differentiated twice; pass check_second_order=False to skip this check",
            cause=error,
        )
    gradient = gradient if isinstance(gradient, tuple) else (gradient,)
    terms *= _relative_move(values, directions)
    terms = terms if np.isfinite(terms) else 0.0
    found = _disagreement(setup, g, gradient, values, directions, fdm, noise, terms)
    if found is None:
        return
    # Which value disagrees: the check along each one alone (only once the sum has failed).
    where = "the arguments together"
    if len(values) > 1:
        worst = -np.inf
        for k in range(len(values)):
            alone = [d if j == k else _zero_like(d) for j, d in enumerate(directions)]
            single = _disagreement(setup, g, gradient, values, alone, fdm, noise, terms)
            if single is not None and single[-1] > worst:
                worst, where, found = single[-1], names[k], single
    else:
        where = names[0]
    actual, estimate, allowed, _ = found
    scale_note = f" (g scaled by 2**{scaled_by} to stay representable)" if scaled_by else ""
    setup.ctx.fail(
        SecondOrderMismatch,
        f"the derivative of the {what} in {where}, by the reverse engine, disagrees with "
        "finite differences",
        f"expected {estimate.value!r} by finite differences ({method_name(fdm)}, error "
        f"estimate {estimate.error:.3e}){scale_note}",
        f"actual {actual!r} from chainrules.engines.reverse.grad",
        f"{errors_line(actual, estimate.value)}; allowed {allowed:.3e} ({setup.tol.describe()})",
        _second_order_hint(actual, estimate.value, what),
    )


def _second_order_hint(actual: float, expected: float, what: str) -> str:
    if np.isfinite(actual) or np.isfinite(expected):
        if not np.isfinite(actual):
            return (
                "the engine's value is not finite where finite differences are: a partial that "
                "leaves float64's range before the cotangent multiplies it, or a NaN inside"
            )
        return "the pullback may use operations that are inexact at zeros or invisible to tracing"
    return (
        f"neither is finite: the {what}'s value is not finite at or next to these arguments "
        "(an output or tangent that overflows); check_second_order=False skips this check"
    )


def _abs_sum(d: Any) -> float:
    return float(np.sum(np.abs(np.asarray(d))))


def _subnormal_noise(setup: Any, exponent: int, weights: list) -> float:
    """What rounding below the normal range leaves in ``g`` once its weights are scaled up by
    ``2**exponent``: a unit of the smallest subnormal per term, scaled alike."""
    if exponent <= 0:
        return 0.0
    return float(np.ldexp(setup.tol.floor, exponent)) * sum(_abs_sum(w) for w in weights)


def _relative_move(values: list, directions: list) -> float:
    """How far ``directions`` move ``values``, each relative to its own size: the sum of
    ``|d|_1 / rms(v)`` (values of size 0 left out). The 1-norm, not ``Setup.move_size``'s
    mean: a pullback's derivative is dense in what moves (every entry of dy and x meets every
    other in corrcoef's), and rounding in it was seen up to 1000 eps of its terms."""
    total = 0.0
    for v, d in zip(values, directions, strict=True):
        size = root_mean_square([np.abs(np.asarray(v))])
        if size:
            total += float(np.sum(np.abs(np.asarray(d)))) / size
    return total if np.isfinite(total) else 0.0


def _zero_like(d: Any) -> Any:
    return np.zeros_like(d) if isinstance(d, np.ndarray) else d * 0


def _disagreement(
    setup: Any,
    g: Callable,
    gradient: tuple,
    values: list,
    directions: list,
    fdm: Any,
    noise: float,
    terms: float = 0.0,
) -> tuple | None:
    """``(actual, estimate, allowed, excess)`` when the gradient along ``directions``
    disagrees with finite differences of ``g``, else None. ``noise``: the rounding of ``g``'s
    values that their size does not show (subnormal values inside, scaled up)."""
    actual = sum(inner(gi, di) for gi, di in zip(gradient, directions, strict=True))
    magnitude = sum(abs_inner(gi, di) for gi, di in zip(gradient, directions, strict=True))
    magnitude = max(magnitude, terms)

    def along(t: float) -> Any:
        moved = [perturb(v, d, t) for v, d in zip(values, directions, strict=True)]
        return float(np.real(g(*moved)))

    subnormal = ROUNDING_FACTOR * noise * sum(_abs_sum(d) for d in directions)

    def settled(estimate: FDEstimate) -> bool:
        allowed = setup.tol.allowed(actual, estimate.value, magnitude, 0.0) + subnormal
        return settles(actual, estimate.value, estimate.error, allowed)

    if all(moves_nothing(v, d) for v, d in zip(values, directions, strict=True)):
        estimate = FDEstimate.exactly_zero(0.0)  # no coordinate moves: see Setup.fd_along
    else:
        rounding = (lambda: noise) if noise else None
        estimate = directional_derivative(along, fdm, rounding, settled)
    allowed = setup.tol.allowed(actual, estimate.value, magnitude, estimate.error) + subnormal
    if agree(actual, estimate.value, allowed):  # a NaN on either side fails
        return None
    error = abs(actual - estimate.value)
    return actual, estimate, allowed, (np.inf if np.isnan(error) else error - allowed)


def check_second_order_rrule(
    setup: Any, rule: Callable, dy: Any, fdm: Any, first: tuple | None = None
) -> None:
    """Differentiate ``Re <pullback(dy), w>`` in the arguments and ``dy`` (see the module);
    ``first``: ``pullback(dy)`` unthunked, when the first-order check has it."""
    _require_engine(setup.ctx.name)
    if first is None:
        _, pullback = rule(setup.inputs[0], *setup.inputs[1:], **setup.fkwargs)
        first = tuple(unthunk(c) for c in pullback(dy))
    # Arguments whose cotangent is not implemented at first order have nothing to differentiate.
    active = [
        i
        for i in setup.differentiable()
        if i > 0
        and _is_array_argument(setup.inputs[i])
        and not isinstance(first[i], NotImplementedTangent)
    ]
    weights = {i: rand_tangent(setup.inputs[i], setup.rng) for i in active}
    with_dy = _is_array_argument(dy)
    values = [setup.inputs[i] for i in active] + ([dy] if with_dy else [])
    size = max((_log2_size(first[i], weights[i]) for i in active), default=-np.inf)
    exponent = _weight_exponent(size, values)
    noise = _subnormal_noise(setup, exponent, list(weights.values()))
    weights = {i: times_power_of_two(w, exponent) if exponent else w for i, w in weights.items()}

    def g(*values: Any) -> Any:
        inputs = list(setup.inputs)
        for i, v in zip(active, values, strict=False):
            inputs[i] = v
        cotangent_in = values[-1] if with_dy else dy
        _, pullback = rule(inputs[0], *inputs[1:], **setup.fkwargs)
        cotangents = pullback(cotangent_in)
        total: Any = 0.0
        for i in active:
            total = total + _traced_inner(cotangents[i], weights[i])
        return total

    # The arguments move along the tangents of the first-order check (given ones included,
    # so with_tangent(x, dx) keeps a discontinuous function on its smooth side).
    directions = [setup.dxs[i] for i in active] + ([rand_tangent(dy, setup.rng)] if with_dy else [])
    names = [input_path(i) for i in active] + (["dy"] if with_dy else [])
    # g's terms: those of <dy, J w> (Setup.term_scale), before its derivative moves them.
    terms = weighted_size(dy, setup.y_expected) * setup.move_size(weights)
    if values:
        _compare(setup, g, values, directions, names, fdm, "pullback", exponent, noise, terms)


def check_second_order_frule(setup: Any, rule: Callable, w: Any, fdm: Any) -> None:
    """Differentiate ``Re <frule(dxs), w>`` in the arguments and their tangents."""
    _require_engine(setup.ctx.name)
    active = [i for i in setup.differentiable() if i > 0 and _is_array_argument(setup.inputs[i])]
    if not _is_array_argument(w) or not active:
        return
    values = [setup.inputs[i] for i in active] + [setup.dxs[i] for i in active]
    exponent = 0
    if setup.out_exponent or any(np.any(step_scale(v) != 1.0) for v in values):
        ydot = rule(setup.dxs, setup.inputs[0], *setup.inputs[1:], **setup.fkwargs)[1]
        exponent = _weight_exponent(_log2_size(ydot, w), values)
    noise = _subnormal_noise(setup, exponent, [w])
    w = times_power_of_two(w, exponent) if exponent else w

    def g(*values: Any) -> Any:
        inputs = list(setup.inputs)
        tangents = list(setup.dxs)
        for k, i in enumerate(active):
            inputs[i] = values[k]
            tangents[i] = values[len(active) + k]
        _, ydot = rule(tuple(tangents), inputs[0], *inputs[1:], **setup.fkwargs)
        return _traced_inner(ydot, w)

    directions = [setup.dxs[i] for i in active] + [
        rand_tangent(setup.dxs[i], setup.rng) for i in active
    ]
    names = [input_path(i) for i in active] + [f"the tangent of {input_path(i)}" for i in active]
    terms = weighted_size(w, setup.y_expected) * setup.move_size({i: setup.dxs[i] for i in active})
    _compare(setup, g, values, directions, names, fdm, "pushforward", exponent, noise, terms)
