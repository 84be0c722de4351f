"""The autograd adapter: the table through autograd.grad twice, against the reverse engine."""

import numpy as np
import pytest
import scipy.special as sc

autograd = pytest.importorskip("autograd")

import autograd.numpy as anp  # noqa: E402
from adapter_cases import CASES, SECOND_ORDER_UNSUPPORTED  # noqa: E402
from autograd.core import primitive_vjps  # noqa: E402
from autograd.tracer import trace_primitives_map  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.adapters import autograd as cr_autograd  # noqa: E402
from chainrules.engines import call, reverse  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def installed():
    cr_autograd.install()
    yield
    cr_autograd.uninstall()


def squared_norm(y, xp=np):
    """A real loss of any output."""
    return xp.sum(xp.real(y * xp.conj(y)))


def autograd_cases():
    cr_autograd.install()  # fills autograd's map before the table is filtered
    return [c for c in CASES if trace_primitives_map.get(c.f) in primitive_vjps]


@pytest.mark.parametrize("case", autograd_cases(), ids=str)
def test_grad_twice_agrees_with_the_reverse_engine(case):
    # autograd's gradients are the conjugates of the project's cotangents (equal for real x).
    primitive = trace_primitives_map[case.f]
    x, *rest = case.args(np.random.default_rng(0))
    v = np.random.default_rng(1).standard_normal(np.shape(x))

    def loss_autograd(x):
        return squared_norm(primitive(x, *rest, **case.kwargs), anp)

    def loss_engine(x):
        return squared_norm(call(case.f, x, *rest, **case.kwargs))

    expected = np.conj(reverse.grad(loss_engine)(x))
    np.testing.assert_allclose(autograd.grad(loss_autograd)(x), expected, rtol=1e-9, atol=1e-12)
    if case.name in SECOND_ORDER_UNSUPPORTED:
        along_v = autograd.grad(lambda x: anp.sum(autograd.grad(loss_autograd)(x) * v))
        if cr_autograd._saved[primitive][0] is None:
            # No derivative of the rule, and no rule of autograd's own to fall back on.
            with pytest.raises(NotImplementedError, match=case.name):
                along_v(x)
            return
        # autograd's own rule above the first order: the Hessian along v, by differences.
        h = 1e-5
        gradient = autograd.grad(loss_autograd)
        numeric = (gradient(x + h * v) - gradient(x - h * v)) / (2 * h)
        np.testing.assert_allclose(along_v(x), numeric, rtol=1e-6, atol=1e-8)
        return

    def along_v_autograd(x):
        return anp.sum(anp.real(anp.conj(autograd.grad(loss_autograd)(x)) * v))

    def along_v_engine(x):
        return np.real(reverse.grad(loss_engine)(x) * v).sum()

    expected = np.conj(reverse.grad(along_v_engine)(x))
    np.testing.assert_allclose(autograd.grad(along_v_autograd)(x), expected, rtol=1e-8, atol=1e-11)


def test_third_derivative_goes_down_the_gamma_family():
    import autograd.scipy.special as asp

    d3 = autograd.grad(autograd.grad(autograd.grad(asp.gammaln)))
    assert d3(1.5) == pytest.approx(sc.polygamma(2, 1.5), rel=1e-10)


def test_forward_mode_uses_the_frule():
    _, dy = autograd.make_jvp(anp.tanh)(0.5)(2.0)
    assert dy == pytest.approx(2.0 * (1 - np.tanh(0.5) ** 2), rel=1e-12)


def test_complex_convention_matches_autograd():
    z = np.array([0.5 + 0.7j, -1.0 + 0.2j])

    def loss(z):
        return anp.sum(anp.abs(anp.sin(z)) ** 2)

    ours = autograd.grad(loss)(z)
    cr_autograd.uninstall()
    try:
        theirs = autograd.grad(loss)(z)
    finally:
        cr_autograd.install()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_uninstall_restores_autograd_rules():
    ours = primitive_vjps[anp.sin]
    cr_autograd.uninstall()
    try:
        assert not cr_autograd.installed()
        assert primitive_vjps[anp.sin] is not ours
    finally:
        cr_autograd.install()
    assert cr_autograd.installed()


# ---- keywords the rules take by position ----------------------------------------------------

X = np.arange(6.0).reshape(2, 3)

KEYWORD_CASES = [
    # f, args, kwargs as autograd passes them, (args, kwargs) as the rule takes them
    (np.sum, (X,), {"axis": 0, "out": None}, ((X,), {"axis": 0})),
    (np.swapaxes, (X,), {"axis1": 0, "axis2": 1}, ((X, 0, 1), {})),
    (np.moveaxis, (X,), {"source": 0, "destination": 1}, ((X, 0, 1), {})),
    (np.clip, (X,), {"a_min": 1.0, "a_max": 4.0}, ((X, 1.0, 4.0), {})),
    (np.partition, (X[0],), {"kth": 1}, ((X[0], 1), {})),
    (np.rollaxis, (X,), {"axis": 1, "start": 0}, ((X, 1), {"start": 0})),
    (np.take, (X,), {"indices": [0, 4], "axis": None}, ((X, [0, 4]), {"axis": None})),
    (np.outer, (X[0],), {"b": X[1]}, ((X[0], X[1]), {})),
]


