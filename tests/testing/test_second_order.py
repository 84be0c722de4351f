"""check_second_order: the reverse engine differentiates pullbacks and pushforwards."""

from __future__ import annotations

import numpy as np
import pytest
from chainrules_testing import (
    RuleTestFailure,
    SecondOrderMismatch,
    SecondOrderUnavailable,
    SecondOrderUntraceable,
    test_frule,
    test_rrule,
)
from chainrules_testing.second_order import reverse_engine
from harness_cases import X5, _mul, _sin
from wrong_rules import _mul_second_order_wrong_in_y, _pullback_calls_asarray, _pullback_calls_float

import chainrules as cr
from chainrules import NoTangent, unthunk

ENGINE = reverse_engine() is not None


@pytest.mark.skipif(ENGINE, reason="the reverse engine is available")
def test_without_the_engine_the_check_says_what_it_needs():
    with pytest.raises(SecondOrderUnavailable, match="needs the reverse engine"):
        test_rrule(_sin, X5.copy(), check_second_order=True, seed=0)


@pytest.mark.skipif(not ENGINE, reason="needs chainrules.engines.reverse")
def test_correct_rules_pass_the_second_order_check(fresh_record):
    test_rrule(_sin, X5.copy(), check_second_order=True, seed=0)
    test_rrule(_mul, X5.copy(), X5[::-1].copy(), check_second_order=True, seed=0)
    test_frule(_sin, X5.copy(), check_second_order=True, seed=0)
    assert {
        "function": "harness_cases._sin",
        "kind": "rrule",
        "second_order": True,
    } in fresh_record.recorded()


@pytest.mark.skipif(not ENGINE, reason="needs chainrules.engines.reverse")
def test_a_pullback_the_engine_cannot_see_through_fails():
    def detached(f, x):
        def sin_pullback(dy):
            return NoTangent(), cr.ignore_derivatives(np.cos(x)) * unthunk(dy)

        return np.sin(x), sin_pullback

    with pytest.raises(SecondOrderMismatch, match="by the reverse engine, disagrees"):
        test_rrule(_sin, X5.copy(), rrule_f=detached, check_second_order=True, seed=0)


@pytest.mark.skipif(not ENGINE, reason="needs chainrules.engines.reverse")
def test_a_pullback_whose_derivative_is_nan_fails():
    def nan_inside(f, x):
        def sin_pullback(dy):
            # Right values, but the discarded branch has a NaN derivative that the mask
            # multiplies by zero: 0 * NaN is NaN, and a NaN must never pass a comparison.
            cos_x = np.where(np.ones(x.shape, dtype=bool), np.cos(x), np.nan * x)
            return NoTangent(), cos_x * unthunk(dy)

        return np.sin(x), sin_pullback

    with pytest.raises(SecondOrderMismatch, match="nan"):
        test_rrule(_sin, X5.copy(), rrule_f=nan_inside, check_second_order=True, seed=0)


@pytest.mark.skipif(not ENGINE, reason="needs chainrules.engines.reverse")
@pytest.mark.parametrize("rule", [_pullback_calls_float, _pullback_calls_asarray])
def test_a_pullback_that_leaves_the_engine_is_a_named_failure(rule):
    x = 0.7 if rule is _pullback_calls_float else X5.copy()
    test_rrule(_sin, x, rrule_f=rule, check_second_order=False, seed=0)  # first order is right
    with pytest.raises(SecondOrderUntraceable) as info:
        test_rrule(_sin, x, rrule_f=rule, seed=0)
    message = str(info.value)
    assert isinstance(info.value, RuleTestFailure)
    assert "test_rrule(harness_cases._sin)" in message and "check_second_order=False" in message
    assert info.value.__cause__ is not None  # the engine's own error, chained
    assert type(info.value.__cause__).__name__ in message


@pytest.mark.skipif(not ENGINE, reason="needs chainrules.engines.reverse")
def test_a_second_order_failure_names_the_argument():
    x, y = X5.copy(), X5[::-1].copy()
    with pytest.raises(SecondOrderMismatch, match=r"derivative of the pullback in args\[1\],"):
        test_rrule(_mul, x, y, rrule_f=_mul_second_order_wrong_in_y, seed=0)
    with pytest.raises(SecondOrderMismatch, match=r"derivative of the pullback in args\[0\],"):
        test_rrule(_sin, X5.copy(), rrule_f=_detached_sin, seed=0)


def _detached_sin(f, x):
    def sin_pullback(dy):
        return NoTangent(), cr.ignore_derivatives(np.cos(x)) * unthunk(dy)

    return np.sin(x), sin_pullback


@pytest.mark.skipif(not ENGINE, reason="needs chainrules.engines.reverse")
def test_second_order_at_tiny_and_huge_arguments_stays_representable():
    # At 1e-300 the pullback of sqrt is 5e149 and its derivative -2e449: the check weights
    # its function by a power of two so that both stay in range, and still catches a defect.
    test_rrule(np.sqrt, np.array([1e-300, 3e-300]), seed=0)
    test_frule(np.sqrt, np.array([1e300, 3e300]), seed=0)
    with pytest.raises(SecondOrderMismatch, match=r"in args\[0\].*\n.*scaled by 2\*\*"):
        test_rrule(np.sqrt, np.array([1e-300, 3e-300]), rrule_f=_detached_sqrt, seed=0)


def _detached_sqrt(f, x):
    def sqrt_pullback(dy):
        return NoTangent(), cr.ignore_derivatives(0.5 / np.sqrt(x)) * unthunk(dy)

    return np.sqrt(x), sqrt_pullback
