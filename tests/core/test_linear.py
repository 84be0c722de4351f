"""Tests of the helpers for linear maps: linear_rule, source maps and scatters."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.core.errors import RuleKeywordError
from chainrules.core.linear import accumulate, gather_adjoint, linear_rule, scatter_add, source_map
from chainrules.core.sequences import nest_like


def scaled(x, factor, *, power=1):
    """A map linear in ``x``, registered once below."""
    return x * factor**power


def scaled_adjoint(dy, x_shape, factor, *, power=1):
    return np.conj(factor**power) * dy


def only_positive(factor, *, power=1):
    return factor > 0


linear_rule(scaled, scaled_adjoint, keywords=("power",), supports=only_positive)


def test_linear_rule() -> None:
    y, pullback = cr.rrule(scaled, np.ones(2), 3.0, power=2)
    np.testing.assert_array_equal(y, [9.0, 9.0])
    assert pullback.__name__ == "scaled_pullback"
    np.testing.assert_array_equal(pullback(np.array([1.0, 2.0]))[1], [9.0, 18.0])
    assert pullback(np.ones(2))[2] == NoTangent()
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    _, dy = cr.frule((NoTangent(), np.array([1.0, 0.0]), NoTangent()), scaled, np.ones(2), 2.0)
    np.testing.assert_array_equal(dy, [2.0, 0.0])
    assert cr.frule((NoTangent(), ZeroTangent(), NoTangent()), scaled, np.ones(2), 2.0)[1] == (
        ZeroTangent()
    )
    # Calls the rule does not support have no rule; unknown keywords are an error.
    assert cr.rrule(scaled, np.ones(2), -1.0) is None
    with pytest.raises(RuleKeywordError, match="'out'"):
        cr.rrule(scaled, np.ones(2), 2.0, out=None)


def test_source_map_and_scatter() -> None:
    np.testing.assert_array_equal(source_map(np.tile, (2,), 2), [1, 2, 1, 2])
    np.testing.assert_array_equal(
        scatter_add(np.array([[1, 0], [1, 2]]), np.array([[1.0, 5.0], [2.0, 3.0]]), (2,)),
        [3.0, 3.0],
    )
    total = accumulate(np.array([0, 0]), np.array([1.0 + 1.0j, 2.0 - 3.0j]), 2)
    np.testing.assert_array_equal(total, [3.0 - 2.0j, 0.0])
    dy = np.array([1.0, 2.0, 4.0, 8.0], dtype=np.float32)
    dx = gather_adjoint(np.resize)(dy, (3,), (4,))
    np.testing.assert_array_equal(dx, [9.0, 2.0, 4.0])
    assert dx.dtype == np.float32


def test_nest_like() -> None:
    nested = nest_like(np.arange(4.0).reshape(2, 2), [[1.0, 2.0], (3.0, 4.0)])
    assert isinstance(nested, list) and isinstance(nested[1], tuple)
    assert nested[1][1] == 3.0


@pytest.mark.parametrize(
    ("f", "args"),
    [
        (np.reshape, ([[1.0, 2.0]], (2,))),
        (np.concatenate, ([np.ones((2, 3)), [[1.0, 2.0, 3.0]]],)),
        (np.broadcast_arrays, ([1.0, 2.0], np.ones((3, 2)))),
        (np.append, ([1.0, 2.0], [[3.0]])),
        (np.take, ([1.0, 2.0, 3.0], [0, 0])),
        (np.matmul, ([[1.0, 2.0]], np.ones((2, 2)))),
        (np.einsum, ("ij->j", [[1.0, 2.0]])),
        (np.fft.fft, ([1.0, 2.0, 3.0],)),
        (np.linspace, ([0.0, 1.0], 2.0, 3)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_list_arguments(f, args) -> None:
    # NumPy takes lists where it takes arrays: their cotangents are Tangents of the lists.
    test_rrule(f, *args, seed=1)
    test_frule(f, *args, seed=1)
