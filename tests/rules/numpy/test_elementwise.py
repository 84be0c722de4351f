"""Tests of the rules for NumPy's unary elementwise functions: one table row per function."""

import math
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, test_scalar
from samples import LAYOUTS, check_array_derivative

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.engines import reverse


@dataclass(frozen=True)
class Row:
    """A function, its domain (real and imaginary parts drawn from [low, high]), its dtypes."""

    f: Any
    low: float = -0.9
    high: float = 0.9
    complex: bool = True
    rtol: float | None = None

    def __repr__(self) -> str:
        return self.f.__name__


# Piecewise-constant functions are sampled away from their jumps.
STEPS = dict(low=0.1, high=0.4, complex=False)

UNARY = [
    Row(np.exp, -2.0, 2.0),
    Row(np.exp2, -2.0, 2.0),
    Row(np.expm1, -2.0, 2.0),
    Row(np.log, 0.5, 2.0),
    Row(np.log2, 0.5, 2.0),
    Row(np.log10, 0.5, 2.0),
    Row(np.log1p, 0.1, 2.0),
    Row(np.sqrt, 0.5, 2.0),
    Row(np.cbrt, 0.5, 2.0, complex=False),
    Row(np.square),
    Row(np.reciprocal, 0.5, 2.0),
    Row(np.sin),
    Row(np.cos),
    Row(np.tan),
    Row(np.arcsin, -0.8, 0.8),
    Row(np.arccos, -0.8, 0.8),
    Row(np.arctan),
    Row(np.sinh),
    Row(np.cosh),
    Row(np.tanh),
    Row(np.arcsinh),
    Row(np.arccosh, 1.2, 3.0),
    Row(np.arctanh, -0.8, 0.8),
    Row(np.negative),
    Row(np.positive),
    Row(np.deg2rad, complex=False),
    Row(np.radians, complex=False),
    Row(np.rad2deg, complex=False),
    Row(np.degrees, complex=False),
    Row(np.sinc),
    Row(np.i0, complex=False),
    Row(np.floor, **STEPS),
    Row(np.ceil, **STEPS),
    Row(np.trunc, **STEPS),
    Row(np.rint, **STEPS),
    Row(np.fix, **STEPS),
    Row(np.round, **STEPS),
    Row(np.around, **STEPS),
    Row(np.spacing, 0.55, 0.95, complex=False),
    Row(np.modf, complex=False),
    Row(np.frexp, 0.26, 0.49, complex=False),
    Row(np.abs),
    Row(np.fabs, complex=False),
    Row(np.sign),
    Row(np.real),
    Row(np.imag),
    Row(np.conj),
    Row(np.angle),
    Row(np.nan_to_num),
]

CASES = [
    (row, dtype, shape)
    for row in UNARY
    for dtype, shape in [(np.float64, (2, 3)), (np.float64, ()), (np.float32, (3,))]
    + ([(np.complex128, (3,))] if row.complex else [])
]


