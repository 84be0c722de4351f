"""check_second_order: the reverse engine differentiates pullbacks and pushforwards."""

from __future__ import annotations

import numpy as np
import pytest
from chainrules_testing import SecondOrderMismatch, SecondOrderUnavailable, test_frule, test_rrule
from chainrules_testing.second_order import reverse_engine
from harness_cases import X5, _mul, _sin

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
