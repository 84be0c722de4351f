"""The exact twins that NumPy and SciPy lack."""

import math

import numpy as np
import pytest

from chainrules.fastmath import exact


@pytest.mark.parametrize(
    ("f", "x", "expected"),
    [
        (exact.rsqrt, 4.0, 0.5),
        (exact.rsqrt, 0.0, np.inf),
        (exact.softplus, 0.0, math.log(2.0)),
        (exact.softplus, 800.0, 800.0),
        (exact.softplus, -800.0, 0.0),
        (exact.gelu, 0.0, 0.0),
        (exact.gelu, -40.0, -0.0),
        (exact.gelu, 40.0, 40.0),
        (exact.gelu, -np.inf, 0.0),  # the limit, where x * expit(2 z) is -inf * 0
        (exact.gelu, np.inf, np.inf),
    ],
)
def test_values(f, x, expected):
    with np.errstate(divide="ignore"):
        assert f(np.float64(x)) == expected


def test_gelu_has_no_cancellation_for_negative_inputs():
    x = -6.0
    z = math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)
    expected = x / (1 + math.exp(-2 * z))  # x (1 + tanh z) / 2 without cancellation
    assert exact.gelu(np.float64(x)) == pytest.approx(expected, rel=1e-14)


def test_float32_stays_float32():
    x = np.ones(2, np.float32)
    assert {exact.rsqrt(x).dtype, exact.softplus(x).dtype, exact.gelu(x).dtype} == {
        np.dtype(np.float32)
    }
