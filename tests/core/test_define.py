"""Tests for chainrules.core.define: scalar_rule, non_differentiable, ignore_derivatives."""

import numpy as np
import pytest

from chainrules.core.algebra import add
from chainrules.core.define import ignore_derivatives, non_differentiable, scalar_rule
from chainrules.core.errors import RuleDefinitionError, RuleKeywordError, TangentTypeError
from chainrules.core.registry import frule, registered_functions, rrule
from chainrules.core.tangents import (
    NoTangent,
    NotImplementedTangent,
    Tangent,
    ZeroTangent,
    not_implemented,
)
from chainrules.core.thunks import Thunk

Z, N = ZeroTangent(), NoTangent()


# ---- the functions given rules here, one table row each -----------------------------------------


def square(x):
    return x * x


def cube(z):
    return z * z * z


def rotate(x):
    return x * (1 + 1j)


def mul(x, y):
    return x * y


def power(x, n):
    return x**n


def split_fraction(x):
    return np.modf(x)


def mantissa_exponent(x):
    return np.frexp(x)


def with_dtype(x, dtype=None):
    return np.asarray(x * 2.0, dtype=dtype)


scalar_rule(square, lambda x, y: 2 * x)
scalar_rule(cube, lambda z, y: 3 * z * z)
scalar_rule(rotate, lambda x, y: 1 + 1j)
scalar_rule(mul, lambda x, y, z: y, lambda x, y, z: x)
scalar_rule(power, lambda x, n, y: n * x ** (n - 1), None)
scalar_rule(split_fraction, (lambda x, y: 1.0,), (lambda x, y: 0.0,))
scalar_rule(mantissa_exponent, (lambda x, y: np.ldexp(1.0, -y[1]),), (None,))
scalar_rule(with_dtype, lambda x, y: 2.0, keywords=("dtype",))


# ---- unary --------------------------------------------------------------------------------------

UNARY = [
    # function, x, dy, expected y, expected dx
    ("square float", square, 3.0, 1.0, 9.0, 6.0),
    ("square array", square, np.array([1.0, -2.0]), np.array([1.0, 0.5]),
     np.array([1.0, 4.0]), np.array([2.0, -2.0])),
    ("square float32", square, np.array([1.5], np.float32), np.array([2.0]),
     np.array([2.25], np.float32), np.array([6.0], np.float32)),
    ("square float32 scalar", square, np.float32(2), 1.0, np.float32(4), np.float32(4)),
    ("square int has no tangent", square, 3, 1.0, 9, N),
]  # fmt: skip


@pytest.mark.parametrize(("name", "fn", "x", "dy", "y", "dx"), UNARY, ids=[u[0] for u in UNARY])
def test_unary_rrule(name, fn, x, dy, y, dx):
    result, pullback = rrule(fn, x)
    assert type(result) is type(y)
    np.testing.assert_array_equal(result, y)
    df, got = pullback(dy)
    assert df is N
    assert type(got) is type(dx)
    if isinstance(dx, np.ndarray | np.generic):
        assert got.dtype == dx.dtype
    np.testing.assert_array_equal(got, dx)


def test_unary_frule():
    y, dy = frule((N, 0.5), square, 3.0)
    assert (y, dy) == (9.0, 3.0)
    y, dy = frule((N, np.array([1.0, 1.0], np.float32)), square, np.array([1.0, 2.0], np.float32))
    assert dy.dtype == np.float32
    np.testing.assert_array_equal(dy, [2.0, 4.0])


def test_thunked_cotangent_is_unthunked():
    _, pullback = rrule(square, 2.0)
    assert pullback(Thunk(lambda: 1.0)) == (N, 4.0)


# ---- binary, broadcasting -----------------------------------------------------------------------


def test_binary_rrule_unbroadcasts():
    x = np.array([[1.0], [2.0], [3.0]])  # (3, 1)
    y = np.array([1.0, 10.0, 100.0, 1000.0])  # (4,)
    z, pullback = rrule(mul, x, y)
    np.testing.assert_array_equal(z, x * y)
    dz = np.ones((3, 4))
    df, dx, dy = pullback(dz)
    assert df is N and dx.shape == (3, 1) and dy.shape == (4,)
    np.testing.assert_array_equal(dx, [[1111.0], [1111.0], [1111.0]])
    np.testing.assert_array_equal(dy, [6.0, 6.0, 6.0, 6.0])


def test_binary_rrule_with_a_python_scalar():
    _, pullback = rrule(mul, 2.0, np.array([1.0, 3.0]))
    _, dx, dy = pullback(np.array([1.0, 1.0]))
    assert type(dx) is float and dx == 4.0
    np.testing.assert_array_equal(dy, [2.0, 2.0])


