"""Routing by argument type, and ``with_rules``: a user's rule reached from every engine.

The function differentiated is ``softplus`` written as ``log1p(exp(x))``, whose implementation
overflows at x = 800 (its traced derivative is nan there) while its rule, built on ``logaddexp``
and ``expit``, gives exactly 1. A nan or an inf in a result therefore means the rule was
bypassed; values elsewhere are compared with the logistic function to 1e-12 (relative).
"""

import inspect
import math

import numpy as np
import pytest
import scipy.special as sc

import chainrules as cr
from chainrules.adapters import routing
from chainrules.engines import forward, hessian, reverse


def naive_softplus(x):
    """log(1 + e^x), which overflows to inf from x = 710 on."""
    return np.log1p(np.exp(x))


@cr.with_rules
def softplus(x):
    """log(1 + e^x)."""
    return np.log1p(np.exp(x))


# Registered after the decoration, for the decorated name: they are softplus's rules.
@cr.rrule.register(softplus)
def _softplus_rrule(x):
    return np.logaddexp(0.0, x), lambda dy: (cr.NoTangent(), dy * sc.expit(x))


@cr.frule.register(softplus)
def _softplus_frule(tangents, x):
    return np.logaddexp(0.0, x), tangents[1] * sc.expit(x)


POINTS = np.array([-3.0, 0.0, 2.0, 800.0])


def test_plain_values_call_the_function_itself():
    assert softplus(2.0) == naive_softplus(2.0)
    np.testing.assert_array_equal(softplus(POINTS[:3]), naive_softplus(POINTS[:3]))


def test_name_signature_and_docstring_are_the_functions():
    assert softplus.__name__ == "softplus"
    assert softplus.__doc__ == "log(1 + e^x)."
    assert str(inspect.signature(softplus)) == "(x)"


def test_the_rules_are_registered_for_the_function_and_found_for_the_stand_in():
    assert cr.rrule.has_rule(softplus.__wrapped__)
    y, pullback = cr.rrule(softplus, 800.0)
    assert (y, pullback(1.0)[1]) == (800.0, 1.0)
    names = [info.name for info in cr.registered_functions() if "softplus" in info.name]
    assert len([n for n in names if n.endswith("test_routing.softplus")]) == 1


def test_rules_registered_before_with_rules_are_found():
    def cube(x):
        return x * x * x

    cr.scalar_rule(cube, lambda x, y: 3.0 * x * x + 1.0)  # deliberately not cube's derivative
    assert reverse.grad(lambda x: cr.with_rules(cube)(x))(2.0) == 13.0


def test_reverse_forward_and_second_order_use_the_rule_inside_other_code():
    def loss(x):
        return 2.0 * softplus(x)

    for x in POINTS:
        expected = 2.0 * sc.expit(x)
        assert reverse.grad(loss)(x) == pytest.approx(expected, rel=1e-12)
        assert forward.jvp(loss, (x,), (1.0,))[1] == pytest.approx(expected, rel=1e-12)
        # the rule's pullback differentiated again: 2 expit'(x) = 2 expit (1 - expit)
        curvature = 2.0 * sc.expit(x) * sc.expit(-x)
        assert hessian(loss)(x) == pytest.approx(curvature, rel=1e-10, abs=1e-300)


def test_grad_of_a_function_with_its_own_rule_uses_it():
    def plain_softplus(x):
        return np.log1p(np.exp(x))

    cr.rrule.register(plain_softplus)(_softplus_rrule)
    cr.frule.register(plain_softplus)(_softplus_frule)
    with np.errstate(over="ignore", invalid="ignore"):
        assert reverse.grad(plain_softplus)(800.0) == 1.0
        assert forward.jvp(plain_softplus, (800.0,), (1.0,))[1] == 1.0
        assert hessian(plain_softplus)(0.0) == pytest.approx(0.25, rel=1e-12)
        # without a rule the implementation is traced, and overflows
        assert math.isnan(reverse.grad(naive_softplus)(800.0))


def test_a_function_without_rules_is_traced():
    square = cr.with_rules(lambda x: x * x)
    assert reverse.grad(square)(3.0) == 6.0


def test_values_inside_lists_and_keywords_are_routed():
    total = cr.with_rules(lambda xs, scale=1.0: scale * (xs[0] + xs[1]))
    cr.rrule.register(total)(
        lambda xs, scale=1.0: (
            scale * (xs[0] + xs[1]),
            lambda dy: (cr.NoTangent(), cr.Tangent(list, 7.0 * dy, 7.0 * dy), 5.0 * dy),
        )
    )
    # the rule's deliberately wrong 7 shows that the list was routed to it
    grads = reverse.grad(lambda a, b: total([a, b]), argnums=(0, 1))(1.0, 2.0)
    assert grads == (7.0, 7.0)
    # a tracked keyword is passed by position, so the rule's (wrong) 5 is its cotangent
    assert reverse.grad(lambda s: total([1.0, 2.0], scale=s))(2.0) == 5.0


def test_other_types_go_to_the_function_as_they_are():
    from fractions import Fraction

    double = cr.with_rules(lambda x: 2 * x)
    assert double(Fraction(1, 3)) == Fraction(2, 3)


def test_with_rules_refuses_what_is_not_callable():
    with pytest.raises(TypeError, match="with_rules: 3 is not callable"):
        cr.with_rules(3)


def test_each_type_is_decided_once():
    softplus(np.float32(1.0))
    assert np.float32 in routing._PLAIN
    reverse.grad(softplus)(1.0)
    assert any(r is not None for r in routing._routes.values())


# ---- the adapters ------------------------------------------------------------------------


def test_torch_tensors_use_the_rule_twice():
    torch = pytest.importorskip("torch")
    x = torch.tensor(POINTS, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(softplus(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), sc.expit(POINTS), rtol=1e-12)
    (h,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), sc.expit(POINTS) * sc.expit(-POINTS), rtol=1e-10)


def test_jax_arrays_and_tracers_use_the_rule():
    jax = pytest.importorskip("jax")
    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        g = jax.jit(jax.vmap(jax.grad(softplus)))(jax.numpy.asarray(POINTS))
        np.testing.assert_allclose(np.asarray(g), sc.expit(POINTS), rtol=1e-12)
        h = jax.grad(jax.grad(softplus))(0.5)
        assert float(h) == pytest.approx(sc.expit(0.5) * sc.expit(-0.5), rel=1e-10)
    finally:
        jax.config.update("jax_enable_x64", previous)


def test_autograd_boxes_use_the_rule_twice():
    autograd = pytest.importorskip("autograd")
    with np.errstate(over="ignore"):  # the value is softplus's own: inf at 800
        assert autograd.grad(softplus)(800.0) == 1.0
    h = autograd.grad(autograd.grad(softplus))(0.5)
    assert h == pytest.approx(sc.expit(0.5) * sc.expit(-0.5), rel=1e-10)
