"""arguments: keywords bound to the positions rules take them at, options passed on as
given."""

import inspect

import numpy as np
import pytest
from chainrules_testing.tangents import rand_tangent

from chainrules.core import registry as registry_module
from chainrules.core.arguments import bind_keywords, given_options, keyword_positions
from chainrules.core.errors import RuleKeywordError
from chainrules.core.names import function_name
from chainrules.core.registry import frule, rrule
from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from chainrules.core.thunks import unthunk


def test_given_options_drop_what_was_not_given():
    assert given_options(dtype=None, keepdims=False, initial=0, where=True) == {
        "initial": 0,
        "where": True,
    }


# ---- keywords bound to positions: every NumPy rule that takes a keyword only by position ----


_X = np.array([[0.3, -1.2, 0.8], [1.5, 0.1, -0.4]])
_V = np.array([0.7, -0.2, 1.1])
_SQUARE = np.array([[2.0, 0.5], [0.3, 1.5]])
_CONDITION = np.array([True, False, True])

# Positional calls of f; each is compared with the calls that pass a suffix of its arguments
# by keyword, under the names of f's signature.
POSITIONAL_CALLS = [
    (np.append, (_V, _V)),
    (np.array_split, (_V, 2)),
    (np.broadcast_to, (_V, (2, 3))),
    (np.choose, (np.array([0, 1, 0]), (_V, 2.0 * _V))),
    (np.clip, (_X, -0.5, 0.9)),
    (np.clip, (_X, np.full(3, -0.5), np.array([0.9, 0.0, 2.0]))),  # differentiable bounds
    (np.compress, (_CONDITION, _V)),
    (np.convolve, (_V, np.array([1.0, -2.0]))),
    (np.correlate, (_V, np.array([1.0, -2.0]))),
    (np.cross, (_V, np.array([0.2, 0.4, -1.0]))),
    (np.dot, (_X, _V)),
    (np.dsplit, (_X.reshape(1, 2, 3), 3)),
    (np.extract, (_CONDITION, _V)),
    (np.full, ((2, 3), 1.5)),
    (np.full_like, (_X, 1.5)),
    (np.geomspace, (1.5, 4.0, 5)),
    (np.histogram2d, (_V, np.array([0.1, 0.5, 0.9]), 2)),
    (np.hsplit, (_X, 3)),
    (np.insert, (_V, 1, 2.5)),
    (np.interp, (np.array([0.5, 1.5]), np.array([0.0, 1.0, 2.0]), _V)),
    (np.kron, (_V, np.array([1.0, 2.0]))),
    (np.linalg.lstsq, (_X.T, _V)),
    (np.linalg.matrix_power, (_SQUARE, 3)),
    (np.linalg.solve, (_SQUARE, np.array([1.0, -1.0]))),
    (np.linalg.tensorsolve, (_SQUARE, np.array([1.0, -1.0]))),
    (np.linspace, (0.5, 2.5, 5)),
    (np.logspace, (0.5, 1.5, 4)),
    (np.moveaxis, (_X, 0, 1)),
    (np.nanpercentile, (_V, 40.0)),
    (np.nanquantile, (_V, 0.4)),
    (np.ndarray.astype, (_X, np.float32)),
    (np.ndarray.choose, (np.array([0, 1, 0]), (_V, 2.0 * _V))),
    (np.ndarray.compress, (_V, _CONDITION)),
    (np.outer, (_V, np.array([1.0, 2.0]))),
    (np.pad, (_V, 2)),
    (np.partition, (_V, 1)),
    (np.percentile, (_V, 40.0)),
    (np.polyadd, (_V, np.array([1.0, 2.0]))),
    (np.polydiv, (_V, np.array([1.0, 2.0]))),
    (np.polyfit, (_V, np.array([0.5, -0.3, 0.9]), 1)),
    (np.polymul, (_V, np.array([1.0, 2.0]))),
    (np.polysub, (_V, np.array([1.0, 2.0]))),
    (np.polyval, (_V, 0.6)),
    (np.quantile, (_V, 0.4)),
    (np.rollaxis, (_X, 1, 0)),
    (np.select, ([_CONDITION, ~_CONDITION], [_V, 2.0 * _V])),
    (np.split, (_V, 3)),
    (np.swapaxes, (_X, 0, 1)),
    (np.take, (_X, np.array([0, 4, 4]))),
    (np.take_along_axis, (_X, np.array([[0, 2], [1, 1]]), 1)),
    (np.tensordot, (_X, _X.T, 1)),
    (np.vsplit, (_X, 2)),
    # keywords these rules take as keywords: no cotangent for them, the rest the same
    (np.roll, (_X, 1, 0)),
    (np.diff, (_X, 1, 0)),
    (np.cumsum, (_X, 0)),
    (np.tensordot, (_X, _X, ((0, 1), (0, 1)))),
    (np.sum, (_X, 1)),
]


