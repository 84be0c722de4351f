"""What test_rrule and test_frule share (checks.py): arguments with no entries, outputs whose
shape changes under the steps, and the rounding of derivatives that cancel to 0."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from chainrules_testing import (
    FiniteDifferenceMismatch,
    RuleDisagreement,
    UnstableOutputShape,
    test_frule,
    test_rrule,
    with_tangent,
)
from chainrules_testing.primals import moves_nothing

import chainrules as cr
from chainrules import NoTangent, ZeroTangent, unthunk

# ---- arguments with no entries: the derivative along them is 0 exactly ------------------


def _std_of_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "degrees of freedom <= 0"
        return np.std(np.zeros(0))


def test_a_direction_with_no_non_zero_entry_moves_nothing():
    assert moves_nothing(np.zeros(0), np.zeros(0))
    assert moves_nothing((np.zeros((2, 0)), 1.0), (np.zeros((2, 0)), 0.0))
    assert not moves_nothing((np.zeros(0), 1.0), (np.zeros(0), 0.5))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_std_of_an_empty_array_is_nan_and_its_cotangent_is_checked_exactly():
    # std of nothing is NaN (NumPy's value, and the rule's primal); no entry moves, so
    # <dy, J dx> is an empty sum: 0 = 0, where differences of NaNs would say NaN.
    assert np.isnan(_std_of_nothing())
    test_rrule(np.std, np.zeros(0), seed=0, check_second_order=False)
    test_rrule(np.std, np.zeros(0), seed=0, check_second_order=False, full_jacobian=True)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_pushforward_of_no_entries_must_be_zero():
    def zero_frule(tangents, f, x):
        return np.std(x), 0.0

    def nan_frule(tangents, f, x):
        return np.std(x), np.nan

    def one_frule(tangents, f, x):
        return np.std(x), 1.0

    test_frule(np.std, np.zeros(0), frule_f=zero_frule, seed=0, check_second_order=False)
    for wrong in (nan_frule, one_frule):
        with pytest.raises(FiniteDifferenceMismatch, match="exactly 0"):
            test_frule(np.std, np.zeros(0), frule_f=wrong, seed=0, check_second_order=False)


def test_empty_arguments_of_ordinary_functions_pass():
    test_rrule(np.sum, np.zeros(0), seed=0)
    test_frule(np.sin, np.zeros((0, 3)), seed=0)
    test_rrule(np.dot, np.zeros(0), np.zeros(0), seed=0)


# ---- outputs whose shape changes within the steps --------------------------------------


@pytest.mark.parametrize(
    "f, x",
    [
        (np.trim_zeros, np.array([0.0, 1.0, 2.0])),  # a leading zero is trimmed
        (np.roots, np.array([0.0, 1.0, 2.0])),  # a zero leading coefficient is dropped
        (np.unique, np.array([1.0, 1.0, 2.0])),  # a tie is one value
    ],
    ids=["trim_zeros", "roots", "unique"],
)
@pytest.mark.parametrize("check", [test_rrule, test_frule], ids=["rrule", "frule"])
def test_an_output_that_changes_shape_at_every_step_is_named(check, f, x):
    name = f.__name__
    with pytest.raises(UnstableOutputShape, match=rf"(?s)numpy\.{name}.*changes shape"):
        check(f, x, seed=0, check_second_order=False)


def _inside(x):
    return x[np.abs(x) < 1.5]


def _inside_rrule(f, x):
    keep = np.abs(x) < 1.5

    def inside_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, ZeroTangent):
            return NoTangent(), ZeroTangent()
        dx = np.zeros_like(x)
        dx[keep] = dy
        return NoTangent(), dx

    return x[keep], inside_pullback


def _inside_frule(tangents, f, x):
    return x[np.abs(x) < 1.5], unthunk(tangents[1])[np.abs(x) < 1.5]


def test_an_output_that_keeps_its_shape_at_small_steps_is_checked_there():
    # Steps from 2.0 take 0.1 past 1.5 and drop it; the smaller ones keep it.
    x = np.array([0.1, -0.2])
    test_rrule(_inside, x, rrule_f=_inside_rrule, seed=0, check_second_order=False)
    test_frule(_inside, x, frule_f=_inside_frule, seed=0, check_second_order=False)
    test_rrule(
        _inside, x, rrule_f=_inside_rrule, seed=0, check_second_order=False, full_jacobian=True
    )

    def wrong(f, x):
        y, pullback = _inside_rrule(f, x)
        return y, lambda dy: (NoTangent(), pullback(dy)[1] * 1.001)

    with pytest.raises(FiniteDifferenceMismatch):
        test_rrule(_inside, x, rrule_f=wrong, seed=0, check_second_order=False)


# ---- derivatives that cancel to 0 -------------------------------------------------------

# corrcoef of two observations is +-1 whatever they are: its derivatives are 0, and the rule
# gets them from terms of size 1 that cancel to ~1e-16.
_rng = np.random.default_rng(3)
TWO_OBSERVATIONS = [
    (_rng.standard_normal(2), _rng.standard_normal(2)),
    (_rng.standard_normal((2, 2)),),
    (_rng.standard_normal((3, 2)),),
]


@pytest.mark.parametrize("args", TWO_OBSERVATIONS, ids=["two vectors", "2x2", "3x2"])
def test_rounding_of_terms_that_cancel_passes(args):
    for seed in range(3):
        test_rrule(np.corrcoef, *args, seed=seed)
        test_frule(np.corrcoef, *args, seed=seed)
    test_rrule(np.corrcoef, *args, seed=0, full_jacobian=True, check_second_order=False)
    test_frule(np.corrcoef, *args, seed=0, full_jacobian=True, check_second_order=False)


def _off_by(defect):
    """corrcoef's rrule with ``defect`` times the cotangent's size added to every entry."""

    def wrong_rrule(f, *args):
        y, pullback = cr.rrule(f, *args)

        def off_pullback(dy):
            cotangents = pullback(dy)
            size = np.sum(np.abs(unthunk(dy)))
            return (NoTangent(), *(unthunk(c) + defect * size for c in cotangents[1:]))

        return y, off_pullback

    return wrong_rrule


def _frule_off_by(defect):
    def wrong_frule(tangents, f, *args):
        y, ydot = cr.frule(tangents, f, *args)
        return y, unthunk(ydot) + defect

    return wrong_frule


@pytest.mark.parametrize("args", TWO_OBSERVATIONS, ids=["two vectors", "2x2", "3x2"])
def test_a_wrong_rule_where_the_derivative_is_zero_still_fails(args):
    # 1e-10 of the terms' size is far above their rounding (~1e-16) and far below any
    # relative tolerance of a derivative that is not 0.
    with pytest.raises(FiniteDifferenceMismatch):
        test_rrule(np.corrcoef, *args, rrule_f=_off_by(1e-10), seed=0, check_second_order=False)
    with pytest.raises((FiniteDifferenceMismatch, RuleDisagreement)):
        test_frule(
            np.corrcoef, *args, frule_f=_frule_off_by(1e-10), seed=0, check_second_order=False
        )


def test_a_given_zero_tangent_of_a_non_empty_argument_is_checked_as_before():
    # A zero tangent moves nothing: the derivative is 0, and a rule that says so passes.
    test_frule(np.sin, with_tangent(np.ones(3), np.zeros(3)), seed=0, check_second_order=False)
