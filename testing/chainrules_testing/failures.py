"""The failures the harness raises: one ``AssertionError`` subclass per kind of defect.

Every failure message names the function, the argument (``args[1]``, or inside structures a
path such as ``args[1].weights['b'][2, 3]``), what was expected and what the rule gave, and
the seed that reproduces the random draws. Catch ``RuleTestFailure`` for any of them.

>>> issubclass(FiniteDifferenceMismatch, AssertionError)
True
"""

from __future__ import annotations

__all__ = [
    "ComplexConventionError",
    "CotangentCountError",
    "FiniteDifferenceMismatch",
    "InputMutated",
    "MissingRuleError",
    "NondeterministicRule",
    "PrimalMismatch",
    "RuleDisagreement",
    "RuleRaised",
    "RuleTestFailure",
    "SecondOrderMismatch",
    "SecondOrderUnavailable",
    "SecondOrderUntraceable",
    "TangentMismatch",
    "TangentSpaceError",
    "ThunkMismatch",
    "UnstableOutputShape",
    "ZeroTangentForNoTangent",
    "ZeroTangentInputError",
]


class RuleTestFailure(AssertionError):
    """Base class of every check of a rule that failed."""


class MissingRuleError(RuleTestFailure):
    """``rrule`` or ``frule`` returned ``None``: no rule applies to these arguments."""


class RuleRaised(RuleTestFailure):
    """The rule, its pullback or its pushforward raised on the test's arguments; the error is
    chained as the cause."""


class PrimalMismatch(RuleTestFailure):
    """The rule's primal output differs from ``f`` called on copies of the inputs."""


class InputMutated(RuleTestFailure):
    """``f``, the rule or its pullback changed an input or the incoming cotangent."""


class CotangentCountError(RuleTestFailure):
    """The pullback did not return a tuple of one cotangent for ``f`` plus one per argument."""


class ZeroTangentForNoTangent(RuleTestFailure):
    """A ``ZeroTangent()`` where the argument has no tangent space and ``NoTangent()`` belongs."""


class TangentSpaceError(RuleTestFailure):
    """A tangent outside its primal's tangent space: shape, dtype, real/complex or structure."""


class TangentMismatch(RuleTestFailure):
    """Two tangents that should agree differ (``assert_tangents_close``)."""


class FiniteDifferenceMismatch(RuleTestFailure):
    """The rule's derivative disagrees with finite differences."""


class UnstableOutputShape(RuleTestFailure):
    """``f``'s output changes shape (or structure) within the finite-difference steps
    (np.unique, np.trim_zeros, np.roots as values meet or reach 0): differences cannot check
    its derivative at these arguments."""


class ThunkMismatch(RuleTestFailure):
    """Thunked and plain cotangents (or an ``InplaceableThunk``'s two paths) differ."""


class ZeroTangentInputError(RuleTestFailure):
    """A zero cotangent (or input tangent) did not give zero results, or raised."""


class NondeterministicRule(RuleTestFailure):
    """Calling the pullback (or frule) twice with the same input gave different results."""


class RuleDisagreement(RuleTestFailure):
    """The frule and the rrule of one function disagree: <dy, frule(dx)> != <pullback(dy), dx>."""


class FastPathMismatch(RuleTestFailure):
    """A fast path's value or cotangents differ from those of the rule it stands in for."""


class ComplexConventionError(RuleTestFailure):
    """A holomorphic function's pullback is not ``conj(f'(z)) * dy`` (a conj is missing)."""


class SecondOrderMismatch(RuleTestFailure):
    """The pullback, differentiated by the reverse engine, disagrees with finite differences."""


class SecondOrderUntraceable(RuleTestFailure):
    """The pullback (or pushforward) raised when the reverse engine ran it on tracked values:
    it leaves the engine (``float(x)``, ``np.asarray(x)``, compiled code). The engine's error
    is chained as the cause; ``check_second_order=False`` skips the check."""


class SecondOrderUnavailable(NotImplementedError):
    """``check_second_order=True`` needs the reverse engine, which is not available."""
