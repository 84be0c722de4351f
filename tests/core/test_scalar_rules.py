"""scalar_rules: the rules scalar_rule builds keep alive only what their partials read, give
thunks for large outputs, and let go of what an engine will not ask for."""

import gc
import weakref

import numpy as np
import pytest

import chainrules as cr
from chainrules.core.scalar_rules import LAZY_FROM
from chainrules.core.tangents import NO_TANGENT, NotImplementedTangent
from chainrules.core.thunks import Thunk
from chainrules.engines import reverse


def _alive_after_rrule(f, *args):
    """Whether ``f``'s output and each argument are still alive while only the pullback is."""
    y, pullback = cr.rrule(f, *args)
    refs = [weakref.ref(y), *(weakref.ref(a) for a in args if isinstance(a, np.ndarray))]
    del y, args
    gc.collect()
    return pullback, [r() is not None for r in refs]


def test_a_pullback_keeps_alive_only_what_its_partials_read():
    # sin' = cos(x): the output is let go of; add's partials are constants: nothing is kept.
    _, alive = _alive_after_rrule(np.sin, np.linspace(0.0, 1.0, 5))
    assert alive == [False, True]
    _, alive = _alive_after_rrule(np.add, np.ones(5), np.ones(5))
    assert alive == [False, False, False]
    pullback, alive = _alive_after_rrule(np.multiply, np.ones(5), np.full(5, 2.0))
    assert alive == [False, True, True]
    assert [np.asarray(c).tolist() for c in pullback(np.ones(5))[1:]] == [[2.0] * 5, [1.0] * 5]


def test_large_outputs_give_thunks_small_ones_numbers():
    small, large = np.ones(LAZY_FROM - 1), np.ones(LAZY_FROM)
    _, pullback = cr.rrule(np.multiply, small, 3.0)
    assert not any(isinstance(c, Thunk) for c in pullback(small))
    _, pullback = cr.rrule(np.multiply, large, 3.0)
    dx, dc = pullback(large)[1:]
    assert isinstance(dx, Thunk) and isinstance(dc, Thunk)
    assert np.array_equal(cr.unthunk(dx), np.full(LAZY_FROM, 3.0))
    assert cr.unthunk(dc) == float(LAZY_FROM)


def test_what_an_engine_will_not_ask_for_is_let_go_of_and_never_a_number():
    x, c = np.linspace(0.0, 1.0, 4), np.full(4, 2.0)
    _, pullback = cr.rrule(np.multiply, x, c)
    pullback.needed((1,))  # the cotangent of x only: c's partial (x) is not needed
    assert pullback.args[0] is None and pullback.args[1] is c
    result = pullback(np.ones(4))
    assert np.array_equal(result[1], c)
    assert isinstance(result[2], NotImplementedTangent)
    assert "argument 2 of numpy.multiply" in result[2].info
    assert result[0] is NO_TANGENT


def test_the_reverse_engine_lets_constant_arguments_cotangents_go():
    seen = []

    def f(x):
        y = np.sin(x)
        seen.append(weakref.ref(y.value))
        return np.sum(y * 2.0)

    grad = reverse.grad(f)(np.linspace(0.0, 1.0, 8))
    gc.collect()
    assert seen[0]() is None  # sin's output: read by no partial the engine asks for
    np.testing.assert_allclose(grad, 2.0 * np.cos(np.linspace(0.0, 1.0, 8)), rtol=1e-15)


@pytest.mark.parametrize("n", [1, LAZY_FROM + 1])
def test_gradients_agree_below_and_above_the_thunk_size(n):
    x = np.linspace(0.1, 1.0, n)
    grad = reverse.grad(lambda x: np.sum(np.sin(x) * 1.01 + 0.1))(x)
    np.testing.assert_allclose(grad, 1.01 * np.cos(x), rtol=1e-15)
