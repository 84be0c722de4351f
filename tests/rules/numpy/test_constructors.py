"""Tests of the rules for constructors that take values: full, linspace, geomspace, array..."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

NO = NoTangent()
RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4))
Z = X + 1j * RNG.standard_normal((3, 4))
POSITIVE = RNG.uniform(1.0, 2.0, (2, 4))
ROWS = [
    (np.full_like, (X, 2.5), {}),
    (np.full_like, (X, X[0]), {}),
    (np.full_like, (Z, 1.5 - 2.0j), {}),
    (np.full, (with_tangent((2, 3, 4), NO), X[0]), {}),
    (np.linspace, (1.0, 3.0, with_tangent(5, NO)), {}),
    (np.linspace, (X[0], X[1], with_tangent(5, NO)), {"axis": -1}),
    (np.linspace, (X[0], 2.0, with_tangent(4, NO), with_tangent(False, NO)), {}),
    (np.linspace, (Z[0], Z[1]), {"num": 3, "axis": 1}),
    (np.linspace, (X[0], X[1, :1]), {"num": 3, "axis": 1, "retstep": True}),
    (np.array, ([X[0], X[1]],), {}),
    (np.array, ([[1.0, 2.0], (X[0, 0], 4.0)],), {}),
    (np.array, (X,), {"ndmin": 4}),
    (np.array, ([Z[0], Z[1]],), {"dtype": np.complex64}),
    (np.asarray, ([X, X],), {}),
    (np.asanyarray, (X,), {}),
    (np.ascontiguousarray, (X.T,), {}),
    (np.asfortranarray, ([X[0], X[1]],), {}),
    (np.asarray_chkfinite, ([X[0], X[1]],), {}),
    (np.require, (X,), {"requirements": "F"}),
    (np.geomspace, (1.5, 3.0, with_tangent(5, NO)), {}),
    (np.geomspace, (POSITIVE[0], POSITIVE[1], with_tangent(4, NO), with_tangent(False, NO)), {}),
    (np.geomspace, (-POSITIVE[0], -POSITIVE[1]), {"num": 3, "axis": -1}),
    (np.geomspace, (1.0 + 1.0j, 2.0 - 0.5j), {"num": 4}),
    (np.logspace, (0.5, 1.0, with_tangent(5, NO)), {}),
    (np.logspace, (X[0], X[1], with_tangent(4, NO), with_tangent(True, NO), 2.5), {}),
    (np.logspace, (X[0], X[1], with_tangent(3, NO), with_tangent(True, NO), POSITIVE[0]), {}),
    (np.logspace, (X[0], X[1]), {"num": 3, "base": 3.0, "axis": 1}),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r[0].__name__)
def test_rules(row: tuple) -> None:
    f, args, kwargs = row
    test_rrule(f, *args, fkwargs=kwargs, seed=1)
    test_frule(f, *args, fkwargs=kwargs, seed=1)


def test_exact_values() -> None:
    _, pullback = cr.rrule(np.linspace, 0.0, 1.0, 3)
    assert pullback(np.ones(3)) == (NO, 1.5, 1.5, NO)
    # The endpoint is stop itself: start's cotangent there is exactly zero.
    _, pullback = cr.rrule(np.linspace, 0.0, 1.0, 5)
    assert pullback(np.array([0.0, 0.0, 0.0, 0.0, 1.0]))[1:3] == (0.0, 1.0)
    # The template of full_like has a tangent space but no influence.
    _, pullback = cr.rrule(np.full_like, X, 2.0)
    assert pullback(np.ones((3, 4)))[1:] == (ZeroTangent(), 12.0)
    # An integer result has no tangent.
    _, pullback = cr.rrule(np.full_like, np.ones(3, dtype=int), 2.0)
    assert pullback(np.ones(3))[2] == ZeroTangent()


def test_templates_are_non_differentiable() -> None:
    for f in (np.zeros_like, np.ones_like, np.empty_like):
        y, pullback = cr.rrule(f, X)
        assert y.shape == X.shape
        assert pullback(np.ones((3, 4))) == (NO, NO)
    for f, args in [(np.zeros, ((2,),)), (np.eye, (3,)), (np.arange, (1.0, 4.0)), (np.tri, (3,))]:
        assert cr.rrule(f, *args)[1](None) == (NO,) * (len(args) + 1)
