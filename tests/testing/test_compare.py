"""assert_tangents_close: structures, zeros, paths and tolerances."""

from __future__ import annotations

import numpy as np
import pytest
from chainrules_testing import TangentMismatch, assert_tangents_close
from chainrules_testing.compare import primal_difference

from chainrules import NoTangent, Tangent, Thunk, ZeroTangent

CLOSE = [
    (np.ones(3), np.ones(3) * (1 + 1e-12)),
    (ZeroTangent(), np.zeros(2)),
    (NoTangent(), ZeroTangent()),
    (Thunk(lambda: 2.0), 2.0),
    (Tangent(dict, {"a": 1.0}), Tangent(dict, {"a": 1.0, "b": ZeroTangent()})),
    (np.array([np.nan, 1.0]), np.array([np.nan, 1.0])),
    # equal infinities are equal: inf - inf is NaN, but there is nothing between them
    (np.array([np.inf, -np.inf, 1.0]), np.array([np.inf, -np.inf, 1.0])),
    (np.array([complex(np.inf, 1.0)]), np.array([complex(np.inf, 1.0)])),
    (np.array([complex(np.nan, 2.0)]), np.array([complex(np.nan, 2.0)])),
    (-0.0, 0.0),
]

DIFFERENT = [
    # actual, expected, path in the message
    (np.ones(3), np.array([1.0, 1.0, 2.0]), "t[2]"),
    (np.ones(3), np.ones(2), "t: actual has shape (3,)"),
    (Tangent(dict, {"a": np.ones(2)}), Tangent(dict, {"a": np.zeros(2)}), "t['a'][0]"),
    (Tangent(tuple, 1.0, 2.0), Tangent(tuple, 1.0, 3.0), "t[1]"),
    (ZeroTangent(), np.array([0.0, 1e-3]), "t[1]"),
    (Tangent(tuple, 1.0), Tangent(list, 1.0), "t: actual"),
    # what differs, where: never "actual inf, expected inf"
    (
        np.array([1.0, np.inf]),
        np.array([1.0, -np.inf]),
        "t[1]: actual inf, expected -inf; the infinities differ in sign",
    ),
    (
        np.array([np.nan, 2.0]),
        np.array([np.inf, 2.0]),
        "t[0]: actual nan, expected inf; a NaN where +inf belongs",
    ),
    (
        np.array([0.0, 3.0]),
        np.array([0.0, np.inf]),
        "t[1]: actual 3.0, expected inf; a finite value where +inf belongs",
    ),
    (
        np.array([complex(np.inf, 1.0)]),
        np.array([complex(np.inf, 2.0)]),
        "t[0]: actual "
        "(inf+1j), expected (inf+2j); the imaginary parts differ: absolute error 1.000e+00",
    ),
    (np.array([complex(np.nan, 1.0)]), np.array([complex(1.0, np.nan)]), "the real parts"),
]


@pytest.mark.parametrize(("a", "b"), CLOSE, ids=repr)
def test_close_tangents_pass(a, b):
    assert_tangents_close(a, b)


@pytest.mark.parametrize(("a", "b", "where"), DIFFERENT, ids=repr)
def test_different_tangents_fail_naming_the_place(a, b, where):
    with pytest.raises(TangentMismatch) as info:
        assert_tangents_close(a, b, path="t")
    assert f"tangents differ at {where}" in str(info.value) or where in str(info.value)


def test_tolerances_apply():
    assert_tangents_close(np.ones(2), np.ones(2) * 1.01, rtol=0.02)
    assert_tangents_close(np.zeros(2), np.full(2, 1e-3), atol=1e-2)


def test_cyclic_tangents_compare_once():
    from chainrules import MutableTangent

    a = MutableTangent(dict, {"v": 1.0})
    a["self"] = a
    b = MutableTangent(dict, {"v": 1.0})
    b["self"] = b
    assert_tangents_close(a, b)


@pytest.mark.parametrize(
    ("actual", "expected", "found"),
    [
        (np.ones(2), np.ones(2), None),
        (np.float64(1.0), 1.0, None),
        (np.ones(2, dtype=np.float32), np.ones(2), "at y: actual has dtype float32"),
        ((1.0, 2), (1.0, 3), "at y[1]"),
        (np.array([np.inf, 1.0]), np.array([np.inf, 1.0]), None),
        (np.float64(-np.inf), -np.inf, None),
        (np.array([1.0, np.inf]), np.array([1.0, np.nan]), "at y[1]: actual inf, expected nan"),
    ],
)
def test_primal_difference_names_layout_dtype_and_value(actual, expected, found):
    result = primal_difference(actual, expected, rtol=1e-9, atol=0.0)
    assert (result is None) == (found is None)
    assert found is None or str(result).startswith(found)
