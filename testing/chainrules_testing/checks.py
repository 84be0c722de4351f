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

import chainrules
from chainrules.core.errors import ChainRulesError
from chainrules.core.names import function_name
from chainrules.core.structure import has_tangent_space, is_differentiable_leaf
from chainrules.core.tangents import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Tangent,
    ZeroTangent,
)
from chainrules.core.thunks import unthunk

from .compare import primal_difference, tangent_difference
from .failures import (
    InputMutated,
    MissingRuleError,
    PrimalMismatch,
    RuleRaised,
    RuleTestFailure,
    UnstableOutputShape,
)
from .finite_differences import FDEstimate, directional_derivative, step_scale
from .jacobian import flatten_values
from .primals import (
    copy_primal,
    first_difference,
    iter_leaf_tangents,
    iter_leaves,
    map_primal,
    moves_nothing,
    needs_upcast,
    perturb,
)
from .primals import upcast as upcast_primal
from .report import Context, show
from .rounding import flatten_noise, inner_noise, root_mean_square, weighted_size
from .seeds import resolve_seed
from .tangents import (
    direction_tangent,
    inner,
    make_rng,
    split_with_tangent,
    times_power_of_two,
)
from .tolerances import Tolerance, tolerance_for

__all__ = [
    "Setup",
    "fd_hint",
    "input_path",
    "output_exponent",
    "output_inner",
    "output_layout",
    "prepare",
    "scale_output",
    "zero_problem",
]


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
    # Finite differences see f's outputs times 2**out_exponent (exact): outputs near overflow
    # or subnormal are brought near 1, so that <w, y> neither overflows nor underflows.
    out_exponent: int = 0

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

    def run(self, what: str, fn: Callable, /, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)``; an error it raises becomes ``RuleRaised`` naming ``what``
        (``pullback(dy)``), the function and the arguments, chained to the error."""
        try:
            return fn(*args, **kwargs)
        except RuleTestFailure:
            raise
        except Exception as error:  # the rule's own: reported, with its traceback as cause
            types = ", ".join(type(x).__name__ for x in self.inputs[1:])
            self.ctx.fail(
                RuleRaised,
                f"{what} raised {type(error).__name__}: {error}"[:500],
                f"on arguments ({types}); the traceback of the cause shows where",
                cause=error,
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
            self.ctx.fail(MissingRuleError, f"the {kind} returned {show(result)}, not {pair}")
        return result

    def fd_along(
        self,
        directions: dict[int, Any],
        reduce: Callable[[Any], Any],
        fdm: Any,
        noise: Callable[[Any, int], Any] | None = None,
        settles: Callable[[FDEstimate], bool] | None = None,
    ) -> FDEstimate:
        """Finite differences at 0 of ``t -> reduce(f(inputs + t * directions))``.

        ``reduce`` sees the outputs times ``2**out_exponent``, and so does the estimate: the
        caller compares it with its own values scaled alike (``exponent=`` of ``inner``,
        ``Tolerance.allowed``). ``noise(y, out_exponent)`` is the rounding uncertainty of
        ``reduce`` of the scaled ``y``, and ``settles`` the judge of a cheap estimate (see
        ``finite_differences``).
        """
        base = self.fd_inputs
        if all(moves_nothing(base[i], d) for i, d in directions.items()):
            # No coordinate moves (empty arguments have none): J dx is an empty sum, 0
            # exactly, and differences of f's values (NaN for std of nothing) would say
            # nothing.
            return FDEstimate.exactly_zero(reduce(scale_output(self.y_expected, self.out_exponent)))
        at_zero: list = []
        layout = output_layout(self.y_expected)
        # (|t|, what changed) at each step where f's output was laid out otherwise than at
        # the primal: like a step out of f's domain, such a step has no value (differences
        # of arrays of two shapes are no derivative); smaller steps may keep the shape.
        changes: list[tuple[float, str]] = []
        nowhere = np.shape(reduce(scale_output(self.y_expected, self.out_exponent)))

        def g(t: float) -> Any:
            moved = tuple(
                perturb(x, directions[i], t) if i in directions else x for i, x in enumerate(base)
            )
            y = self.call(moved)
            if t == 0.0:
                at_zero[:] = [y]
            else:
                change = layout_change(layout, output_layout(y))
                if change is not None:
                    changes.append((abs(t), change))
                    return np.full(nowhere, np.nan)
            return reduce(scale_output(y, self.out_exponent))

        rounding = None
        if noise is not None:

            def rounding() -> Any:
                return noise(at_zero[0], self.out_exponent)

        estimate = directional_derivative(g, fdm, rounding, settles)
        if changes and not np.all(np.isfinite(estimate.value)):
            t, change = min(changes)
            moved = ", ".join(input_path(i) for i in directions)
            self.ctx.fail(
                UnstableOutputShape,
                "f's output changes shape within every finite-difference step, so finite "
                "differences cannot check its derivative here",
                f"{change} at t = {t:.3g} along the tangent of {moved}, the smallest step "
                f"that changed it ({len(changes)} did)",
                "choose arguments where the shape is stable (values away from ties and the "
                "zeros that np.unique, np.trim_zeros or np.roots drop), or with_tangent(x, dx) "
                "a direction that keeps it",
            )
        return estimate

    def move_size(self, directions: dict[int, Any]) -> float:
        """How far ``directions`` move the inputs relative to their size: the mean magnitude
        of the tangents' entries over the root mean square of the finite values they move (0
        when those are all 0 or there are none: no size to be relative to)."""
        moved, count, sizes = 0.0, 0, []
        for i, d in directions.items():
            for _, leaf, part in iter_leaf_tangents(self.fd_inputs[i], d, ""):
                if not is_differentiable_leaf(leaf) or part is None:
                    continue
                if isinstance(part, AbstractZero | NotImplementedTangent | Tangent):
                    continue
                step = np.abs(np.asarray(part))
                if np.any(step):
                    moved, count = moved + float(np.sum(step)), count + step.size
                    sizes.append(np.abs(np.asarray(leaf)))
        size = root_mean_square(sizes)
        ratio = moved / count / size if size else 0.0
        return ratio if np.isfinite(ratio) else 0.0

    def term_scale(self, w: Any, directions: dict[int, Any]) -> float:
        """The size of the terms of ``<w, J dx>`` before any cancellation, for its rounding:
        ``sum_k |w_k| |y_k| * move_size``, as if each output moved by its own size times
        the inputs' relative move (a Jacobian of outputs over inputs, and no larger: an
        elementwise function's). A rule may compute a derivative of 0 from such terms while
        its result shows none of their size (corrcoef of two observations: terms of size 1
        that cancel to 1e-16); times ``2**out_exponent``."""
        scale = weighted_size(w, self.y_expected, self.out_exponent) * self.move_size(directions)
        return scale if np.isfinite(scale) else 0.0

    def scaled_note(self) -> str:
        """A line for messages whose values are times ``2**out_exponent`` ("" for 0)."""
        if not self.out_exponent:
            return ""
        return (
            f"values are times 2**{self.out_exponent} (exact), so that they stay inside "
            "float64's range"
        )

    def fd_inner(
        self,
        directions: dict[int, Any],
        w: Any,
        fdm: Any,
        settles: Callable[[FDEstimate], bool] | None = None,
    ) -> FDEstimate:
        """Finite differences of ``Re <w, f(inputs + t * directions)>`` at ``t = 0``, times
        ``2**out_exponent``."""

        def noise(y: Any, exponent: int) -> Any:
            return inner_noise(w, y, exponent)

        return self.fd_along(directions, output_inner(w), fdm, noise, settles)

    def fd_output(
        self,
        directions: dict[int, Any],
        fdm: Any,
        settles: Callable[[FDEstimate], bool] | None = None,
    ) -> FDEstimate:
        """Finite differences of ``f(inputs + t * directions)``'s real coordinates at 0, times
        ``2**out_exponent``."""
        return self.fd_along(directions, flatten_values, fdm, flatten_noise, settles)


def fd_hint(setup: Setup, estimate: FDEstimate, actual: Any = 0.0) -> str:
    """Why finite differences, or the rule's ``actual``, gave no finite value ("" if both did)."""
    if estimate.exact:
        return (
            "the tangents moved have no non-zero entry (an empty array has no entries at all): "
            "the derivative along them is exactly 0, whatever f's value there"
        )
    if np.all(np.isfinite(estimate.value)):
        if np.all(np.isfinite(actual)):
            return ""
        return (
            "the rule's value is not finite where finite differences are: with tangents of "
            "this size it overflows (with_tangent and output_tangent pass smaller ones), or it "
            "computes a partial that leaves float64's range before the tangent multiplies it"
        )
    for path, leaf in iter_leaves(setup.y_expected, "y"):
        if is_differentiable_leaf(leaf) and not np.all(np.isfinite(leaf)):
            value = np.asarray(leaf)
            bad = np.argwhere(~np.isfinite(value))[0] if value.ndim else ()
            where = f"{path}[{', '.join(map(str, bad))}]" if value.ndim else path
            return (
                f"f's output is not finite at these arguments ({where} = {value[tuple(bad)]!r}): "
                "finite differences cannot check a derivative there"
            )
    return (
        "finite differences found no finite value at any step: f is undefined on both sides "
        "of the point along dx (the edge of its domain?); with_tangent(x, dx) chooses dx"
    )


