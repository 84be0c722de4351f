"""space_problem: which tangents lie in which primal's tangent space."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest
from chainrules_testing.space import ZERO_FOR_NO_TANGENT, space_problem

from chainrules import MutableTangent, NoTangent, Tangent, Thunk, ZeroTangent, not_implemented

Pair = namedtuple("Pair", "a b")
F32 = np.ones(3, dtype=np.float32)

IN_SPACE = [
    # primal                 tangent
    (np.ones(3), np.zeros(3)),
    (F32, np.zeros(3, dtype=np.float32)),
    (np.ones(2, dtype=complex), np.ones(2, dtype=complex)),
    (1.5, 2.0),
    (1.5, np.float64(2.0)),
    (1j, 2.0),
    (np.float32(1.0), np.float32(2.0)),
    (np.float64(1.0), 2.0),
    (3, NoTangent()),
    (np.ones(2), ZeroTangent()),
    (np.ones(2), Thunk(lambda: np.ones(2))),
    (np.ones(2), not_implemented("later")),
    (Pair(1.0, 2), Tangent(Pair, a=1.0)),
    ({"a": 1.0}, MutableTangent(dict, {"a": 1.0})),
]

OUT_OF_SPACE = [
    # primal          tangent                              path      text
    (np.ones(3), np.zeros(2), "x", "has shape (2,), but the primal has shape (3,)"),
    (F32, np.zeros(3), "x", "has dtype float64, but the primal has dtype float32"),
    (np.ones(2), np.ones(2, dtype=complex), "x", "is complex"),
    (1.5, 2j, "x", "is complex"),
    (1.5, np.ones(2), "x", "a Python float (a scalar)"),
    (np.ones(2), 1.0, "x", "but the primal is a ndarray"),
    (3, ZeroTangent(), "x", ZERO_FOR_NO_TANGENT),
    (3, 1.0, "x", "expected NoTangent()"),
    (Pair(1.0, 2), (1.0, NoTangent()), "x", "takes Tangent(Pair"),
    (Pair(1.0, 2), Tangent(tuple, 1.0, 2.0), "x", "is a Tangent of tuple"),
    (Pair(np.ones(2), 2), Tangent(Pair, a=np.ones(3)), "x.a", "has shape (3,)"),
    ({"a": 1.0}, Tangent(dict, {"a": 1.0, "z": 2.0}), "x", "fields ['z']"),
    (np.ones(2), Tangent(tuple, 1.0), "x", "structural"),
]


@pytest.mark.parametrize(("primal", "tangent"), IN_SPACE, ids=repr)
def test_tangents_in_the_space_pass(primal, tangent):
    assert space_problem(primal, tangent, "x") is None


@pytest.mark.parametrize(("primal", "tangent", "path", "text"), OUT_OF_SPACE, ids=repr)
def test_tangents_outside_the_space_are_named(primal, tangent, path, text):
    where, what = space_problem(primal, tangent, "x")
    assert where == path and text in what


def test_a_marked_argument_takes_no_tangent():
    assert space_problem(1.5, NoTangent(), "x", no_tangent=True) is None
    assert space_problem(1.5, 1.0, "x", no_tangent=True) is not None