def test_binary_frule_broadcasts():
    x, y = np.array([[1.0], [2.0]]), np.array([10.0, 20.0, 30.0])
    _, dz = frule((N, np.array([[1.0], [0.0]]), 1.0), mul, x, y)
    assert dz.shape == (2, 3)
    np.testing.assert_array_equal(dz, [[11.0, 21.0, 31.0], [2.0, 2.0, 2.0]])


def test_binary_frule_with_one_zero_tangent():
    z, dz = frule((N, Z, 1.0), mul, 2.0, 3.0)
    assert (z, dz) == (6.0, 2.0)


# ---- complex convention -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "z", [1.0 + 2.0j, np.complex128(0.5 - 1j), np.array([1.0 + 2.0j, -1j])], ids=repr
)
def test_holomorphic_pullback_is_conj_derivative_times_dy(z):
    derivative = 3 * z * z
    dy = np.full(np.shape(z), 0.25 - 0.5j)[()]  # a cotangent has the output's shape
    _, pullback = rrule(cube, z)
    np.testing.assert_allclose(pullback(dy)[1], np.conj(derivative) * dy, rtol=1e-15)
    _, dy_forward = frule((N, dy), cube, z)
    np.testing.assert_allclose(dy_forward, derivative * dy, rtol=1e-15)


def test_real_input_complex_output_takes_the_real_part():
    _, pullback = rrule(rotate, 2.0)
    dx = pullback(1.0 - 3.0j)[1]
    # Re(conj(1 + i) (1 - 3i)) = Re(-2 - 4i) = -2
    assert type(dx) is float and dx == -2.0


# ---- several outputs ----------------------------------------------------------------------------


def test_modf_like_function():
    x = np.array([1.25, -2.5])
    (fraction, whole), pullback = rrule(split_fraction, x)
    np.testing.assert_array_equal(fraction, [0.25, -0.5])
    np.testing.assert_array_equal(whole, [1.0, -2.0])
    df, dx = pullback(Tangent(tuple, np.array([1.0, 2.0]), np.array([5.0, 5.0])))
    assert df is N
    np.testing.assert_array_equal(dx, [1.0, 2.0])
    np.testing.assert_array_equal(pullback((Z, np.ones(2)))[1], [0.0, 0.0])
    (_, _), dys = frule((N, np.array([1.0, 3.0])), split_fraction, x)
    assert isinstance(dys, Tangent) and dys.primal_type is tuple
    np.testing.assert_array_equal(dys[0], [1.0, 3.0])
    np.testing.assert_array_equal(dys[1], [0.0, 0.0])


def test_frexp_like_function_with_an_integer_output():
    x = np.array([3.0, 0.75])
    (_, exponent), pullback = rrule(mantissa_exponent, x)
    np.testing.assert_array_equal(exponent, [2, 0])
    _, dx = pullback((np.array([1.0, 1.0]), N))
    np.testing.assert_array_equal(dx, [0.25, 1.0])
    (_, _), (dm, de) = frule((N, np.array([4.0, 4.0])), mantissa_exponent, x)
    np.testing.assert_array_equal(dm, [1.0, 4.0])
    assert de is N


def test_frexp_like_function_on_a_python_float():
    (mantissa, exponent), pullback = rrule(mantissa_exponent, 3.0)
    assert (mantissa, exponent) == (0.75, 2)
    _, dx = pullback((1.0, N))
    assert type(dx) is float and dx == 0.25


def test_wrong_number_of_output_cotangents():
    _, pullback = rrule(split_fraction, 1.5)
    with pytest.raises(TangentTypeError, match="each of 2 outputs, got 1"):
        pullback((1.0,))


# ---- partials that are None, zero cotangents ----------------------------------------------------


def test_none_partial_gives_no_tangent():
    y, pullback = rrule(power, 2.0, 3)
    assert y == 8.0
    assert pullback(1.0) == (N, 12.0, N)
    _, pullback = rrule(power, 2.0, 3.0)
    assert pullback(1.0)[2] is N
    assert frule((N, 1.0, 1.0), power, 2.0, 3) == (8.0, 12.0)


ZERO_COTANGENTS = [
    ("unary", square, (2.0,), (N, Z)),
    ("binary", mul, (2.0, np.ones(2)), (N, Z, Z)),
    ("None partial", power, (2.0, 3), (N, Z, N)),
    ("several outputs", split_fraction, (1.5,), (N, Z)),
]


@pytest.mark.parametrize(
    ("name", "fn", "args", "expected"), ZERO_COTANGENTS, ids=[z[0] for z in ZERO_COTANGENTS]
)
@pytest.mark.parametrize("zero", [Z, Thunk(lambda: Z)], ids=["ZeroTangent", "thunk of zero"])
def test_zero_cotangent_gives_zero_cotangents(name, fn, args, expected, zero):
    _, pullback = rrule(fn, *args)
    assert pullback(zero) == expected
    assert all(a is b for a, b in zip(pullback(zero), expected, strict=True))


