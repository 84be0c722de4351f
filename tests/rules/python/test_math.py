"""Tests of the rules for Python's math module: Python floats in, Python floats out."""

import math

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

# function, arguments (Python floats inside the domain)
UNARY = [
    (math.exp, 0.7),
    (math.exp2, 0.7),
    (math.expm1, -0.3),
    (math.log, 1.7),
    (math.log1p, 0.4),
    (math.log2, 1.7),
    (math.log10, 1.7),
    (math.sqrt, 1.7),
    (math.cbrt, -1.7),
    (math.sin, 0.7),
    (math.cos, 0.7),
    (math.tan, 0.7),
    (math.asin, 0.4),
    (math.acos, 0.4),
    (math.atan, 0.7),
    (math.sinh, 0.7),
    (math.cosh, 0.7),
    (math.tanh, 0.7),
    (math.asinh, 0.7),
    (math.acosh, 1.7),
    (math.atanh, 0.4),
    (math.degrees, 0.7),
    (math.radians, 40.0),
    (math.erf, 0.7),
    (math.erfc, 0.7),
    (math.gamma, 2.3),
    (math.gamma, -1.5),
    (math.lgamma, 2.3),
    (math.lgamma, -1.5),
    (math.fabs, -0.7),
    (math.ulp, 0.7),
    (math.modf, 2.3),
    (math.frexp, 2.3),
]
BINARY = [
    (math.log, 1.7, 3.0),
    (math.pow, 1.7, 0.6),
    (math.pow, -1.7, 3),
    (math.atan2, 0.7, -1.3),
    (math.hypot, 0.7, -1.3),
    (math.copysign, 0.7, -1.3),
    (math.fmod, -5.3, 2.0),
    (math.remainder, 5.3, 2.0),
    (math.ldexp, 0.7, 3),
    (math.hypot, 0.3, -0.2, 0.5),
    (math.nextafter, 0.7, 1.3),
]
# functions of sequences: their cotangents are structural
SEQUENCES = [
    (math.fsum, ([0.5, 1.5, -2.0],)),
    (math.prod, ([0.5, 1.5, -2.0],)),
    (math.prod, ([0.5, 0.0, 2],)),
    (math.dist, ([0.5, 1.5], [1.0, -1.0])),
]
CASES = [(f, (x,)) for f, x in UNARY] + [(row[0], row[1:]) for row in BINARY]


@pytest.mark.parametrize("f, args", CASES, ids=[f"{f.__name__}{args}" for f, args in CASES])
def test_rules(f, args):
    # Second order too: the rules reach math's functions through chainrules.core.calls.call.
    test_rrule(f, *args)
    test_frule(f, *args)


@pytest.mark.parametrize("f, args", CASES, ids=[f"{f.__name__}{args}" for f, args in CASES])
def test_python_floats_in_and_out(f, args):
    y, pullback = cr.rrule(f, *args)
    assert y == f(*args)
    ones = tuple(1.0 for _ in y) if isinstance(y, tuple) else 1.0
    for x, dx in zip(args, pullback(ones)[1:], strict=True):
        assert type(dx) in ((float, ZeroTangent) if type(x) is float else (NoTangent,))
    _, dy = cr.frule((NoTangent(), *(1.0 for _ in args)), f, *args)
    for y_i, dy_i in zip(*((y, dy) if isinstance(y, tuple) else ((y,), (dy,))), strict=True):
        assert type(dy_i) in ((float, ZeroTangent) if type(y_i) is float else (NoTangent,))


@pytest.mark.parametrize("f, args", SEQUENCES, ids=[f.__name__ for f, _ in SEQUENCES])
def test_sequences(f, args):
    test_rrule(f, *args)
    test_frule(f, *args)


def test_sequence_hard_points():
    # prod's cotangents come from the other factors, exactly, with a zero among them.
    assert list(cr.rrule(math.prod, [0.5, 0.0, -2.0])[1](1.0)[1]) == [-0.0, -1.0, 0.0]
    assert list(cr.rrule(math.prod, [2.0, 3.0], start=2.0)[1](1.0)[1]) == [6.0, 4.0]
    _, dp, dq = cr.rrule(math.dist, [0.5, 1.5], [0.5, 1.5])[1](1.0)
    assert (list(dp), list(dq)) == ([0.0, 0.0], [0.0, 0.0])


def test_hard_points():
    with np.errstate(divide="ignore"):
        assert cr.rrule(math.sqrt, 0.0)[1](1.0) == (NoTangent(), math.inf)
    assert cr.rrule(math.fabs, 0.0)[1](1.0) == (NoTangent(), 0.0)
    assert cr.rrule(math.hypot, 0.0, 0.0)[1](1.0) == (NoTangent(), 0.0, 0.0)
    assert cr.rrule(math.atan2, 0.0, 0.0)[1](1.0) == (NoTangent(), 0.0, 0.0)
    assert cr.rrule(math.pow, 0.0, 2.0)[1](1.0) == (NoTangent(), 0.0, 0.0)
    assert cr.rrule(math.pow, 0.0, 0.0)[1](1.0) == (NoTangent(), 0.0, 0.0)
    assert cr.rrule(math.pow, -2.0, 3.0)[1](1.0) == (NoTangent(), 12.0, -8.0 * math.log(2.0))
    assert cr.rrule(math.log, 8.0, 2.0)[1](1.0) == pytest.approx(
        (NoTangent(), 1 / (8.0 * math.log(2.0)), -3.0 / (2.0 * math.log(2.0)))
    )


def test_integer_arguments_and_results():
    assert cr.rrule(math.sin, 1)[1](1.0) == (NoTangent(), NoTangent())
    for f in (math.floor, math.ceil, math.trunc, math.isnan, math.isfinite):
        y, pullback = cr.rrule(f, 2.5)
        assert y == f(2.5)
        assert pullback(1.0) == (NoTangent(), NoTangent())
        assert cr.frule((NoTangent(), 1.0), f, 2.5)[1] is NoTangent()
    assert cr.rrule(math.factorial, 4)[0] == 24
