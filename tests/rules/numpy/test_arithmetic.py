"""Tests of the rules for NumPy's binary elementwise functions, clip and where."""

import math
import warnings
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from samples import cotangents

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.engines import reverse


@dataclass(frozen=True)
class Row:
    """A binary function with the domain of each argument and whether it takes complex input."""

    f: Any
    x1: tuple[float, float] = (-0.9, 0.9)
    x2: tuple[float, float] = (-0.9, 0.9)
    complex: bool = False
    rtol: float | None = None

    def __repr__(self) -> str:
        return self.f.__name__


POSITIVE = (0.5, 2.0)
# x1 / x2 stays inside (2, 3): no jump of the quotient.
DIVIDEND, DIVISOR = (2.5, 2.9), (1.0, 1.1)

BINARY = [
    Row(np.add, complex=True),
    Row(np.subtract, complex=True),
    Row(np.multiply, complex=True),
    Row(np.divide, x2=POSITIVE, complex=True),
    Row(np.power, POSITIVE, (-1.5, 1.5), complex=True),
    Row(np.float_power, POSITIVE, (-1.5, 1.5), complex=True),
    Row(np.remainder, DIVIDEND, DIVISOR),
    Row(np.fmod, (-2.9, -2.5), DIVISOR),
    Row(np.floor_divide, DIVIDEND, DIVISOR),
    Row(np.divmod, DIVIDEND, DIVISOR),
    Row(np.maximum),
    Row(np.minimum),
    Row(np.fmax),
    Row(np.fmin),
    Row(np.arctan2),
    Row(np.hypot),
    Row(np.logaddexp),
    Row(np.logaddexp2),
    Row(np.copysign),
    Row(np.heaviside),
    Row(np.nextafter),
]

SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 4)), ((), ())]
CASES = [
    (row, dtype, shapes)
    for row in BINARY
    for dtype, shapes in [(np.float64, s) for s in SHAPES]
    + [(np.float32, SHAPES[1])]
    + ([(np.complex128, SHAPES[1])] if row.complex else [])
]


