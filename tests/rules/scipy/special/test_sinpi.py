"""Tests of sin(pi x) and cos(pi x) from x less its nearest integer: exact zeros, and
derivatives of both through an engine, to the second order at the integers and half-integers."""

import math

import mpmath as M
import numpy as np
import pytest

from chainrules.engines import reverse
from chainrules.rules.scipy.special.sinpi import sin_cos_pi


def test_exact_zeros_and_signs():
    # the integers (sin's zeros) and half-integers (cos's), of both signs and far out, where
    # np.sin(np.pi * x) and np.cos(np.pi * x) leave the rounding of pi x (1e6: -2.2e-10)
    # The zeros are exact by construction; the +-1 are np.sin(np.pi / 2), whose SIMD loop may be
    # an ulp below 1 on some CPUs: 2 ulps
    s, c = sin_cos_pi(np.array([1e6, -3.0, 0.0, 2.0**52 + 1.0]))
    assert s.tolist() == [0.0] * 4
    assert c == pytest.approx([1.0, -1.0, 1.0, -1.0], rel=0, abs=4.5e-16)
    s, c = sin_cos_pi(np.array([2.5, -0.5, 1.5, -1.5, 1e6 + 0.5]))
    assert s == pytest.approx([1.0, -1.0, -1.0, 1.0, 1.0], rel=0, abs=4.5e-16)
    assert c.tolist() == [0.0] * 5


@pytest.mark.parametrize("x", [0.3, -7.25, 1e-20, 0.4999999, -0.4999999, 123.7])
def test_values(x):
    # beside a zero of cos, within 2 ulps of cos's own value: 1/2 - r is exact there, so only
    # sin's rounding remains (math.cos(math.pi * x) is 2e-10 off at 0.4999999)
    s, c = sin_cos_pi(np.array(x))
    assert s == pytest.approx(math.sin(math.pi * x), rel=1e-13, abs=0)
    r = x - round(x)
    exact_cos = (-1) ** round(x) * math.sin(math.pi * (0.5 - abs(r)))
    assert c == pytest.approx(exact_cos, rel=5e-16, abs=0)


@pytest.mark.parametrize("x", [0.0, 3.0, -2.0, 0.5, -1.5, 2.5, 0.3, -0.7])
def test_derivatives_to_the_second_order(x):
    # through the rules of rint (constant), where, sin: the same analytic function on both
    # sides of every integer, so the second derivative is -pi^2 sin and cos there too
    def sin(t):
        return sin_cos_pi(t)[0]

    def cos(t):
        return sin_cos_pi(t)[1]

    with M.workdps(30):
        slope_sin, slope_cos = (float(M.pi * M.cospi(x)), float(-M.pi * M.sinpi(x)))
        curve_sin, curve_cos = (float(-(M.pi**2) * M.sinpi(x)), float(-(M.pi**2) * M.cospi(x)))
    # where a derivative is 0, it comes out as pi or pi^2 times np.cos(np.pi / 2) = 6e-17, the
    # rounding of pi/2: absolute 1e-15
    assert reverse.grad(sin)(x) == pytest.approx(slope_sin, rel=1e-14, abs=1e-15)
    assert reverse.grad(cos)(x) == pytest.approx(slope_cos, rel=1e-14, abs=1e-15)
    assert reverse.grad(reverse.grad(sin))(x) == pytest.approx(curve_sin, rel=1e-14, abs=1e-15)
    assert reverse.grad(reverse.grad(cos))(x) == pytest.approx(curve_cos, rel=1e-14, abs=1e-15)
