"""Tests of the rules for Python's math module: Python floats in, Python floats out."""

import math
import warnings

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.core.calls import call
from chainrules.engines import reverse

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
    # a NumPy array is a sequence too: its cotangent is an array
    (math.fsum, (np.array([0.5, 1.5, -2.0]),)),
    (math.prod, (np.array([0.5, 1.5, -2.0]),)),
    (math.dist, (np.array([0.5, 1.5]), np.array([1.0, -1.0]))),
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


@pytest.mark.parametrize("f, args", SEQUENCES, ids=[f"{f.__name__}{args}" for f, args in SEQUENCES])
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


# ---- accuracy at the edges (tests/accuracy/test_python.py sweeps the whole ranges) ---------


def test_tanh_expm1_and_friends_at_the_edges():
    # The former partials: 1 - y*y (0 from x = 19), y + 1 (0 below -37), 1 - x*x (8 digits
    # lost at 1 - 1e-8), 1 / (1 + x*x) and sqrt(x*x + 1) (0 from 1e154).
    d = lambda f, x: cr.rrule(f, x)[1](1.0)[1]
    assert d(math.tanh, 20.0) == pytest.approx(4 * math.exp(-40.0), rel=1e-14)
    assert d(math.expm1, -40.0) == pytest.approx(math.exp(-40.0), rel=1e-15)
    e = 1 - (1 - 1e-8)  # exact: the distance to 1 of the float 1 - 1e-8
    assert d(math.asin, 1 - e) == pytest.approx(1 / math.sqrt(e * (2 - e)), rel=1e-15)
    assert d(math.atanh, 1 - e) == pytest.approx(1 / (e * (2 - e)), rel=1e-15)
    assert d(math.atan, 1e155) == pytest.approx(1e-155 / 1e155, rel=1e-15)
    assert d(math.asinh, 1e200) == pytest.approx(1e-200, rel=1e-15)


@pytest.mark.parametrize(
    ("y", "x"), [(1.0, math.inf), (math.inf, 2.0), (-math.inf, math.inf), (math.inf, math.nan)]
)
def test_atan2_partials_where_an_argument_is_infinite(y, x):
    # |v| / r**2 <= 1 / r: 0 along every way to infinity (inf / inf / inf before)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cr.rrule(math.atan2, y, x)[1](1.0)[1:] == (0.0, 0.0)


def test_atan2_where_the_squared_radius_underflows():
    # x^2 + y^2 = 0 at (1e-200, 1e-200) took the origin's branch: partials 1e-200 for 5e199.
    _, dy, dx = cr.rrule(math.atan2, 1e-200, 1e-200)[1](1.0)
    assert (dy, dx) == (pytest.approx(5e199, rel=1e-15), pytest.approx(-5e199, rel=1e-15))


def test_hypot_second_derivative_where_one_coordinate_dominates():
    # d/dx (x / r) = y^2 / r^3, which 1/r - x^2/r^3 cancelled to 0 at x = 1e8, y = 1.
    f = lambda x: call(math.hypot, x, 1.0)
    assert reverse.grad(reverse.grad(f))(1e8) == pytest.approx(1e-24, rel=1e-14)
    assert cr.rrule(math.hypot, 0.0, 0.0, 0.0)[1](1.0) == (NoTangent(), 0.0, 0.0, 0.0)


def test_gamma_next_to_its_poles():
    # SciPy's digamma is off by 6e-9 relative at -1 + 1e-8; reflection with exact sinpi is not.
    x = -1 + 1e-8
    exact = 9999999899504813.839  # mpmath: gamma(x) digamma(x)
    assert cr.rrule(math.gamma, x)[1](1.0)[1] == pytest.approx(exact, rel=1e-14)
    assert cr.rrule(math.lgamma, x)[1](1.0)[1] == pytest.approx(exact / math.gamma(x), rel=1e-14)


def test_log_base_where_base_log_base_squared_overflows():
    big = 1.7976931348623157e308
    exact = -math.log(2.5) / math.log(big) ** 2 / big  # 1.0e-314, subnormal
    assert cr.rrule(math.log, 2.5, big)[1](1.0)[2] == pytest.approx(exact, rel=1e-8, abs=0)


def test_integer_arguments_and_results():
    assert cr.rrule(math.sin, 1)[1](1.0) == (NoTangent(), NoTangent())
    for f in (math.floor, math.ceil, math.trunc, math.isnan, math.isfinite):
        y, pullback = cr.rrule(f, 2.5)
        assert y == f(2.5)
        assert pullback(1.0) == (NoTangent(), NoTangent())
        assert cr.frule((NoTangent(), 1.0), f, 2.5)[1] is NoTangent()
    assert cr.rrule(math.factorial, 4)[0] == 24
