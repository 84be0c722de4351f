"""test_scalar: real and complex points, and the holomorphic convention."""

from __future__ import annotations

import math

import numpy as np
import pytest
from chainrules_testing import ComplexConventionError, test_scalar
from harness_cases import _csquare, _exp
from wrong_rules import _csquare_noconj

import chainrules as cr
from chainrules import NoTangent, unthunk


@pytest.mark.parametrize("x", [0.7, -1.3, 2.0])
def test_holomorphic_functions_pass_at_real_and_complex_points(x):
    test_scalar(_csquare, x, seed=1)
    test_scalar(_exp, x, seed=1)


def test_a_complex_point_can_be_given_or_skipped():
    test_scalar(_csquare, 0.7, complex_point=0.1 - 2j, seed=1)
    test_scalar(_csquare, 0.7, complex_point=False, seed=1)
    test_scalar(_csquare, 0.3 + 0.4j, seed=1)


def _abs2(z):
    return (z * np.conj(z)).real


@cr.rrule.register(_abs2)
def _abs2_rrule(z):
    project = cr.ProjectTo(z)

    def abs2_pullback(dy):
        return NoTangent(), project(2 * z * unthunk(dy))

    return _abs2(z), abs2_pullback


@cr.frule.register(_abs2)
def _abs2_frule(tangents, z):
    dz = unthunk(tangents[1])
    return _abs2(z), (2 * (np.conj(z) * dz).real)


def test_a_non_holomorphic_function_is_checked_by_the_general_checks():
    test_scalar(_abs2, 0.8, seed=2)


def _real_only(x):
    return math.log(x)


cr.scalar_rule(_real_only, lambda x, y: 1 / x)


def test_a_function_without_complex_input_is_tested_at_real_points_only():
    # math.log converts its argument with float(): no engine traces through it.
    test_scalar(_real_only, 1.5, seed=0, check_second_order=False)


def test_a_missing_conj_is_named():
    with pytest.raises(ComplexConventionError, match="the conj is missing"):
        test_scalar(_csquare_noconj, 0.4, seed=0)


@pytest.mark.parametrize("x", [1e-150, 1e150])
def test_the_missing_conj_is_named_at_tiny_and_huge_points(x):
    # Steps of 1 along the real axis are rounded away from 1e150: the convention check would
    # find f "not holomorphic" and skip itself.
    with pytest.raises(ComplexConventionError, match="the conj is missing"):
        test_scalar(_csquare_noconj, x, complex_point=x * (1 + 1j), seed=0)
    test_scalar(_csquare, x, complex_point=x * (1 + 1j), seed=0)
