"""Mutation tests: every deliberately wrong rule must fail, with the message for its defect.

Each correct rule of ``harness_cases`` is turned into wrong variants, generic ones (a partial
scaled by 1.000001, a wrong tuple length, a pullback that mutates its input or dy, hidden
state, a wrong primal, a rule that ignores a keyword...) and ones specific to a rule (a
missing conj, a transposed cotangent, a wrong shape, a wrong dtype, ZeroTangent for an
integer argument...). The count of caught variants is printed; it must be all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from chainrules_testing import (
    ComplexConventionError,
    CotangentCountError,
    FiniteDifferenceMismatch,
    InputMutated,
    MissingRuleError,
    NondeterministicRule,
    PrimalMismatch,
    RuleDisagreement,
    SecondOrderMismatch,
    TangentSpaceError,
    ThunkMismatch,
    ZeroTangentForNoTangent,
    ZeroTangentInputError,
    test_frule,
    test_rrule,
    test_scalar,
)
from chainrules_testing.primals import iter_leaves
from chainrules_testing.second_order import reverse_engine
from harness_cases import CASES, X5, Z4, Case, _sin

import chainrules as cr
from chainrules import InplaceableThunk, NoTangent, Tangent, Thunk, ZeroTangent, unthunk
from chainrules.core.tangents import AbstractZero

SEED = 11


@dataclass(frozen=True)
class Variant:
    """A wrong rule, how to run the harness on it, and the failure it must raise."""

    name: str
    run: Callable[[], None]
    error: type[AssertionError]
    message: str


# ---- generic defects of an rrule ------------------------------------------------------------


def _replace(cotangents: tuple, k: int, value: Any) -> tuple:
    return (*cotangents[:k], value, *cotangents[k + 1 :])


def scaled_partial(rule: Callable, k: int, defect: float = 1e-6) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)
        return y, lambda dy: _replace(pullback(dy), k, unthunk(pullback(dy)[k]) * (1 + defect))

    return wrong_rrule


def dropped_cotangent(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)
        return y, lambda dy: pullback(dy)[1:]

    return wrong_rrule


def _first_array(x: Any) -> np.ndarray | None:
    return next((leaf for _, leaf in iter_leaves(x) if isinstance(leaf, np.ndarray)), None)


def mutating_input(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)

        def mutating_pullback(dy):
            cotangents = pullback(dy)
            target = _first_array(args)
            target *= 2.0
            return cotangents

        return y, mutating_pullback

    return wrong_rrule


def mutating_dy(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)

        def mutating_pullback(dy):
            cotangents = tuple(unthunk(c) for c in pullback(dy))
            value = unthunk(dy)
            if isinstance(value, np.ndarray):
                value *= 2.0
            return cotangents

        return y, mutating_pullback

    return wrong_rrule


def hidden_state(rule: Callable, k: int) -> Callable:
    calls = [0]

    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)

        def stateful_pullback(dy):
            calls[0] += 1
            return _replace(pullback(dy), k, unthunk(pullback(dy)[k]) * calls[0])

        return y, stateful_pullback

    return wrong_rrule


def no_rule(rule: Callable) -> Callable:
    return lambda f, *args, **kwargs: None


def _nudged(y: Any, defect: float) -> Any:
    if hasattr(y, "_fields"):
        return y._replace(**{y._fields[0]: getattr(y, y._fields[0]) * (1 + defect)})
    return y * (1 + defect)


def wrong_primal(rule: Callable, defect: float) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)
        return _nudged(y, defect), pullback

    return wrong_rrule


def ignored_keywords(rule: Callable) -> Callable:
    return lambda f, *args, **kwargs: rule(f, *args)


def nonzero_for_zero(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)
        seen = []

        def forgetful_pullback(dy):
            if isinstance(dy, AbstractZero) and seen:
                return pullback(seen[0])
            seen.append(dy)
            return pullback(dy)

        return y, forgetful_pullback

    return wrong_rrule


def needs_plain_dy(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)

        def plain_pullback(dy):
            if isinstance(dy, Thunk):
                raise TypeError("dy must be a value")  # forgot to unthunk
            return pullback(dy)

        return y, plain_pullback

    return wrong_rrule


# ---- generic defects of an frule ------------------------------------------------------------


def scaled_pushforward(rule: Callable, defect: float) -> Callable:
    def wrong_frule(tangents, f, *args, **kwargs):
        y, dy = rule(tangents, f, *args, **kwargs)
        return y, unthunk(dy) * (1 + defect)

    return wrong_frule


def stateful_pushforward(rule: Callable) -> Callable:
    calls = [0]

    def wrong_frule(tangents, f, *args, **kwargs):
        calls[0] += 1
        y, dy = rule(tangents, f, *args, **kwargs)
        return y, unthunk(dy) * calls[0]

    return wrong_frule


def no_frule(rule: Callable) -> Callable:
    return lambda tangents, f, *args, **kwargs: None


def wrong_frule_primal(rule: Callable, defect: float) -> Callable:
    def wrong_frule(tangents, f, *args, **kwargs):
        y, dy = rule(tangents, f, *args, **kwargs)
        return _nudged(y, defect), dy

    return wrong_frule


def mutating_tangent(rule: Callable) -> Callable:
    def wrong_frule(tangents, f, *args, **kwargs):
        result = rule(tangents, f, *args, **kwargs)
        for t in tangents:
            t = unthunk(t)
            if isinstance(t, np.ndarray):
                t *= 2.0
                break
        return result

    return wrong_frule


def nonzero_pushforward(rule: Callable) -> Callable:
    seen = []

    def wrong_frule(tangents, f, *args, **kwargs):
        if all(isinstance(t, AbstractZero) for t in tangents) and seen:
            tangents = seen[0]
        else:
            seen.append(tangents)
        return rule(tangents, f, *args, **kwargs)

    return wrong_frule


# ---- building the variants ------------------------------------------------------------------


def _rrule_variant(case: Case, name: str, wrong: Callable, error: type, message: str, **kw):
    def run() -> None:
        test_rrule(case.f, *case.args(), fkwargs=case.fkwargs, rrule_f=wrong, seed=SEED, **kw)

    return Variant(f"{case.name}: {name}", run, error, message)


def _frule_variant(case: Case, name: str, wrong: Callable, error: type, message: str):
    def run() -> None:
        test_frule(case.f, *case.args(), fkwargs=case.fkwargs, frule_f=wrong, seed=SEED)

    return Variant(f"{case.name}: frule {name}", run, error, message)


def _has_array(case: Case) -> bool:
    return _first_array(case.args()) is not None


def generic_variants(case: Case) -> list[Variant]:
    r, fr, k = case.rrule, case.frule, case.scaled
    fd = "disagrees with finite differences"
    out = [
        _rrule_variant(
            case,
            "partial x 1.000001",
            scaled_partial(r, k, case.defect),
            FiniteDifferenceMismatch,
            fd,
        ),
        _rrule_variant(
            case,
            "wrong tuple length",
            dropped_cotangent(r),
            CotangentCountError,
            "expected a tuple of",
        ),
        _rrule_variant(case, "hidden state", hidden_state(r, k), NondeterministicRule, "twice"),
        _rrule_variant(case, "no rule", no_rule(r), MissingRuleError, "rrule returned None"),
        _rrule_variant(
            case, "wrong primal", wrong_primal(r, case.defect), PrimalMismatch, "primal output"
        ),
        _rrule_variant(
            case,
            "nonzero for ZeroTangent",
            nonzero_for_zero(r),
            ZeroTangentInputError,
            "pullback(ZeroTangent()) gave a non-zero",
        ),
        _rrule_variant(
            case,
            "does not unthunk dy",
            needs_plain_dy(r),
            ThunkMismatch,
            "pullback(Thunk(lambda: dy)) raised",
        ),
        _frule_variant(
            case,
            "tangent x 1.000001",
            scaled_pushforward(fr, case.defect),
            FiniteDifferenceMismatch,
            fd,
        ),
        _frule_variant(
            case, "hidden state", stateful_pushforward(fr), NondeterministicRule, "twice"
        ),
        _frule_variant(case, "no rule", no_frule(fr), MissingRuleError, "frule returned None"),
        _frule_variant(
            case,
            "wrong primal",
            wrong_frule_primal(fr, case.defect),
            PrimalMismatch,
            "primal output",
        ),
        _frule_variant(
            case,
            "nonzero for zero tangents",
            nonzero_pushforward(fr),
            ZeroTangentInputError,
            "non-zero output tangent",
        ),
    ]
    if _has_array(case):
        out += [
            _rrule_variant(
                case,
                "pullback mutates its input",
                mutating_input(r),
                InputMutated,
                "the pullback changed its input",
            ),
            _frule_variant(
                case,
                "mutates its input tangent",
                mutating_tangent(fr),
                InputMutated,
                "changed the input tangent",
            ),
        ]
    if isinstance(case.f(*case.args(), **case.fkwargs), np.ndarray):
        out.append(
            _rrule_variant(
                case,
                "pullback mutates dy",
                mutating_dy(r),
                InputMutated,
                "changed the cotangent dy",
            )
        )
    if case.fkwargs:
        out.append(
            _rrule_variant(
                case, "ignores a keyword", ignored_keywords(r), PrimalMismatch, "primal output"
            )
        )
    return out


# ---- defects specific to one rule -----------------------------------------------------------


def _case(name: str) -> Case:
    return next(c for c in CASES if c.name == name)


def _sin_without_conj(f, x):
    return np.sin(x), lambda dy: (NoTangent(), np.cos(x) * unthunk(dy))


def _matmul_transposed(f, a, b):
    return a @ b, lambda dy: (NoTangent(), (unthunk(dy) @ b.T).T, a.T @ unthunk(dy))


def _mul_not_unbroadcast(f, x, y):
    return x * y, lambda dz: (NoTangent(), unthunk(dz) * y, unthunk(dz) * x)


def _exp32_in_float64(f, x):
    y = np.exp(x)
    return y, lambda dy: (NoTangent(), y.astype(np.float64) * unthunk(dy))


def _exp32_frule_in_float64(tangents, f, x):
    y = np.exp(x)
    return y, y.astype(np.float64) * unthunk(tangents[1])


def _power_zero_for_int(f, x, n):
    return x**n, lambda dy: (NoTangent(), n * x ** (n - 1) * unthunk(dy), ZeroTangent())


def _sin_complex_for_real(f, x):
    return np.sin(x), lambda dy: (NoTangent(), (np.cos(x) * unthunk(dy)).astype(complex))


def _affine_plain_dict(f, params, x):
    w = params.weights["w"]

    def affine_pullback(dy):
        dy = unthunk(dy)
        return NoTangent(), {"weights": {"w": np.outer(dy, x), "b": dy}}, w.T @ dy

    return f(params, x), affine_pullback


def _affine_b_scaled(f, params, x):
    w = params.weights["w"]

    def affine_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NoTangent(), dy, dy
        weights = Tangent(dict, {"w": np.outer(dy, x), "b": dy * 1.000001})
        return NoTangent(), Tangent(type(params), weights=weights), w.T @ dy

    return f(params, x), affine_pullback


def _dot_bad_inplace(f, a, b):
    def dot_pullback(dy):
        dy = unthunk(dy)
        da = InplaceableThunk(lambda acc: np.add(acc, 2 * dy * b, out=acc), Thunk(lambda: dy * b))
        return NoTangent(), da, Thunk(lambda: dy * a)

    return a @ b, dot_pullback


def _polar_ignores_theta(f, x):
    y = f(x)

    def polar_pullback(dy):
        dy = unthunk(dy)
        return NoTangent(), unthunk(dy.r) * x / y.r

    return y, polar_pullback


def _scaler_without_f(f, x):
    y, pullback = _case("closure").rrule(f, x)
    return y, lambda dy: (NoTangent(), pullback(dy)[1])


def _hypot_array_for_float(f, x, y):
    r = f(x, y)
    return r, lambda dr: (NoTangent(), np.array([dr * x / r]), dr * y / r)


def _sin_detached_pullback(f, x):
    def sin_pullback(dy):
        return NoTangent(), cr.ignore_derivatives(np.cos(x)) * unthunk(dy)

    return np.sin(x), sin_pullback


def _csquare_noconj(z):
    return z * z


@cr.rrule.register(_csquare_noconj)
def _csquare_noconj_rrule(z):
    return z * z, lambda dy: (NoTangent(), 2 * z * unthunk(dy))


@cr.frule.register(_csquare_noconj)
def _csquare_noconj_frule(tangents, z):
    return z * z, 2 * z * unthunk(tangents[1])


def _cube(x):
    return x**3


@cr.rrule.register(_cube)
def _cube_wrong_rrule(x):
    return x**3, lambda dy: (NoTangent(), 3.1 * x**2 * unthunk(dy))


@cr.frule.register(_cube)
def _cube_frule(tangents, x):
    return x**3, 3 * x**2 * unthunk(tangents[1])


def specific_variants() -> list[Variant]:
    complex_case = Case("complex", _sin, lambda: (Z4.copy(),), cr.rrule, cr.frule)
    variants = [
        _rrule_variant(
            complex_case,
            "missing conj",
            _sin_without_conj,
            FiniteDifferenceMismatch,
            "disagrees with finite differences",
        ),
        _rrule_variant(
            _case("matrix product"),
            "transposed cotangent",
            _matmul_transposed,
            FiniteDifferenceMismatch,
            "cotangent for args[0] disagrees",
        ),
        _rrule_variant(
            _case("broadcasting binary"),
            "wrong shape (not unbroadcast)",
            _mul_not_unbroadcast,
            TangentSpaceError,
            "has shape (3, 4), but the primal has shape (3, 1)",
        ),
        _rrule_variant(
            _case("float32"),
            "wrong dtype",
            _exp32_in_float64,
            TangentSpaceError,
            "has dtype float64, but the primal has dtype float32",
        ),
        _frule_variant(
            _case("float32"),
            "wrong dtype",
            _exp32_frule_in_float64,
            TangentSpaceError,
            "has dtype float64, but the primal has dtype float32",
        ),
        _rrule_variant(
            _case("integer argument"),
            "ZeroTangent for an int",
            _power_zero_for_int,
            ZeroTangentForNoTangent,
            "use NoTangent()",
        ),
        _rrule_variant(
            _case("elementwise"),
            "complex cotangent for a real input",
            _sin_complex_for_real,
            TangentSpaceError,
            "is complex",
        ),
        _rrule_variant(
            _case("structured argument"),
            "plain dict for a dataclass",
            _affine_plain_dict,
            TangentSpaceError,
            "takes Tangent(Params",
        ),
        _rrule_variant(
            _case("structured argument"),
            "one field's partial x 1.000001",
            _affine_b_scaled,
            FiniteDifferenceMismatch,
            "the cotangent for args[0].weights['b'] disagrees",
        ),
        _rrule_variant(
            _case("thunked cotangents"),
            "InplaceableThunk adds twice",
            _dot_bad_inplace,
            ThunkMismatch,
            "add_(acc, InplaceableThunk)",
        ),
        _rrule_variant(
            _case("structure-valued"),
            "ignores a field of dy",
            _polar_ignores_theta,
            FiniteDifferenceMismatch,
            "disagrees with finite differences",
        ),
        _rrule_variant(
            _case("closure"),
            "no cotangent for the closure",
            _scaler_without_f,
            FiniteDifferenceMismatch,
            "the cotangent for f.a disagrees",
        ),
        _rrule_variant(
            _case("python scalars"),
            "array for a float",
            _hypot_array_for_float,
            TangentSpaceError,
            "but the primal is a Python float",
        ),
        _rrule_variant(
            _case("elementwise"),
            "partial x 1.000001, full Jacobian",
            scaled_partial(cr.rrule, 1),
            FiniteDifferenceMismatch,
            "worst element d y[",
            full_jacobian=True,
        ),
        Variant(
            "complex scalar: missing conj (test_scalar)",
            lambda: test_scalar(_csquare_noconj, 0.7, seed=SEED),
            ComplexConventionError,
            "the conj is missing",
        ),
        Variant(
            "frule and rrule disagree",
            lambda: test_frule(_cube, X5.copy(), seed=SEED),
            RuleDisagreement,
            "the frule and the rrule disagree",
        ),
    ]
    if reverse_engine() is not None:
        variants.append(
            _rrule_variant(
                _case("elementwise"),
                "pullback invisible to the engine",
                _sin_detached_pullback,
                SecondOrderMismatch,
                "reverse engine, disagrees",
                check_second_order=True,
            )
        )
    return variants


def all_variants() -> list[Variant]:
    return [v for case in CASES for v in generic_variants(case)] + specific_variants()


def test_every_wrong_rule_is_caught_with_its_message(capsys):
    variants = all_variants()
    missed = []
    for variant in variants:
        try:
            variant.run()
        except variant.error as error:
            if variant.message not in str(error):
                missed.append(f"{variant.name}: message lacks {variant.message!r}:\n{error}")
        except Exception as error:
            missed.append(f"{variant.name}: raised {type(error).__name__}: {error}")
        else:
            missed.append(f"{variant.name}: passed")
    caught = len(variants) - len(missed)
    with capsys.disabled():
        print(f"\nmutation tests: caught {caught}/{len(variants)} wrong rules")
    assert not missed, "\n\n".join(missed)
    assert caught >= 170


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_relative_error_of_1e_6_fails_for_every_seed(case):
    """In float64 a partial wrong by a relative 1e-6 fails whatever the draw (float32: 1e-2)."""
    wrong = scaled_partial(case.rrule, case.scaled, case.defect)
    for seed in range(40):
        with pytest.raises(FiniteDifferenceMismatch):
            test_rrule(case.f, *case.args(), fkwargs=case.fkwargs, rrule_f=wrong, seed=seed)
