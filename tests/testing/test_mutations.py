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
from chainrules_testing.second_order import reverse_engine
from harness_cases import CASES, X5, Z4, Case, _sin
from wrong_rules import (
    _affine_b_scaled,
    _affine_plain_dict,
    _case,
    _csquare_noconj,
    _cube,
    _dot_bad_inplace,
    _exp32_frule_in_float64,
    _exp32_in_float64,
    _first_array,
    _hypot_array_for_float,
    _matmul_transposed,
    _mul_not_unbroadcast,
    _polar_ignores_theta,
    _power_zero_for_int,
    _scaler_without_f,
    _sin_complex_for_real,
    _sin_detached_pullback,
    _sin_without_conj,
    dropped_cotangent,
    hidden_state,
    ignored_keywords,
    mutating_dy,
    mutating_input,
    mutating_tangent,
    needs_plain_dy,
    no_frule,
    no_rule,
    nonzero_for_zero,
    nonzero_pushforward,
    scaled_partial,
    scaled_pushforward,
    stateful_pushforward,
    wrong_frule_primal,
    wrong_primal,
)

import chainrules as cr

SEED = 11


@dataclass(frozen=True)
class Variant:
    """A wrong rule, how to run the harness on it, and the failure it must raise."""

    name: str
    run: Callable[[], None]
    error: type[AssertionError]
    message: str


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
