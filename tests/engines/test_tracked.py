"""The tracked array: attributes, operators and methods reach the rule table."""

import numpy as np
import pytest

import chainrules as cr
from chainrules.engines import NoRuleError, TrackingError, reverse
from chainrules.engines.derived import DerivedIntegers
from chainrules.engines.tracked import NAMESPACE, Tracked, dispatch
from chainrules.engines.tripwires import CoercionError


def _inside(f, x):
    """What ``f`` returns when called on ``x`` tracked by the reverse engine."""
    seen = {}

    def probe(t):
        seen["value"] = f(t)
        return t

    reverse.vjp(probe, x)
    return seen["value"]


def cube(x):
    return x * x * x


cr.scalar_rule(cube, lambda x, y: 3 * x * x)


class PythonCoded:
    """Stands for a NumPy function written in Python: dispatched, with an ``_implementation``."""

    def __init__(self, implementation):
        self._implementation = implementation

    def __call__(self, *args):
        return dispatch(self, args, {})


class Compiled:
    """Stands for a compiled NumPy function: dispatched, with no Python code to trace into."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args):
        if any(isinstance(a, Tracked) for a in args):
            return dispatch(self, args, {})
        return self.fn(*args)


X = np.arange(6.0).reshape(2, 3)


@pytest.mark.parametrize(
    ("attribute", "expected"),
    [("shape", (2, 3)), ("ndim", 2), ("size", 6), ("dtype", np.dtype(np.float64))],
)
def test_attributes_are_plain_python_values(attribute, expected):
    value = _inside(lambda t: getattr(t, attribute), X)
    assert value == expected
    assert not isinstance(value, Tracked)


def test_scalar_attributes():
    assert _inside(lambda t: (t.shape, t.ndim, t.dtype), 1.5) == ((), 0, np.dtype(np.float64))


def test_namespace_is_numpy_and_keeps_tracked_values():
    def check(t):
        xp = cr.array_namespace(t)
        assert xp is NAMESPACE
        assert xp.asarray(t) is t
        assert xp.sin is np.sin
        return True

    assert _inside(check, X)


@pytest.mark.parametrize(
    ("name", "f", "expected"),
    [
        ("add", lambda x: x + 1.0, lambda x: np.ones_like(x)),
        ("radd", lambda x: 1.0 + x, lambda x: np.ones_like(x)),
        ("ndarray add", lambda x: np.ones(3) + x, lambda x: np.ones_like(x)),
        ("mul", lambda x: x * x, lambda x: 2 * x),
        ("rsub", lambda x: 2.0 - x, lambda x: -np.ones_like(x)),
        ("neg", lambda x: -x, lambda x: -np.ones_like(x)),
        ("ufunc", lambda x: np.sin(x), lambda x: np.cos(x)),
        ("method sum", lambda x: (x * x).sum(), lambda x: 2 * x),
        ("transpose", lambda x: x.T * x, lambda x: 2 * x),
        ("where", lambda x: np.where(x > 1.0, x, 0.0), lambda x: (x > 1.0) * 1.0),
        ("rule of a test function", lambda x: dispatch(cube, (x,), {}), lambda x: 3 * x * x),
    ],
)
def test_operators_and_methods_differentiate(name, f, expected):
    x = np.array([0.5, 1.5, 2.5])
    assert np.allclose(reverse.grad(lambda t: np.sum(f(t)))(x), expected(x))


def test_comparisons_give_plain_booleans():
    mask = _inside(lambda t: t > 2.0, X)
    assert type(mask) is np.ndarray and mask.dtype == bool


def test_integer_results_without_rule_are_computed_on_values():
    # No tangent space, nothing lost: the engine computes np.argsort on the values.
    order = _inside(lambda t: np.argsort(t, axis=None), X)
    assert isinstance(order, DerivedIntegers) and order.dtype.kind == "i"
    assert np.array_equal(order, np.argsort(X, axis=None))


def test_python_implementation_without_rule_is_traced_into():
    twice_cubed = PythonCoded(lambda x: 2.0 * dispatch(cube, (x,), {}))
    assert reverse.grad(twice_cubed)(2.0) == 24.0


def test_python_implementation_that_coerces_names_the_function():
    coerces = PythonCoded(lambda x: np.asarray(x) * 2.0)
    with pytest.raises(NoRuleError, match=r"PythonCoded.* has no rule.*converted to a plain"):
        reverse.grad(coerces)(2.0)


def test_compiled_function_without_rule_raises():
    with pytest.raises(NoRuleError, match=r"Compiled.* has no rule, and it is compiled code"):
        reverse.grad(Compiled(lambda v: v * 2.0))(2.0)


def test_function_returning_nothing_raises():
    writes = Compiled(lambda v: None)
    with pytest.raises(NoRuleError, match="returns nothing"):
        reverse.grad(lambda x: writes(x) or x)(2.0)


def test_ignore_derivatives_cuts_every_level():
    def f(x):
        return x * cr.ignore_derivatives(x)

    assert reverse.grad(f)(3.0) == 3.0
    assert reverse.grad(reverse.grad(lambda x: f(x) * x))(2.0) == 4.0


def test_formatting_shows_the_value():
    assert _inside(lambda t: f"{t:.2f}", 1.5) == "1.50"


@pytest.mark.parametrize(
    ("name", "f"),
    [
        ("tracked + zero", lambda t: t + cr.ZeroTangent()),
        ("zero + tracked", lambda t: cr.ZeroTangent() + t),
        ("tracked * thunk", lambda t: t * cr.Thunk(lambda: 1.0)),
    ],
)
def test_tangent_types_take_over_the_operators(name, f):
    # As with ndarray: the tangent types' own algebra answers.
    assert np.allclose(reverse.grad(lambda t: np.sum(f(t)))(np.ones(2)), 1.0)


def test_call_uses_the_rule_of_a_function_numpy_does_not_dispatch():
    import scipy.special

    from chainrules.engines import call

    x = np.array([0.0, np.log(3.0)])
    assert np.allclose(reverse.grad(lambda t: call(scipy.special.logsumexp, t))(x), [0.25, 0.75])
    assert call(np.sin, 0.0) == 0.0  # plain values: a plain call


def test_coercion_inside_a_function_with_a_rule_names_the_namespace():
    import scipy.special

    with pytest.raises(
        CoercionError,
        match=r"inside scipy.special.logsumexp, which has a rule, but NumPy.*call "
        r"chainrules.scipy.special.logsumexp instead",
    ):
        reverse.grad(lambda t: scipy.special.logsumexp(t))(np.zeros(2))


def test_coercion_of_a_python_function_with_a_rule_suggests_with_rules():
    def total(x):
        return float(np.sum(x))

    cr.rrule.register(total)(lambda x: (total(x), lambda dy: (cr.NoTangent(), dy + 0 * x)))
    with pytest.raises(TrackingError, match=r"chainrules.with_rules\(.*total\)"):
        reverse.grad(lambda t: 2.0 * total(t))(np.zeros(2))
    assert np.array_equal(reverse.grad(total)(np.zeros(2)), np.ones(2))  # grad(f) uses f's rule


def test_grad_of_a_compiled_function_with_a_rule_uses_the_rule():
    import scipy.special

    x = np.array([0.0, np.log(3.0)])
    np.testing.assert_allclose(reverse.grad(scipy.special.logsumexp)(x), [0.25, 0.75])


def shift(x, offset=0.0, *, scale=1.0):
    return (x + offset) * scale


cr.scalar_rule(shift, lambda x, o, y: 1.0, lambda x, o, y: 1.0)


@pytest.mark.parametrize(
    ("name", "f", "expected"),
    [
        ("by keyword", lambda x, o: dispatch(shift, (x,), {"offset": o}), (1.0, 1.0)),
        ("by position", lambda x, o: dispatch(shift, (x, o), {}), (1.0, 1.0)),
    ],
)
def test_tracked_keyword_arguments_are_moved_to_their_position(name, f, expected):
    assert reverse.grad(f, argnums=(0, 1))(2.0, 3.0) == expected


def test_tracked_keyword_only_argument_raises():
    with pytest.raises(NoRuleError, match=r"received a tracked value by keyword \(scale="):
        reverse.grad(lambda s: dispatch(shift, (2.0,), {"scale": s}))(3.0)


@pytest.mark.parametrize(
    ("name", "method", "function"),
    [
        ("compress", lambda t: t.compress([True, False, True]), lambda t: t[[0, 2]]),
        ("take", lambda t: t.take([2, 0]), lambda t: t[[2, 0]]),
        ("clip", lambda t: t.clip(0.0, 1.0), lambda t: np.clip(t, 0.0, 1.0)),
        ("reshape", lambda t: t.reshape(3, 1), lambda t: np.reshape(t, (3, 1))),
        ("astype", lambda t: t.astype(np.float32), lambda t: np.astype(t, np.float32)),
        ("cumsum", lambda t: t.cumsum(), lambda t: np.cumsum(t)),
    ],
)
def test_methods_match_the_numpy_functions(name, method, function):
    x = np.array([0.5, 1.5, -2.0])
    expected = reverse.grad(lambda t: np.sum(function(t) ** 2))(x)
    assert np.allclose(reverse.grad(lambda t: np.sum(method(t) ** 2))(x), expected)