def sample(interval, dtype, shape, rng):
    x = rng.uniform(*interval, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(*interval, shape)
    return np.asarray(x, dtype=dtype)


def case_id(case: tuple) -> str:
    row, dtype, shapes = case
    return f"{row!r}-{np.dtype(dtype).name}-{shapes[0]}-{shapes[1]}"


def arguments(case, seed=0):
    row, dtype, (shape1, shape2) = case
    rng = np.random.default_rng(seed)
    return sample(row.x1, dtype, shape1, rng), sample(row.x2, dtype, shape2, rng)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_binary(case):
    test_rrule(case[0].f, *arguments(case), rtol=case[0].rtol)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_binary(case):
    test_frule(case[0].f, *arguments(case), rtol=case[0].rtol)


SECOND_ORDER = [
    (row, dtype, SHAPES[1])
    for row in BINARY
    for dtype in [np.float64] + [np.complex128] * row.complex
]


@pytest.mark.parametrize("case", SECOND_ORDER, ids=case_id)
def test_second_order_binary(case):
    test_rrule(case[0].f, *arguments(case, seed=1), check_second_order=True)
    test_frule(case[0].f, *arguments(case, seed=1), check_second_order=True)


@pytest.mark.parametrize("row", BINARY, ids=repr)
def test_python_scalars(row):
    # test_scalar takes functions of one argument: binary ones are checked with each rule.
    (low1, high1), (low2, high2) = row.x1, row.x2
    points = [(low1 + 0.7 * (high1 - low1), low2 + 0.35 * (high2 - low2))]
    if row.complex:
        points.append((points[0][0] + 0.5j, points[0][1] - 0.25j))
    for x1, x2 in points:
        test_rrule(row.f, x1, x2)
        test_frule(row.f, x1, x2)


def test_aliases_share_rules():
    assert cr.rrule(np.true_divide, 1.0, 4.0)[1](1.0) == (NoTangent(), 0.25, -0.0625)
    assert cr.rrule(np.mod, 5.5, 2.0)[1](1.0) == (NoTangent(), 1.0, -2.0)


def test_integer_arguments():
    n = np.array([1, -2, 3])
    x = np.array([0.5, 1.5, -0.25])
    test_rrule(np.ldexp, x, n)
    test_frule(np.ldexp, x, n)
    test_rrule(np.power, x, n)
    test_frule(np.power, x, n)
    assert cr.rrule(np.add, n, n)[1](np.ones(3)) == (NoTangent(), NoTangent(), NoTangent())
    assert cr.rrule(np.multiply, x, n)[1](np.ones(3))[2] is NoTangent()


def test_keywords():
    x = np.linspace(0.1, 0.9, 3, dtype=np.float32)
    test_rrule(np.multiply, x, x, fkwargs={"dtype": np.float64})
    with pytest.raises(cr.RuleKeywordError, match="out"):
        cr.rrule(np.add, x, x, out=np.empty(3, dtype=np.float32))
    with pytest.raises(cr.RuleKeywordError, match="where"):
        cr.rrule(np.add, x, x, where=x > 0.5)


# ---- maximum, minimum, fmax, fmin: ties split equally ---------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        None,
        (0.0, 0.0),
        (1e-320, 1e-320),
        (np.inf, 1.0),
        (1.0, -np.inf),
        (np.inf, -np.inf),
        (np.nan, 1.0),
    ],
)
def test_hypot_cotangents_of_arrays(extra):
    # a / y and b / y where every y is normal and finite; a zero, subnormal, infinite or NaN
    # y anywhere takes over_hypot everywhere (a / y would be NaN at the origin, and a
    # subnormal y has lost the digits a / y needs).
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(3, 8)), rng.normal(size=(3, 8)) * 1e-3
    if extra is not None:
        a[1, 2], b[1, 2] = extra
    with np.errstate(divide="raise", invalid="raise", over="raise"):  # as NumPy's hypot: none
        _, pullback = cr.rrule(np.hypot, a, b)
        dy = np.ones_like(a)
        _, da, db = (cr.unthunk(c) for c in pullback(dy))

    def exact(p, q):
        if np.isnan(p) or np.isnan(q):
            return np.nan
        if np.isinf(p):  # both infinite: the limit along the diagonal
            return np.sign(p) if not np.isinf(q) else np.sign(p) / math.sqrt(2)
        if np.isinf(q) or p == q == 0:
            return 0.0
        p, q = mpmath.mpf(p), mpmath.mpf(q)
        return float(p / mpmath.sqrt(p * p + q * q))

    for got, (p, q) in ((da, (a, b)), (db, (b, a))):
        want = np.vectorize(exact)(p, q)
        assert np.allclose(got, want, rtol=4e-16, atol=0, equal_nan=True)


@pytest.mark.parametrize("f", [np.logaddexp, np.logaddexp2])
def test_logaddexp_cotangents_of_arrays_are_those_of_numbers(f):
    # An array's sigmoids take a way of their own (no where); each element's cotangents are
    # exactly those of the same numbers, which take the general one, saturation included.
    values = [-800.0, -40.0, -1.0, -0.0, 0.0, 1e-300, 0.5, 3.0, 40.0, 800.0, np.inf, -np.inf]
    a, b = np.meshgrid(values, values, indexing="ij")
    dy = np.ones_like(a)
    with np.errstate(divide="raise", invalid="raise", over="raise"):  # as NumPy's: none
        _, pullback = cr.rrule(f, a, b)
        _, da, db = (cr.unthunk(c) for c in pullback(dy))
        for i, j in np.ndindex(a.shape):
            _, dp, dq = cr.rrule(f, float(a[i, j]), float(b[i, j]))[1](1.0)
            assert np.array_equal([da[i, j], db[i, j]], [dp, dq], equal_nan=True)
    assert da[2, 3] == pytest.approx(1 / (1 + math.exp(1.0 if f is np.logaddexp else math.log(2))))


