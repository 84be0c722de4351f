"""Tests of the Lamé polynomials: SciPy's values rebuilt, parameter derivatives, normalization."""

import numpy as np
import pytest
import scipy.special as sc

from chainrules.rules.scipy.special.lame import (
    lame_polynomial,
    lame_terms,
    lame_terms_at,
    normal_with_slopes,
    safe_polynomial,
)

# SciPy's own quadrature in ellip_normal warns of roundoff at 1e-10 or so.
pytestmark = pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")

PARAMETERS = [(5.0, 8.0), (1.2, 4.0), (0.3, 9.0), (3.0, 3.3)]
S = np.array([0.3, 1.7, 2.5, 3.4])


@pytest.mark.parametrize(("h2", "k2"), PARAMETERS)
@pytest.mark.parametrize("n", range(7))
def test_polynomials_rebuild_scipy(n, h2, k2):
    for p in range(1, 2 * n + 2):
        for signm, signn in ((1, 1), (-1, 1), (1, -1)):
            expected = sc.ellip_harm(h2, k2, n, p, S, signm, signn)
            value = lame_terms_at(h2, k2, n, p, S, signm, signn)[0]
            np.testing.assert_allclose(value, expected, rtol=1e-12, atol=1e-12)


def test_parameter_derivative_in_closed_form():
    # n = 2, p = 1: E = s^2 - t with t = (h2 + k2 + sqrt(h2^2 - h2 k2 + k2^2)) / 3.
    h2, k2, s = 5.0, 8.0, 2.0
    root = np.sqrt(h2 * h2 - h2 * k2 + k2 * k2)
    value, ds, dh2, dk2 = lame_terms(lame_polynomial(h2, k2, 2, 1), s)
    assert value == pytest.approx(s * s - (h2 + k2 + root) / 3)
    assert ds == pytest.approx(2 * s)
    assert dh2 == pytest.approx(-(1 + (2 * h2 - k2) / (2 * root)) / 3)
    assert dk2 == pytest.approx(-(1 + (2 * k2 - h2) / (2 * root)) / 3)


@pytest.mark.parametrize(("n", "p"), [(3, 2), (4, 6), (5, 9), (6, 12)])
def test_coefficient_derivatives_match_differences(n, p):
    h2, k2, step = 1.7, 4.1, 1e-6
    lame = lame_polynomial(h2, k2, n, p)
    for i, (dh, dk) in enumerate(((step, 0.0), (0.0, step))):
        up = lame_polynomial(h2 + dh, k2 + dk, n, p).b
        down = lame_polynomial(h2 - dh, k2 - dk, n, p).b
        np.testing.assert_allclose(lame.db[i], (up - down) / (2 * step), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(("h2", "k2"), PARAMETERS)
@pytest.mark.parametrize("n", range(5))
def test_normalization_matches_scipy(n, h2, k2):
    for p in range(1, 2 * n + 2):
        value = normal_with_slopes(h2, k2, n, p)[0]
        assert value == pytest.approx(sc.ellip_normal(h2, k2, n, p), rel=1e-11)


def test_invalid_parameters_give_nan():
    assert safe_polynomial(8.0, 5.0, 2, 1) is None
    assert safe_polynomial(5.0, 8.0, 2, 6) is None
    terms = lame_terms_at(np.array([5.0, 9.0]), 8.0, 2, 1, 1.5)
    assert all(np.isfinite(t[0]) and np.isnan(t[1]) for t in terms)
