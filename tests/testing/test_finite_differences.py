"""Directional derivatives by numdifftools and by another method."""

from __future__ import annotations

import math

import numpy as np
import pytest
from chainrules_testing.finite_differences import directional_derivative, method_name


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


def test_method_names():
    assert method_name(None) == "numdifftools"
    assert method_name(_method("fdm")) == "FDM"