@pytest.mark.parametrize(
    "extra",
    [
        None,
        (0.0, 0.0),
        (1e200, 1.0),
        (1e-160, 1e-160),
        (np.nan, 1.0),
        (1.0, np.inf),
        (-np.inf, 2.0),
        (np.inf, -np.inf),
    ],
)
def test_arctan2_cotangents_of_arrays(extra):
    # x2 / r^2 and -x1 / r^2 with r^2 = x1^2 + x2^2 where it lies within [1e-290, 1e300]; an
    # element beyond (the origin and infinity, where the partials are 0; overflow; underflow)
    # or a NaN anywhere takes the division by hypot twice, everywhere.
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=(3, 8)), rng.normal(size=(3, 8))
    if extra is not None:
        a[1, 2], b[1, 2] = extra
    with np.errstate(divide="raise", invalid="raise", over="raise"):  # as NumPy's arctan2
        _, pullback = cr.rrule(np.arctan2, a, b)
        _, da, db = (cr.unthunk(c) for c in pullback(np.ones_like(a)))

    def exact(p, q, first):
        if np.isnan(p) or np.isnan(q):
            return np.nan
        if p == q == 0 or np.isinf(p) or np.isinf(q):  # |partial| <= 1 / r
            return 0.0
        p, q = mpmath.mpf(p), mpmath.mpf(q)
        return float((q if first else -p) / (p * p + q * q))

    for got, first in ((da, True), (db, False)):
        want = np.vectorize(exact)(a, b, first)
        assert np.allclose(got, want, rtol=8 * np.finfo(float).eps, atol=0, equal_nan=True)


# ---- infinite arguments: the limits, and no warning NumPy's own call does not give ----------

_DIAGONAL = 1 / math.sqrt(2)  # sign / sqrt(1 + 1), as the rule computes it: exact

# (x1, x2, d/dx1, d/dx2) of arctan2 and of hypot where an argument is infinite; the finite
# rows are the other side of the guards (partials against their formulas).
_ARCTAN2_AT_INFINITY = [
    (1.0, np.inf, 0.0, 0.0),
    (np.inf, 2.0, 0.0, 0.0),
    (-np.inf, -3.0, 0.0, 0.0),
    (0.0, -np.inf, 0.0, 0.0),
    (np.inf, np.inf, 0.0, 0.0),
    (-np.inf, np.inf, 0.0, 0.0),
    (np.inf, -np.inf, 0.0, 0.0),
    (-np.inf, -np.inf, 0.0, 0.0),
    (np.nan, np.inf, 0.0, 0.0),  # |partial| <= 1 / r = 0, whatever the NaN stands for
    (np.nan, 1.0, np.nan, np.nan),
    (3.0, 4.0, 4 / 25, -3 / 25),
    (-1e-3, 2.0, 2.0 / (4.0 + 1e-6), 1e-3 / (4.0 + 1e-6)),
]
_HYPOT_AT_INFINITY = [
    (np.inf, 2.0, 1.0, 0.0),
    (-np.inf, 2.0, -1.0, 0.0),
    (2.0, -np.inf, 0.0, -1.0),
    (0.0, np.inf, 0.0, 1.0),
    (np.inf, np.inf, _DIAGONAL, _DIAGONAL),  # the ray limit along the diagonal: a choice
    (np.inf, -np.inf, _DIAGONAL, -_DIAGONAL),
    (-np.inf, -np.inf, -_DIAGONAL, -_DIAGONAL),
    (np.inf, np.nan, np.nan, np.nan),  # the limit depends on what the NaN stands for
    (np.nan, -np.inf, np.nan, np.nan),
    (3.0, -4.0, 0.6, -0.8),
    (1e30, 1.0, 1.0, 1e-30),
]


