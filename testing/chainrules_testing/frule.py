"""``test_frule``: check a forward-mode rule against finite differences, and its contract.

>>> import numpy as np
>>> test_frule(np.tanh, np.array([0.1, -0.4]), seed=0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

import chainrules
from chainrules.core.structure import has_tangent_space
from chainrules.core.tangents import NoTangent, NotImplementedTangent, ZeroTangent
from chainrules.core.thunks import unthunk

from .checks import Setup, fd_hint, input_path, prepare, zero_problem
from .compare import tangent_difference
from .failures import (
    FiniteDifferenceMismatch,
    InputMutated,
    NondeterministicRule,
    RuleDisagreement,
    TangentSpaceError,
    ZeroTangentForNoTangent,
    ZeroTangentInputError,
)
from .finite_differences import FDEstimate, method_name
from .jacobian import coordinates, flatten_tangent
from .lazy import check_lazy_frule, has_lazy
from .primals import copy_primal
from .record import note_passed
from .report import errors_line
from .rounding import output_sizes
from .second_order import check_second_order_frule
from .space import ZERO_FOR_NO_TANGENT, space_problem
from .tangents import abs_inner, copy_tangent, inner, rand_tangent
from .tolerances import ROUNDING_FACTOR, agree, settles

__all__ = ["test_frule"]


def test_frule(
    f: Any,
    *args: Any,
    fkwargs: dict | None = None,
    output_tangent: Any = None,
    rtol: float | None = None,
    atol: float | None = None,
    fdm: Any = None,
    full_jacobian: bool = False,
    check_second_order: bool = True,
    frule_f: Any = None,
    seed: int | None = None,
) -> None:
    """Check the frule of ``f`` at ``args`` and raise a ``RuleTestFailure`` at the first defect.

    In order: a rule exists; its primal equals ``f`` on copies of the inputs; neither ``f``
    nor the rule mutates the inputs or the input tangents; calling it twice gives the same
    output tangent; the output tangent lies in the output's tangent space; it agrees with
    finite differences of ``f`` along the random input tangents, reduced to one number by
    an output tangent ``w`` (``full_jacobian=True``: element by element, naming the worst);
    zero input tangents give a zero output tangent; when an rrule exists too, the two agree:
    ``Re <w, frule(dx)> = Re <pullback(w), dx>``; unless ``check_second_order=False``, the
    pushforward is differentiated by the reverse engine and checked against finite
    differences.

    The keywords are those of ``test_rrule``; ``output_tangent`` is ``w`` (random by
    default) and ``frule_f(tangents, f, *args, **kwargs)`` replaces ``chainrules.frule``.
    """
    if has_lazy(args):  # dask arrays: the rule lazy, then its mathematics on their values
        args = check_lazy_frule(f, args, fkwargs, seed, rtol, atol, frule_f)
    setup = prepare("test_frule", f, args, fkwargs, seed, rtol, atol)
    ctx = setup.ctx
    rule = chainrules.frule if frule_f is None else frule_f
    tangents = tuple(copy_tangent(dx) for dx in setup.dxs)
    rule_inputs = (setup.f, *copy_primal(setup.inputs[1:]))
    result = setup.run("the frule", rule, tangents, setup.f, *rule_inputs[1:], **setup.fkwargs)
    y, ydot = setup.rule_result("frule", result, "(y, dy)")
    setup.check_unchanged(rule_inputs, "the frule")
    for i, (now, before) in enumerate(zip(tangents, setup.dxs, strict=True)):
        if tangent_difference(now, before, rtol=0.0, atol=0.0, path=input_path(i)) is not None:
            ctx.fail(InputMutated, f"the frule changed the input tangent for {input_path(i)}")
    setup.check_primal(y, "frule")
    again = setup.run(
        "the frule, called a second time,",
        rule,
        tangents,
        setup.f,
        *copy_primal(setup.inputs[1:]),
        **setup.fkwargs,
    )[1]
    found = tangent_difference(again, ydot, rtol=4 * setup.tol.eps, atol=0.0, path="dy")
    if found is not None:
        ctx.fail(
            NondeterministicRule,
            "calling the frule twice with the same tangents gave different output tangents",
            str(found),
            "an frule must not keep state between calls",
        )
    _check_space(setup, ydot)
    w = rand_tangent(y, setup.rng) if output_tangent is None else output_tangent
    if full_jacobian:
        _check_elementwise(setup, ydot, fdm)
    else:
        _check_directional(setup, ydot, w, fdm)
    _check_zero(setup, rule)
    _check_against_rrule(setup, ydot, w)
    if check_second_order:
        check_second_order_frule(setup, rule, w, fdm)
    if frule_f is None:
        note_passed(ctx.name, "frule", check_second_order)


test_frule.__test__ = False  # type: ignore[attr-defined]


def _check_space(setup: Setup, ydot: Any) -> None:
    y = setup.y_expected
    problem = space_problem(y, ydot, "y", no_tangent=not has_tangent_space(y))
    if problem is None:
        return
    where, what = problem
    if what == ZERO_FOR_NO_TANGENT:
        setup.ctx.fail(
            ZeroTangentForNoTangent,
            f"the output tangent for {where} is ZeroTangent(), but the output has no tangent space",
            "use NoTangent() for outputs without a tangent space (integers, booleans)",
        )
    setup.ctx.fail(TangentSpaceError, f"the output tangent for {where} {what}")


def _directions(setup: Setup) -> dict[int, Any]:
    return {i: setup.dxs[i] for i in setup.differentiable()}


def _check_directional(setup: Setup, ydot: Any, w: Any, fdm: Any) -> None:
    ydot = unthunk(ydot)
    if isinstance(ydot, NotImplementedTangent) or not has_tangent_space(setup.y_expected):
        return
    k = setup.out_exponent
    actual = inner(w, ydot, k)
    magnitude = max(abs_inner(w, ydot, k), setup.term_scale(w, _directions(setup)))

    def settled(estimate: FDEstimate) -> bool:
        allowed = setup.tol.allowed(actual, estimate.value, magnitude, 0.0, k)
        return settles(actual, estimate.value, estimate.error, allowed)

    estimate = setup.fd_inner(_directions(setup), w, fdm, settled)
    allowed = setup.tol.allowed(actual, estimate.value, magnitude, estimate.error, k)
    if agree(actual, estimate.value, allowed):
        return
    _check_elementwise(setup, ydot, fdm)  # names the worst element when it can
    setup.ctx.fail(
        FiniteDifferenceMismatch,
        "the output tangent disagrees with finite differences",
        f"expected <w, J dx> = {estimate.value!r} by finite differences ({method_name(fdm)}, "
        f"error estimate {estimate.error:.3e})",
        f"actual <w, frule(dx)> = {actual!r}",
        f"{errors_line(actual, estimate.value)}; allowed {allowed:.3e} ({setup.tol.describe()})",
        setup.scaled_note(),
        fd_hint(setup, estimate, actual),
    )


def _check_elementwise(setup: Setup, ydot: Any, fdm: Any) -> None:
    """The output tangent against the finite-difference one, element by element."""
    y, tol = setup.y_expected, setup.tol
    with np.errstate(over="ignore"):
        actual = np.ldexp(flatten_tangent(y, unthunk(ydot)), setup.out_exponent)
    # Rounding per element, at each element's own size: a bound from the largest element
    # would let any error through in elements a thousand times smaller.
    rounding = ROUNDING_FACTOR * tol.eps * np.abs(actual)
    # and of terms of the size of each output over the inputs (Setup.term_scale)
    terms = output_sizes(y, setup.out_exponent) * setup.move_size(_directions(setup))
    rounding = rounding + ROUNDING_FACTOR * tol.eps * terms
    absolute = np.ldexp(tol.atol + tol.floor, setup.out_exponent) + rounding

    def allowed_for(expected: Any, errors: Any) -> Any:
        return absolute + tol.rtol * np.maximum(np.abs(actual), np.abs(expected)) + errors

    def settled(estimate: FDEstimate) -> bool:
        value = np.atleast_1d(estimate.value)
        if value.shape != actual.shape:
            return False
        return settles(actual, value, estimate.error, allowed_for(value, 0.0))

    estimate = setup.fd_output(_directions(setup), fdm, settled)
    expected = np.atleast_1d(estimate.value)
    errors = np.atleast_1d(estimate.error)
    if actual.shape != expected.shape:
        return
    allowed = allowed_for(expected, np.abs(errors))
    with np.errstate(invalid="ignore"):
        excess = np.abs(actual - expected) - allowed
    excess = np.where(agree(actual, expected, allowed), -np.inf, np.nan_to_num(excess, nan=np.inf))
    if not excess.size or np.max(excess) <= 0:
        return
    k = int(np.argmax(excess))
    label = coordinates(y, "y")[k].label
    setup.ctx.fail(
        FiniteDifferenceMismatch,
        f"the output tangent disagrees with finite differences at {label}",
        f"expected {expected[k]!r} by finite differences ({method_name(fdm)}, error estimate "
        f"{errors[k]:.3e})",
        f"actual {actual[k]!r} from the frule",
        f"{errors_line(actual[k], expected[k])}; allowed {allowed[k]:.3e} ({tol.describe()})",
        setup.scaled_note(),
        fd_hint(setup, estimate, actual[k]),
    )


def _check_zero(setup: Setup, rule: Any) -> None:
    zeros = tuple(NoTangent() if no else ZeroTangent() for no in setup.no_tangent)
    try:
        result = rule(zeros, setup.f, *copy_primal(setup.inputs[1:]), **setup.fkwargs)
    except Exception as error:
        setup.ctx.fail(
            ZeroTangentInputError,
            f"the frule raised {type(error).__name__} for zero input tangents: {error}",
            "an frule must accept ZeroTangent() input tangents",
        )
    problem = zero_problem(result[1])
    if problem is not None:
        setup.ctx.fail(
            ZeroTangentInputError,
            "the frule gave a non-zero output tangent for zero input tangents",
            problem,
        )


def _check_against_rrule(setup: Setup, ydot: Any, w: Any) -> None:
    found = setup.run(
        "chainrules.rrule",
        chainrules.rrule,
        setup.f,
        *copy_primal(setup.inputs[1:]),
        **setup.fkwargs,
    )
    if found is None or not has_tangent_space(setup.y_expected):
        return
    ydot = unthunk(ydot)
    if isinstance(ydot, NotImplementedTangent):
        return  # nothing to compare: the frule says which tangent it does not give
    cotangents = setup.run("the rrule's pullback(w)", found[1], w)
    k = setup.out_exponent
    forward = inner(w, ydot, k)
    reverse = 0.0
    magnitude = abs_inner(w, ydot, k) + setup.term_scale(w, _directions(setup))
    for i in setup.differentiable():
        c = unthunk(cotangents[i])
        if isinstance(c, NotImplementedTangent):
            return
        reverse += inner(c, setup.dxs[i], k)
        magnitude += abs_inner(c, setup.dxs[i], k)
    allowed = setup.tol.allowed(forward, reverse, magnitude, 0.0, k)
    if not agree(forward, reverse, allowed):  # a NaN on either side fails too
        setup.ctx.fail(
            RuleDisagreement,
            "the frule and the rrule disagree",
            f"<w, frule(dx)> = {forward!r}, <pullback(w), dx> = {reverse!r}",
            f"{errors_line(forward, reverse)}; allowed {allowed:.3e} ({setup.tol.describe()})",
            setup.scaled_note(),
        )
