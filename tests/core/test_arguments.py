"""arguments: a cotangent per positional argument passed, options passed on as given."""

from chainrules.core.arguments import given_options, positional_cotangents
from chainrules.core.tangents import NO_TANGENT


def _rule(x, axis=None, weights=None):
    return x, lambda dy: (NO_TANGENT, dy, NO_TANGENT, 2 * dy)


def test_cotangents_are_cut_to_the_positional_arguments_passed():
    rule = positional_cotangents(_rule)
    assert rule(1.0)[1](3.0) == (NO_TANGENT, 3.0)
    assert rule(1.0, 0, 2.0)[1](3.0) == (NO_TANGENT, 3.0, NO_TANGENT, 6.0)
    assert rule(1.0, weights=2.0)[1](3.0) == (NO_TANGENT, 3.0)  # keywords get none


def test_cotangents_are_padded_for_positional_arguments_without_tangent():
    def short_rule(x, axis=None, keepdims=False):
        return x, lambda dy: (NO_TANGENT, dy)

    assert positional_cotangents(short_rule)(1.0, 0, True)[1](3.0) == (
        NO_TANGENT,
        3.0,
        NO_TANGENT,
        NO_TANGENT,
    )


def test_a_rule_declining_the_call_declines_it_still():
    assert positional_cotangents(lambda x: None)(1.0) is None


def test_given_options_drop_what_was_not_given():
    assert given_options(dtype=None, keepdims=False, initial=0, where=True) == {
        "initial": 0,
        "where": True,
    }