def test_zero_tangents_give_a_zero_tangent():
    assert frule((N, Z), square, 2.0) == (4.0, Z)
    assert frule((N, Z, Z), mul, 2.0, 3.0) == (6.0, Z)


# ---- keywords -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: rrule(square, 1.0, axis=0),
        lambda: frule((N, 1.0), square, 1.0, axis=0),
        lambda: rrule(mul, 1.0, 2.0, out=None),
    ],
    ids=["rrule", "frule", "out="],
)
def test_keywords_are_rejected_with_a_clear_error(call):
    with pytest.raises(RuleKeywordError) as info:
        call()
    message = str(info.value)
    assert f"{__name__}." in message and "does not accept the keyword" in message
    assert "'axis'" in message or "'out'" in message


def test_declared_keywords_pass_through():
    y, pullback = rrule(with_dtype, np.ones(2), dtype=np.float32)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(pullback(np.ones(2))[1], [2.0, 2.0])
    with pytest.raises(RuleKeywordError, match="'order'"):
        rrule(with_dtype, np.ones(2), order="C")


# ---- definition errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("partials", "match"),
    [
        ((), "at least one partial"),
        ((2.0,), "not callable"),
        (((lambda x, y: 1.0,), (lambda x, y: 1.0, None)), "one partial per input"),
    ],
    ids=["none", "not callable", "ragged outputs"],
)
def test_scalar_rule_rejects_bad_partials(partials, match):
    def fresh(x):
        return x

    with pytest.raises(RuleDefinitionError, match=match):
        scalar_rule(fresh, *partials)


def test_frule_checks_the_number_of_tangents():
    with pytest.raises(TangentTypeError, match="expected 3 tangents"):
        frule((N, 1.0), mul, 1.0, 2.0)


def test_generated_rules_have_readable_names():
    (rule,) = [m.fn for m in rrule.methods(mul)]
    assert rule.__qualname__ == f"scalar_rrule[{__name__}.mul]"


# ---- non_differentiable, ignore_derivatives, not_implemented ------------------------------------


def sign_of(x):
    return np.sign(x)


def count_above(x, threshold=0.0):
    return int(np.sum(np.asarray(x) > threshold))


non_differentiable(sign_of, count_above)


def test_non_differentiable_rrule_gives_no_tangents():
    y, pullback = rrule(count_above, np.array([1.0, -1.0, 2.0]), 0.5)
    assert y == 2
    assert pullback(1.0) == (N, N, N)
    y, pullback = rrule(count_above, np.array([1.0, 2.0]), threshold=1.5)
    assert y == 1 and pullback(Z) == (N, N)


def test_non_differentiable_frule_gives_no_tangent():
    y, dy = frule((N, np.ones(2)), sign_of, np.array([-2.0, 3.0]))
    np.testing.assert_array_equal(y, [-1.0, 1.0])
    assert dy is N


def test_non_differentiable_is_listed_as_such():
    (info,) = [i for i in registered_functions() if i.function is sign_of]
    assert info.non_differentiable and info.rrule and info.frule and not info.opted_out
    assert info.name == f"{__name__}.sign_of"


@pytest.mark.parametrize("x", [2.0, np.ones(2), "s"], ids=repr)
def test_ignore_derivatives_returns_the_value(x):
    assert ignore_derivatives(x) is x
    assert ignore_derivatives(lambda: x) is x
    y, pullback = rrule(ignore_derivatives, x)
    assert y is x and pullback(1.0) == (N, N)
    assert frule((N, 1.0), ignore_derivatives, x) == (x, N)


def half_known(x, nu):
    return nu * x


@rrule.register(half_known)
def _half_known_rrule(x, nu):
    def half_known_pullback(dy):
        return N, nu * dy, not_implemented("derivative in the order nu")

    return nu * x, half_known_pullback


def test_not_implemented_cotangent_propagates_through_accumulation():
    _, pullback = rrule(half_known, 2.0, 3.0)
    _, dx, dnu = pullback(1.0)
    assert dx == 3.0
    assert isinstance(dnu, NotImplementedTangent) and "order nu" in dnu.info
    assert add(dnu, 5.0) is dnu and add(Z, dnu) is dnu


# ---- scalar_rule_like: one rule, two functions ------------------------------------------------


def cube_exact(x):
    return x * x * x


def cube_by_logs(x):
    return np.exp(3 * np.log(x))


scalar_rule(cube_exact, lambda x, y: 3 * x * x)