def sample(row: Row, dtype: Any, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.uniform(row.low, row.high, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(row.low, row.high, shape)
    return np.asarray(x, dtype=dtype)


def case_id(case: tuple) -> str:
    row, dtype, shape = case
    return f"{row!r}-{np.dtype(dtype).name}-{shape}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_unary(case):
    row, dtype, shape = case
    test_rrule(row.f, sample(row, dtype, shape), rtol=row.rtol)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_unary(case):
    row, dtype, shape = case
    test_frule(row.f, sample(row, dtype, shape), rtol=row.rtol)


SECOND_ORDER = [
    (row, dtype, (3,)) for row in UNARY for dtype in [np.float64] + [np.complex128] * row.complex
]


@pytest.mark.parametrize("case", SECOND_ORDER, ids=case_id)
def test_second_order_unary(case):
    row, dtype, shape = case
    x = sample(row, dtype, shape, seed=1)
    test_rrule(row.f, x, rtol=row.rtol, check_second_order=True)
    test_frule(row.f, x, rtol=row.rtol, check_second_order=True)


# Piecewise constant and accepting complex input: ZeroTangent() at complex points too.
COMPLEX_STEPS = (np.rint, np.round, np.around)


@pytest.mark.parametrize("row", UNARY, ids=repr)
def test_scalar_unary(row):
    complex_point = False if row.f in COMPLEX_STEPS else None
    test_scalar(row.f, row.low + 0.7 * (row.high - row.low), complex_point=complex_point)


@pytest.mark.parametrize("f", COMPLEX_STEPS)
def test_scalar_complex_steps(f):
    test_scalar(f, 0.3 + 0.2j)


def test_complex_steps():
    for f in COMPLEX_STEPS:
        test_rrule(f, np.array([0.3 + 0.2j, -1.2 + 2.3j]))
        assert cotangent(f, 0.3 + 0.2j) is ZeroTangent()


def test_keywords():
    x = np.linspace(0.1, 0.9, 3, dtype=np.float32)
    test_rrule(np.exp, x, fkwargs={"dtype": np.float64})
    test_rrule(np.angle, sample(Row(np.angle), np.complex128, (3,)), fkwargs={"deg": True})
    test_frule(np.angle, sample(Row(np.angle), np.complex128, (3,)), fkwargs={"deg": True})
    with pytest.raises(cr.RuleKeywordError, match="out"):
        cr.rrule(np.exp, x, out=np.empty(3, dtype=np.float32))
    with pytest.raises(cr.RuleKeywordError, match="where"):
        cr.rrule(np.exp, x, where=x > 0.5)


def test_nan_to_num_replaced_entries():
    x = np.array([1.0, np.nan, np.inf, -np.inf])
    # Moderate replacements: the default +-1.8e308 would swamp the finite differences.
    replacements = {"nan": 1.0, "posinf": 2.0, "neginf": -2.0}
    test_rrule(np.nan_to_num, x, fkwargs=replacements)
    test_frule(np.nan_to_num, x, fkwargs=replacements)
    _, pullback = cr.rrule(np.nan_to_num, x)
    np.testing.assert_array_equal(pullback(np.ones(4))[1], [1.0, 0.0, 0.0, 0.0])
    z = np.array([complex(1.0, np.nan), complex(np.inf, 2.0)])
    _, pullback = cr.rrule(np.nan_to_num, z)
    np.testing.assert_array_equal(pullback(np.array([1 + 1j, 1 + 1j]))[1], [1.0, 1j])


# ---- hard points, each pinned to its exact value ------------------------------------------


def cotangent(f, *args, dy=1.0):
    return cr.rrule(f, *args)[1](dy)[1]


@pytest.mark.parametrize(
    "x, expected",
    [(0.0, 0.0), (-0.0, 0.0), (-2.0, -1.0), (0j, 0j), (3 + 4j, 0.6 + 0.8j)],
)
def test_abs_subgradient(x, expected):
    assert cotangent(np.abs, x) == expected
    assert type(cotangent(np.abs, x)) is type(x)
    assert cr.frule((NoTangent(), 1.0), np.abs, x)[1] == expected.real


def test_abs_at_zero_in_arrays():
    x = np.array([-1.0, 0.0, 2.0], dtype=np.float32)
    dx = cotangent(np.abs, x, dy=np.ones(3, dtype=np.float32))
    assert dx.dtype == np.float32
    np.testing.assert_array_equal(dx, [-1.0, 0.0, 1.0])
    np.testing.assert_array_equal(cotangent(np.fabs, np.zeros(2), dy=np.ones(2)), [0.0, 0.0])


def test_singular_points_are_infinite():
    with np.errstate(divide="ignore"):
        assert cotangent(np.sqrt, 0.0) == math.inf
        assert cotangent(np.cbrt, 0.0) == math.inf
        assert cr.frule((NoTangent(), 1.0), np.sqrt, 0.0)[1] == math.inf
        # Python floats too, where 1 / 0.0 would raise.
        assert cotangent(np.log, 0.0) == math.inf
        assert cotangent(np.log1p, -1.0) == math.inf
        assert cotangent(np.arctanh, 1.0) == math.inf
        np.testing.assert_array_equal(cotangent(np.sqrt, np.zeros(2), dy=np.ones(2)), math.inf)


def test_sign_and_angle_at_zero():
    assert cotangent(np.sign, 0j, dy=1j) == 0j
    assert cotangent(np.angle, 0j) == 0j
    assert cotangent(np.sign, 2.0) is ZeroTangent()
    assert cotangent(np.angle, -2.0) is ZeroTangent()
    assert cr.frule((NoTangent(), 1j), np.angle, 0j)[1] == 0.0
    # sign(z) turns with the argument of z: a tangential cotangent passes, a radial one does not.
    assert cotangent(np.sign, 2.0 + 0j, dy=1j) == pytest.approx(0.5j)
    assert cotangent(np.sign, 2.0 + 0j, dy=1.0) == 0j


def test_sinc_at_zero():
    assert cotangent(np.sinc, 0.0) == 0.0
    assert cotangent(np.sinc, 0.5) == pytest.approx(-4 / math.pi)


# ---- accuracy at the edges (tests/accuracy/test_numpy.py sweeps the whole ranges) ---------
# Each value is pinned at a relative 1e-14: the rules are accurate to a few units in the last
# place there, and the former formulas were off by 100% or more.


def second(f, x):
    return reverse.grad(reverse.grad(f))(x)


@pytest.mark.parametrize("x", [0.0, 1e-9, -1e-9])
def test_sinc_second_derivative_at_its_removable_point(x):
    # The quotient (cos(pi x) - sinc(x)) / x gave 0 at 0 and -9.87 at 1e-9 (cancellation).
    assert second(np.sinc, x) == pytest.approx(-(math.pi**2) / 3, rel=1e-14)
    assert reverse.grad(np.sinc)(x) == pytest.approx(-(math.pi**2) / 3 * x, rel=1e-14)


@pytest.mark.parametrize("n", [3.0, 2.0**52 + 1, 2.0**53, 1e300])
def test_sinc_derivative_at_huge_integers(n):
    # cos(pi * n) of a rounded product was noise from |n| = 1e16; n is exactly an integer.
    assert reverse.grad(np.sinc)(n) == pytest.approx((-1) ** (n % 2) / n, rel=1e-14)
    assert reverse.grad(np.sinc)(-n) == pytest.approx(-((-1) ** (n % 2)) / n, rel=1e-14)


@pytest.mark.parametrize("x", [20.0, -40.0, 354.0])
def test_tanh_derivative_at_saturation(x):
    # 1 - tanh(x)^2 is exactly 0 from |x| = 19; sech(x)^2 = 4 exp(-2|x|) (1 + ...) is not.
    exact = 4 * math.exp(-2 * abs(x)) / (1 + math.exp(-2 * abs(x))) ** 2
    assert reverse.grad(np.tanh)(x) == pytest.approx(exact, rel=1e-14)
    assert second(np.tanh, x) == pytest.approx(-2 * math.copysign(exact, x), rel=1e-14)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_tanh_derivative_of_an_array_in_each_layout(layout):
    # An array's derivative is 1 - y^2 below |x| = 1 and the exponential form from there on,
    # written back by flat index; an array whose flat index is not its C order (F, strided)
    # or whose elements are mostly from |x| = 1 on takes the exponential form everywhere.
    # Each writes the saturated elements (1 - y^2 would give 0 at 20, -40 and 354).
    values = np.concatenate(
        [np.linspace(-0.99, 0.99, 37), [np.nextafter(1.0, 0.0), 1.0, -1.5, 3.0, 20.0, -40.0, 354.0]]
    )
    check_array_derivative(np.tanh, values, lambda x: mpmath.sech(x) ** 2, layout, lambda x: x * 40)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_exp2_derivative_of_an_array_in_each_layout(layout):
    # y ln 2 where y has no infinity; "far" puts one element at 1024.3, where 2**x overflows
    # and its derivative does not: the whole array then takes 2**(x - 1) * 2 ln 2.
    values = np.concatenate([np.linspace(-20.0, 20.0, 37), [-1070.0, 0.5, 1e-20]])
    derivative = lambda x: mpmath.power(2, x) * mpmath.log(2)
    check_array_derivative(np.exp2, values, derivative, layout, lambda x: x + 1004.3)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_arctan_derivative_of_an_array_in_each_layout(layout):
    # 1 / (1 + x * x) within |x| <= 1e150 (float32: 1e15); "far" takes values beyond, where
    # x * x overflows (to a derivative of 0 where it is 1e-300) and the form with hypot is.
    values = np.concatenate([np.linspace(-5.0, 5.0, 37), [1e3, -1e8, 1e15, 0.0, -0.0]])
    derivative = lambda x: 1 / (1 + x * x)
    check_array_derivative(np.arctan, values, derivative, layout, lambda x: x * 1e153)


def test_expm1_derivative_where_expm1_rounds_to_minus_one():
    assert reverse.grad(np.expm1)(-40.0) == pytest.approx(math.exp(-40.0), rel=1e-15)


@pytest.mark.parametrize("f", [np.arcsin, np.arccos, np.arctanh])
def test_next_to_one(f):
    # 1 - x * x for x = 1 - 2**-53 is 2**-52 (the exact value 2**-52 - 2**-106 rounded), and
    # 1 - 1e-8 squared loses 8 digits; (1 - x)(1 + x) is exact.
    x = 1 - 1e-8
    d = 1 - x  # exact: the distance to 1 of the float x
    exact = {np.arcsin: 1 / math.sqrt(d * (2 - d)), np.arctanh: 1 / (d * (2 - d))}
    exact[np.arccos] = -exact[np.arcsin]
    assert reverse.grad(f)(x) == pytest.approx(exact[f], rel=1e-15)
    # Exactly at the edge the derivative is infinite, the second one too or NaN (inf * 0).
    with np.errstate(all="ignore"):
        assert abs(reverse.grad(f)(1.0)) == math.inf
        assert not np.isfinite(second(f, 1.0))


@pytest.mark.parametrize("f, x", [(np.arctan, 1e155), (np.arcsinh, 1e200)])
def test_huge_arguments_where_x_squared_overflows(f, x):
    exact = {np.arctan: 1 / x / x, np.arcsinh: 1 / x}[f]
    assert reverse.grad(f)(x) == pytest.approx(exact, rel=1e-15)


def test_derivatives_finite_where_the_function_overflows():
    # exp2(1024) is inf, but exp2'(1024) = 2**1024 ln 2 = 1.25e308 is not; log10' at the
    # largest float is 2.4e-309, where x * ln 10 overflowed to give 0.
    with np.errstate(over="ignore"):
        assert reverse.grad(np.exp2)(1024.0) == pytest.approx(
            2.0**1023 * (2 * math.log(2)), rel=1e-15
        )
    big = 1.7976931348623157e308
    assert reverse.grad(np.log10)(big) == pytest.approx(1 / math.log(10) / big, rel=1e-10)


def test_complex_parts():
    z = 3.0 - 2.0j
    assert cotangent(np.real, z, dy=2.0) == 2.0 + 0j
    assert cotangent(np.imag, z, dy=2.0) == 2.0j
    assert cotangent(np.conj, z, dy=1.0 + 1.0j) == 1.0 - 1.0j
    assert cotangent(np.imag, 3.0) == 0.0
    assert cotangent(np.real, 3.0) == 1.0


def test_zero_derivative_functions():
    for f in (np.floor, np.ceil, np.trunc, np.rint, np.fix, np.spacing, np.round):
        assert cotangent(f, np.array([0.5, 1.5]), dy=np.ones(2)) is ZeroTangent()
        assert cr.frule((NoTangent(), np.ones(2)), f, np.array([0.5, 1.5]))[1] is ZeroTangent()
        assert cotangent(f, np.array([1, 2]), dy=np.ones(2)) is NoTangent()


def test_round_decimals():
    # Far from the jumps (at 15 and 45 for decimals=-1): finite differences see a constant.
    x = np.array([12.0, 43.0])
    for f in (np.round, np.around):
        test_rrule(f, x, -1)
        test_frule(f, x, -1)
        test_rrule(f, x, fkwargs={"decimals": -1})
        y, pullback = cr.rrule(f, x, -1)
        np.testing.assert_array_equal(y, [10.0, 40.0])
        assert pullback(np.ones(2)) == (NoTangent(), ZeroTangent(), NoTangent())


def test_integer_inputs_have_no_tangent():
    for f in (np.exp, np.sin, np.abs, np.sign, np.square, np.negative):
        assert cotangent(f, np.arange(3), dy=np.ones(3)) is NoTangent()
    assert cotangent(np.sqrt, 4) is NoTangent()


def test_zero_cotangent_gives_zero_cotangents():
    x = np.array([0.5, 1.0])
    for f in (np.exp, np.abs, np.sign, np.conj, np.angle, np.nan_to_num, np.real, np.imag):
        assert cr.rrule(f, x)[1](ZeroTangent())[1] is ZeroTangent()
    assert cr.rrule(np.frexp, x)[1](ZeroTangent()) == (NoTangent(), ZeroTangent())


def test_several_outputs():
    x = np.array([2.5, -0.75])
    _, pullback = cr.rrule(np.modf, x)
    np.testing.assert_array_equal(pullback((np.ones(2), np.ones(2)))[1], [1.0, 1.0])
    (_, exponent), pullback = cr.rrule(np.frexp, x)
    dx = pullback((np.ones(2), NoTangent()))[1]
    np.testing.assert_array_equal(dx, 2.0**-exponent)
    _, tangent = cr.frule((NoTangent(), np.ones(2)), np.frexp, x)
    assert tangent[1] is NoTangent()


# ---- array methods and attributes, real_if_close ---------------------------------------------

Z = np.array([0.5 - 1.0j, -0.25 + 0.75j, 2.0 + 0.0j])
METHODS = [
    # function, args, keywords
    # clip's float bounds are differentiable, its keyword bounds not (np.clip's rule); x.real
    # and x.imag, attributes that the harness cannot call, are checked by value below.
    (np.ndarray.clip, (Z.real, -0.3, 1.0), {}),
    (np.ndarray.clip, (Z.real,), {"max": 1.0}),
    (np.real_if_close, (Z.real + 1e-20j,), {}),
    (np.real_if_close, (Z,), {}),
    (np.real_if_close, (Z.real + 1e-10j, 1e7), {}),
]


@pytest.mark.parametrize(
    "f, args, kwargs", METHODS, ids=[f"{f.__name__}-{i}" for i, (f, _, _) in enumerate(METHODS)]
)
def test_methods(f, args, kwargs):
    test_rrule(f, *args, fkwargs=kwargs)
    test_frule(f, *args, fkwargs=kwargs)


@pytest.mark.parametrize("attribute", [np.ndarray.real, np.ndarray.imag], ids=["real", "imag"])
@pytest.mark.parametrize("x", [Z, Z.real], ids=["complex", "real"])
def test_part_attributes(attribute, x):
    test_rrule(attribute, x)
    test_frule(attribute, x)


def test_method_values():
    # x.real and x.imag have the rules of np.real and np.imag.
    y, pullback = cr.rrule(np.ndarray.real, Z)
    assert np.array_equal(y, Z.real)
    assert np.array_equal(pullback(np.array([1.0, 2.0, 3.0]))[1], [1.0, 2.0, 3.0])
    assert pullback(np.ones(3))[1].dtype == np.complex128
    y, pullback = cr.rrule(np.ndarray.imag, Z)
    assert np.array_equal(y, Z.imag)
    assert np.array_equal(pullback(np.ones(3))[1], [1j, 1j, 1j])
    assert np.array_equal(cr.rrule(np.ndarray.imag, Z.real)[1](np.ones(3))[1], np.zeros(3))
    assert np.array_equal(cr.frule((NoTangent(), Z), np.ndarray.imag, Z)[1], Z.imag)
    assert cr.rrule(np.ndarray.real, Z)[1](ZeroTangent())[1] == ZeroTangent()
    _, pullback = cr.rrule(np.ndarray.clip, np.array([-1.0, 0.0, 2.0]), 0.0, 1.0)
    # The closed interval passes: a value on a bound keeps its cotangent; a bound returned
    # in place of a value gets it.
    _, da, dlo, dhi = pullback(np.ones(3))
    assert np.array_equal(da, [0.0, 1.0, 0.0]) and cr.unthunk(dlo) == cr.unthunk(dhi) == 1.0
    y, pullback = cr.rrule(np.real_if_close, np.array([1.0 + 1e-20j]))
    assert y.dtype == np.float64
    assert np.array_equal(pullback(np.array([2.0]))[1], [2.0 + 0.0j])
