"""What ``test_rrule`` and ``test_frule`` share: setting up a test call and its reference values.

A ``Setup`` holds, for one call, the function and its arguments (``inputs[0]`` is ``f``
itself, whose tangent is checked like an argument's when ``f`` is a closure or a callable
object), which inputs have no tangent space, the random tangents, a snapshot to detect
mutation, the reference output ``f`` gives on copies, and the inputs the finite differences
start from (float64 copies of float32 inputs, when ``f`` accepts them).

>>> import numpy as np
>>> setup = prepare("test_rrule", np.power, (np.ones(2), 3), None, seed=0, rtol=None, atol=None)
>>> setup.differentiable(), [input_path(i) for i in range(3)]
([1], ['f', 'args[0]', 'args[1]'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from chainrules.core.names import function_name
from chainrules.core.structure import has_tangent_space, is_differentiable_leaf
from chainrules.core.tangents import NoTangent, NotImplementedTangent, ZeroTangent
from chainrules.core.thunks import unthunk

from .compare import primal_difference, tangent_difference
from .failures import InputMutated, MissingRuleError, PrimalMismatch
from .finite_differences import FDEstimate, directional_derivative
from .jacobian import flatten_values
from .primals import copy_primal, first_difference, iter_leaf_tangents, needs_upcast, perturb
from .primals import upcast as upcast_primal
from .report import Context
from .seeds import resolve_seed
from .tangents import inner, make_rng, rand_tangent, split_with_tangent
from .tolerances import Tolerance, tolerance_for

__all__ = ["Setup", "input_path", "output_inner", "prepare", "zero_problem"]


def input_path(i: int) -> str:
    """``f`` for input 0 (the function itself), ``args[i - 1]`` for the others."""
    return "f" if i == 0 else f"args[{i - 1}]"


@dataclass
class Setup:
    """One test call: inputs, tangents, snapshot, reference output and tolerance."""

    ctx: Context
    f: Any
    inputs: tuple
    no_tangent: tuple[bool, ...]
    dxs: tuple
    fkwargs: dict
    rng: np.random.Generator
    snapshot: tuple
    y_expected: Any
    fd_inputs: tuple
    tol: Tolerance

    def call(self, inputs: tuple) -> Any:
        return call_primal(inputs[0], inputs[1:], self.fkwargs)

    def differentiable(self) -> list[int]:
        """Indices of inputs with a tangent space (``f`` included when it has one)."""
        return [i for i, no in enumerate(self.no_tangent) if not no]

    def check_unchanged(self, inputs: tuple, who: str) -> None:
        """Fail with ``InputMutated`` if ``inputs`` no longer equal the snapshot."""
        for i, (now, before) in enumerate(zip(inputs, self.snapshot, strict=True)):
            where = first_difference(now, before, input_path(i))
            if where is not None:
                self.ctx.fail(
                    InputMutated,
                    f"{who} changed its input {where}",
                    "rules, pullbacks and pushforwards must never mutate their inputs",
                )

    def check_primal(self, y: Any, who: str) -> None:
        """Fail with ``PrimalMismatch`` unless ``y`` equals the reference output."""
        found = primal_difference(y, self.y_expected, rtol=self.tol.rtol, atol=self.tol.atol)
        if found is not None:
            self.ctx.fail(
                PrimalMismatch,
                f"the primal output of the {who} differs from f called on copies of the inputs",
                f"{found}",
                f"tolerance {self.tol.describe()}",
            )

    def rule_result(self, kind: str, result: Any, pair: str) -> tuple[Any, Any]:
        """The pair a rule of ``kind`` returned; ``MissingRuleError`` for ``None`` or another value.

        ``pair`` names what the rule should return, for the message: ``(y, pullback)``.
        """
        if result is None:
            types = ", ".join(type(x).__name__ for x in self.inputs[1:])
            self.ctx.fail(
                MissingRuleError,
                f"no {kind} applies to arguments ({types}): {kind} returned None",
                f"register one with @chainrules.{kind}.register(f)",
            )
        if not (isinstance(result, tuple) and len(result) == 2):
            self.ctx.fail(MissingRuleError, f"the {kind} returned {result!r}, not {pair}")
        return result

    def fd_along(
        self, directions: dict[int, Any], reduce: Callable[[Any], Any], fdm: Any
    ) -> FDEstimate:
        """Finite differences at 0 of ``t -> reduce(f(inputs + t * directions))``."""
        base = self.fd_inputs

        def g(t: float) -> Any:
            moved = tuple(
                perturb(x, directions[i], t) if i in directions else x for i, x in enumerate(base)
            )
            return reduce(self.call(moved))

        return directional_derivative(g, fdm)


def output_inner(dy: Any) -> Callable[[Any], float]:
    """``y -> Re <dy, y>`` over the differentiable leaves of an output ``y``."""

    def reduce(y: Any) -> float:
        total = 0.0
        for _, leaf, part in iter_leaf_tangents(y, dy, "y", every_reference=True):
            if is_differentiable_leaf(leaf):
                total += inner(part, leaf)
        return total

    return reduce


def call_primal(f: Any, args: tuple, fkwargs: dict) -> Any:
    """``f(*args, **fkwargs)``; an attribute with a rule (``ndarray.T``, ``ndarray.real``) is
    read from its one argument."""
    if not callable(f) and hasattr(f, "__get__") and len(args) == 1 and not fkwargs:
        return f.__get__(args[0], type(args[0]))
    return f(*args, **fkwargs)


def prepare(
    check: str, f: Any, args: tuple, fkwargs: dict | None, seed: Any, rtol: Any, atol: Any
) -> Setup:
    """Draw the tangents, snapshot the inputs and compute the reference output."""
    seed = resolve_seed(seed)
    rng = make_rng(seed)
    f, df = split_with_tangent(f)
    split = [split_with_tangent(a) for a in args]
    inputs = (f, *(p for p, _ in split))
    given = (df, *(t for _, t in split))
    ctx = Context(check, function_name(f), seed)
    no_tangent = tuple(
        isinstance(g, NoTangent) or not has_tangent_space(x)
        for x, g in zip(inputs, given, strict=True)
    )
    dxs = tuple(
        NoTangent() if no else (g if g is not None else rand_tangent(x, rng))
        for x, g, no in zip(inputs, given, no_tangent, strict=True)
    )
    fkwargs = dict(fkwargs or {})
    snapshot = copy_primal(inputs)
    copies = copy_primal(inputs)
    y_expected = call_primal(copies[0], copies[1:], fkwargs)
    for i, (now, before) in enumerate(zip(copies, snapshot, strict=True)):
        where = first_difference(now, before, input_path(i))
        if where is not None:
            ctx.fail(InputMutated, f"f itself changed its input {where}")
    tol = tolerance_for(inputs, y_expected, rtol=rtol, atol=atol)
    return Setup(
        ctx,
        f,
        inputs,
        no_tangent,
        dxs,
        fkwargs,
        rng,
        snapshot,
        y_expected,
        _fd_inputs(inputs, y_expected, fkwargs),
        tol,
    )


def _fd_inputs(inputs: tuple, y_expected: Any, fkwargs: dict) -> tuple:
    """Float64 copies of narrow float inputs, when ``f`` accepts them and keeps its output's
    layout; otherwise copies at the inputs' own precision."""
    if needs_upcast(inputs[1:]):
        wide = (inputs[0], *upcast_primal(copy_primal(inputs[1:])))
        try:
            y_wide = call_primal(wide[0], wide[1:], fkwargs)
            if flatten_values(y_wide).shape == flatten_values(y_expected).shape:
                return wide
        except Exception:  # f works at its own precision only: differences run there
            pass
    return copy_primal(inputs)


def zero_problem(value: Any) -> str | None:
    """Why ``value`` is not a zero tangent (``None`` when it is, or when it is unknown)."""
    if isinstance(unthunk(value), NotImplementedTangent):
        return None
    found = tangent_difference(unthunk(value), ZeroTangent(), rtol=0.0, atol=0.0, path="")
    return None if found is None else f"{found.detail} (at {found.path or 'the top'})"