@pytest.mark.parametrize(
    ("x", "dx", "expected"),
    [(2.0, 1.0, 12.0), (np.array([1.0, 3.0]), np.ones(2), np.array([3.0, 27.0]))],
    ids=["scalar", "array"],
)
def test_scalar_rule_like_shares_the_partials(x, dx, expected):
    from chainrules.core.define import scalar_rule_like

    scalar_rule_like(cube_by_logs, cube_exact)
    y, pullback = rrule(cube_by_logs, x)
    np.testing.assert_allclose(y, cube_exact(x))
    np.testing.assert_allclose(pullback(dx)[1], expected)
    np.testing.assert_allclose(frule((N, dx), cube_by_logs, x)[1], expected)


def test_scalar_rule_like_needs_a_scalar_rule():
    from chainrules.core.define import scalar_rule_like

    with pytest.raises(RuleDefinitionError, match="has no rule made by scalar_rule"):
        scalar_rule_like(cube_by_logs, half_known)


# ---- constant partials: the cotangent passes through, with the product's exact result -------


def difference(x, y):
    return x - y


def difference_by_products(x, y):
    return x - y


def identity_plus(x):
    return x + 0.0


def identity_by_product(x):
    return x + 0.0


def negation_minus(x):
    return -x - 0.0


def _constant_partials():
    from chainrules.core.define import constant

    scalar_rule(difference, constant(1.0), constant(-1.0))
    scalar_rule(difference_by_products, lambda x, y, z: 1.0, lambda x, y, z: -1.0)
    scalar_rule(identity_plus, constant(1.0))
    scalar_rule(identity_by_product, lambda x, y: 1.0)
    scalar_rule(negation_minus, constant(-1.0))


_constant_partials()

COLUMN = np.array([[1.5], [-2.0]])
F32 = np.array([0.5, -1.0], dtype=np.float32)


@pytest.mark.parametrize(
    ("x", "y", "dz"),
    [
        (1.5, -0.25, 2.0),
        (np.asarray(3.0), np.asarray(1.0), np.asarray(-0.0)),
        (np.ones((2, 3)), COLUMN, np.arange(6.0).reshape(2, 3) - 2.5),
        (np.float32(1.0), F32, np.array([0.25, np.inf])),
        (np.array([1 + 1j, 2.0]), 0.5, np.array([1.0 - 0.0j, -0.0 + 2j])),
        (np.ones(2), np.ones(2), np.ones(2, dtype=np.float32)),
    ],
    ids=["floats", "0-d", "broadcast", "float32", "complex", "float32 cotangent"],
)
def test_constant_partials_give_the_products_results(x, y, dz):
    _, by_constant = rrule(difference, x, y)
    _, by_product = rrule(difference_by_products, x, y)
    for got, want in zip(by_constant(dz), by_product(dz), strict=True):
        assert type(got) is type(want)
        if isinstance(want, np.ndarray | np.generic | float | complex):
            assert np.asarray(got).dtype == np.asarray(want).dtype
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    for dx, dy in [(np.ones(np.shape(x)), 2.0 * np.ones(np.shape(y))), (Z, 1.0)]:
        got = frule((N, dx, dy), difference, x, y)[1]
        want = frule((N, dx, dy), difference_by_products, x, y)[1]
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def test_a_unit_partial_passes_the_cotangent_through():
    dz = np.array([1.0, -2.0])
    _, pullback = rrule(identity_plus, np.zeros(2))
    assert pullback(dz)[1] is dz
    _, pullback = rrule(identity_by_product, np.zeros(2))
    np.testing.assert_array_equal(pullback(dz)[1], dz)
    _, pullback = rrule(difference, np.zeros(2), 0.0)
    assert pullback(dz)[1] is dz
    assert pullback(dz)[2] == 1.0
    # a partial of -1: the cotangent negated, also when it takes the general way (float32)
    _, pullback = rrule(negation_minus, np.zeros(2))
    for given in (dz, dz.astype(np.float32), Thunk(lambda: dz)):
        dx = pullback(given)[1]
        assert type(dx) is np.ndarray and dx.dtype == np.float64
        assert dx.tobytes() == np.array([-1.0, 2.0]).tobytes()


def test_a_ufunc_rule_computes_with_the_namesake_of_other_arrays_or_says_it_cannot():
    torch = pytest.importorskip("torch")
    import scipy.special as sc

    from chainrules.core.errors import ArrayTypeError

    x = torch.tensor([0.5, 1.0], dtype=torch.float64)
    y, pullback = rrule(np.arcsin, x)  # torch's asin, and a pullback in torch too
    assert isinstance(y, torch.Tensor) and torch.equal(y, torch.asin(x))
    assert torch.allclose(pullback(torch.ones(2))[1], 1 / torch.sqrt(1 - x * x))
    with pytest.raises(ArrayTypeError, match=r"scipy\.special\.gammaln .*Tensor"):
        rrule(sc.gammaln, x)