def scale_output(y: Any, exponent: int) -> Any:
    """``y`` with its differentiable leaves times ``2**exponent`` (``y`` itself for 0)."""
    if not exponent:
        return y
    return map_primal(
        y,
        lambda leaf, _: (
            times_power_of_two(leaf, exponent) if is_differentiable_leaf(leaf) else leaf
        ),
    )


def output_exponent(y: Any) -> int:
    """The power of two that brings ``y``'s largest finite element near 1, when it lies
    outside ``[2**-100, 2**100]``; 0 otherwise (ordinary outputs are left exactly as they are).
    """
    largest = 0.0
    for _, leaf in iter_leaves(y):
        if is_differentiable_leaf(leaf) and np.size(leaf):
            magnitude = np.abs(np.asarray(leaf))
            finite = magnitude[np.isfinite(magnitude)]
            if finite.size:
                largest = max(largest, float(np.max(finite)))
    if largest == 0.0 or 2.0**-100 <= largest <= 2.0**100:
        return 0
    return -int(np.frexp(largest)[1])


def output_layout(y: Any) -> tuple:
    """The paths and shapes of ``y``'s differentiable leaves."""
    return tuple(
        (path, np.shape(leaf)) for path, leaf in iter_leaves(y, "y") if is_differentiable_leaf(leaf)
    )