def _keyword_calls(f, args):
    """``(k, positional, keywords)`` for each split of ``args`` that f's names allow.

    None where this NumPy gives ``f`` no signature (NumPy 2.1's ``dot`` and ndarray methods):
    the rule table cannot know its names then, and refuses its keywords by name.
    """
    try:
        params = list(inspect.signature(f).parameters.values())
    except ValueError:
        return
    for k in range(len(args)):
        later = params[k : len(args)]
        if all(p.kind is p.POSITIONAL_OR_KEYWORD for p in later):
            yield k, args[:k], {p.name: a for p, a in zip(later, args[k:], strict=True)}


def _same(actual, expected, what):
    """Equal tangents, thunks unthunked; the two calls run the same rule on the same values."""
    actual, expected = unthunk(actual), unthunk(expected)
    if isinstance(expected, tuple | list) and not isinstance(expected, np.ndarray):
        assert isinstance(actual, tuple | list) and len(actual) == len(expected), what
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            _same(a, e, f"{what}[{i}]")
    elif isinstance(expected, Tangent):
        assert isinstance(actual, Tangent), what
        _same(tuple(actual), tuple(expected), what)
    elif isinstance(expected, np.ndarray | float | complex | np.generic):
        np.testing.assert_array_equal(actual, expected, err_msg=what)
    else:
        assert actual == expected, what


def _constant_tangent(a):
    inexact = isinstance(a, float) or (isinstance(a, np.ndarray) and a.dtype.kind in "fc")
    return ZERO_TANGENT if inexact else NO_TANGENT


def _label(case):
    return function_name(case[0])


@pytest.mark.parametrize(("f", "args"), POSITIONAL_CALLS, ids=map(_label, POSITIONAL_CALLS))
def test_a_keyword_call_is_the_positional_call(f, args):
    y, pullback = rrule(f, *args)
    dy = rand_tangent(y, np.random.default_rng(0))
    expected = pullback(dy)
    assert len(expected) == 1 + len(args)
    for k, given, keywords in _keyword_calls(f, args):
        y_k, pullback_k = rrule(f, *given, **keywords)
        _same(y_k, y, f"y, {k} positional")
        cotangents = pullback_k(dy)
        # One cotangent per positional argument after binding: those passed, and those the
        # rule takes only by position; keywords it takes as keywords get none.
        bound = rrule.bound_arguments(f, given, keywords)[0]
        assert len(cotangents) == 1 + len(bound) >= 1 + k
        _same(cotangents, expected[: len(cotangents)], f"cotangents, {k} positional")


@pytest.mark.parametrize(("f", "args"), POSITIONAL_CALLS, ids=map(_label, POSITIONAL_CALLS))
def test_a_keyword_call_pushes_forward_as_the_positional_call(f, args):
    rng = np.random.default_rng(1)
    for k, given, keywords in _keyword_calls(f, args):
        tangents = tuple(rand_tangent(a, rng) for a in given)
        constants = tuple(_constant_tangent(a) for a in args[k:])
        found = frule((NO_TANGENT, *tangents), f, *given, **keywords)
        expected = frule((NO_TANGENT, *tangents, *constants), f, *args)
        if expected is None:  # no frule for these arguments
            assert found is None
            continue
        _same(found[0], expected[0], f"y, {k} positional")
        _same(found[1], expected[1], f"dy, {k} positional")


