"""test_rrule on correct rules: they pass for every seed, in every mode; what failures say."""

from __future__ import annotations

import re

import numpy as np
import pytest
from chainrules_testing import (
    FiniteDifferenceMismatch,
    InputMutated,
    RuleRaised,
    TangentSpaceError,
    test_frule,
    test_rrule,
    with_tangent,
)
from harness_cases import (
    CASES,
    X5,
    Case,
    Params,
    _affine,
    _chain_weighted_sum,
    _power,
    _sin,
    correct_rule_tests,
    linked_list,
)
from wrong_rules import _chain_one_link_off, scaled_partial

import chainrules as cr
from chainrules import NoTangent, not_implemented, unthunk

SEEDS = range(25)


test_correct_rules_pass_for_many_seeds, test_correct_rules_pass_with_the_full_jacobian = (
    correct_rule_tests(Case.check_rrule)
)


def test_another_finite_difference_method():
    fdm = pytest.importorskip("fdm")
    test_rrule(_sin, X5.copy(), fdm=fdm.central_fdm(5, 1), seed=0)
    test_rrule(_power, X5.copy(), 3, fdm=fdm.central_fdm(5, 1), seed=0)


def test_another_finite_difference_method_catches_a_wrong_rule():
    fdm = pytest.importorskip("fdm")
    wrong = scaled_partial(cr.rrule, 1, 1e-6)
    with pytest.raises(FiniteDifferenceMismatch, match=r"\(FDM, error estimate"):
        test_rrule(_sin, X5.copy(), fdm=fdm.central_fdm(5, 1), rrule_f=wrong, seed=0)


def _raising(f, x):
    def sin_pullback(dy):
        raise ValueError("the shapes do not match")

    return np.sin(x), sin_pullback


def test_a_rule_that_raises_is_a_named_failure_with_the_error_as_cause():
    with pytest.raises(
        RuleRaised,
        match=r"test_rrule\(harness_cases._sin\): pullback\(dy\) "
        r"raised ValueError: the shapes do not match",
    ) as info:
        test_rrule(_sin, X5.copy(), rrule_f=_raising, seed=0)
    assert isinstance(info.value.__cause__, ValueError)

    def raising_frule(tangents, f, x):
        raise TypeError("no frule for these")

    with pytest.raises(RuleRaised, match=r"the frule raised TypeError") as info:
        test_frule(_sin, X5.copy(), frule_f=raising_frule, seed=0)
    assert isinstance(info.value.__cause__, TypeError)


def test_a_given_output_tangent_and_input_tangent_are_used():
    dx = np.zeros_like(X5)
    dx[2] = 1.0
    test_rrule(_sin, with_tangent(X5.copy(), dx), output_tangent=np.ones(5), seed=0)


def _half_scaled(x, scale):
    return x * scale


@cr.rrule.register(_half_scaled)
def _half_scaled_rrule(x, scale):
    def half_scaled_pullback(dy):
        return NoTangent(), unthunk(dy) * scale, NoTangent()  # scale treated as a constant

    return x * scale, half_scaled_pullback


def test_an_argument_marked_no_tangent_is_not_differentiated():
    test_rrule(_half_scaled, X5.copy(), with_tangent(2.5, NoTangent()), seed=0)
    with pytest.raises(FiniteDifferenceMismatch, match=r"cotangent for args\[1\]"):
        test_rrule(_half_scaled, X5.copy(), 2.5, seed=0)


def _partly_implemented(x, y):
    return x * y


@cr.rrule.register(_partly_implemented)
def _partly_implemented_rrule(x, y):
    def partly_pullback(dz):
        return NoTangent(), unthunk(dz) * y, not_implemented("the derivative in y")

    return x * y, partly_pullback


def test_not_implemented_cotangents_are_skipped():
    test_rrule(_partly_implemented, X5.copy(), 1.5, seed=0)


def test_float32_inputs_are_differenced_in_float64():
    case = next(c for c in CASES if c.name == "float32")
    for seed in SEEDS:
        test_rrule(case.f, *case.args(), seed=seed)


def test_structured_arguments_are_walked_with_aliasing_kept():
    shared = np.array([0.5, -1.0])
    params = Params({"w": np.ones((2, 2)), "b": shared})
    test_rrule(_affine, params, shared, seed=3)


def test_a_linked_list_of_a_thousand_nodes_is_an_argument_like_any_other():
    # Each finite-difference step walks the whole list: a second call, with an array x, on a
    # shorter one keeps the test quick.
    test_rrule(_chain_weighted_sum, linked_list(1000, shared=np.array([0.25, -0.5])), 1.5, seed=0)
    head = linked_list(50, shared=np.array([0.25, -0.5]))
    test_rrule(_chain_weighted_sum, head, np.array([1.5, 2.0]), seed=1)


