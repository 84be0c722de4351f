"""The host path the adapters share: derivatives of every order on NumPy values, equality of
host functions, and a derivative the rules do not give raised, never a zero."""

import numpy as np
import pytest
import scipy.special as sc
from adapter_cases import BETAINC_POINT, betainc_derivative

import chainrules as cr
from chainrules.adapters.host import HostFunction, densify, freeze
from chainrules.core.calls import call
from chainrules.core.errors import ChainRulesError

A, B, X = BETAINC_POINT


def betainc_pullback():
    host = HostFunction(sc.betainc, {}, (0, 1, 2), n_outputs=0)
    return host.pullback_function(3)


def point():
    return np.array(A), np.array(B), np.array(X)


def test_first_derivatives_are_the_rule():
    cotangents = betainc_pullback()(*point(), np.array(1.0))
    for i, order in enumerate([(1, 0, 0), (0, 1, 0), (0, 0, 1)]):
        # The shape derivatives come from quadrature, accurate to about 1e-10 (see the rule).
        assert float(cotangents[i]) == pytest.approx(betainc_derivative(order), rel=1e-8)


@pytest.mark.parametrize("i", [0, 1, 2], ids=["a", "b", "x"])
def test_second_derivatives_through_x_match_mpmath(i):
    # d/d(arg i) of dI/dx: the pullback in x is closed-form, so the engine differentiates it.
    pullback = betainc_pullback()
    _, vjp = pullback.vjp(*point(), np.array(1.0))
    seeds = (np.array(0.0), np.array(0.0), np.array(1.0))  # the output dI/dx alone
    second = vjp(seeds)
    order = [0, 0, 1]
    order[i] += 1
    # Both sides are exact formulas up to rounding; mpmath's differences at 30 digits.
    assert float(second[i]) == pytest.approx(betainc_derivative(tuple(order)), rel=1e-10)


def test_the_values_of_a_pullback_traced_for_its_derivative_are_exact():
    # The traced pullback cannot give dI/da on tracked values; its value must still be dI/da.
    y, _ = betainc_pullback().vjp(*point(), np.array(1.0))
    assert float(y[0]) == pytest.approx(betainc_derivative((1, 0, 0)), rel=1e-8)
    assert float(y[0]) != 0.0


@pytest.mark.parametrize("i", [0, 1], ids=["a", "b"])
def test_second_derivatives_in_the_shape_parameters_match_mpmath(i):
    # d/da of dI/da (about 0.058 here) differentiates the quadrature that gives dI/da, through
    # the rule of the function that computes it (second derivatives by quadrature, ~1e-10).
    _, vjp = betainc_pullback().vjp(*point(), np.array(1.0))
    seeds = tuple(np.array(1.0 if k == i else 0.0) for k in range(3))
    second = vjp(seeds)
    for k in range(3):
        order = [0, 0, 0]
        order[i] += 1
        order[k] += 1
        assert float(second[k]) == pytest.approx(betainc_derivative(tuple(order)), rel=1e-8)


# A function whose rule gives its first derivative by a function whose own rule gives none: the
# second derivative is a hole, which must raise, never pass as a zero.
def _once(x):
    return np.sin(x)


def _once_slope(x):
    return np.cos(x)


@cr.rrule.register(_once)
def _once_rrule(x):
    def once_pullback(dy):
        return cr.NoTangent(), call(_once_slope, x) * dy

    return np.sin(x), once_pullback


@cr.rrule.register(_once_slope)
def _once_slope_rrule(x):
    def once_slope_pullback(dy):
        return cr.NoTangent(), cr.not_implemented("the second derivative of _once, for the test")

    return np.cos(x), once_slope_pullback


def test_a_derivative_the_rules_do_not_give_raises_naming_the_function():
    pullback = HostFunction(_once, {}, (0,)).pullback_function(1)
    _, vjp = pullback.vjp(np.array(0.5), np.array(1.0))
    with pytest.raises(ChainRulesError, match=r"_once"):
        vjp((np.array(1.0),))


def test_a_hole_met_by_the_engine_differentiating_a_pullback_raises():
    from chainrules.engines import reverse

    pullback = HostFunction(_once, {}, (0,)).pullback_function(1)

    def slope(x):
        return pullback(x, np.array(1.0))[0]

    _, backward = reverse.vjp(slope, np.array(0.5))
    with pytest.raises(ChainRulesError, match=r"_once_slope"):
        backward(np.array(1.0))


def _half_rule(x):
    return 2.0 * x


@cr.rrule.register(_half_rule)
def _half_rule_rrule(x):
    def half_rule_pullback(dy):
        return cr.NoTangent(), cr.not_implemented("derivative of _half_rule, left for later")

    return 2.0 * x, half_rule_pullback


def test_a_first_derivative_the_rule_does_not_give_raises():
    _, pullback = HostFunction(_half_rule, {}, (0,), n_outputs=0).vjp(np.array(1.0))
    with pytest.raises(ChainRulesError, match=r"_half_rule.*argument 0"):
        pullback(np.array(1.0))


def test_densify_refuses_a_not_implemented_tangent():
    with pytest.raises(ChainRulesError, match=r"f.*argument 2.*why"):
        densify(cr.not_implemented("why"), np.ones(2), "f", 2)


def test_third_derivative_goes_down_the_gamma_family():
    gammaln = HostFunction(sc.gammaln, {}, (0,), n_outputs=0)
    second = gammaln.pullback_function(1)  # (x, dy) -> digamma(x) dy
    third = second.pullback_function(2)  # (x, dy, ddx) -> (trigamma(x) dy ddx, digamma(x) ddx)
    x, one = np.array(1.5), np.array(1.0)
    _, vjp = third.vjp(x, one, one)
    d = vjp((one, np.array(0.0)))
    assert float(d[0]) == pytest.approx(sc.polygamma(2, 1.5), rel=1e-10)


def test_equal_host_functions_compare_and_hash_alike():
    def make():
        return HostFunction(sc.polygamma, {"out": None}, (1,), n_outputs=0).pullback_function(2)

    assert make() == make() and hash(make()) == hash(make())
    assert make() != HostFunction(sc.polygamma, {}, (1,), n_outputs=0).pullback_function(2)
    assert make().jvp_function(3) == make().jvp_function(3)


def test_freeze_tells_apart_what_a_rule_can():
    assert freeze(np.arange(3)) == freeze(np.arange(3))
    assert freeze(np.arange(3)) != freeze(np.arange(3.0))
    assert freeze((1, [2.0])) != freeze((1, [2]))
    big = np.arange(1000.0)
    assert freeze(big) == freeze(big.copy()) and freeze(big) != freeze(big + 1)
    unhashable = {"a": [np.zeros(2, dtype=object)]}
    assert freeze(unhashable) == freeze(unhashable)
