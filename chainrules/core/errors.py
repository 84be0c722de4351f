"""Error classes. Each message names the function and, where there is one, the argument."""

from __future__ import annotations

__all__ = [
    "AmbiguousRuleError",
    "ArrayTypeError",
    "ChainRulesError",
    "LazyArrayError",
    "MissingCapabilityError",
    "ProjectionError",
    "RuleDefinitionError",
    "RuleKeywordError",
    "TangentTypeError",
]


class ChainRulesError(Exception):
    """Base class of every error raised by chainrules itself."""


class RuleKeywordError(ChainRulesError, TypeError):
    """A keyword argument that the rule for a function does not accept."""


class AmbiguousRuleError(ChainRulesError, TypeError):
    """Several rules match the argument types and none is more specific than the others."""


class ArrayTypeError(ChainRulesError, TypeError):
    """A rule given arrays of a type it cannot compute on (a compiled SciPy routine that has no
    counterpart in the array namespace of a torch tensor, say). Adapters read it as "run this
    rule on NumPy copies"; anywhere else it is the error the user sees."""


class LazyArrayError(ChainRulesError, TypeError):
    """A rule or a differentiated function would compute a dask array while it is being
    differentiated, pulling it into memory; the message names the function."""


class RuleDefinitionError(ChainRulesError, TypeError):
    """A rule that cannot be registered as written (bad annotation, bad partials)."""


class MissingCapabilityError(ChainRulesError, TypeError):
    """A rule config was asked for something it cannot do (``rrule_via_ad`` without AD)."""


class ProjectionError(ChainRulesError, ValueError):
    """A tangent that cannot be projected onto its primal's tangent space (shapes differ)."""


class TangentTypeError(ChainRulesError, TypeError):
    """A value given where a tangent was needed that is not one (an integer, a string)."""
