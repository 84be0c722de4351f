"""methods: what a registered rule accepts, read once from its signature."""

import numbers

import pytest

from chainrules.core.arguments import REQUIRED
from chainrules.core.errors import RuleDefinitionError
from chainrules.core.methods import at_least_as_specific, method_from, takes_keywords


def test_a_rules_signature_gives_types_counts_keywords_names_and_defaults():
    def rule(x: float, axis: int | None = None, *rest, keepdims=False):
        return None

    m = method_from(rule, "rrule", None)
    assert m.types == (float, (int, type(None)))
    assert (m.required, m.varargs, m.most) == (1, object, float("inf"))
    assert m.keywords == frozenset({"x", "axis", "keepdims"})
    assert (m.names, m.defaults) == (("x", "axis"), (REQUIRED, None))
    assert takes_keywords(m, {"axis": 0}) and not takes_keywords(m, {"out": None})


def test_an_frule_and_a_config_are_not_arguments():
    def frule_with_config(config, tangents, x, n=2):
        return None

    m = method_from(frule_with_config, "frule", needs=object)
    assert (m.names, m.required) == (("x", "n"), 1)


def test_specificity_is_judged_parameter_by_parameter():
    real = method_from(_annotated(numbers.Real), "rrule", None)
    floats = method_from(_annotated(float), "rrule", None)
    assert at_least_as_specific(floats, real, 1) and not at_least_as_specific(real, floats, 1)


def _annotated(t):
    def rule(x: t):
        return None

    return rule


def test_an_annotation_that_is_not_a_class_is_refused():
    def rule(x: "list[int] | 3"):
        return None

    with pytest.raises(RuleDefinitionError):
        method_from(rule, "rrule", None)
