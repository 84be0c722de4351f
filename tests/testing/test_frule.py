"""test_frule on correct rules, and what its own checks catch."""

from __future__ import annotations

import numpy as np
import pytest
from chainrules_testing import FiniteDifferenceMismatch, test_frule, with_tangent
from harness_cases import X5, Case, _sin, correct_rule_tests

import chainrules as cr
from chainrules import NoTangent, unthunk

test_correct_frules_pass_for_many_seeds, test_correct_frules_pass_element_by_element = (
    correct_rule_tests(Case.check_frule)
)


def test_another_method_and_given_tangents():
    fdm = pytest.importorskip("fdm")
    test_frule(_sin, with_tangent(X5.copy(), np.ones(5)), fdm=fdm.central_fdm(5, 1), seed=0)


def test_a_wrong_element_is_named():
    def wrong(tangents, f, x):
        dy = np.cos(x) * unthunk(tangents[1])
        dy[3] *= 1.001
        return np.sin(x), dy

    with pytest.raises(FiniteDifferenceMismatch, match=r"at y\[3\]"):
        test_frule(_sin, X5.copy(), frule_f=wrong, seed=0)


def test_passing_calls_are_recorded(fresh_record):
    test_frule(_sin, X5.copy(), seed=0)
    assert fresh_record.recorded() == [
        {"function": "harness_cases._sin", "kind": "frule", "second_order": True}
    ]


def test_no_tangent_arguments_get_no_tangent():
    def _shift(x, n):
        return x + n

    @cr.frule.register(_shift)
    def _shift_frule(tangents, x, n: int):
        assert isinstance(tangents[2], NoTangent)
        return x + n, unthunk(tangents[1])

    test_frule(_shift, X5.copy(), 2, seed=0)
