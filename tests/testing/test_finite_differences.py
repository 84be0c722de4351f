"""Directional derivatives by numdifftools and by another method."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest
from chainrules_testing import (
    FiniteDifferenceMismatch,
    test_frule,
    test_rrule,
    test_scalar,
    with_tangent,
)
from chainrules_testing.finite_differences import (
    _STENCIL_STEP,
    _numdifftools,
    central_stencil,
    directional_derivative,
    method_name,
    step_scale,
)
from chainrules_testing.tolerances import settles
from wrong_rules import scaled_partial, scaled_pushforward

import chainrules as cr
from chainrules import NoTangent, unthunk


def _method(name):
    if name == "numdifftools":
        return None
    return pytest.importorskip("fdm").central_fdm(5, 1)


@pytest.mark.parametrize("name", ["numdifftools", "fdm"])
def test_scalar_derivatives_are_accurate(name):
    method = _method(name)
    estimate = directional_derivative(lambda t: math.exp(0.5 + 2 * t), method)
    assert estimate.value == pytest.approx(2 * math.exp(0.5), rel=1e-10)
    assert 0 <= estimate.error < 1e-8 and estimate.calls > 0


def test_vector_valued_functions_give_one_derivative_per_element():
    estimate = directional_derivative(lambda t: np.sin(np.arange(3.0) + t))
    assert estimate.value == pytest.approx(np.cos(np.arange(3.0)), rel=1e-10)
    assert estimate.error.shape == (3,)


def test_steps_that_leave_the_domain_are_tolerated():
    x = np.array([0.05, 1.0])
    estimate = directional_derivative(lambda t: float(np.sum(np.log(x + t))))
    assert estimate.value == pytest.approx(np.sum(1 / x), rel=1e-8)


class _ScriptedNumdifftools:
    """numdifftools' interface, answering each base step with a scripted (value, error); the
    last try, with a few large steps, is asked for as "coarse"."""

    def __init__(self, answers):
        self.answers, self.asked = answers, []

    def MaxStepGenerator(self, base_step, num_steps=None):  # numdifftools' names
        return base_step if num_steps is None else "coarse"

    def Derivative(self, g, step, full_output):
        def run(t):
            self.asked.append(step)
            value, error = self.answers[step]
            return SimpleNamespace(estimate=value, error_estimate=error, final_step=1.0)

        return run


SCRIPTS = [
    # answers per base step, base steps asked, value kept
    ({2.0: (3.0, 1e-9)}, [2.0], 3.0),
    # steps straddling a kink: uncertain, so smaller ones are asked and the most certain kept
    ({2.0: (32.3, 26.5), 0.25: (-220.7, 7e-11)}, [2.0, 0.25], -220.7),
    # none certain: a last try with large steps, kept only if more certain
    (
        {2.0: (1.0, 0.5), 0.25: (1.1, 0.4), 1e-2: (1.2, 0.6), "coarse": (1.3, 0.9)},
        [2.0, 0.25, 1e-2, "coarse"],
        1.1,
    ),
    (
        {2.0: (0.0, 1.0), 0.25: (0.0, 1.0), 1e-2: (0.0, 1.0), "coarse": (4.2, 0.1)},
        [2.0, 0.25, 1e-2, "coarse"],
        4.2,
    ),
    # leaving the domain: smaller steps down to the smallest
    (
        {2.0: (np.nan, 0.0), 0.25: (np.nan, 0.0), 1e-2: (np.inf, 0.0), 1e-4: (5.0, 1e-9)},
        [2.0, 0.25, 1e-2, 1e-4],
        5.0,
    ),
]


@pytest.mark.parametrize("answers, asked, kept", SCRIPTS)
def test_base_steps_are_tried_until_the_estimate_is_finite_and_certain(answers, asked, kept):
    nd = _ScriptedNumdifftools(answers)
    value, _ = _numdifftools(nd, lambda t: t)
    assert nd.asked == asked and value == kept


def test_tiny_steps_are_not_asked_for_certainty():
    # Rounding makes tiny steps look certain (a change rounded away: 0 with no error).
    answers = {2.0: (1.0, 0.5), 0.25: (1.1, 0.4), 1e-2: (1.2, 0.6), 1e-4: (0.0, 0.0)}
    answers["coarse"] = (1.0, 0.5)
    nd = _ScriptedNumdifftools(answers)
    assert _numdifftools(nd, lambda t: t)[0] == 1.1 and 1e-4 not in nd.asked


def test_method_names():
    assert method_name(None) == "numdifftools"
    assert method_name(_method("fdm")) == "FDM"


# ---- steps at the edges of float64 ---------------------------------------------------------


@dataclass(frozen=True)
class EdgePoint:
    """A library function at a point near the edges of float64 where its rules are right.

    ``second_order`` is False where the second derivative, as the rule's partials compute
    it, leaves float64's range although the check's own quantities stay in it (``log``'s
    partial ``1 / x`` differentiated at 1e-300 is -1e600): the first-order checks still run.
    ``subnormal``: the derivative is below the normal range, where only a few bits are left.
    """

    f: Callable
    x: float
    second_order: bool = True
    subnormal: bool = False

    def __str__(self) -> str:
        return f"{self.f.__name__}({self.x:g})"


EDGE_POINTS = [
    # inputs of 1e-300: steps relative to x keep it positive (log, sqrt, power defined on x > 0)
    EdgePoint(np.log, 1e-300, second_order=False),
    EdgePoint(np.sqrt, 1e-300),
    EdgePoint(np.log1p, 1e-300),
    EdgePoint(np.sin, 1e-300),
    EdgePoint(np.square, 1e-150),
    # inputs of 1e150 and more: steps relative to x are not rounded away
    EdgePoint(np.square, 1e150),
    EdgePoint(np.sqrt, 1e300),
    EdgePoint(np.log, 1e300, second_order=False),
    # outputs near overflow and subnormal
    # 3e307: random tangents up to 6 keep y * dx finite (at 709, 8e307, one of 30 does not)
    EdgePoint(np.exp, 708.0),
    EdgePoint(np.exp, -700.0),
    EdgePoint(np.exp, -740.0, subnormal=True),
]

# np.power(x, p) at x of 1e-300 and 1e300, with p keeping x**p finite. At (1e300, 0.5) the
# second-order check finds the engine's second derivative of the frule off by 8e-4 (mpmath
# agrees with the finite differences); the rules' owners have it.
POWER_EDGES = [(1e-300, 0.5, False), (1e-300, 2.5, True), (1e300, 0.5, False), (1e300, -1.5, True)]


def test_steps_follow_the_magnitude_of_tiny_and_huge_inputs():
    x = np.array([0.0, -0.5, 3.0, 1e-300, -1e-5, 1e150, -1e300, np.inf])
    assert np.array_equal(step_scale(x), [1.0, 1.0, 1.0, 1e-300, 1e-5, 1e150, 1e300, 1.0])
    assert step_scale(1e-300 + 1e-300j) == pytest.approx(abs(1e-300 + 1e-300j), rel=1e-15)


def test_a_subnormal_function_is_not_mistaken_for_a_constant():
    # exp(-740 + t) is 4e-322 (85 units of the smallest subnormal): a difference over a tiny
    # step rounds to 0, which numdifftools alone reports as exactly 0 with error 0.
    true = math.exp(-740.0)
    estimate = directional_derivative(lambda t: np.exp(-740.0 + t))
    assert estimate.value == pytest.approx(true, rel=0.1)  # 85 units: a few percent at best
    assert estimate.error > 0 and abs(estimate.value - true) <= 4 * estimate.error


@pytest.mark.parametrize("point", EDGE_POINTS, ids=str)
def test_correct_rules_pass_at_the_edges(point):
    # Every check test_scalar runs, at the real point and the complex one.
    for seed in range(3):
        test_scalar(point.f, point.x, seed=seed, check_second_order=point.second_order)
    x = np.array([point.x, 0.999 * point.x])
    test_rrule(point.f, x, seed=0, check_second_order=point.second_order, full_jacobian=True)
    test_frule(point.f, x, seed=0, check_second_order=point.second_order, full_jacobian=True)


@pytest.mark.parametrize(("x", "p", "second_order"), POWER_EDGES, ids=str)
def test_power_passes_at_the_edges(x, p, second_order):
    for seed in range(3):
        test_rrule(np.power, np.array([x, 2 * x]), p, seed=seed, check_second_order=second_order)
        test_frule(np.power, np.array([x, 2 * x]), p, seed=seed, check_second_order=second_order)


@pytest.mark.parametrize("point", EDGE_POINTS, ids=str)
def test_wrong_rules_fail_at_the_edges(point):
    # A check that cannot fail at these points would pass anything. Below the normal range
    # only a few bits are left, so there the rule is wrong by a factor of two, and the
    # tangents are fixed (a random one near 0 would leave the value a unit or two).
    defect = 1.0 if point.subnormal else 1e-6
    x = with_tangent(point.x, 1.0) if point.subnormal else point.x
    w = 1.0 if point.subnormal else None
    for seed in range(3):
        with pytest.raises(FiniteDifferenceMismatch):
            test_rrule(
                point.f,
                x,
                output_tangent=w,
                rrule_f=scaled_partial(cr.rrule, 1, defect),
                check_second_order=False,
                seed=seed,
            )
        with pytest.raises(FiniteDifferenceMismatch):
            test_frule(
                point.f,
                x,
                output_tangent=w,
                frule_f=scaled_pushforward(cr.frule, defect),
                check_second_order=False,
                seed=seed,
            )


def test_a_wrong_element_at_the_edge_is_named():
    x = np.array([1e-300, 2e-300, 3e-300])

    def one_wrong(f, x):
        y, pullback = cr.rrule(np.log, x)

        def log_pullback(dy):
            dx = unthunk(pullback(dy)[1]).copy()
            dx[1] *= 1 + 1e-6
            return NoTangent(), dx

        return y, log_pullback

    with pytest.raises(FiniteDifferenceMismatch, match=r"d y\[1\] / d args\[0\]\[1\]"):
        test_rrule(np.log, x, rrule_f=one_wrong, full_jacobian=True, check_second_order=False)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_a_non_finite_output_is_named_as_the_reason():
    with pytest.raises(FiniteDifferenceMismatch, match=r"output is not finite .*y\[0\] = .*inf"):
        test_rrule(np.exp, np.array([1000.0, 1.0]), check_second_order=False, seed=0)


@pytest.mark.parametrize("a", [0.05, 0.02, 0.005])
def test_the_first_base_step_goes_down_to_small_steps(a):
    # Curvature on a scale a: steps from 2.0 down to only 2.0 / 2**9 extrapolate to an
    # estimate off by up to a percent whose error estimate still looks certain (a regression:
    # std about a fixed mean failed so). numdifftools' default of 15 steps reaches 1.2e-4.
    est = directional_derivative(lambda t: math.sqrt(a * a + (a + t) ** 2))
    assert abs(est.value - math.sqrt(0.5)) < 1e-9


# ---- the cheap estimate first, numdifftools when it does not decide ------------------------

# Calls are counted in a module global: a counting closure would be a structure the harness
# walks and perturbs like any other input.
CALLS = {"f": 0, "rule": 0}


def _counted_hypot(x, y):
    CALLS["f"] += 1
    return np.hypot(x, y)


def _hypot_rrule(f, x, y):
    CALLS["rule"] += 1
    return cr.rrule(np.hypot, x, y)


def _hypot_frule(tangents, f, x, y):
    CALLS["rule"] += 1
    return cr.frule((NoTangent(), *tangents[1:]), np.hypot, x, y)


def _calls_of(check, *args, **options):
    CALLS.update(f=0, rule=0)
    check(_counted_hypot, *args, seed=0, **options)
    return dict(CALLS)


def test_a_polynomial_of_degree_six_is_differentiated_exactly():
    value, error = central_stencil(lambda t: (0.5 + t) ** 6 - 3 * t**5 + t)
    assert value == pytest.approx(6 * 0.5**5 + 1, rel=1e-12)  # rounding only, times 1.65 / h
    assert error < 1e-9


def test_the_cheap_estimate_costs_seven_calls_when_it_settles():
    calls = []

    def g(t):
        calls.append(t)
        return math.sin(1.0 + t)

    estimate = directional_derivative(g, settles=lambda e: True)
    assert estimate.calls == len(calls) == 7 and calls.count(0.0) == 1
    assert estimate.value == pytest.approx(math.cos(1.0), rel=1e-12)


def test_a_cheap_estimate_straddling_a_kink_is_uncertain_and_numdifftools_decides():
    # A kink at t = 3h: the steps h and 2h see slope -1, the step 4h sees -0.75, so the two
    # fourth-order estimates differ by 0.083 and the sixth-order value is -0.9944. A rule
    # claiming -0.9944 agrees with it, but it is not certain: numdifftools runs and gives -1.
    h = _STENCIL_STEP
    judged = []

    def agrees_with_wrong_rule(estimate):
        judged.append(estimate)
        return settles(-0.99444, estimate.value, estimate.error, 1e-7)

    estimate = directional_derivative(lambda t: abs(t - 3 * h), settles=agrees_with_wrong_rule)
    assert judged[0].value == pytest.approx(-0.99444, abs=1e-5) and judged[0].error > 0.08
    assert estimate.value == pytest.approx(-1.0, rel=1e-10) and estimate.calls > 7


def test_a_step_outside_the_domain_goes_to_numdifftools():
    # log(t + 3h) is undefined at t = -4h: the cheap estimate is NaN and is never judged.
    judged = []
    estimate = directional_derivative(
        lambda t: math.log(t + 3 * _STENCIL_STEP), settles=lambda e: judged.append(e) or True
    )
    assert not judged and estimate.calls > 7
    assert estimate.value == pytest.approx(1 / (3 * _STENCIL_STEP), rel=1e-8)


def test_the_first_order_checks_make_at_most_8_calls_of_f_per_argument():
    # The budget of the default check on a smooth function, pinned so that it cannot grow
    # back: one call for the reference output, then g(0) and six steps per direction.
    x, y = np.array([0.3, -1.2, 2.0]), np.array([1.1, 0.4, -0.7])
    rrule = _calls_of(test_rrule, x, y, rrule_f=_hypot_rrule, check_second_order=False)
    assert rrule["f"] - 1 <= 8 * 2
    frule = _calls_of(test_frule, x, y, frule_f=_hypot_frule, check_second_order=False)
    assert frule["f"] - 1 <= 8  # one direction moves both arguments


def test_the_second_order_check_makes_at_most_8_calls_of_the_pullback_per_direction():
    x, y = np.array([0.3, -1.2, 2.0]), np.array([1.1, 0.4, -0.7])
    first = _calls_of(test_rrule, x, y, rrule_f=_hypot_rrule, check_second_order=False)
    both = _calls_of(test_rrule, x, y, rrule_f=_hypot_rrule, check_second_order=True)
    # Besides the finite differences of g (one rule call each), the check calls the rule once,
    # for the engine's traced gradient.
    assert both["rule"] - first["rule"] - 1 <= 8
    first = _calls_of(test_frule, x, y, frule_f=_hypot_frule, check_second_order=False)
    both = _calls_of(test_frule, x, y, frule_f=_hypot_frule, check_second_order=True)
    assert both["rule"] - first["rule"] - 1 <= 8  # the frule check traces once


def test_a_failure_reports_numdifftools_estimate_and_error():
    # A wrong rule never settles: the message reports the adaptive estimate's error.
    x = np.array([0.3, -1.2, 2.0])
    with pytest.raises(FiniteDifferenceMismatch, match=r"\(numdifftools, error estimate \d"):
        test_rrule(np.sin, x, rrule_f=scaled_partial(cr.rrule, 1), check_second_order=False)
