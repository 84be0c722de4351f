"""Tests of moments: the integral of a density, the means and covariances of functions under it."""

import math

import numpy as np
import pytest

from chainrules.rules.scipy.special.moments import moments


def test_moments_of_a_normal_density_in_pieces():
    # exp(-t^2/2) over (-inf, 0) and (0, inf): sqrt(2 pi), mean of t 0, of t^2 1; Var t = 1,
    # Cov(t, t^2) = 0, Var t^2 = 2
    weight = lambda t: np.exp(-t * t / 2)
    gs = (lambda t: t, lambda t: t * t)
    total, means, covariances = moments(weight, gs, ((-np.inf, 0.0), (0.0, np.inf)), True)
    assert total == pytest.approx(math.sqrt(2 * math.pi), rel=1e-13)
    assert means == pytest.approx([0.0, 1.0], abs=1e-13)
    assert covariances == pytest.approx([1.0, 0.0, 2.0], abs=1e-12)


def test_first_moments_only():
    total, means, covariances = moments(lambda t: 1.0 + 0 * t, (lambda t: t,), ((0, 2),), False)
    assert (total, means, covariances) == (pytest.approx(2.0), [pytest.approx(1.0)], [])


def test_no_mass_found_gives_nan_not_a_division_by_zero():
    # a weight the quadrature sees as 0 everywhere (a peak far narrower than the interval,
    # as gammainc's at a = x = 1e8 was): NaN means, where 1 / 0 raised ZeroDivisionError
    narrow = lambda t: np.exp(-1e40 * (t - 0.123456789) ** 2)
    total, means, covariances = moments(narrow, (lambda t: t, np.log), ((0.0, 1e6),), True)
    assert total == 0.0
    assert np.isnan(means).all() and len(means) == 2
    assert np.isnan(covariances).all() and len(covariances) == 3
