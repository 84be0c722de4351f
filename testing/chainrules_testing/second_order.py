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

from .failures import SecondOrderMismatch, SecondOrderUnavailable
from .finite_differences import directional_derivative, method_name
from .primals import perturb, upcast
from .report import errors_line
from .tangents import abs_inner, inner, rand_tangent

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


def _compare(setup: Any, g: Callable, values: list, directions: list, fdm: Any, what: str) -> None:
    reverse = _require_engine(setup.ctx.name)
    # Single-precision values move in double precision, as for the first-order differences:
    # steps of a float32 primal are rounded away before they reach the derivative.
    values = [upcast(v) for v in values]
    directions = [upcast(d) for d in directions]
    argnums = tuple(range(len(values)))
    gradient = reverse.grad(g, argnums=argnums)(*values)
    gradient = gradient if isinstance(gradient, tuple) else (gradient,)
    actual = sum(inner(gi, di) for gi, di in zip(gradient, directions, strict=True))
    magnitude = sum(abs_inner(gi, di) for gi, di in zip(gradient, directions, strict=True))

    def along(t: float) -> Any:
        moved = [perturb(v, d, t) for v, d in zip(values, directions, strict=True)]
        return float(np.real(g(*moved)))

    estimate = directional_derivative(along, fdm)
    allowed = setup.tol.allowed(actual, estimate.value, magnitude, estimate.error)
    if not abs(actual - estimate.value) <= allowed:  # a NaN on either side fails too
        setup.ctx.fail(
            SecondOrderMismatch,
            f"the derivative of the {what}, by the reverse engine, disagrees with finite "
            "differences",
            f"expected {estimate.value!r} by finite differences ({method_name(fdm)}, error "
            f"estimate {estimate.error:.3e})",
            f"actual {actual!r} from chainrules.engines.reverse.grad",
            f"{errors_line(actual, estimate.value)}; allowed {allowed:.3e} "
            f"({setup.tol.describe()})",
            "the pullback may use operations that are inexact at zeros or invisible to tracing",
        )


def check_second_order_rrule(setup: Any, rule: Callable, dy: Any, fdm: Any) -> None:
    """Differentiate ``Re <pullback(dy), w>`` in the arguments and ``dy`` (see the module)."""
    _require_engine(setup.ctx.name)
    # Arguments whose cotangent is not implemented at first order have nothing to differentiate.
    _, pullback = rule(setup.inputs[0], *setup.inputs[1:], **setup.fkwargs)
    first = pullback(dy)
    active = [
        i
        for i in setup.differentiable()
        if i > 0
        and _is_array_argument(setup.inputs[i])
        and not isinstance(unthunk(first[i]), NotImplementedTangent)
    ]
    weights = {i: rand_tangent(setup.inputs[i], setup.rng) for i in active}
    with_dy = _is_array_argument(dy)

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

    values = [setup.inputs[i] for i in active] + ([dy] if with_dy else [])
    # The arguments move along the tangents of the first-order check (given ones included,
    # so with_tangent(x, dx) keeps a discontinuous function on its smooth side).
    directions = [setup.dxs[i] for i in active] + ([rand_tangent(dy, setup.rng)] if with_dy else [])
    if values:
        _compare(setup, g, values, directions, fdm, "pullback")


def check_second_order_frule(setup: Any, rule: Callable, w: Any, fdm: Any) -> None:
    """Differentiate ``Re <frule(dxs), w>`` in the arguments and their tangents."""
    _require_engine(setup.ctx.name)
    active = [i for i in setup.differentiable() if i > 0 and _is_array_argument(setup.inputs[i])]
    if not _is_array_argument(w) or not active:
        return

    def g(*values: Any) -> Any:
        inputs = list(setup.inputs)
        tangents = list(setup.dxs)
        for k, i in enumerate(active):
            inputs[i] = values[k]
            tangents[i] = values[len(active) + k]
        _, ydot = rule(tuple(tangents), inputs[0], *inputs[1:], **setup.fkwargs)
        return _traced_inner(ydot, w)

    values = [setup.inputs[i] for i in active] + [setup.dxs[i] for i in active]
    directions = [setup.dxs[i] for i in active] + [
        rand_tangent(setup.dxs[i], setup.rng) for i in active
    ]
    _compare(setup, g, values, directions, fdm, "pushforward")
