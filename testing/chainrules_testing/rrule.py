"""``test_rrule``: check a reverse-mode rule against finite differences, and its contract.

>>> import numpy as np
>>> test_rrule(np.sin, np.array([0.1, 0.2]), seed=0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

import chainrules
from chainrules.core.algebra import add, add_
from chainrules.core.structure import decompose, is_differentiable_leaf
from chainrules.core.tangents import NotImplementedTangent, ZeroTangent
from chainrules.core.thunks import AbstractThunk, InplaceableThunk, Thunk, unthunk

from .checks import (
    Setup,
    fd_hint,
    input_path,
    prepare,
    zero_problem,
)
from .compare import tangent_difference
from .failures import (
    CotangentCountError,
    FiniteDifferenceMismatch,
    InputMutated,
    NondeterministicRule,
    TangentSpaceError,
    ThunkMismatch,
    ZeroTangentForNoTangent,
    ZeroTangentInputError,
)
from .fast_paths import check_fast_path
from .finite_differences import FDEstimate, method_name
from .jacobian import (
    basis_tangent,
    compare_jacobians,
    coordinates,
    fd_jacobian,
    flatten_tangent,
    flatten_values,
    jacobian_allowed,
)
from .lazy import check_lazy_rrule, has_lazy
from .primals import copy_primal, iter_leaf_tangents, iter_leaves
from .record import note_passed
from .report import errors_line, show
from .rounding import output_sizes, root_mean_square
from .second_order import check_second_order_rrule
from .space import ZERO_FOR_NO_TANGENT, space_problem
from .tangents import abs_inner, build_tangent, copy_tangent, inner, rand_tangent
from .tolerances import ROUNDING_FACTOR, agree, settles

__all__ = ["test_rrule"]

# Repeated and thunked calls run the same code on the same values: only rounding-free
# agreement is expected, with a few ulps of slack for reductions that reorder.
_REPEAT_ULPS = 4
# Structured arguments with at most this many leaves are checked leaf by leaf.
_LEAVES_ONE_BY_ONE = 16


def test_rrule(
    f: Any,
    *args: Any,
    fkwargs: dict | None = None,
    output_tangent: Any = None,
    rtol: float | None = None,
    atol: float | None = None,
    fdm: Any = None,
    full_jacobian: bool = False,
    check_second_order: bool = True,
    rrule_f: Any = None,
    seed: int | None = None,
) -> None:
    """Check the rrule of ``f`` at ``args`` and raise a ``RuleTestFailure`` at the first defect.

    In order: a rule exists; its primal equals ``f`` on copies of the inputs; neither ``f``,
    the rule nor the pullback mutates the inputs or the cotangent; the pullback returns one
    cotangent for ``f`` and one per argument; arguments without a tangent space (ints,
    bools, ``with_tangent(x, NoTangent())``) get ``NoTangent()``; every other cotangent lies
    in its primal's tangent space; calling the pullback twice gives the same result; the
    cotangents satisfy ``Re <dy, J dx> = Re <pullback(dy), dx>`` against finite differences,
    one directional derivative per differentiable argument, or per differentiable leaf of a
    structured argument (``full_jacobian=True``: element by element, naming the worst
    element); a fast path (``chainrules.core.fast_paths``) gives exactly the value and
    cotangents of the rule it stands in for; a thunked ``dy`` gives the same cotangents,
    thunked cotangents unthunk consistently and an ``InplaceableThunk`` accumulates like its
    value; ``pullback(ZeroTangent())`` gives zeros; unless ``check_second_order=False``, the
    pullback is itself differentiated by the reverse engine and checked against finite
    differences.

    ``fkwargs`` are keyword arguments of ``f``, not differentiated, except those the rule table
    binds to the rule's positions (``np.swapaxes(x, axis1=0)``), which are checked there like
    positional arguments; ``output_tangent`` is
    the ``dy`` to pull back (random by default); ``rtol``/``atol`` replace the dtype's
    default tolerances (see ``chainrules_testing.tolerances``); ``fdm`` is another
    finite-difference method; ``rrule_f(f, *args, **kwargs)`` replaces ``chainrules.rrule``
    (for rules under construction, or a ``RuleConfig``'s ``rrule``); ``seed`` fixes the
    random draws. A passing call without ``rrule_f`` is recorded for the coverage report.
    """
    if has_lazy(args):  # dask arrays: the rule lazy, then its mathematics on their values
        args = check_lazy_rrule(f, args, fkwargs, seed, rtol, atol, rrule_f)
    setup = prepare("test_rrule", f, args, fkwargs, seed, rtol, atol)
    ctx = setup.ctx
    rule = chainrules.rrule if rrule_f is None else rrule_f
    rule_inputs = (setup.f, *copy_primal(setup.inputs[1:]))
    result = setup.run("the rrule", rule, setup.f, *rule_inputs[1:], **setup.fkwargs)
    y, pullback = setup.rule_result("rrule", result, "(y, pullback)")
    setup.check_unchanged(rule_inputs, "the rrule")
    setup.check_primal(y, "rrule")

    dy = rand_tangent(y, setup.rng) if output_tangent is None else output_tangent
    dy_before = copy_tangent(dy)
    cotangents = setup.run("pullback(dy)", _pull, setup, pullback, dy, "pullback(dy)")
    setup.check_unchanged(rule_inputs, "the pullback")
    if tangent_difference(dy, dy_before, rtol=0.0, atol=0.0, path="dy") is not None:
        ctx.fail(InputMutated, "the pullback changed the cotangent dy it was given")
    # Each thunk once: the checks below compare values, and a thunk may cost a quadrature.
    values = setup.run("unthunk(pullback(dy))", _unthunked, cotangents)
    _check_spaces(setup, values)
    if rrule_f is None:
        check_fast_path(setup, y, dy, values)
    _check_repeat(setup, pullback, dy, values)
    if full_jacobian:
        _check_jacobian(setup, pullback, y, fdm)
    else:
        _check_dot_products(setup, dy, values, fdm)
    _check_thunks(setup, pullback, dy, cotangents, values)
    _check_zero(setup, pullback)
    if check_second_order:
        check_second_order_rrule(setup, rule, dy, fdm, values)
    if rrule_f is None:
        note_passed(ctx.name, "rrule", check_second_order)


test_rrule.__test__ = False  # type: ignore[attr-defined]


def _pull(setup: Setup, pullback: Any, dy: Any, call: str) -> tuple:
    cotangents = pullback(dy)
    n = len(setup.inputs)
    if not isinstance(cotangents, tuple) or len(cotangents) != n:
        got = (
            f"a tuple of {len(cotangents)}"
            if isinstance(cotangents, tuple)
            else f"a {type(cotangents).__name__}"
        )
        setup.ctx.fail(
            CotangentCountError,
            f"{call} returned {got}, expected a tuple of {n}",
            f"one cotangent for f itself (NoTangent() for a plain function) and one for each of "
            f"the {n - 1} positional arguments",
        )
    return cotangents


def _unthunked(cotangents: tuple) -> tuple:
    return tuple(unthunk(c) for c in cotangents)


def _ulps(setup: Setup) -> float:
    return _REPEAT_ULPS * setup.tol.eps


def _check_repeat(setup: Setup, pullback: Any, dy: Any, first: tuple) -> None:
    second = setup.run("pullback(dy), called a second time,", pullback, dy)
    for i, (a, b) in enumerate(zip(second, first, strict=True)):
        found = tangent_difference(a, b, rtol=_ulps(setup), atol=0.0, path=input_path(i))
        if found is not None:
            setup.ctx.fail(
                NondeterministicRule,
                "calling the pullback twice with the same dy gave different cotangents",
                str(found),
                "a pullback must not keep state between calls",
            )


def _check_spaces(setup: Setup, cotangents: tuple) -> None:
    for i, (x, c) in enumerate(zip(setup.inputs, cotangents, strict=True)):
        problem = space_problem(x, c, input_path(i), no_tangent=setup.no_tangent[i])
        if problem is None:
            continue
        where, what = problem
        if what == ZERO_FOR_NO_TANGENT:
            setup.ctx.fail(
                ZeroTangentForNoTangent,
                f"the cotangent for {where} is ZeroTangent(), but {where} has no tangent space",
                "use NoTangent() for arguments without a tangent space (ints, bools, indices, "
                "arguments marked with_tangent(x, NoTangent()))",
            )
        setup.ctx.fail(
            TangentSpaceError, f"the cotangent for {where} {what}", f"cotangent: {show(c)}"[:300]
        )


def _check_dot_products(setup: Setup, dy: Any, cotangents: tuple, fdm: Any) -> None:
    """One directional derivative per differentiable argument; inside a structured argument
    of up to ``_LEAVES_ONE_BY_ONE`` leaves, one per differentiable leaf, so that a wrong field
    is neither diluted nor unnamed. A larger structure (a linked list of a thousand nodes)
    takes one direction for all its leaves: one per leaf would cost a walk of the whole
    structure per leaf and step, quadratic in its size."""
    k = setup.out_exponent
    for i in setup.differentiable():
        x, c, dx = setup.inputs[i], cotangents[i], setup.dxs[i]
        if isinstance(c, NotImplementedTangent):
            continue
        if decompose(x) is None:
            actual, magnitude = inner(c, dx, k), abs_inner(c, dx, k)
            _check_direction(setup, i, input_path(i), dx, actual, magnitude, dy, fdm)
            continue
        references: dict[int, list] = {}
        for _, leaf, part in iter_leaf_tangents(x, c, "", every_reference=True):
            references.setdefault(id(leaf), []).append(part)
        parts = [p for ps in references.values() for p in ps]
        if len(references) > _LEAVES_ONE_BY_ONE and not any(
            isinstance(unthunk(p), NotImplementedTangent) for p in parts
        ):
            actual, magnitude = inner(c, dx, k), abs_inner(c, dx, k)
            _check_direction(setup, i, input_path(i), dx, actual, magnitude, dy, fdm)
            continue
        for path, leaf, dpart in iter_leaf_tangents(x, dx, input_path(i)):
            parts = references.get(id(leaf), [])
            if not is_differentiable_leaf(leaf) or any(
                isinstance(p, NotImplementedTangent) for p in parts
            ):
                continue
            actual = sum(inner(p, dpart, setup.out_exponent) for p in parts)
            magnitude = sum(abs_inner(p, dpart, setup.out_exponent) for p in parts)
            direction = _only_leaf(x, leaf, dpart)
            _check_direction(setup, i, path, direction, actual, magnitude, dy, fdm)


def _check_direction(
    setup: Setup,
    i: int,
    path: str,
    direction: Any,
    actual: float,
    magnitude: float,
    dy: Any,
    fdm: Any,
) -> None:
    k = setup.out_exponent
    magnitude = max(magnitude, setup.term_scale(dy, {i: direction}))

    def settled(estimate: FDEstimate) -> bool:
        allowed = setup.tol.allowed(actual, estimate.value, magnitude, 0.0, k)
        return settles(actual, estimate.value, estimate.error, allowed)

    estimate = setup.fd_inner({i: direction}, dy, fdm, settled)
    allowed = setup.tol.allowed(actual, estimate.value, magnitude, estimate.error, k)
    if agree(actual, estimate.value, allowed):
        return
    setup.ctx.fail(
        FiniteDifferenceMismatch,
        f"the cotangent for {path} disagrees with finite differences",
        f"expected <dy, J dx> = {estimate.value!r} by finite differences "
        f"({method_name(fdm)}, error estimate {estimate.error:.3e})",
        f"actual <pullback(dy)[{i}], dx> = {actual!r}",
        f"{errors_line(actual, estimate.value)}; allowed {allowed:.3e} ({setup.tol.describe()})",
        setup.scaled_note(),
        fd_hint(setup, estimate, actual) or "full_jacobian=True names the worst element",
    )


def _only_leaf(x: Any, target: Any, dpart: Any) -> Any:
    """A tangent of ``x`` that is ``dpart`` at the leaf ``target`` and zero elsewhere."""
    remaining = [leaf for _, leaf in _leaves(x)]
    index = next(k for k, leaf in enumerate(remaining) if leaf is target)
    counter = 0

    def values(shape: tuple[int, ...], is_complex: bool) -> Any:
        nonlocal counter
        here = counter
        counter += 1
        if here == index:
            return np.asarray(dpart)
        return np.zeros(shape, dtype=complex if is_complex else float)

    return build_tangent(x, values)


def _leaves(x: Any) -> list:
    return [(p, leaf) for p, leaf in iter_leaves(x) if is_differentiable_leaf(leaf)]


def _check_jacobian(setup: Setup, pullback: Any, y: Any, fdm: Any) -> None:
    n_out = flatten_values(setup.y_expected).size
    rows = [
        setup.run(f"pullback of the unit cotangent {k}", pullback, basis_tangent(y, k))
        for k in range(n_out)
    ]
    for i in setup.differentiable():
        x = setup.inputs[i]
        coords = coordinates(x, input_path(i))
        if not coords:
            continue  # no entries, no columns: nothing to compare
        actual = (
            np.stack([flatten_tangent(x, unthunk(r[i])) for r in rows])
            if rows
            else np.zeros((0, len(coords)))
        )
        with np.errstate(over="ignore"):
            actual = np.ldexp(actual, setup.out_exponent)  # as the finite differences see it

        atol: Any = float(np.ldexp(setup.tol.atol + setup.tol.floor, setup.out_exponent))
        # Rounding of terms of the size of the output over the argument (Setup.term_scale),
        # per row: an element of the Jacobian moves one coordinate by a unit.
        size = root_mean_square([np.abs(leaf) for _, leaf in _leaves(x)])
        if size and rows:
            rounding = ROUNDING_FACTOR * setup.tol.eps / size
            atol = atol + rounding * output_sizes(setup.y_expected, setup.out_exponent)[:, None]

        def along(direction: Any, judge: Any, i: int = i) -> Any:
            return setup.fd_output({i: direction}, fdm, judge)

        def settled(k: int, column: Any, errors: Any, jac: Any = actual, atol: Any = atol) -> bool:
            if column.shape != jac[:, k].shape:
                return False
            column_atol = atol[:, 0] if np.ndim(atol) else atol
            allowed = jacobian_allowed(jac[:, k], column, 0.0, setup.tol.rtol, column_atol)
            return settles(jac[:, k], column, errors, allowed)

        expected, errors, calls = fd_jacobian(along, x, len(coords), settled)
        worst = compare_jacobians(actual, expected, errors, setup.tol.rtol, atol, calls)
        if worst.failed:
            out = coordinates(setup.y_expected, "y")[worst.row].label
            setup.ctx.fail(
                FiniteDifferenceMismatch,
                f"the Jacobian for {input_path(i)} disagrees with finite differences",
                f"worst element d {out} / d {coords[worst.column].label}",
                f"expected {worst.expected!r} by finite differences ({method_name(fdm)}, "
                f"error estimate {worst.error_estimate:.3e})",
                f"actual {worst.actual!r} from the pullback",
                f"{errors_line(worst.actual, worst.expected)}; allowed {worst.allowed:.3e} "
                f"({setup.tol.describe()})",
                setup.scaled_note(),
            )


def _check_thunks(setup: Setup, pullback: Any, dy: Any, cotangents: tuple, values: tuple) -> None:
    """``values``: the ``cotangents`` unthunked, once."""
    ctx, ulps = setup.ctx, _ulps(setup)
    try:
        thunked = _pull(setup, pullback, Thunk(lambda: dy), "pullback(Thunk(lambda: dy))")
    except CotangentCountError:
        raise
    except Exception as error:
        ctx.fail(
            ThunkMismatch,
            f"pullback(Thunk(lambda: dy)) raised {type(error).__name__}: {error}",
            "a pullback must unthunk dy before using it (chainrules.unthunk)",
        )
    for i, (a, b) in enumerate(zip(thunked, values, strict=True)):
        found = tangent_difference(a, b, rtol=ulps, atol=0.0, path=input_path(i))
        if found is not None:
            ctx.fail(
                ThunkMismatch,
                "pullback(Thunk(lambda: dy)) differs from pullback(dy)",
                str(found),
                "a pullback must unthunk dy before using it",
            )
    for i, c in enumerate(cotangents):
        if not isinstance(c, AbstractThunk):
            continue
        path = input_path(i)
        found = tangent_difference(unthunk(c), values[i], rtol=ulps, atol=0.0, path=path)
        if found is not None:
            ctx.fail(ThunkMismatch, f"the thunk for {path} gives different values", str(found))
        if isinstance(c, InplaceableThunk):
            acc = rand_tangent(setup.inputs[i], setup.rng)
            expected = add(acc, values[i])
            actual = add_(copy_tangent(acc), c)
            found = tangent_difference(actual, expected, rtol=ulps, atol=0.0, path=path)
            if found is not None:
                ctx.fail(
                    ThunkMismatch,
                    f"add_(acc, InplaceableThunk) for {path} differs from add(acc, its value)",
                    str(found),
                    "the thunk's add_fn must add exactly the value its thunk gives",
                )


def _check_zero(setup: Setup, pullback: Any) -> None:
    try:
        zeros = _pull(setup, pullback, ZeroTangent(), "pullback(ZeroTangent())")
    except CotangentCountError:
        raise
    except Exception as error:
        setup.ctx.fail(
            ZeroTangentInputError,
            f"pullback(ZeroTangent()) raised {type(error).__name__}: {error}",
            "a pullback must accept the zero cotangent",
        )
    for i, z in enumerate(zeros):
        problem = zero_problem(z)
        if problem is not None:
            setup.ctx.fail(
                ZeroTangentInputError,
                f"pullback(ZeroTangent()) gave a non-zero cotangent for {input_path(i)}",
                problem,
            )
