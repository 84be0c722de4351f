"""Directional derivatives by numdifftools and by another method."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from chainrules_testing.finite_differences import _numdifftools, directional_derivative, method_name


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
    """numdifftools' interface, answering each base step with a scripted (value, error)."""

    def __init__(self, answers):
        self.answers, self.asked = answers, []

    def MaxStepGenerator(self, base_step):  # numdifftools' names
        return base_step

    def Derivative(self, g, step, full_output):
        def run(t):
            self.asked.append(step)
            value, error = self.answers[step]
            return SimpleNamespace(estimate=value, error_estimate=error)

        return run


SCRIPTS = [
    # answers per base step, base steps asked, value kept
    ({2.0: (3.0, 1e-9)}, [2.0], 3.0),
    # steps straddling a kink: uncertain, so smaller ones are asked and the most certain kept
    ({2.0: (32.3, 26.5), 0.25: (-220.7, 7e-11)}, [2.0, 0.25], -220.7),
    ({2.0: (1.0, 0.5), 0.25: (1.1, 0.4), 1e-2: (1.2, 0.6)}, [2.0, 0.25, 1e-2], 1.1),
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
    nd = _ScriptedNumdifftools(answers)
    assert _numdifftools(nd, lambda t: t)[0] == 1.1 and 1e-4 not in nd.asked


def test_method_names():
    assert method_name(None) == "numdifftools"
    assert method_name(_method("fdm")) == "FDM"
