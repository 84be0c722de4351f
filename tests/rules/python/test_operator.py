"""Tests of the rules for Python's operator functions, on floats and on arrays."""

import operator

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

rng = np.random.default_rng(0)
A, B = rng.uniform(0.5, 2.0, (2, 3)), rng.uniform(0.5, 2.0, 3)

# function, arguments
CASES = [
    (operator.add, (0.7, -1.3)),
    (operator.sub, (0.7, -1.3)),
    (operator.mul, (0.7, -1.3)),
    (operator.truediv, (0.7, -1.3)),
    (operator.floordiv, (5.3, 2.0)),
    (operator.mod, (-5.3, 2.0)),
    (operator.pow, (1.7, 0.6)),
    (operator.pow, (-1.7, 3)),
    (operator.neg, (0.7,)),
    (operator.pos, (0.7,)),
    (operator.abs, (-0.7,)),
    (operator.abs, (0.3 - 0.4j,)),
    (operator.mul, (0.3 - 0.4j, 1.5 + 0.5j)),
    (operator.truediv, (0.3 - 0.4j, 1.5 + 0.5j)),
    (operator.add, (A, B)),
    (operator.mul, (A, B)),
    (operator.truediv, (A, B)),
    (operator.pow, (A, B)),
    (operator.mod, (A + 2.0, B)),
    (operator.neg, (A,)),
    (operator.abs, (A - 1.0,)),
]


@pytest.mark.parametrize("f, args", CASES, ids=[f.__name__ for f, _ in CASES])
def test_rules(f, args):
    # The engine's tracked values go through the operators as through the ufuncs.
    test_rrule(f, *args, check_second_order=True)
    test_frule(f, *args, check_second_order=True)


def test_python_floats_in_and_out():
    for f, args in CASES[:14]:
        y, pullback = cr.rrule(f, *args)
        assert type(y) is type(f(*args))
        for x, dx in zip(args, pullback(1.0)[1:], strict=True):
            assert type(dx) in ((NoTangent,) if type(x) is int else (type(x), ZeroTangent))


def test_hard_points():
    assert cr.rrule(operator.abs, 0.0)[1](1.0) == (NoTangent(), 0.0)
    assert cr.rrule(operator.abs, 0j)[1](1.0) == (NoTangent(), 0j)
    assert cr.rrule(operator.pow, 0.0, 0.0)[1](1.0) == (NoTangent(), 0.0, 0.0)
    assert cr.rrule(operator.floordiv, 5.0, 2.0)[1](1.0) == (
        NoTangent(),
        ZeroTangent(),
        ZeroTangent(),
    )
    assert cr.rrule(operator.add, 1, 2)[1](1.0) == (NoTangent(), NoTangent(), NoTangent())


@pytest.mark.parametrize(
    "shape_a, shape_b",
    [
        ((3,), (3,)),
        ((2, 3), (3,)),
        ((3,), (3, 4)),
        ((2, 3), (3, 4)),
        ((5, 2, 3), (3, 4)),
        ((5, 2, 3), (3,)),
        ((1, 2, 3), (5, 3, 4)),
    ],
)
def test_matmul(shape_a, shape_b):
    a, b = rng.standard_normal(shape_a), rng.standard_normal(shape_b)
    test_rrule(operator.matmul, a, b, check_second_order=True)
    test_frule(operator.matmul, a, b, check_second_order=True)
    test_rrule(operator.matmul, a + 1j * rng.standard_normal(shape_a), b)


def test_sequences_have_no_rule():
    assert cr.rrule(operator.add, [1.0], [2.0]) is None
    assert cr.rrule(operator.mul, (1.0,), 3) is None
    assert cr.frule((NoTangent(), NoTangent(), NoTangent()), operator.add, "a", "b") is None


# ---- getitem and concat ---------------------------------------------------------------------

SEQUENCE_CASES = [
    (operator.getitem, (A, (0, slice(1, None)))),
    (operator.getitem, (A, 1)),
    (operator.getitem, ([0.5, np.ones(2), 1.5], 1)),
    (operator.getitem, ((0.5, -1.5, 2.5), slice(0, 2))),
    (operator.concat, ([0.5, 1.5], [2.5])),
    (operator.concat, ((0.5,), (np.ones(2), 1.5))),
]


@pytest.mark.parametrize(
    "f, args", SEQUENCE_CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(SEQUENCE_CASES)]
)
def test_getitem_and_concat(f, args):
    test_rrule(f, *args)
    test_frule(f, *args)


def test_getitem_and_concat_values():
    _, pullback = cr.rrule(operator.getitem, [1.0, 2.0, 3.0], 1)
    assert list(pullback(5.0)[1]) == [ZeroTangent(), 5.0, ZeroTangent()]
    _, pullback = cr.rrule(operator.concat, [1.0], [2.0, 3.0])
    _, da, db = pullback(cr.Tangent(list, 5.0, 6.0, 7.0))
    assert list(da) == [5.0] and list(db) == [6.0, 7.0]
    assert cr.rrule(operator.getitem, {"a": 1.0}, "a") is None
    assert cr.rrule(operator.concat, "a", "b") is None