def layout_change(before: tuple, after: tuple) -> str | None:
    """How an output laid out as ``after`` differs from ``before`` (``output_layout``s),
    or None."""
    if after == before:
        return None
    changed = [(a, b) for a, b in zip(before, after, strict=False) if a != b]
    if changed and len(before) == len(after):
        (path, old), (_, new) = changed[0]
        return f"{path} has shape {old} at the primal and {new}"
    return f"y has {len(before)} differentiable leaves at the primal and {len(after)}"


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


def _bound_keywords(f: Any, args: tuple, fkwargs: dict | None) -> tuple[tuple, dict | None]:
    """``args`` and ``fkwargs`` with the keywords the rule takes by position moved there, as
    the rule table binds them (``np.swapaxes(x, axis1=0, axis2=1)``): they get cotangents and
    tangents at those positions, so they are checked like positional arguments."""
    if not fkwargs:
        return args, fkwargs
    primals = tuple(split_with_tangent(a)[0] for a in args)
    try:
        bound, rest = chainrules.rrule.bound_arguments(f, primals, dict(fkwargs))
    except ChainRulesError:  # not bindable: the rule's own error comes when it is called
        return args, fkwargs
    return (*args, *bound[len(args) :]), rest


def prepare(
    check: str, f: Any, args: tuple, fkwargs: dict | None, seed: Any, rtol: Any, atol: Any
) -> Setup:
    """Draw the tangents, snapshot the inputs and compute the reference output."""
    seed = resolve_seed(seed)
    rng = make_rng(seed)
    f, df = split_with_tangent(f)
    args, fkwargs = _bound_keywords(f, args, fkwargs)
    split = [split_with_tangent(a) for a in args]
    inputs = (f, *(p for p, _ in split))
    given = (df, *(t for _, t in split))
    ctx = Context(check, function_name(f), seed)
    no_tangent = tuple(
        isinstance(g, NoTangent) or not has_tangent_space(x)
        for x, g in zip(inputs, given, strict=True)
    )
    dxs = tuple(
        NoTangent() if no else (g if g is not None else direction_tangent(x, rng, step_scale))
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
        output_exponent(y_expected),
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
