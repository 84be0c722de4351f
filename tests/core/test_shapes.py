"""shapes: axis bookkeeping on Python values, the same for every array type."""

import numpy as np
import pytest

from chainrules.core.shapes import (
    count_reduced,
    expand_reduced,
    normalize_axes,
    normalize_axis,
    reduced_shape,
    shape_of,
)


def test_shape_of_numbers_arrays_and_nested_lists():
    assert shape_of(np.float32(1)) == () and shape_of(np.ones((0, 2))) == (0, 2)
    assert shape_of([[1.0], [2.0]]) == (2, 1)


def test_axes_are_normalized_and_checked():
    assert normalize_axis(-3, 3) == 0 and normalize_axis(0, 0) == 0  # a 0-d array has axis 0
    assert normalize_axes((2, -3), 3) == (0, 2) and normalize_axes(None, 3) == (0, 1, 2)
    with pytest.raises(ValueError, match="out of bounds"):
        normalize_axis(3, 3)


def test_reduced_shapes_and_counts():
    assert reduced_shape((2, 3, 4), (1,)) == (2, 1, 4) and reduced_shape((2, 3), (0, 1)) == (1, 1)
    assert count_reduced((2, 3, 4), (0, 1, 2)) == 24 and count_reduced((2, 3), ()) == 1


@pytest.mark.parametrize("keepdims", [False, True])
def test_expand_reduced_is_the_adjoint_of_a_sum(keepdims):
    rng = np.random.default_rng(0)
    x, axes = rng.standard_normal((2, 3, 4)), (0, 2)
    dy = rng.standard_normal((3,) if not keepdims else (1, 3, 1))
    dx = expand_reduced(dy, x.shape, axes, keepdims)
    assert dx.shape == x.shape
    lhs = np.vdot(dy, np.sum(x, axis=axes, keepdims=keepdims))
    assert lhs == pytest.approx(np.vdot(dx, x), rel=1e-12)  # <dy, sum x> = <expand dy, x>
