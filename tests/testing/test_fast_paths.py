"""test_rrule compares a fast path with the rule it stands in for, exactly."""

from __future__ import annotations

import numpy as np
import pytest
from chainrules_testing import FastPathMismatch, test_rrule
from fast_path_cases import tripled_with_fast_path

from chainrules.core.fast_paths import general_rule

right = tripled_with_fast_path("right", 1.0, 1.0)
wrong_cotangent = tripled_with_fast_path("wrong_cotangent", 1.0, 1.0 + 2.0**-52)
wrong_value = tripled_with_fast_path("wrong_value", 1.0 + 2.0**-52, 1.0)
X = np.array([0.5, -1.25, 2.0])


def test_a_right_fast_path_passes() -> None:
    assert general_rule(right) is not None
    test_rrule(right, X, seed=0)
    test_rrule(right, 0.5, seed=0)  # the rule's own way


def test_a_fast_path_one_ulp_off_fails() -> None:
    # Within any finite-difference tolerance, so only the comparison with the rule sees it.
    with pytest.raises(FastPathMismatch, match="cotangent 1"):
        test_rrule(wrong_cotangent, X, seed=0)
    with pytest.raises(FastPathMismatch, match="the value"):
        test_rrule(wrong_value, X, seed=0, check_second_order=False)
    test_rrule(wrong_cotangent, 0.5, seed=0)  # a float takes the rule's way: nothing to compare