@pytest.mark.parametrize(("f", "args", "kwargs", "expected"), KEYWORD_CASES, ids=lambda v: "")
def test_keywords_are_passed_as_the_rule_takes_them(f, args, kwargs, expected):
    from chainrules.core.registry import rrule

    rule_args, rule_kwargs = cr_autograd._as_rule_takes(rrule, f, args, kwargs)
    assert len(rule_args) == len(expected[0])
    for got, want in zip(rule_args, expected[0], strict=True):
        np.testing.assert_array_equal(got, want)
    assert rule_kwargs == expected[1]


def test_a_keyword_with_another_meaning_leaves_the_call_to_autograd():
    from chainrules.core.registry import rrule

    assert cr_autograd._as_rule_takes(rrule, np.sum, (X,), {"out": np.zeros(3)}) is None


def test_swapaxes_by_keyword_differentiates_twice_with_the_rule():
    def loss(x):
        return anp.sum(anp.swapaxes(x, axis1=0, axis2=1) ** 3)

    hessian_diagonal = autograd.elementwise_grad(autograd.grad(loss))(X)
    np.testing.assert_allclose(hessian_diagonal, 6.0 * X, rtol=1e-12)


# ---- higher orders --------------------------------------------------------------------------


def test_a_linear_functions_pullback_captures_no_outer_box():
    # autograd.misc.flatten's unflatten is a VJP taken at boxed arguments; the values it gives
    # must not depend on them (scipy.integrate.odeint calls it from compiled code).
    from autograd.misc import flatten
    from autograd.tracer import isbox

    def loss(x):
        flat, unflatten = flatten((x, 2.0 * x))
        a, b = unflatten(np.arange(6.0))
        assert not isbox(a) and not isbox(b)
        return anp.sum(flat**2)

    np.testing.assert_allclose(autograd.grad(loss)(np.ones(3)), 10.0 * np.ones(3))


def _opaque_square(x):
    return x * x


@cr.rrule.register(_opaque_square)
def _opaque_square_rrule(x):
    # float() leaves NumPy: the engine's tracked values cannot pass through this pullback.
    return x * x, lambda dy: (cr.NoTangent(), 2.0 * x * float(dy))


def test_no_derivative_and_no_rule_of_autograds_own_names_the_function():
    from chainrules.adapters.host import HostFunction

    pullback_of = HostFunction(_opaque_square, {}, (0,), n_outputs=0).pullback_function(1)
    with pytest.raises(NotImplementedError, match=r"_opaque_square"):
        cr_autograd._derivative_plan(
            _opaque_square,
            pullback_of,
            (np.array(1.5),),
            (np.ones(()),),
            has_own=False,
            of_args=False,
        )


# Test-local primitives, each with a rule whose pullback the engine cannot differentiate:
# it raises ArrayTypeError (the rule needs NumPy values), or a bug of its own, on the engine's
# tracked values. The first derivative is the rule's either way; above it, autograd's own
# VJP may take over only in the first case.


def _tracked(value):
    from chainrules.engines.tracked import Tracked

    return isinstance(value, Tracked)


def _numpy_cube_raw(x):
    return x**3


def _broken_cube_raw(x):
    return x**3


def _numpy_cube_rrule(x):
    def numpy_cube_pullback(dy):
        if _tracked(x) or _tracked(dy):
            raise cr.ArrayTypeError("_numpy_cube_raw's pullback computes with NumPy only")
        return cr.NoTangent(), 3.0 * x * x * dy

    return x**3, numpy_cube_pullback


def _broken_cube_rrule(x):
    def broken_cube_pullback(dy):
        if _tracked(x) or _tracked(dy):
            raise ValueError("a bug in the pullback of _broken_cube_raw")
        return cr.NoTangent(), 3.0 * x * x * dy

    return x**3, broken_cube_pullback


def _cube_primitive(raw, rule, own_vjp):
    from autograd.extend import defvjp, primitive

    cube = primitive(raw)
    if own_vjp:
        defvjp(cube, lambda ans, x: lambda g: g * 3.0 * x * x)
    cr.rrule.register(raw)(rule)
    cr_autograd.install()
    return cube


def test_a_pullback_raising_array_type_error_leaves_higher_orders_to_autograd():
    cube = _cube_primitive(_numpy_cube_raw, _numpy_cube_rrule, own_vjp=True)
    assert autograd.grad(cube)(1.5) == 3.0 * 1.5**2
    assert autograd.grad(autograd.grad(cube))(1.5) == 6.0 * 1.5


