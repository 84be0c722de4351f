"""The tape: several outputs, thunks, pullbacks run again, unimplemented cotangents, what the
garbage collector visits."""

import gc
from collections import namedtuple

import numpy as np
import pytest

import chainrules as cr
from chainrules.core import projection
from chainrules.core.caches import Bounded
from chainrules.core.errors import ChainRulesError
from chainrules.engines import reverse
from chainrules.engines.tracked import dispatch

SinCos = namedtuple("SinCos", "sin cos")
computed = []


def sincos(x):
    return SinCos(np.sin(x), np.cos(x))


@cr.rrule.register(sincos)
def _sincos_rrule(x):
    y = sincos(x)

    def sincos_pullback(dy):
        dy = cr.unthunk(dy)
        return cr.NoTangent(), dy.sin * y.cos - dy.cos * y.sin

    return y, sincos_pullback


def scaled(x, c):
    return x * c


@cr.rrule.register(scaled)
def _scaled_rrule(x, c):
    def scaled_pullback(dy):
        def dc():
            computed.append("dc")
            return dy * x

        return cr.NoTangent(), cr.Thunk(lambda: dy * c), cr.Thunk(dc)

    return x * c, scaled_pullback


def unknown_in_c(x, c):
    return x * c


@cr.rrule.register(unknown_in_c)
def _unknown_rrule(x, c):
    def unknown_pullback(dy):
        return cr.NoTangent(), dy * c, cr.not_implemented("derivative in c")

    return x * c, unknown_pullback


def test_several_outputs_each_tracked():
    def f(x):
        s, c = dispatch(sincos, (x,), {})
        return s * 2.0 + c

    assert np.isclose(reverse.grad(f)(0.3), 2 * np.cos(0.3) - np.sin(0.3))


def test_unused_output_gets_no_cotangent():
    assert np.isclose(reverse.grad(lambda x: dispatch(sincos, (x,), {}).cos)(0.3), -np.sin(0.3))


def test_thunk_for_a_constant_argument_is_never_computed():
    computed.clear()
    assert reverse.grad(lambda x: dispatch(scaled, (x, 3.0), {}))(2.0) == 3.0
    assert computed == []
    assert reverse.grad(lambda c: dispatch(scaled, (2.0, c), {}))(3.0) == 2.0
    assert computed == ["dc"]


def test_thunks_are_eager_when_nested():
    # The inner pullback's thunks must be recorded by the outer differentiation.
    inner = reverse.grad(lambda c: dispatch(scaled, (c, c), {}))
    assert reverse.grad(inner)(3.0) == 2.0


def test_thunk_for_a_constant_argument_is_never_computed_when_nested():
    # A second derivative in x: the inner sweep unthunks the cotangent of x at once (the
    # outer level records it) and never computes the one of the constant c.
    computed.clear()
    inner = reverse.grad(lambda x: dispatch(scaled, (x * x, 3.0), {}))
    assert reverse.grad(inner)(2.0) == 6.0
    assert computed == []


def test_pullback_can_run_many_times():
    _, pullback = reverse.vjp(lambda x: np.sin(x) * 2.0, np.array([0.0, 1.0]))
    first = pullback(np.array([1.0, 0.0]))[0]
    second = pullback(np.array([1.0, 0.0]))[0]
    assert np.array_equal(first, second) and np.allclose(first, [2.0, 0.0])


def test_not_implemented_cotangent_raises_when_needed():
    assert reverse.grad(lambda x: dispatch(unknown_in_c, (x, 2.0), {}))(1.0) == 2.0
    with pytest.raises(ChainRulesError, match="derivative in c"):
        reverse.grad(lambda c: dispatch(unknown_in_c, (1.0, c), {}))(2.0)


def test_list_argument_cotangents_reach_elements():
    def f(a, b):
        return np.sum(np.concatenate([a, b * 2.0]))

    ga, gb = reverse.grad(f, argnums=(0, 1))(np.ones(2), np.ones(3))
    assert np.allclose(ga, 1.0) and np.allclose(gb, 2.0)


def halves(x):
    return [x * 0.5, x * 2.0]


@cr.rrule.register(halves)
def _halves_rrule(x):
    def halves_pullback(dy):
        first, second = (cr.unthunk(d) for d in dy)
        return cr.NoTangent(), cr.add(first * 0.5, second * 2.0)

    return halves(x), halves_pullback


def as_dict(x):
    return {"x": x}


@cr.rrule.register(as_dict)
def _as_dict_rrule(x):
    return as_dict(x), lambda dy: (cr.NoTangent(), dy["x"])


def test_list_of_outputs_each_tracked():
    assert reverse.grad(lambda x: dispatch(halves, (x,), {})[1] * 3.0)(1.0) == 6.0


def test_rule_returning_an_untrackable_structure_raises():
    with pytest.raises(ChainRulesError, match="returned a structure"):
        reverse.grad(lambda x: dispatch(as_dict, (x,), {})["x"])(1.0)