def test_one_wrong_link_of_a_thousand_is_caught():
    head = linked_list(1000)
    with pytest.raises(FiniteDifferenceMismatch, match=r"the cotangent for args\[0\] disagrees"):
        test_rrule(_chain_weighted_sum, head, 1.5, rrule_f=_chain_one_link_off, seed=0)


def test_a_mutating_function_is_reported_before_its_rule():
    def _doubling(x):
        x *= 2.0
        return x

    with pytest.raises(InputMutated, match=r"f itself changed its input args\[0\]\[0\]"):
        test_rrule(_doubling, X5.copy(), seed=0)


def test_failure_messages_name_everything_needed():
    def wrong(f, x):
        return np.sin(x), lambda dy: (NoTangent(), np.cos(x) * unthunk(dy) * 1.000001)

    with pytest.raises(FiniteDifferenceMismatch) as info:
        test_rrule(_sin, X5.copy(), rrule_f=wrong, seed=1234)
    message = str(info.value)
    for part in (
        "test_rrule(harness_cases._sin)",
        "the cotangent for args[0]",
        "expected <dy, J dx> = ",
        "actual <pullback(dy)[1], dx> = ",
        "absolute error",
        "relative error 1.000e-06",
        "error estimate",
        "seed=1234",
    ):
        assert part in message


def test_attributes_with_rules_are_read_from_their_argument():
    x = np.arange(6.0).reshape(2, 3)
    test_rrule(np.ndarray.T, x, seed=0)

    def wrong(f, x):
        return x.T, lambda dy: (NoTangent(), unthunk(dy).T[::-1])

    with pytest.raises(FiniteDifferenceMismatch, match=r"test_rrule\(numpy.ndarray.T\)"):
        test_rrule(np.ndarray.T, x, rrule_f=wrong, seed=0)


def test_the_seed_reproduces_the_draw():
    def wrong(f, x):
        return np.sin(x), lambda dy: (NoTangent(), np.cos(x) * unthunk(dy) * 1.01)

    messages = []
    for _ in range(2):
        with pytest.raises(FiniteDifferenceMismatch) as info:
            test_rrule(_sin, X5.copy(), rrule_f=wrong, seed=99)
        messages.append(re.sub(r"error estimate \S+", "", str(info.value)))
    assert messages[0] == messages[1]


def test_tangent_space_failures_name_the_path():
    def wrong(f, params, x):
        y, pullback = cr.rrule(f, params, x)
        return y, lambda dy: (NoTangent(), pullback(dy)[1], np.zeros(4))

    with pytest.raises(TangentSpaceError, match=r"args\[1\] has shape \(4,\)"):
        test_rrule(
            _affine, Params({"w": np.ones((2, 3)), "b": np.ones(2)}), X5[:3].copy(), rrule_f=wrong
        )


def test_passing_calls_are_recorded_and_custom_rules_are_not(fresh_record):
    test_rrule(_sin, X5.copy(), seed=0)
    test_rrule(_sin, X5.copy(), rrule_f=cr.rrule, seed=0)
    assert fresh_record.recorded() == [
        {"function": "harness_cases._sin", "kind": "rrule", "second_order": True}
    ]


def test_test_functions_are_not_collected():
    assert test_rrule.__test__ is False


class _Ring:
    """An object that refers to itself: a cycle the harness must walk without recursing."""

    def __init__(self, w):
        self.w = w
        self.next = self


def _ring_total(ring):
    return np.sum(ring.w) + np.sum(ring.next.w)


@cr.rrule.register(_ring_total)
def _ring_total_rrule(ring):
    shape = ring.w.shape

    def ring_total_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, cr.ZeroTangent):
            return NoTangent(), dy
        return NoTangent(), cr.MutableTangent(_Ring, w=2.0 * dy * np.ones(shape))

    return _ring_total(ring), ring_total_pullback


def test_cyclic_arguments_are_copied_perturbed_and_checked():
    for seed in range(5):
        test_rrule(_ring_total, _Ring(X5.copy()), seed=seed)

    def wrong(f, ring):
        y = f(ring)
        return y, lambda dy: (NoTangent(), cr.MutableTangent(_Ring, w=np.full(5, unthunk(dy))))

    with pytest.raises(FiniteDifferenceMismatch, match=r"the cotangent for args\[0\]\.w"):
        test_rrule(_ring_total, _Ring(X5.copy()), rrule_f=wrong, seed=0)


@pytest.mark.parametrize(
    ("f", "fkwargs"),
    [
        (np.swapaxes, {"axis1": 0, "axis2": 1}),
        (np.moveaxis, {"source": 0, "destination": 1}),
        (np.cumsum, {"axis": 0}),
    ],
    ids=["swapaxes", "moveaxis", "cumsum"],
)
def test_keywords_the_rule_takes_by_position_are_not_counted_as_missing_cotangents(f, fkwargs):
    test_rrule(f, np.arange(6.0).reshape(2, 3) + 0.5, fkwargs=fkwargs)
    test_frule(f, np.arange(6.0).reshape(2, 3) + 0.5, fkwargs=fkwargs)
