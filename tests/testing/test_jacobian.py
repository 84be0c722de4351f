"""Real coordinates of primals and tangents, used by full_jacobian=True."""

from __future__ import annotations

import numpy as np
from chainrules_testing.jacobian import (
    basis_tangent,
    coordinates,
    flatten_tangent,
    flatten_values,
)

from chainrules import Tangent


def test_complex_leaves_have_two_coordinates_each():
    x = {"z": np.array([1 + 2j, 3 - 4j]), "r": 0.5, "n": 2}
    labels = [c.label for c in coordinates(x, "args[0]")]
    assert labels == [
        "args[0]['z'][0] (real part)",
        "args[0]['z'][0] (imaginary part)",
        "args[0]['z'][1] (real part)",
        "args[0]['z'][1] (imaginary part)",
        "args[0]['r']",
    ]
    assert np.array_equal(flatten_values(x), [1, 2, 3, -4, 0.5])


def test_basis_tangents_are_unit_vectors_in_the_same_order():
    x = (np.zeros((2, 1)), 1j)
    for k in range(4):
        expected = np.zeros(4)
        expected[k] = 1.0
        assert np.array_equal(flatten_tangent(x, basis_tangent(x, k)), expected)


def test_missing_fields_flatten_to_zeros():
    x = (np.zeros(2), 1.0)
    assert np.array_equal(flatten_tangent(x, Tangent(tuple, np.ones(2), None)), [1, 1, 0])
