"""Tests for chainrules.core.config: RuleConfig, capabilities, rules that need them."""

import pytest

from chainrules.core.config import HasForwardMode, HasReverseMode, RuleConfig
from chainrules.core.errors import MissingCapabilityError
from chainrules.core.registry import frule, rrule


class PlainConfig(RuleConfig):
    """A config with no capability."""


class ReverseConfig(RuleConfig, HasReverseMode):
    """An engine that can differentiate anything in reverse mode (here: by a fixed answer)."""

    def rrule_via_ad(self, f, *args, **kwargs):
        def via_ad_pullback(dy):
            return (None, *(2.0 * dy for _ in args))

        return f(*args, **kwargs), via_ad_pullback


class ForwardConfig(RuleConfig, HasForwardMode):
    def frule_via_ad(self, tangents, f, *args, **kwargs):
        return f(*args, **kwargs), 3.0 * tangents[1]


def apply(g, x):
    """A higher-order primal: its rule differentiates ``g`` through the engine."""
    return g(x)


def double(x):
    return 2.0 * x


@rrule.register(apply, needs=HasReverseMode)
def _apply_rrule(config, g, x):
    y, g_pullback = config.rrule_via_ad(g, x)

    def apply_pullback(dy):
        _, dx = g_pullback(dy)
        return None, None, dx

    return (y, config), apply_pullback


@frule.register(apply, needs=HasForwardMode)
def _apply_frule(config, tangents, g, x):
    y, dy = config.frule_via_ad((None, tangents[2]), g, x)
    return (y, config), dy


def test_rule_that_needs_reverse_mode_receives_the_config():
    config = ReverseConfig()
    (y, received), pullback = config.rrule(apply, double, 1.5)
    assert y == 3.0 and received is config
    assert pullback(1.0) == (None, None, 2.0)


def test_rule_that_needs_forward_mode_receives_the_config():
    config = ForwardConfig()
    (y, received), dy = config.frule((None, None, 1.0), apply, double, 1.5)
    assert y == 3.0 and received is config and dy == 3.0


@pytest.mark.parametrize(
    "call",
    [
        lambda: rrule(apply, double, 1.5),
        lambda: PlainConfig().rrule(apply, double, 1.5),
        lambda: ForwardConfig().rrule(apply, double, 1.5),
        lambda: frule((None, None, 1.0), apply, double, 1.5),
        lambda: ReverseConfig().frule((None, None, 1.0), apply, double, 1.5),
    ],
    ids=["no config", "plain config", "wrong capability (r)", "no config (f)",
         "wrong capability (f)"],
)  # fmt: skip
def test_rule_that_needs_a_capability_is_unseen_without_it(call):
    assert call() is None


def scale(x):
    return 3.0 * x


@rrule.register(scale)
def _scale_rrule(x):
    return 3.0 * x, lambda dy: (None, 3.0 * dy)


@rrule.register(scale, needs=HasReverseMode)
def _scale_rrule_with_config(config, x):
    return 3.0 * x, lambda dy: ("with config", 3.0 * dy)


def test_rule_with_the_capability_is_preferred_under_a_config_that_has_it():
    assert ReverseConfig().rrule(scale, 1.0)[1](1.0) == ("with config", 3.0)
    assert PlainConfig().rrule(scale, 1.0)[1](1.0) == (None, 3.0)
    assert rrule(scale, 1.0)[1](1.0) == (None, 3.0)


def test_lookup_binds_the_config():
    config = ReverseConfig()
    bound = rrule.lookup(apply, (double, 1.0), config)
    (_, received), _ = bound(double, 1.0)
    assert received is config
    assert rrule.lookup(apply, (double, 1.0)) is None
    assert rrule.lookup(scale, (1.0,)).__wrapped__ is _scale_rrule  # the rule, with the protocol


@pytest.mark.parametrize(
    ("call", "mode"),
    [
        (lambda c: c.rrule_via_ad(scale, 1.0), "reverse mode"),
        (lambda c: c.frule_via_ad((None, 1.0), scale, 1.0), "forward mode"),
    ],
    ids=["rrule_via_ad", "frule_via_ad"],
)
def test_via_ad_without_the_capability_raises(call, mode):
    with pytest.raises(MissingCapabilityError) as info:
        call(PlainConfig())
    message = str(info.value)
    assert isinstance(info.value, TypeError)
    assert "PlainConfig" in message and f"{__name__}.scale" in message and mode in message


def test_plain_config_still_calls_ordinary_rules():
    assert PlainConfig().rrule(scale, 2.0)[0] == 6.0
    assert PlainConfig().rrule(len, [1, 2]) is None
    assert PlainConfig().frule((None, 1.0), len, [1, 2]) is None