def test_a_bug_in_a_pullback_reaches_the_caller():
    cube = _cube_primitive(_broken_cube_raw, _broken_cube_rrule, own_vjp=True)
    assert autograd.grad(cube)(1.5) == 3.0 * 1.5**2
    with pytest.raises(ValueError, match="a bug in the pullback of _broken_cube_raw"):
        autograd.grad(autograd.grad(cube))(1.5)


# ---- nothing added to autograd's tables per derivative --------------------------------------


def test_repeated_hessians_add_no_primitives():
    import autograd.scipy.special as asp
    from autograd.core import primitive_jvps

    def loss(x):
        return anp.sum(anp.tanh(x) * asp.gammaln(x + 2.0))

    hessian = autograd.hessian(loss)
    x = np.array([0.3, 0.7])
    first = hessian(x)
    sizes = (len(primitive_vjps), len(primitive_jvps))
    for _ in range(5):
        np.testing.assert_array_equal(hessian(x), first)
    # Each Hessian used to add about 9 entries to autograd's global tables, forever.
    assert (len(primitive_vjps), len(primitive_jvps)) == sizes


def test_a_second_derivative_of_a_quadrature_through_the_host_primitive():
    # scipy.special.betainc's derivative in a is a quadrature whose own derivative the rules
    # give: the host primitive must pass it on, never a zero.
    from adapter_cases import betainc_derivative

    from chainrules.adapters.autograd_host import host_primitive
    from chainrules.adapters.host import HostFunction

    host = HostFunction(sc.betainc, {}, (0, 1, 2), n_outputs=0)
    pullback = host_primitive(host.pullback_function(3))

    def da(a):
        return pullback(a, 3.0, 0.4, 1.0)[0]

    # A quadrature, not a closed form: agreement to rounding is not promised, 1e-8 is far
    # inside the quadrature's own error bound on every platform.
    assert autograd.grad(da)(2.0) == pytest.approx(betainc_derivative((2, 0, 0)), rel=1e-8)
    # In x, the derivative is closed-form: d/da of dI/dx = x (1-x)^2 (log x - digamma(2) +
    # digamma(5)) / B(2, 3), from the rules.
    dx = autograd.grad(lambda a: pullback(a, 3.0, 0.4, 1.0)[2])(2.0)
    expected = 0.4 * 0.6**2 / sc.beta(2, 3) * (np.log(0.4) - sc.digamma(2) + sc.digamma(5))
    assert dx == pytest.approx(expected, rel=1e-12)


def test_second_derivatives_of_betainc_through_autograds_primitive():
    import autograd.scipy.special as asp
    from adapter_cases import betainc_derivative

    def d_dx(a):
        return autograd.grad(lambda x: asp.betainc(a, 3.0, x))(0.4)

    # Closed-form in x, then the rules of xlogy and betaln in a: exact to rounding.
    assert autograd.grad(d_dx)(2.0) == pytest.approx(betainc_derivative((1, 0, 1)), rel=1e-10)
    # The pullback in a is a quadrature: it once gave 0.0 here (the true d2I/da2 is about
    # 0.058), autograd warning only that the output seemed independent of the input. The
    # tolerance is the quadrature's, as above.
    d2_da2 = autograd.grad(autograd.grad(lambda a: asp.betainc(a, 3.0, 0.4)))(2.0)
    assert d2_da2 == pytest.approx(betainc_derivative((2, 0, 0)), rel=1e-8)


# ---- wrap: the forward pass's pullback gives the first derivative ---------------------------

_COUNTED_CUBE_RULE_CALLS: list = []


def _counted_cube(x):
    return x**3


@cr.rrule.register(_counted_cube)
def _counted_cube_rrule(x):
    _COUNTED_CUBE_RULE_CALLS.append(x)
    return x**3, lambda dy: (cr.NoTangent(), 3.0 * x * x * dy)


def test_a_first_derivative_of_a_wrapped_function_runs_its_rule_once():
    cube = cr_autograd.wrap(_counted_cube)
    _COUNTED_CUBE_RULE_CALLS.clear()
    assert autograd.grad(cube)(1.5) == 3.0 * 1.5**2
    # The value came from the rule; its pullback, kept, gives the gradient (the value was
    # computed again in the backward pass once).
    assert len(_COUNTED_CUBE_RULE_CALLS) == 1
    # Above the first order the pullback runs as a primitive of its own, traced by the
    # reverse engine: 6 x, products of small integers and halves, exact.
    assert autograd.grad(autograd.grad(cube))(1.5) == 6.0 * 1.5
    values, gradient = autograd.value_and_grad(lambda v: anp.sum(cube(v)))(np.array([0.5, 2.0]))
    assert values == 0.5**3 + 2.0**3
    np.testing.assert_array_equal(gradient, 3.0 * np.array([0.5, 2.0]) ** 2)
