"""The forward engine's API: jvp, jacobian, CONFIG."""

import numpy as np
import pytest

import chainrules as cr
from chainrules.engines import forward

X = np.array([0.3, -1.2, 2.0])


@pytest.mark.parametrize(
    ("name", "f", "x", "dx", "expected"),
    [
        ("float", lambda x: np.sin(x) * x, 0.5, 1.0, np.cos(0.5) * 0.5 + np.sin(0.5)),
        ("array", np.tanh, X, np.ones(3), 1 - np.tanh(X) ** 2),
        ("complex", lambda z: z * z, 1.0 + 2.0j, 1.0, 2.0 + 4.0j),
        ("constant result", lambda x: np.ones(2), 1.0, 1.0, np.zeros(2)),
    ],
)
def test_jvp(name, f, x, dx, expected):
    y, dy = forward.jvp(f, (x,), (dx,))
    assert np.allclose(y, f(x)) and np.allclose(dy, expected)


def test_jvp_of_several_arguments():
    y, dy = forward.jvp(lambda a, b: a * b, (2.0, 3.0), (1.0, 10.0))
    assert (y, dy) == (6.0, 23.0)


def test_zero_tangent_argument_is_a_constant():
    _, dy = forward.jvp(lambda a, b: a * b, (2.0, 3.0), (cr.ZeroTangent(), 1.0))
    assert dy == 2.0


def test_jacobian():
    assert np.allclose(forward.jacobian(np.sin)(X), np.diag(np.cos(X)))
    assert forward.jacobian(lambda x: x * 3.0)(2.0) == 3.0


def test_config_has_forward_mode():
    assert isinstance(forward.CONFIG, cr.HasForwardMode)
    assert forward.CONFIG.frule_via_ad((cr.NoTangent(), 1.0), np.exp, 0.0) == (1.0, 1.0)


def test_length_mismatch_raises():
    with pytest.raises(ValueError, match="2 primals but 1 tangents"):
        forward.jvp(lambda a, b: a, (1.0, 2.0), (1.0,))
