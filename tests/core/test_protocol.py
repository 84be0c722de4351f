"""The protocol registration gives every rule: unthunked cotangents, zeros answered, names."""

import numpy as np
import pytest

from chainrules.core.config import HasReverseMode, RuleConfig
from chainrules.core.protocol import is_all_zero, zero_cotangents
from chainrules.core.registry import RuleTable
from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from chainrules.core.thunks import Thunk


def double(x, n=1):
    return 2.0 * x


def indices(x):
    return np.nonzero(x)


def make_tables(seen):
    """An rrule and an frule table with rules for ``double`` and ``indices`` that record what
    their pullbacks and frules receive."""
    r, f = RuleTable("rrule"), RuleTable("frule")

    @r.register(double)
    def _double_rrule(x, n=1):
        def my_own_name(dy):
            seen.append(dy)
            return NO_TANGENT, 2.0 * dy, NO_TANGENT

        return double(x), my_own_name

    @f.register(double)
    def _double_frule(tangents, x, n=1):
        seen.append(tangents)
        return double(x), 2.0 * tangents[1]

    @r.register(indices)
    def _indices_rrule(x):
        return indices(x), lambda dy: pytest.fail("called with a zero")

    return r, f


def test_pullback_is_named_after_the_function_and_gets_unthunked_cotangents():
    seen = []
    r, _ = make_tables(seen)
    _, pullback = r(double, 1.5)
    assert pullback.__name__ == pullback.__qualname__ == "double_pullback"
    assert pullback(Thunk(lambda: 3.0)) == (NO_TANGENT, 6.0, NO_TANGENT)
    assert seen == [3.0]


@pytest.mark.parametrize(
    "zero",
    [ZERO_TANGENT, NO_TANGENT, (ZERO_TANGENT, NO_TANGENT), Tangent(tuple, ZERO_TANGENT)],
    ids=["ZeroTangent", "NoTangent", "tuple of zeros", "Tangent of zeros"],
)
def test_zero_cotangents_are_answered_without_the_pullback(zero):
    seen = []
    r, _ = make_tables(seen)
    _, pullback = r(double, np.array([1.0, 2.0]), 3)
    assert pullback(zero) == (NO_TANGENT, ZERO_TANGENT, NO_TANGENT)  # 3 is an int: no tangent
    assert seen == []


def test_an_output_without_tangent_space_passes_nothing_back():
    r, _ = make_tables([])
    _, pullback = r(indices, np.array([0.0, 1.0]))
    assert pullback(ZERO_TANGENT) == (NO_TANGENT, NO_TANGENT)


def test_frule_gets_unthunked_tangents():
    seen = []
    _, f = make_tables(seen)
    assert f((NO_TANGENT, Thunk(lambda: 1.0)), double, 4.0) == (8.0, 2.0)
    assert seen == [(NO_TANGENT, 1.0)]


def test_rules_that_need_a_config_get_it_first_and_the_protocol_too():
    class Config(RuleConfig, HasReverseMode):
        def rrule_via_ad(self, f, *args, **kwargs):
            raise NotImplementedError

    r = RuleTable("rrule")
    received = []

    @r.register(double, needs=HasReverseMode)
    def _double_rrule(config, x, n=1):
        received.append(config)
        return double(x), lambda dy: (NO_TANGENT, 2.0 * dy)

    config = Config()
    _, pullback = r.lookup(double, (1.0,), config)(1.0)
    assert received == [config]
    assert pullback.__name__ == "double_pullback"
    assert pullback(ZERO_TANGENT) == (NO_TANGENT, ZERO_TANGENT)
    assert pullback(Thunk(lambda: 1.0)) == (NO_TANGENT, 2.0)


def test_what_is_not_a_rule_answer_passes_unchanged():
    r = RuleTable("rrule")
    r.register(double)(lambda x, n=1: None)
    assert r(double, 1.0) is None
    r.register(indices)(lambda x: ("label", 1))  # not (y, pullback): not the protocol's to wrap
    assert r(indices, 1.0) == ("label", 1)


def test_the_decorator_returns_the_rule_as_written_and_the_table_keeps_it():
    r = RuleTable("rrule")

    def _double_rrule(x, n=1):
        return double(x), lambda dy: (NO_TANGENT, dy)

    assert r.register(double)(_double_rrule) is _double_rrule
    (method,) = r.methods(double)
    assert method.rule is _double_rrule and method.fn.__wrapped__ is _double_rrule


def test_is_all_zero_and_zero_cotangents():
    assert is_all_zero(ZERO_TANGENT) and is_all_zero([ZERO_TANGENT, (NO_TANGENT,)])
    assert not is_all_zero(Thunk(lambda: ZERO_TANGENT))  # a thunk is not looked into
    assert not is_all_zero((ZERO_TANGENT, np.zeros(2)))  # zero values are values
    assert zero_cotangents((1.0, "a", np.ones(2, dtype=int)), 1.0) == (
        NO_TANGENT,
        ZERO_TANGENT,
        NO_TANGENT,
        NO_TANGENT,
    )