def test_every_numpy_rule_taking_keywords_by_position_has_a_call_above():
    tested = {f for f, _ in POSITIONAL_CALLS}
    missing = sorted(
        function_name(f)
        for f in rrule.functions()
        if function_name(f).startswith("numpy.")
        and f not in tested
        and any(
            m.positions is not None and any(i > 0 for i in m.positions.position.values())
            for m in rrule.methods(f)
        )
    )
    assert missing == [], "add a positional call of each to POSITIONAL_CALLS"


def test_clip_bounds_by_keyword_as_numpy_takes_them():
    x = np.array([0.2, 1.4, -0.3])
    lo = np.array([0.0, 0.5, -0.1])
    y, pullback = rrule(np.clip, x, a_min=lo, a_max=None)
    np.testing.assert_array_equal(y, np.clip(x, a_min=lo, a_max=None))
    _, dx, d_lo, d_hi = pullback(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(dx, [1.0, 2.0, 0.0])
    np.testing.assert_array_equal(unthunk(d_lo), [0.0, 0.0, 3.0])  # the bound is differentiable
    assert d_hi is NO_TANGENT  # no upper bound
    # NumPy refuses a_max without a_min (its default is "no value", not None): so does the
    # rule, naming both, rather than guess.
    with pytest.raises(TypeError):
        np.clip(x, a_max=1.0)
    with pytest.raises(RuleKeywordError, match=r"numpy.clip takes 'a_max' by position, after "):
        rrule(np.clip, x, a_max=1.0)
    assert rrule(np.clip, x, max=1.0)[0].tolist() == [0.2, 1.0, -0.3]  # NumPy 2's keyword


def test_keywords_that_no_position_takes_still_raise():
    x = np.array([[0.3, 0.1]])
    with pytest.raises(RuleKeywordError, match=r"numpy.swapaxes does not accept the keyword 'ax'"):
        rrule(np.swapaxes, x, 0, 1, ax=2)
    with pytest.raises(RuleKeywordError, match=r"numpy.swapaxes got 'axis1' both by position"):
        rrule(np.swapaxes, x, 0, 1, axis1=1)
    # interp's rule takes its bounds as *bounds or left=/right=: its *args hold no period,
    # which a binding into them would drop without a word.
    with pytest.raises(
        RuleKeywordError, match=r"numpy.interp does not accept the keyword 'period'"
    ):
        rrule(np.interp, 0.5, np.array([0.0, 1.0, 2.0]), _V, period=1.0)


def test_keyword_positions_come_from_the_signature_of_f():
    def primal(a, axis1, axis2, *, out=None):
        return a

    positions = keyword_positions(primal, 1, True, frozenset({"out"}), (object,))
    assert positions.position == {"a": 0, "axis1": 1, "axis2": 2}
    bound = bind_keywords("rrule", primal, positions, (1.0,), {"axis2": 3, "axis1": 0, "out": None})
    assert bound == ((1.0, 0, 3), {"out": None})
    with pytest.raises(RuleKeywordError, match=r"takes 'axis2' by position, after 'axis1'"):
        bind_keywords("rrule", primal, positions, (1.0,), {"axis2": 3})
    with pytest.raises(RuleKeywordError, match=r"got 'axis1' both by position and by keyword"):
        bind_keywords("rrule", primal, positions, (1.0, 0), {"axis1": 3})
    assert bind_keywords("rrule", primal, positions, (1.0, 0), {"out": None}) is None


# ---- keywords naming positional parameters: bound to their positions ------------------------


def swap(a, axis1, axis2=-1, *, out=None):
    """A primal whose rule takes its parameters through ``*params``, as NumPy's do."""
    return a


def _swap_rrule(x, *params):
    return (x, params), lambda dy: (None, dy, *(None for _ in params))


def _swap_frule(tangents, x, *params):
    return (x, params), tangents


def swap_tables():
    r, fr = type(rrule)("rrule"), type(frule)("frule")
    r.register(swap, keywords=())(_swap_rrule)
    fr.register(swap, keywords=())(_swap_frule)
    return r, fr


def test_a_keyword_naming_a_position_is_bound_there():
    r, fr = swap_tables()
    (_, params), pullback = r(swap, "x", axis2=1, axis1=0)
    assert params == (0, 1)
    assert pullback("dy") == (None, "dy", None, None)  # one per positional argument after binding
    assert r(swap, "x", axis1=3)[0] == ("x", (3,))
    assert r(swap, a="x", axis1=3)[0] == ("x", (3,))  # the keyword filling the gap moves too
    # an frule gets a constant's tangent for each bound argument
    found = fr((None, 2.0), swap, 1.0, axis1=0.5, axis2=1)
    assert found == ((1.0, (0.5, 1)), (None, 2.0, ZERO_TANGENT, NO_TANGENT))


def test_a_keyword_after_a_missing_position_or_taken_by_none_raises():
    r, _ = swap_tables()
    with pytest.raises(RuleKeywordError, match=r"takes 'axis2' by position, after 'axis1'"):
        r(swap, "x", axis2=1)
    with pytest.raises(RuleKeywordError, match=r"swap does not accept the keyword 'axes'"):
        r(swap, "x", 0, axes=1)


def test_signatures_are_read_at_registration_and_never_per_call(monkeypatch):
    from chainrules.core import arguments

    r, _ = swap_tables()

    def no_signature(f):
        raise AssertionError("a signature read during a call")

    monkeypatch.setattr(arguments.inspect, "signature", no_signature)
    assert r(swap, "x", axis1=0)[0] == ("x", (0,))

    def no_binding(*args):
        raise AssertionError("keywords looked at in a call without keywords")

    monkeypatch.setattr(registry_module, "bind_keywords", no_binding)
    assert r(swap, "x", 0, 1)[0] == ("x", (0, 1))


def test_a_rule_taking_the_keyword_as_a_keyword_gets_it_so():
    def keyword_rule(x, axis1=None, axis2=None):
        return x, lambda dy: (None, dy)

    r = type(rrule)("rrule")
    r.register(swap)(keyword_rule)
    assert len(r(swap, "x", axis1=0)[1]("dy")) == 2  # kwargs get none
    assert r.bound_arguments(swap, ("x",), {"axis1": 0}) == (("x",), {"axis1": 0})
    assert r.bound_arguments(swap, (), {"a": "x", "axis1": 0}) == (("x",), {"axis1": 0})


def test_the_engines_differentiate_calls_with_keywords_the_rules_take_by_position():
    from chainrules.engines import forward, reverse

    x = _X.copy()

    def loss(x):
        moved = np.moveaxis(np.swapaxes(x, axis1=0, axis2=1), source=0, destination=1)
        return np.sum(np.take(moved, indices=np.array([0, 1, 1])) ** 2)

    def positional(x):
        moved = np.moveaxis(np.swapaxes(x, 0, 1), 0, 1)
        return np.sum(np.take(moved, np.array([0, 1, 1])) ** 2)

    np.testing.assert_array_equal(reverse.grad(loss)(x), reverse.grad(positional)(x))
    dx = np.ones_like(x)
    assert forward.jvp(loss, (x,), (dx,))[1] == forward.jvp(positional, (x,), (dx,))[1]
    # a bound given by keyword: a constant of the differentiation, its cotangent unused
    clipped = reverse.grad(lambda x: np.sum(np.clip(x, a_min=-0.5, a_max=0.9)))(x)
    np.testing.assert_array_equal(clipped, ((x > -0.5) & (x < 0.9)).astype(float))