@pytest.mark.parametrize("x0", [0.5, np.linspace(0.0, 1.0, 8)], ids=["float", "array"])
def test_the_collector_visits_one_object_per_recorded_call(x0, monkeypatch):
    # The tape keeps calls by index: after a collection, the tuples of parents (numbers, None,
    # keys) are no longer tracked, and what the pullbacks hold that the collector tracks is
    # shared by all calls (projectors), so that the pullback is the one object per call it
    # keeps visiting while the tape lives. Projectors and their tuples are shared by caches,
    # which start afresh when full (1,024 entries): empty ones, so that neither starts afresh
    # midway through the test.
    monkeypatch.setattr(projection, "_array_projectors", Bounded(1024))
    monkeypatch.setattr(projection, "_projector_tuples", Bounded(1024))
    steps, seen = 200, {}

    def recurrence(x):
        for _ in range(steps):
            x = np.sin(x) * 1.01 + 0.1
        gc.collect()
        tape = x.level.tape
        seen["calls"] = len(tape)
        seen["tracked parents"] = sum(map(gc.is_tracked, tape.parents))
        held = {
            id(o)
            for pullback in tape.pullbacks
            for o in gc.get_referents(pullback)
            if gc.is_tracked(o) and not isinstance(o, type)
        }
        seen["tracked objects the pullbacks hold"] = len(held)
        return np.sum(x)

    reverse.value_and_grad(recurrence)(x0)
    assert seen["calls"] == 1 + 3 * steps  # the input, then sin, multiply and add per step
    assert seen["tracked parents"] == 0
    assert seen["tracked objects the pullbacks hold"] <= 3  # shared, not one per call


# Per call, where its tracked arguments' cotangents go: (position, path inside the argument,
# index of the call that produced it) for each, given the indices of x and y. One or two
# arguments, each a value of the level or a plain number, are told at once (ReverseLevel.apply);
# the others go through the general walk: both must record the same.
_PARENTS = {
    "sin(x)": (lambda x, y: np.sin(x), lambda i, j: (1, None, i)),
    "x * 2.0": (lambda x, y: x * 2.0, lambda i, j: (1, None, i)),
    "2.0 * x": (lambda x, y: 2.0 * x, lambda i, j: (2, None, i)),
    "x * y": (lambda x, y: x * y, lambda i, j: (1, None, i, 2, None, j)),
    "y - x": (lambda x, y: y - x, lambda i, j: (1, None, j, 2, None, i)),
    "float64 * x": (lambda x, y: np.float64(2.0) * x, lambda i, j: (2, None, i)),
    "where(True, x, y)": (lambda x, y: np.where(True, x, y), lambda i, j: (2, None, i, 3, None, j)),
    "stack([x, y])": (
        lambda x, y: np.stack([x, y]),
        lambda i, j: (1, ((0, 0),), i, 1, ((1, 1),), j),
    ),
}


@pytest.mark.parametrize("name", list(_PARENTS))
def test_the_tape_records_where_each_arguments_cotangent_goes(name):
    call, expected = _PARENTS[name]
    seen = {}

    def f(x, y):
        out = call(x, y)
        seen["parents"], seen["expected"] = out.level.tape.parents[-1], expected(x.index, y.index)
        return np.sum(out)

    value, grads = reverse.value_and_grad(f, argnums=(0, 1))(0.5, 0.25)
    assert seen["parents"] == seen["expected"]
    h = 1e-6  # central differences of these smooth functions: error about h**2, far below 1e-8
    plain = [
        (np.sum(call(0.5 + h, 0.25)) - np.sum(call(0.5 - h, 0.25))) / (2 * h),
        (np.sum(call(0.5, 0.25 + h)) - np.sum(call(0.5, 0.25 - h))) / (2 * h),
    ]
    assert value == np.sum(call(0.5, 0.25))
    np.testing.assert_allclose(grads, plain, rtol=0, atol=1e-8)


@pytest.mark.parametrize(
    "call, told, expected",
    [
        (lambda x, y: x * 2.0, (1,), lambda x, y: (2.0, 0.0)),  # told at once
        (lambda x, y: 2.0 * x, (2,), lambda x, y: (2.0, 0.0)),
        (lambda x, y: x * y, (1, 2), lambda x, y: (y, x)),
        (lambda x, y: x * np.float64(2.0), (1,), lambda x, y: (2.0, 0.0)),  # the general walk
        (lambda x, y: np.float64(2.0) * y, (2,), lambda x, y: (0.0, 2.0)),
    ],
    ids=["x * 2.0", "2.0 * x", "x * y", "x * float64(2.0)", "float64(2.0) * y"],
)
def test_a_pullback_is_told_which_arguments_are_tracked(call, told, expected, monkeypatch):
    # A pullback of several arguments is told the positions of the tracked ones (needed): it
    # lets go of what only the others' cotangents need, and gives the asked ones as numbers.
    x, y = np.linspace(0.5, 1.0, 4), np.linspace(-1.0, 2.0, 4)
    seen = []
    pairs = [(x, y), (x, 2.0), (2.0, y), (x, np.float64(2.0)), (np.float64(2.0), y)]
    for cls in {type(cr.rrule(np.multiply, *pair)[1]) for pair in pairs}:

        def recorded(pullback, positions, needed=cls.needed):
            seen.append(positions)
            return needed(pullback, positions)

        monkeypatch.setattr(cls, "needed", recorded)
    _, grads = reverse.value_and_grad(lambda x, y: np.sum(call(x, y)), argnums=(0, 1))(x, y)
    assert seen == [told]
    for grad, want in zip(grads, expected(x, y), strict=True):
        np.testing.assert_array_equal(grad, np.broadcast_to(want, x.shape))  # exact products


@pytest.mark.parametrize("n", [1, 8, 9, 12])
def test_the_sweep_reaches_every_argument_of_a_call_of_many(n):
    # The sweep reads where each argument's cotangent goes from a table of starts for calls of
    # up to 8 tracked arguments (24 entries of parents), and from a range above.
    seen = {}

    def f(x):
        out = np.stack([x * float(k) for k in range(1, n + 1)])
        seen["entries"] = len(out.level.tape.parents[-1])
        return np.sum(out)

    x = np.linspace(0.0, 1.0, 3)
    np.testing.assert_array_equal(reverse.grad(f)(x), np.full(3, n * (n + 1) / 2))
    assert seen["entries"] == 3 * n
