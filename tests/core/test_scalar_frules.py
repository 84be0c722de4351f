"""scalar_frules: the frules scalar_rule builds sum the partials times the tangents, broadcast
to the output and projected onto its space."""

import numpy as np
import pytest

from chainrules.core.errors import TangentTypeError
from chainrules.core.partials import constant
from chainrules.core.scalar_frules import elementwise_frule, fit_to_output
from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT

MULTIPLY = ((lambda x1, x2, y: x2, lambda x1, x2, y: x1),)
SUBTRACT = ((constant(1.0), constant(-1.0)),)


def test_the_tangent_is_the_sum_of_partials_times_tangents_broadcast_to_the_output():
    rule = elementwise_frule(np.multiply, MULTIPLY, False, 2)
    x1, x2 = np.array([1.0, 2.0]), 3.0
    y, dy = rule((NO_TANGENT, np.array([1.0, -1.0]), 0.5), x1, x2)
    np.testing.assert_array_equal(y, [3.0, 6.0])
    np.testing.assert_array_equal(dy, [3.0 + 0.5, -3.0 + 1.0])
    # a tangent for the scalar alone still gives a tangent of the output's shape
    _, dy = rule((NO_TANGENT, ZERO_TANGENT, 1.0), x1, x2)
    assert dy.shape == (2,)
    np.testing.assert_array_equal(dy, x1)


def test_unit_partials_add_and_subtract_the_tangents_exactly():
    rule = elementwise_frule(np.subtract, SUBTRACT, False, 2)
    dx1, dx2 = np.array([0.1, 0.2]), np.array([0.3, 0.7])
    _, dy = rule((NO_TANGENT, dx1, dx2), np.zeros(2), np.zeros(2))
    np.testing.assert_array_equal(dy, dx1 - dx2)


def test_a_wrong_number_of_tangents_names_the_function():
    rule = elementwise_frule(np.multiply, MULTIPLY, False, 2)
    with pytest.raises(TangentTypeError, match=r"multiply.*expected 3 tangents"):
        rule((NO_TANGENT, 1.0), 2.0, 3.0)


def test_fit_to_output_broadcasts_copies_and_projects():
    y = np.zeros((2, 3), dtype=np.float32)
    dy = np.array([1.0, 2.0, 3.0])
    fitted = fit_to_output(dy, y)
    assert fitted.shape == (2, 3) and fitted.dtype == np.float32
    fitted[0, 0] = 5.0  # a copy: writable, and the tangent given is not changed
    assert dy[0] == 1.0
    assert fit_to_output(ZERO_TANGENT, y) is ZERO_TANGENT
