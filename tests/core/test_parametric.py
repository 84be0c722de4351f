"""Tests of ``parametric_rule``: arity, keywords, thunks, zeros and NotImplementedTangent."""

import numpy as np
import pytest

import chainrules as cr
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent, not_implemented, unthunk
from chainrules.core.dtypes import is_complex
from chainrules.core.parametric import SharedPartial, parametric_rule


def scaled_square(a, x, c=1.0):
    return a * x * x * c


parametric_rule(
    scaled_square,
    lambda a, x, *rest: x * x * (rest[0] if len(rest) > 1 else 1.0),
    lambda a, x, *rest: 2 * a * x * (rest[0] if len(rest) > 1 else 1.0),
    not_implemented("the scale c"),
    costly=(0,),
    required=2,
)


def test_values_thunks_and_missing_derivatives():
    y, pullback = cr.rrule(scaled_square, 2.0, np.array([1.0, 3.0]))
    np.testing.assert_array_equal(y, [2.0, 18.0])
    _, da, dx = pullback(np.ones(2))
    assert isinstance(da, cr.Thunk)
    assert unthunk(da) == 10.0
    np.testing.assert_array_equal(dx, [4.0, 12.0])
    cotangents = cr.rrule(scaled_square, 2.0, 1.0, 3.0)[1](1.0)
    assert isinstance(cotangents[3], NotImplementedTangent)


def test_frule_and_zero_tangents():
    _, dy = cr.frule((NoTangent(), 1.0, np.zeros(2)), scaled_square, 2.0, np.array([1.0, 3.0]))
    np.testing.assert_array_equal(dy, [1.0, 9.0])
    _, dy = cr.frule((NoTangent(), 0.0, 0.0, 1.0), scaled_square, 2.0, 1.0, 3.0)
    assert isinstance(dy, NotImplementedTangent)
    _, dy = cr.frule((NoTangent(), ZeroTangent(), ZeroTangent()), scaled_square, 2.0, 1.0)
    assert dy is ZeroTangent()
    assert cr.rrule(scaled_square, 2.0, 1.0)[1](ZeroTangent()) == (
        NoTangent(),
        ZeroTangent(),
        ZeroTangent(),
    )


def test_integer_arguments_and_arity():
    assert cr.rrule(scaled_square, 2, 1.5)[1](1.0)[1] is NoTangent()
    with pytest.raises(TypeError, match="2 to 3 positional"):
        cr.rrule(scaled_square, 2.0)


def test_is_complex():
    assert is_complex(1j) and is_complex(np.ones(2, dtype=np.complex64))
    assert not is_complex(1.0) and not is_complex(np.ones(2))


CALLS = []


def both_partials(a, x, y):
    CALLS.append((a, x))
    return x, a


def product(a, x):
    return a * x


parametric_rule(product, SharedPartial(both_partials, 0), SharedPartial(both_partials, 1))


def test_shared_partials_are_computed_once_per_call():
    CALLS.clear()
    _, pullback = cr.rrule(product, 2.0, 3.0)
    assert pullback(1.0) == (NoTangent(), 3.0, 2.0)
    assert len(CALLS) == 1
    _, tangent = cr.frule((NoTangent(), 1.0, 1.0), product, 2.0, 3.0)
    assert tangent == 5.0
    assert len(CALLS) == 2
