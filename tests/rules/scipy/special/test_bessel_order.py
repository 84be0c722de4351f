"""Tests of the Bessel order derivatives: series, quadrature and Chebyshev interpolation against
mpmath, first and second, and their own rules."""

import mpmath as M
import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule

from chainrules.rules.scipy.special.bessel_order import (
    bessel_order_derivative,
    bessel_order_second,
    order_derivative,
)

TWINS = {"jv": M.besselj, "yv": M.bessely, "iv": M.besseli, "kv": M.besselk}


# real x: the series (x <= 4, J and I) and quadrature; complex z: interpolation in the order
@pytest.mark.parametrize("name", list(TWINS))
@pytest.mark.parametrize("v, z", [(-2.5, 1.0), (0.3, 6.0), (1.5, -2.0 + 0.7j), (2.0, 3j)])
def test_first_and_second_derivatives(name, v, z):
    twin = TWINS[name]
    with M.workdps(30):
        first = complex(M.diff(lambda w: twin(w, z), v))
        second = complex(M.diff(lambda w: twin(w, z), v, 2))
    scale = max(abs(first), abs(complex(twin(v, z))))
    # quadrature at 1e-12 and interpolation (measured 1e-13, 3e-12 for the second): relative to
    # the function's size where the derivative is much smaller (K_v near v = 0)
    assert abs(bessel_order_derivative(name, v, z) - first) <= 1e-10 * scale
    assert abs(bessel_order_second(name, v, z) - second) <= 1e-9 * max(abs(second), scale)


def test_nan_at_non_positive_real_arguments():
    assert np.isnan(bessel_order_derivative("jv", 0.5, -1.0))
    assert np.isnan(bessel_order_second("kv", 0.5, 0.0))


def test_the_order_derivatives_have_rules():
    # d/dx of jv_dv by the recurrence at the neighbouring orders; d/dv the second derivative
    jv_dv = order_derivative("jv")
    v, x = np.array([0.3, 1.7]), np.array([2.0, 6.0])
    test_rrule(jv_dv, v, x, check_second_order=False)
    test_frule(jv_dv, v, x, check_second_order=False)
    # d/dv J_v(x) at v = 0 is pi/2 Y_0(x) (DLMF 10.15.3)
    assert jv_dv(0.0, 1.0) == pytest.approx(np.pi / 2 * sc.y0(1.0), rel=1e-13)