def _laid_out(values, layout):
    """``values`` as a Python float ("number"), or tiled into a (2, n) array: C order, a view
    with a stride of 2, or float32."""
    if layout == "number":
        return float(values)
    x = np.tile(np.asarray(values, dtype=float), (2, 1))
    if layout == "strided":
        return np.repeat(x, 2, axis=1)[:, ::2]
    return x.astype(np.float32) if layout == "float32" else x


@pytest.mark.parametrize("layout", ["number", "C", "strided", "float32"])
@pytest.mark.parametrize(
    ("f", "table"), [(np.arctan2, _ARCTAN2_AT_INFINITY), (np.hypot, _HYPOT_AT_INFINITY)]
)
def test_partials_at_infinity_are_the_limits(f, table, layout):
    # Infinite rows, exact by construction (0, +-1 and the diagonal's 1 / sqrt(2) are what the
    # rules compute); finite rows within 4 eps of the formula (a few roundings: the rules
    # measured 1 unit in the last place). Rows one at a time, and all in one array, so that an
    # infinity takes the general way beside every other row.
    eps = 4 * np.finfo(np.float32 if layout == "float32" else np.float64).eps
    columns = [np.array(c) for c in zip(*table, strict=True)]
    rows = [[c[i] for c in columns] for i in range(len(table))]
    for x1, x2, d1, d2 in rows if layout == "number" else [columns]:
        a, b = _laid_out(x1, layout), _laid_out(x2, layout)
        before = (np.copy(a), np.copy(b))
        with np.errstate(divide="raise", invalid="raise", over="raise"):  # NumPy's gives none
            y, pullback = cr.rrule(f, a, b)
            dy = np.ones_like(y) if layout != "number" else 1.0
            _, da, db = (cr.unthunk(c) for c in pullback(dy))
            _, tangent = cr.frule((NoTangent(), dy, 2 * dy), f, a, b)
        assert np.array_equal(y, f(*before), equal_nan=True)
        assert np.array_equal(a, before[0], equal_nan=True)
        assert np.array_equal(b, before[1], equal_nan=True)
        for got, want in ((da, d1), (db, d2), (tangent, d1 + 2 * d2)):
            want = np.broadcast_to(want, np.shape(got))
            assert np.allclose(got, want, rtol=eps, atol=0, equal_nan=True), (got, want)
            at_infinity = np.isinf(a) | np.isinf(b)
            exact = np.asarray(got)[at_infinity], want[at_infinity].astype(np.asarray(got).dtype)
            assert np.array_equal(*exact, equal_nan=True)


def test_arctan2_partials_beside_an_infinity_keep_the_guard_of_squares():
    # The squares' way takes finite arrays only: with an infinity anywhere, the other elements
    # take the division by hypot twice, within 4 eps of mpmath (the rule measured 2 ulp).
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=40), rng.normal(size=40)
    for infinite in (False, True):
        if infinite:
            b[7] = -np.inf
        _, pullback = cr.rrule(np.arctan2, a, b)
        _, da, db = pullback(np.ones(40))
        for i in range(40):
            p, q = mpmath.mpf(a[i]), mpmath.mpf(b[i])
            r2 = p * p + q * q
            want = (0.0, 0.0) if np.isinf(b[i]) else (float(q / r2), float(-p / r2))
            assert cr.unthunk(da)[i] == pytest.approx(want[0], rel=4 * np.finfo(float).eps)
            assert cr.unthunk(db)[i] == pytest.approx(want[1], rel=4 * np.finfo(float).eps)


