"""errors: every error chainrules raises is a ChainRulesError and the builtin type it means."""

import pytest

from chainrules.core import errors


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (errors.AmbiguousRuleError, TypeError),
        (errors.ArrayTypeError, TypeError),
        (errors.MissingCapabilityError, TypeError),
        (errors.ProjectionError, ValueError),
        (errors.RuleDefinitionError, TypeError),
        (errors.RuleKeywordError, TypeError),
        (errors.TangentTypeError, TypeError),
    ],
)
def test_each_error_is_ours_and_a_builtin(error, builtin):
    assert issubclass(error, errors.ChainRulesError) and issubclass(error, builtin)
    assert sorted(errors.__all__) == sorted(name for name in vars(errors) if name.endswith("Error"))
