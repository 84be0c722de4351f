"""The forward engine's API: jvp, jacobian, CONFIG."""

from collections import namedtuple

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


def scaled_pair(x):
    return (x * 2.0, x * 3.0)


@cr.frule.register(scaled_pair)
def _scaled_pair_frule(tangents, x):
    dx = cr.unthunk(tangents[1])
    return scaled_pair(x), cr.Tangent(tuple, dx * 2.0, dx * 3.0)


def test_several_outputs_carry_their_tangents():
    from chainrules.engines.tracked import dispatch

    _, dy = forward.jvp(lambda x: dispatch(scaled_pair, (x,), {})[1], (1.0,), (1.0,))
    assert dy == 3.0


def test_missing_frule_is_an_error_naming_the_function():
    from chainrules.engines import NoRuleError
    from chainrules.engines.tracked import dispatch

    def no_rules(x):
        return x

    opaque = type("Opaque", (), {"__call__": lambda self, x: x})()
    with pytest.raises(NoRuleError, match="has no rule"):
        forward.jvp(lambda x: dispatch(opaque, (x,), {}), (1.0,), (1.0,))
    assert forward.jvp(lambda x: dispatch(no_rules, (x,), {}), (1.0,), (1.0,)) == (1.0, 1.0)


Stats = namedtuple("Stats", "total spread")


def stats(x):
    return Stats(np.sum(x), np.max(x) - np.min(x))


@cr.frule.register(stats)
def _stats_frule(tangents, x):
    dx = cr.unthunk(tangents[1])
    return stats(x), cr.Tangent(Stats, total=np.sum(dx))  # spread: absent, so zero


def test_namedtuple_output_tangents_are_read_by_field_name():
    from chainrules.engines.tracked import dispatch

    _, dy = forward.jvp(lambda x: dispatch(stats, (x,), {}), (X,), (np.ones(3),))
    assert dy == cr.Tangent(Stats, total=3.0, spread=0.0)


def map_rows(f, x):
    return np.stack([f(row) for row in x])


@cr.frule.register(map_rows, needs=cr.HasForwardMode)
def _map_rows_frule(config, tangents, f, x):
    _, df, _ = tangents  # x is a constant in the test below
    pairs = [config.frule_via_ad((df, cr.ZeroTangent()), f, row) for row in x]
    return np.stack([y for y, _ in pairs]), np.stack([d for _, d in pairs])


def test_closure_passed_to_a_rule_carries_the_tangent_of_its_captured_values():
    from chainrules.engines.tracked import dispatch

    x = np.array([[1.0, 2.0], [3.0, 4.0]])

    def f(w):
        return dispatch(map_rows, (lambda row: np.sum(row * w), x), {})

    _, dy = forward.jvp(f, (np.array([0.5, -1.0]),), (np.array([1.0, 0.0]),))
    assert np.allclose(dy, [1.0, 3.0])


TangentError, ShapeError = cr.TangentTypeError, cr.ProjectionError


@pytest.mark.parametrize(
    ("primals", "tangents", "error", "message"),
    [
        ((2,), (1.0,), TangentError, r"argument 0 is 2 \(of type int\).*tangent 1\.0"),
        ((1.0, 2), (1.0, 1.0), TangentError, r"argument 1 is 2 \(of type int\)"),
        ((np.arange(2),), (np.ones(2),), TangentError, r"argument 0 is an array of dtype int"),
        ((2.0,), (1,), TangentError, r"tangent of argument 0 is 1 \(of type int\), not a float"),
        ((np.ones(2),), (np.ones(2, int),), TangentError, r"dtype int"),
        ((np.ones(2),), (np.ones(3),), ShapeError, r"shape \(3,\), but the primal .*\(2,\)"),
        ((1.0,), (np.ones(2),), ShapeError, r"shape \(2,\), but the primal has shape \(\)"),
    ],
    ids=["int primal", "second int", "int array", "int tangent", "int tangents", "shape", "0-d"],
)
def test_jvp_refuses_tangents_that_do_not_fit(primals, tangents, error, message):
    with pytest.raises(error, match=r"jvp of .*" + message):
        forward.jvp(lambda *a: sum(a), primals, tangents)


def test_jvp_takes_no_tangent_for_an_integer_argument():
    y, dy = forward.jvp(lambda x, n: x**n, (2.0, 3), (1.0, cr.NoTangent()))
    assert (y, dy) == (8.0, 12.0)
    assert forward.jvp(lambda x, n: x**n, (2.0, 3), (1.0, None)) == (8.0, 12.0)


@pytest.mark.parametrize("f", [np.argmax, lambda x: x > 0], ids=["argmax", "comparison"])
def test_jacobian_of_a_result_without_derivative_raises(f):
    with pytest.raises(TypeError, match=r"jacobian of .* needs a float result"):
        forward.jacobian(f)(np.array([0.1, 0.5]))


# One or two arguments, each a dual of the level or a Python float, are told at once
# (ForwardLevel.apply); the others (a NumPy scalar, three arguments, duals inside a list) go
# through the general split: both must give the directional derivative.
_CALLS = {
    "sin(x)": lambda x, y: np.sin(x),
    "x * 2.0": lambda x, y: x * 2.0,
    "2.0 * x": lambda x, y: 2.0 * x,
    "x * y": lambda x, y: x * y,
    "y - x": lambda x, y: y - x,
    "float64 * x": lambda x, y: np.float64(2.0) * x,
    "where(True, x, y)": lambda x, y: np.where(True, x, y),
    "stack([x, y])": lambda x, y: np.stack([x, y]),
}


@pytest.mark.parametrize("name", list(_CALLS))
def test_frequent_and_general_calls_give_the_directional_derivative(name):
    call = _CALLS[name]
    x, y, dx, dy = 0.5, 0.25, 1.5, -0.75
    value, tangent = forward.jvp(lambda a, b: np.sum(call(a, b)), (x, y), (dx, dy))
    h = 1e-6  # central differences of these smooth functions: error about h**2, far below 1e-8
    plain = (np.sum(call(x + h * dx, y + h * dy)) - np.sum(call(x - h * dx, y - h * dy))) / (2 * h)
    assert value == np.sum(call(x, y))
    np.testing.assert_allclose(tangent, plain, rtol=0, atol=1e-8)