def test_hypot_of_numbers_beside_a_large_one_does_not_overflow():
    # over_hypot divides the smaller by the larger in each form: neither squares a quotient of
    # 1e200 (which overflowed, with a warning), and the partials are those of the formula.
    with np.errstate(over="raise", invalid="raise"):
        da, db = cotangents(np.hypot, 1.0, 1e200)
        assert (da, db) == (pytest.approx(1e-200, rel=2 * np.finfo(float).eps), 1.0)
        assert cotangents(np.hypot, 1e200, 0.0) == (1.0, 0.0)
        _, da, db = cotangents_of_ones(np.hypot, np.array([0.0, 1e200]), np.array([0.0, 1.0]))
        assert da.tolist() == [0.0, 1.0]


@pytest.mark.parametrize("f", [np.logaddexp, np.logaddexp2])
def test_logaddexp_at_equal_infinities_is_a_tie(f):
    # logaddexp(inf, inf) = inf and logaddexp(-inf, -inf) = -inf: a tie, split equally (the
    # limit along the diagonal), as at every finite tie; not NaN, and without a warning.
    a = np.array([np.inf, -np.inf, 1.0, np.inf, -np.inf])
    b = np.array([np.inf, -np.inf, 1.0, -np.inf, 2.0])
    want_a = [0.5, 0.5, 0.5, 1.0, 0.0]
    with np.errstate(divide="raise", invalid="raise", over="raise"):
        _, da, db = cotangents_of_ones(f, a, b)
        assert da.tolist() == want_a
        assert db.tolist() == [0.5, 0.5, 0.5, 0.0, 1.0]
        for i in range(5):
            assert cotangents(f, float(a[i]), float(b[i])) == (want_a[i], 1 - want_a[i])
            assert cotangents(f, np.float64(a[i]), np.array(b[i])) == (want_a[i], 1 - want_a[i])
        _, tangent = cr.frule((NoTangent(), np.ones(5), 3 * np.ones(5)), f, a, b)
    assert tangent.tolist() == [2.0, 2.0, 2.0, 1.0, 3.0]


