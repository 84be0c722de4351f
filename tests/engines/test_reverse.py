"""The reverse engine's API: grad, value_and_grad, vjp, jacobian, CONFIG."""

import numpy as np
import pytest

import chainrules as cr
from chainrules.engines import hessian, reverse

X = np.array([0.3, -1.2, 2.0])


@pytest.mark.parametrize(
    ("name", "f", "x", "expected"),
    [
        ("float", lambda x: np.sin(x) * x, 0.5, np.cos(0.5) * 0.5 + np.sin(0.5)),
        ("numpy scalar", lambda x: np.exp(x), np.float64(1.0), np.exp(1.0)),
        ("array", lambda x: np.sum(np.tanh(x)), X, 1 - np.tanh(X) ** 2),
        ("float32", lambda x: np.sum(x * x), X.astype(np.float32), 2 * X.astype(np.float32)),
        ("complex", lambda z: np.abs(z) ** 2, 1.0 + 2.0j, 2.0 + 4.0j),
        ("constant result", lambda x: 3.0, 1.0, 0.0),
    ],
)
def test_grad(name, f, x, expected):
    g = reverse.grad(f)(x)
    assert np.allclose(g, expected)
    assert type(g) is type(x)
    assert np.shape(g) == np.shape(x) and getattr(g, "dtype", None) == getattr(x, "dtype", None)


def test_argnums_and_value():
    f = lambda x, y, z: x * y * z
    assert reverse.grad(f, argnums=(0, 2))(2.0, 3.0, 4.0) == (12.0, 6.0)
    assert reverse.value_and_grad(f, argnums=1)(2.0, 3.0, 4.0) == (24.0, 8.0)


def test_keyword_arguments_are_constants():
    assert reverse.grad(lambda x, scale=1.0: x * scale)(2.0, scale=5.0) == 5.0


def test_grad_of_non_scalar_raises():
    with pytest.raises(TypeError, match="real scalar result"):
        reverse.grad(np.sin)(X)


def test_vjp_of_several_arguments_and_outputs():
    y, pullback = reverse.vjp(lambda a, b: (a * b, np.sin(a)), X, 2.0)
    assert np.allclose(y[0], 2 * X)
    da, db = pullback((np.ones(3), np.zeros(3)))
    assert np.allclose(da, 2.0) and np.isclose(db, X.sum())
    da, db = pullback(cr.Tangent(tuple, cr.ZeroTangent(), np.ones(3)))
    assert np.allclose(da, np.cos(X)) and db == 0.0


def test_jacobian():
    assert np.allclose(reverse.jacobian(np.sin)(X), np.diag(np.cos(X)))
    assert reverse.jacobian(lambda x: x * 3.0)(2.0) == 3.0


def test_config_has_reverse_mode():
    assert isinstance(reverse.CONFIG, cr.RuleConfig)
    assert isinstance(reverse.CONFIG, cr.HasReverseMode)


def test_rrule_via_ad_gives_closure_tangent():
    w = np.array([1.0, 2.0])
    _, pullback = reverse.CONFIG.rrule_via_ad(lambda x: np.sum(w * x), np.ones(2))
    df, dx = pullback(1.0)
    assert np.allclose(dx, w) and np.allclose(df.w, 1.0)


def apply_twice(f, x):
    return f(f(x))


@cr.rrule.register(apply_twice, needs=cr.HasReverseMode)
def _apply_twice_rrule(config, f, x):
    y1, pullback1 = config.rrule_via_ad(f, x)
    y2, pullback2 = config.rrule_via_ad(f, y1)

    def apply_twice_pullback(dy):
        df2, dy1 = pullback2(dy)
        df1, dx = pullback1(dy1)
        return cr.NoTangent(), cr.add(df1, df2), dx

    return y2, apply_twice_pullback


def test_rule_that_needs_ad_receives_the_config():
    from chainrules.engines.tracked import dispatch

    g = reverse.grad(lambda x: dispatch(apply_twice, (np.sin, x), {}))(0.5)
    assert np.isclose(g, np.cos(np.sin(0.5)) * np.cos(0.5))


def test_vjp_of_a_namedtuple_result_takes_a_tuple_or_a_tangent():
    from collections import namedtuple

    Pair = namedtuple("Pair", "first second")
    _, pullback = reverse.vjp(lambda x: Pair(x * 2.0, x * 3.0), 1.0)
    assert pullback((1.0, 1.0)) == (5.0,)
    assert pullback(cr.Tangent(Pair, second=1.0)) == (3.0,)


def map_rows(f, x):
    return np.stack([f(row) for row in x])


@cr.rrule.register(map_rows, needs=cr.HasReverseMode)
def _map_rows_rrule(config, f, x):
    results = [config.rrule_via_ad(f, row) for row in x]

    def map_rows_pullback(dy):
        df, rows = cr.ZeroTangent(), []
        for (_, pullback), d in zip(results, cr.unthunk(dy), strict=True):
            d_f, d_row = pullback(d)
            df, rows = cr.add(df, d_f), [*rows, d_row]
        return cr.NoTangent(), df, np.stack(rows)

    return np.stack([y for y, _ in results]), map_rows_pullback