def test_logaddexp_partials_of_other_arrays_at_equal_infinities():
    # Arrays of another namespace replace equal infinities before subtracting (their tracked
    # values too), leaving the derivative at finite ties as it is: 1/4 at logaddexp(x, x).
    torch = pytest.importorskip("torch")
    a = torch.tensor([np.inf, -np.inf, 0.5, 1.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([np.inf, -np.inf, 0.5, 3.0], dtype=torch.float64)
    _, pullback = cr.rrule(np.logaddexp, a, b)
    da = cr.unthunk(pullback(torch.ones(4, dtype=torch.float64))[1])
    assert da[:3].tolist() == [0.5, 0.5, 0.5]
    (second,) = torch.autograd.grad(da[2], a)
    assert second[2].item() == pytest.approx(0.25, rel=1e-15)


@pytest.mark.parametrize(
    "x1, x2, d2",
    [
        (-2.0, np.inf, 1.0),
        (1.5, -np.inf, 1.0),
        (2.0, np.inf, -0.0),
        (0.0, -np.inf, -0.0),
        (7.0, 2.0, -3.0),
        (-7.0, 2.0, 4.0),
    ],
)
def test_remainder_at_an_infinite_divisor(x1, x2, d2):
    # An infinite divisor leaves a dividend of its sign whole (quotient 0) and turns one of the
    # other sign into the divisor itself (NumPy's remainder(-2, inf) is inf, quotient -1):
    # the partial in the divisor is minus that quotient, not inf / inf.
    with np.errstate(divide="raise", invalid="raise", over="raise"):
        assert cotangents(np.remainder, x1, x2) == (1.0, d2)
        array = cotangents_of_ones(np.remainder, np.array([x1, 1.0]), np.array([x2, 0.5]))
        assert array[2].tolist() == [d2, -2.0]
        fmod = -0.0 if math.isinf(x2) else -math.trunc(x1 / x2)
        assert cotangents(np.fmod, x1, x2) == (1.0, fmod)


@pytest.mark.parametrize("f", [np.power, np.float_power])
def test_power_base_partial_at_infinite_exponents(f):
    # x**inf is 0 all about |x| < 1, x**-inf all about |x| > 1: the partial in x is 0 there,
    # where p x**(p - 1) is inf * 0; beyond, x**inf is inf about |x| > 1 and so is its slope
    x = np.array([0.5, -0.5, 0.0, 2.5, -1e300, 2.5, 0.5])
    p = np.array([np.inf, np.inf, np.inf, -np.inf, -np.inf, np.inf, 3.0])
    expected = [0.0, 0.0, 0.0, 0.0, 0.0, np.inf, 0.75]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, pullback = cr.rrule(f, x, p)
        np.testing.assert_array_equal(cr.unthunk(pullback(np.ones(7))[1]), expected)
        for xi, pi, di in zip(x, p, expected, strict=True):
            assert cr.unthunk(cr.rrule(f, float(xi), float(pi))[1](1.0)[1]) == di


@pytest.mark.parametrize(
    "x, p, dp",
    [
        (np.inf, -2.0, 0.0),
        (-np.inf, -1.0, 0.0),
        (1e300, -2.0, 0.0),
        (np.inf, 0.0, np.inf),
        (np.inf, 2.0, np.inf),
        (0.0, 2.0, 0.0),
        (2.0, 0.0, math.log(2.0)),
    ],
)
def test_power_exponent_partial_where_the_power_vanishes(x, p, dp):
    # d(x**p)/dp = x**p log|x| -> 0 where x**p -> 0 (x infinite and p < 0, or underflow),
    # where it was 0 * inf; elsewhere as before.
    with np.errstate(invalid="raise"):
        for f in (np.power, np.float_power):
            assert cotangents(f, x, p)[1] == dp
            assert cotangents_of_ones(f, np.array([x, 2.0]), np.array([p, 3.0]))[2][0] == dp


def cotangents_of_ones(f, *args):
    """The unthunked cotangents of ``f``'s rule at ``args`` for a cotangent of ones."""
    y, pullback = cr.rrule(f, *args)
    return tuple(cr.unthunk(c) for c in pullback(np.ones_like(y)))


# ---- power ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x, p, dx, dp",
    [
        (0.0, 2.0, 0.0, 0.0),
        (0.0, 1.0, 1.0, 0.0),
        (0.0, 0.0, 0.0, 0.0),
        (0.0, 0.5, math.inf, 0.0),
        (0.0, -1.0, -math.inf, 0.0),
        (-2.0, 3.0, 12.0, -8.0 * math.log(2.0)),
        (-2.0, 2.0, -4.0, 4.0 * math.log(2.0)),
        (2.0, 0.0, 0.0, math.log(2.0)),
    ],
)
def test_power_hard_points(x, p, dx, dp):
    for f in (np.power, np.float_power):
        with np.errstate(divide="ignore"):
            _, pullback = cr.rrule(f, x, p)
            assert pullback(1.0) == (NoTangent(), dx, dp)
            _, dy = cr.frule((NoTangent(), 1.0, 0.0), f, x, p)
        assert dy == dx


def test_power_integer_exponent_and_negative_base():
    x = np.array([-2.0, 0.0, -0.5])
    _, pullback = cr.rrule(np.power, x, 3)
    assert pullback(np.ones(3))[2] is NoTangent()
    np.testing.assert_array_equal(pullback(np.ones(3))[1], [12.0, 0.0, 0.75])
    test_rrule(np.power, x, np.array([3, 2, 5]))
    test_frule(np.power, np.array([-2.0, -0.5]), np.array([3, 2]))


def test_power_complex_at_zero():
    _, pullback = cr.rrule(np.power, 0j, 2.0 + 1j)
    assert pullback(1.0 + 0j) == (NoTangent(), 0j, 0.0)


# ---- clip -----------------------------------------------------------------------------------


# ---- where ----------------------------------------------------------------------------------


# ---- other hard points ----------------------------------------------------------------------


def test_division_by_zero():
    with np.errstate(divide="ignore", invalid="ignore"):
        assert cr.rrule(np.divide, 1.0, 0.0)[1](1.0) == (NoTangent(), math.inf, -math.inf)


def test_angle_and_norm_at_the_origin():
    assert cr.rrule(np.arctan2, 0.0, 0.0)[1](1.0) == (NoTangent(), 0.0, 0.0)
    assert cr.rrule(np.hypot, 0.0, 0.0)[1](1.0) == (NoTangent(), 0.0, 0.0)
    assert cr.frule((NoTangent(), 1.0, 1.0), np.hypot, 0.0, 0.0)[1] == 0.0


def test_piecewise_constant_and_selection_partials():
    assert cr.rrule(np.floor_divide, 5.5, 2.0)[1](1.0) == (
        NoTangent(),
        ZeroTangent(),
        ZeroTangent(),
    )
    assert cr.rrule(np.fmod, -5.5, 2.0)[1](1.0) == (NoTangent(), 1.0, 2.0)
    assert cr.rrule(np.heaviside, 0.0, 0.5)[1](1.0) == (NoTangent(), ZeroTangent(), 1.0)
    assert cr.rrule(np.heaviside, 2.0, 0.5)[1](1.0) == (NoTangent(), ZeroTangent(), 0.0)
    assert cr.rrule(np.copysign, 2.0, -1.0)[1](1.0) == (NoTangent(), -1.0, ZeroTangent())
    assert cr.rrule(np.copysign, -2.0, -0.0)[1](1.0) == (NoTangent(), 1.0, ZeroTangent())
    assert cr.rrule(np.nextafter, 1.0, 2.0)[1](1.0) == (NoTangent(), 1.0, ZeroTangent())


def test_remainder_partials_take_the_quotient_numpy_used():
    # 1 // 0.1 is 9 (0.1 is a little above one tenth), where floor(1 / 0.1) and trunc(1 / 0.1)
    # are 10: the partial in the divisor is minus the quotient NumPy's remainder used.
    for f in (np.remainder, np.fmod):
        _, pullback = cr.rrule(f, np.array([1.0, 2.5]), np.array([0.1, 1.0]))
        np.testing.assert_array_equal(pullback(np.ones(2))[2], [-9.0, -2.0])


def test_ndarray_operators_reach_the_ufunc_rules():
    a = np.array([0.5, 1.5, -2.0])
    gradient = reverse.grad(lambda a: np.sum(a**2 / (a + 1.0) - abs(-a) + a % 1.0 + a // 1.0))(a)
    expected = (a * a + 2 * a) / (a + 1.0) ** 2 - np.sign(a) + 1.0
    np.testing.assert_allclose(gradient, expected, rtol=1e-14)


@pytest.mark.parametrize("x", [40.0, -40.0, 700.0, 0.0])
def test_logaddexp_second_derivative_keeps_its_accuracy_at_saturation(x):
    # d2/dx2 logaddexp(0, x) = s (1 - s), s = sigmoid(x): 4.2e-18 at 40, not 0 (1 - s cancels)
    from chainrules.engines import reverse

    exact = float(mpmath.exp(-abs(x)) / (1 + mpmath.exp(-abs(x))) ** 2)
    for f in (lambda x: np.logaddexp(0.0, x), lambda x: np.logaddexp(x, 0.0)):
        assert reverse.grad(reverse.grad(f))(x) == pytest.approx(exact, rel=1e-14, abs=0)
    ln2 = math.log(2)
    exact2 = float(ln2 * mpmath.exp(-abs(x) * ln2) / (1 + mpmath.exp(-abs(x) * ln2)) ** 2)
    got = reverse.grad(reverse.grad(lambda x: np.logaddexp2(0.0, x)))(x)
    assert got == pytest.approx(exact2, rel=1e-13, abs=0)  # |x| ln 2's rounding, amplified