def test_closure_passed_to_a_rule_gets_its_captured_values_cotangent():
    from chainrules.engines.tracked import dispatch

    x = np.array([[1.0, 2.0], [3.0, 4.0]])

    def loss(w):
        return np.sum(dispatch(map_rows, (lambda row: np.sum(row * w), x), {}))

    # sum over rows of row . w: the gradient in w is the column sums.
    assert np.allclose(reverse.grad(loss)(np.array([0.5, -1.0])), [4.0, 6.0])


def forgot_to_return(x):
    np.sin(x)


@pytest.mark.parametrize(
    ("f", "message"),
    [
        (lambda x: np.argmax(x), r"returned an integer np\.int64\(1\)"),
        (lambda x: np.sum(x) > 0, r"returned a boolean np\.True_"),
        (lambda x: bool(np.sum(x) > 0), r"returned a boolean True"),
        (lambda x: "label", r"returned a str 'label'"),
        (lambda x: 3, r"returned an integer 3"),
        (lambda x: x.astype(np.int64).sum(), r"returned an integer"),
        (lambda x: np.argsort(x)[0], r"returned an integer"),
        (forgot_to_return, r"forgot_to_return returned None \(is a return statement missing\?\)"),
    ],
    ids=["argmax", "comparison", "bool", "str", "int", "integer sum", "argsort", "None"],
)
def test_grad_of_a_result_without_derivative_raises_naming_it(f, message):
    x = np.array([0.1, 0.5])
    with pytest.raises(TypeError, match=r"grad of .* needs a float result.*" + message):
        reverse.grad(f)(x)
    with pytest.raises(TypeError, match=message):
        reverse.value_and_grad(f)(x)
    with pytest.raises(TypeError, match=message):
        hessian(f)(x)


@pytest.mark.parametrize(
    "f", [lambda x: np.argsort(x), lambda x: x > 0, forgot_to_return], ids=["argsort", "<", "None"]
)
def test_jacobian_of_a_result_without_derivative_raises(f):
    with pytest.raises(TypeError, match=r"jacobian of .* needs a float result"):
        reverse.jacobian(f)(np.array([0.1, 0.5]))


@pytest.mark.parametrize(
    ("f", "x", "seed", "message"),
    [
        (np.sin, np.ones(3), np.ones((2, 3)), r"numpy\.sin has shape \(2, 3\).*shape \(3,\)"),
        (np.sin, np.ones(3), np.ones(1), r"shape \(1,\), but the result has shape \(3,\)"),
        (np.sin, 1.0, np.ones(1), r"shape \(1,\), but the result has shape \(\)"),
        (np.sin, np.ones((2, 2)), [1.0, 1.0], r"shape \(2,\), but the result has shape \(2, 2\)"),
        (lambda x: (x, x * 2), np.ones(2), (np.ones(2),), r"has 1 elements.*has 2"),
        (lambda x: (x, x * 2), np.ones(2), (np.ones(2), np.ones(3)), r"at \[1\] has shape \(3,\)"),
        (lambda x: {"a": x}, np.ones(2), {"a": np.ones(())}, r"at \['a'\] has shape \(\)"),
    ],
    ids=["batched", "shorter", "scalar", "list", "tuple length", "tuple element", "dict field"],
)
def test_a_seed_of_the_wrong_shape_raises_naming_the_function_and_both_shapes(f, x, seed, message):
    _, pullback = reverse.vjp(f, x)
    with pytest.raises(cr.ProjectionError, match=message):
        pullback(seed)


@pytest.mark.parametrize(
    ("x", "seed"),
    [
        (1.0, 1.0),
        (1.0, np.float64(2.0)),
        (1.0, np.array(2.0)),
        (np.ones(2), cr.ZeroTangent()),
        (np.ones(2), cr.Thunk(lambda: np.ones(2))),
    ],
)
def test_seeds_of_the_results_shape_are_accepted(x, seed):
    _, pullback = reverse.vjp(np.sin, x)
    (g,) = pullback(seed)
    expected = np.cos(x) * (0.0 if isinstance(seed, cr.ZeroTangent) else cr.unthunk(seed))
    assert np.allclose(g, expected)


def test_a_tracked_keyword_after_a_parameter_numpy_leaves_unset_asks_for_positions():
    # np.clip(x, a_max=h): a_min's default is NumPy's "not given", which no rule can receive
    from chainrules.engines.tripwires import NoRuleError

    x = np.array([0.5, 2.0])
    with pytest.raises(NoRuleError, match=r"numpy.clip.*a_max.*positionally"):
        reverse.grad(lambda h: np.clip(x, a_max=h).sum())(1.0)
    assert reverse.grad(lambda h: np.clip(x, None, h).sum())(1.0) == 1.0
