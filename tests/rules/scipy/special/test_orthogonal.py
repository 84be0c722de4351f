"""Tests of the rules for the orthogonal polynomials (assoc_laguerre too): the derivative in x,
degrees, parameters."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.engines.reverse import grad

DEGREE = (0, 6)
X = (-0.95, 0.95)
UNIT = (0.05, 0.95)
PARAMETER = (-0.4, 1.8)
SHAPES_3 = (((3,), (), (3,)), ((2, 3), (), (3,)), ((2, 1), (), (1, 4)), ((), (), ()))
SHAPES_4 = (((3,), (), (), (3,)), ((2, 1), (), (), (1, 4)), ((), (), (), ()))
SHAPES_3N = (((3,), (3,), (3,)), ((2, 1), (), (1, 4)))
SHAPES_4N = (((3,), (3,), (3,), (3,)), ((2, 1), (), (), (1, 4)))


def parametric(f, domain):
    """A row of a polynomial with continuous parameters: an integer degree first, complex x,
    the shapes of its arity."""
    shapes = SHAPES_3 + SHAPES_3N if len(domain) == 3 else SHAPES_4 + SHAPES_4N
    return Row(f, domain, integer=(0,), complex=True, shapes=shapes)


ROWS = [
    Row(sc.eval_legendre, (DEGREE, X), integer=(0,), complex=True),
    Row(sc.eval_chebyt, (DEGREE, X), integer=(0,), complex=True),
    Row(sc.eval_chebyu, (DEGREE, X), integer=(0,), complex=True),
    Row(sc.eval_chebyc, (DEGREE, (-1.9, 1.9)), integer=(0,), complex=True),
    Row(sc.eval_chebys, (DEGREE, (-1.9, 1.9)), integer=(0,), complex=True),
    Row(sc.eval_laguerre, (DEGREE, (0.0, 4.0)), integer=(0,), complex=True),
    Row(sc.eval_hermite, (DEGREE, (-2.0, 2.0)), integer=(0,)),
    Row(sc.eval_hermitenorm, (DEGREE, (-2.0, 2.0)), integer=(0,)),
    Row(sc.eval_sh_legendre, (DEGREE, UNIT), integer=(0,), complex=True),
    Row(sc.eval_sh_chebyt, (DEGREE, UNIT), integer=(0,), complex=True),
    Row(sc.eval_sh_chebyu, (DEGREE, UNIT), integer=(0,), complex=True),
    # Continuous parameters: derivatives by the recurrences on jets, second ones too.
    parametric(sc.eval_gegenbauer, (DEGREE, (0.2, 1.8), X)),
    parametric(sc.eval_genlaguerre, (DEGREE, PARAMETER, (0.0, 4.0))),
    parametric(sc.eval_jacobi, (DEGREE, PARAMETER, PARAMETER, X)),
    parametric(sc.eval_sh_jacobi, (DEGREE, (1.2, 3.0), (0.5, 1.1), UNIT)),
]
CASES = cases(ROWS)

test_rrule_orthogonal, test_frule_orthogonal = table_tests(CASES)


SECOND_ORDER = [
    (sc.eval_gegenbauer, (0.7,), X),
    (sc.eval_jacobi, (0.5, 1.5), X),
    (sc.eval_sh_jacobi, (2.5, 1.5), UNIT),
]


@pytest.mark.parametrize("f, parameters, domain", SECOND_ORDER, ids=repr)
def test_second_order_in_x(f, parameters, domain):
    x = np.linspace(*domain, 3)
    test_rrule(f, np.array([0, 2, 5]), *map(np.float64, parameters), x, check_second_order=True)


# (function, arguments, derivative in x): the endpoints x = +-1 are regular, degree 0 is flat.
HARD_POINTS = [
    (sc.eval_legendre, (4, 1.0), 10.0),  # n (n + 1) / 2
    (sc.eval_legendre, (4, -1.0), -10.0),
    (sc.eval_chebyt, (3, 1.0), 9.0),  # n^2
    (sc.eval_chebyu, (3, 1.0), 20.0),  # n (n + 1) (n + 2) / 3
    (sc.eval_sh_legendre, (2, 1.0), 6.0),
    (sc.eval_sh_chebyt, (2, 0.0), -8.0),
    (sc.eval_hermite, (3, 0.0), -12.0),
    (sc.eval_hermitenorm, (3, 0.0), -3.0),
    (sc.eval_laguerre, (2, 0.0), -2.0),
    (sc.eval_genlaguerre, (2, 1.0, 0.0), -3.0),
    (sc.eval_chebyc, (2, 0.0), 0.0),
    (sc.eval_chebys, (2, 0.0), 0.0),
    (sc.eval_jacobi, (1, 0.5, 1.5, 0.3), 2.0),  # (a + b + 2) / 2
    (sc.eval_gegenbauer, (2, 1.5, 1.0), 15.0),  # 2a C_1^(a+1)(1) = 2a * 2(a + 1)
    (sc.eval_legendre, (0, 0.3), 0.0),
    (sc.eval_jacobi, (0, 0.5, 1.5, 0.3), 0.0),
    (sc.eval_sh_jacobi, (0, 2.0, 1.0, 0.3), 0.0),
]


@pytest.mark.parametrize("f, args, expected", HARD_POINTS, ids=lambda p: getattr(p, "__name__", ""))
def test_hard_points(f, args, expected):
    cotangents = cr.rrule(f, *args)[1](1.0)
    assert cotangents[1] is NoTangent()
    assert cotangents[-1] == pytest.approx(expected, abs=1e-12)


# (function, arguments, mpmath's twin): degrees from 0 to 30, a degenerate Jacobi recurrence
# (a + b = -2 at n = 1) and degrees that are not integers; mpmath at 30 digits, computed here
def _name(p):
    return getattr(p, "__name__", "")


PARAMETER_POINTS = [
    (sc.eval_jacobi, (3, 0.5, 1.5, 0.2), lambda n, a, b, x: mpmath.jacobi(n, a, b, x)),
    (sc.eval_jacobi, (30, -0.3, 2.5, -0.9), lambda n, a, b, x: mpmath.jacobi(n, a, b, x)),
    (sc.eval_jacobi, (4, 0.5, -2.5, 0.3), lambda n, a, b, x: mpmath.jacobi(n, a, b, x)),
    (sc.eval_jacobi, (2.5, 0.5, 1.5, 0.3), lambda n, a, b, x: mpmath.jacobi(n, a, b, x)),
    (sc.eval_gegenbauer, (12, 1.3, -0.6), lambda n, a, x: mpmath.gegenbauer(n, a, x)),
    (sc.eval_gegenbauer, (5, 0.0, 0.4), lambda n, a, x: mpmath.gegenbauer(n, a, x)),
    (sc.eval_gegenbauer, (2.5, 0.7, 0.3), lambda n, a, x: mpmath.gegenbauer(n, a, x)),
    (sc.eval_genlaguerre, (4.7, 1.5, 6.0), lambda n, a, x: mpmath.laguerre(n, a, x)),
    (
        sc.eval_sh_jacobi,
        (6, 3.0, 0.7, 0.8),
        lambda n, p, q, x: (
            mpmath.jacobi(n, p - q, q - 1, 2 * x - 1) / mpmath.binomial(2 * n + p - 1, n)
        ),
    ),
]


@pytest.mark.parametrize("f, args, twin", PARAMETER_POINTS, ids=_name)
def test_parameter_derivatives(f, args, twin):
    cotangents = cr.rrule(f, *args)[1](1.0)
    n, *parameters, x = args
    with mpmath.workdps(30):
        for i in range(len(parameters)):
            order = tuple(int(i == j) for j in range(len(parameters)))
            g = lambda *p: twin(n, *p, x)
            exact = float(mpmath.diff(g, tuple(parameters), order))
            # recurrences on jets: rounding only (measured 2e-14)
            assert cr.unthunk(cotangents[2 + i]) == pytest.approx(exact, rel=1e-11, abs=1e-14)


# A degree that is not an integer: the hypergeometric forms SciPy defines them by; the degree
# itself has no tangent (as at integer degrees).
FRACTIONAL = [
    (sc.eval_jacobi, (np.array([0.5, 2.5]), np.array([0.3, 1.2]), 0.7, np.array([-0.4, 0.6]))),
    (sc.eval_gegenbauer, (np.array([0.5, 2.5]), np.array([0.3, 1.2]), np.array([-0.4, 0.6]))),
    (sc.eval_genlaguerre, (np.array([0.5, 2.5]), np.array([0.3, 1.2]), np.array([0.4, 3.6]))),
]


@pytest.mark.parametrize("f, args", FRACTIONAL, ids=_name)
def test_degree_not_an_integer(f, args):
    degree, *rest = args
    test_rrule(f, with_tangent(degree, NoTangent()), *rest)
    test_frule(f, with_tangent(degree, NoTangent()), *rest)


def test_laguerre_parameter():
    # d/da L_2^(a)(x) = L_0 / 2 + L_1^(a)(x) = 1/2 + 1 + a - x; degree 0 is constant in a.
    assert cr.unthunk(cr.rrule(sc.eval_genlaguerre, 2, 0.5, 0.3)[1](1.0)[2]) == pytest.approx(1.7)
    assert cr.unthunk(cr.rrule(sc.eval_genlaguerre, 0, 0.5, 0.3)[1](1.0)[2]) == 0.0


def test_zero_cotangent():
    assert cr.rrule(sc.eval_legendre, 2, 0.5)[1](ZeroTangent())[2] is ZeroTangent()


# ---- assoc_laguerre: eval_genlaguerre with the argument first -------------------------------

LAGUERRE = [
    ((np.array([0.3, 1.5, 4.0]), 3), {}),
    ((np.array([0.3, 1.5, 4.0]), 3, 0.7), {}),
    ((np.array([0.3, 1.5, 4.0]), np.array([0, 2, 5]), np.array([0.2, 1.5, -0.5])), {}),
    ((np.array([0.3, 1.5, 4.0]), 3), {"k": 1.5}),
    ((1.2, 4, 2.0), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), LAGUERRE, ids=repr)
def test_assoc_laguerre_rules(args, kwargs):
    test_rrule(sc.assoc_laguerre, *args, fkwargs=kwargs)
    test_frule(sc.assoc_laguerre, *args, fkwargs=kwargs)


def test_assoc_laguerre_values():
    x, n, k = 1.3, 4, 0.6
    cotangents = cr.rrule(sc.assoc_laguerre, x, n, k)[1](1.0)
    assert cotangents[1] == pytest.approx(-sc.eval_genlaguerre(n - 1, k + 1, x))
    assert cotangents[2] is NoTangent()
    expected = sum(sc.eval_genlaguerre(j, k, x) / (n - j) for j in range(n))
    assert cr.unthunk(cotangents[3]) == pytest.approx(expected)
    # a degree that is not an integer: the confluent series on jets
    dk = cr.unthunk(cr.rrule(sc.assoc_laguerre, x, 2.5, k)[1](1.0)[3])
    with mpmath.workdps(30):
        exact = float(mpmath.diff(lambda a: mpmath.laguerre(2.5, a, x), k))
    assert dk == pytest.approx(exact, rel=1e-11)


# ---- degrees given as floats: above 170, and tiny ----------------------------------------------

# An integer degree given as a float, above 170, where SciPy's floating-degree Gegenbauer form
# overflows (NaN): mpmath's polynomials at 40 digits, differentiated; exact values at x = 1.
# The recurrence's rounding at degree 200 is about 1e-15 relatively.
LARGE_DEGREES = [
    (sc.eval_legendre, (200.0, 0.3), 11.949608936223276371),
    (sc.eval_chebyu, (200.0, 0.3), 220.83783648997900217),
    (sc.eval_chebys, (200.0, 0.3), 93.947267785678876862),
    (sc.eval_chebyc, (200.0, 0.3), 195.03936606640495125),
    (sc.eval_sh_legendre, (200.0, 0.3), 18.949626472632247705),
    (sc.eval_legendre, (1e4, 1.0), 50005000.0),  # n (n + 1) / 2
    (sc.eval_chebyu, (1e4, 1.0), 333433340000.0),  # n (n + 1) (n + 2) / 3
    (sc.eval_sh_chebyu, (1e4, 1.0), 666866680000.0),
    (sc.eval_sh_legendre, (1e4, 1.0), 100010000.0),
]


@pytest.mark.parametrize("f, args, expected", LARGE_DEGREES, ids=_name)
def test_integer_degrees_given_as_floats(f, args, expected):
    derivative = cr.rrule(f, *map(np.float64, args))[1](1.0)[2]
    assert derivative == pytest.approx(expected, rel=1e-13)


def test_integer_degrees_given_as_floats_as_an_array():
    n, x = np.array([200.0, 2.0, 2.5]), np.array([0.3, 0.3, 0.3])
    derivative = cr.rrule(sc.eval_legendre, n, x)[1](np.ones(3))[2]
    # P_2' = 3x; a degree that is not an integer keeps SciPy's floating form
    at_half = cr.rrule(sc.eval_legendre, 2.5, 0.3)[1](1.0)[2]
    assert derivative == pytest.approx([11.949608936223276371, 0.9, at_half], rel=1e-13)


# A degree 0 < n < 2**-53 that is not an integer: n - 1 rounds to -1, where the lower degree's
# factor 1/Gamma(n) = n is kept. References: the hypergeometric forms with mpmath at 40 digits,
# n(n+1)/2 2F1(1-n, n+2; 2; z) for Legendre (n / (1 + x) to a relative n), n(n+1)(n+2)/3
# 2F1(1-n, n+3; 5/2; z) for U, -n (e**x - 1)/x and -n/(a+1) 1F1(1; a+2; x) for Laguerre (at
# x = 700 by the series of L_n itself, which SciPy gives as 1 though it is -13.5).
TINY_DEGREES = [
    (sc.eval_legendre, (1e-300, 0.5), 6.6666666666666666667e-301),
    (sc.eval_chebyu, (1e-300, 0.5), 9.4559943487486031164e-301),
    (sc.eval_chebyt, (1e-300, 0.5), 0.0),  # n**2 theta / sin(theta) underflows
    (sc.eval_chebyt, (1e-300, 1e300), 0.0),
    (sc.eval_chebyt, (1e-300, -1.0), np.inf),  # n sin(n theta) / sin(theta) at theta = pi
    (sc.eval_sh_chebyt, (1e-300, 1e300), 0.0),
    (sc.eval_sh_chebyt, (1e-300, 0.5), 0.0),
    (sc.eval_chebyc, (1e-300, 1e300), 0.0),
    (sc.eval_laguerre, (1e-300, 2.5), -4.4729975842813893752e-300),
    (sc.eval_laguerre, (1e-300, 700.0), -14.489029353357207641),
    (sc.eval_genlaguerre, (1e-300, 0.5, 2.5), -2.2620794588213430874e-300),
]


@pytest.mark.parametrize("f, args, expected", TINY_DEGREES, ids=_name)
def test_tiny_degrees(f, args, expected):
    with np.errstate(all="ignore"):
        derivative = cr.unthunk(cr.rrule(f, *args)[1](1.0)[-1])
    assert derivative == pytest.approx(expected, rel=1e-13, abs=0)


def test_tiny_degrees_beyond_minus_one_and_as_an_array():
    # beyond x = -1 a function of a degree that is not an integer is complex: NaN
    with np.errstate(all="ignore"):
        for f in (sc.eval_legendre, sc.eval_chebyt, sc.eval_chebyu):
            assert np.isnan(cr.rrule(f, 1e-300, -2.5)[1](1.0)[2])
        n, x = np.array([1e-300, 1e-300, 3.0]), np.array([0.5, 1e300, 0.5])
        derivative = cr.rrule(sc.eval_chebyt, n, x)[1](np.ones(3))[2]
    assert derivative.tolist() == [0.0, 0.0, 3 * sc.eval_chebyu(2, 0.5)]
    derivative = cr.rrule(sc.eval_legendre, n[:1], x[:1])[1](np.ones(1))[2]
    assert derivative == pytest.approx([6.6666666666666666667e-301], rel=1e-13, abs=0)


# Degrees that are not integers at huge x: the alpha derivative took seconds (x = 1e8, the
# differential equation) or 20 s for NaN (x = 1e300, where w = z/(z - 1) rounds to 1); x = 30
# beside them on the ordinary side.
GEGENBAUER_FAR = [
    (0.5, 30.0, 1e8),
    (-2.5, 30.0, 1e8),
    (2.5, 2.5, 1e8),
    (0.5, 1.0, 1e300),
    (0.5, 0.5, 1e300),
    (0.5, 1.0, 30.0),
]


@pytest.mark.parametrize("n, alpha, x", GEGENBAUER_FAR)
def test_gegenbauer_alpha_derivative_at_huge_x(n, alpha, x):
    found = cr.unthunk(cr.rrule(sc.eval_gegenbauer, n, alpha, x)[1](1.0)[2])
    with mpmath.workdps(30):
        exact = float(mpmath.diff(lambda a: mpmath.gegenbauer(n, a, x), alpha))
    # measured within 8e-14: at alpha = 30 the derivative is 1/60 of its digamma terms
    assert found == pytest.approx(exact, rel=1e-12, abs=0)


@pytest.mark.parametrize(
    ("f", "shift", "sign"),
    [
        (sc.eval_chebyt, 0, 1.0),
        (sc.eval_chebyc, 0, 1.0),
        (sc.eval_sh_chebyt, 0, 1.0),
        (sc.eval_chebyu, 2, -1.0),
        (sc.eval_chebys, 2, -1.0),
        (sc.eval_sh_chebyu, 2, -1.0),
        (sc.eval_legendre, 1, 1.0),
        (sc.eval_sh_legendre, 1, 1.0),
    ],
)
@pytest.mark.parametrize("n", [-1, -2, -5, -12])
def test_x_derivative_at_negative_integer_degrees(f, shift, sign, n):
    # SciPy evaluates T_-n = T_n, U_-n = -U_(n-2), P_(-n-1) = P_n: the derivative is the
    # reflected degree's (it was 0 for P and U, n for T); exact, the same computation
    def dx(degree):
        return cr.unthunk(cr.rrule(f, degree, 0.3)[1](1.0)[2])

    reflected = -n - shift
    expected = sign * dx(reflected) if reflected >= 0 else 0.0
    assert dx(n) == expected
    assert dx(float(n)) == pytest.approx(expected, rel=1e-13, abs=1e-15)
    # and by the value: T_12'(0.3) = 12 U_11(0.3)
    if f is sc.eval_chebyt and n == -12:
        assert dx(n) == pytest.approx(12 * sc.eval_chebyu(11, 0.3), rel=1e-14)


@pytest.mark.parametrize(
    ("n", "alpha", "x", "first", "second"),
    [
        # mpmath (40 digits) of binom(n + alpha, n) 1F1(-n; alpha + 1; x): where 1/gamma of
        # alpha + 1 underflows (it was NaN); rtol: the digamma difference of the log-gammas,
        # psi(alpha + n + 1) - psi(alpha + 1), cancels (5e-12 measured at alpha = 3000)
        (0.3, 300.0, 1.5, 0.006179794615808592, -1.4460052246657142e-05),
        (2.5, 3000.0, 30.0, 121865.74526458643, 61.51221716956247),
        (7.5, 171.0, 7.5, 153421846948.75806, 5954494564.159721),
    ],
)
def test_genlaguerre_alpha_derivatives_at_large_alpha(n, alpha, x, first, second):
    def in_alpha(a):
        return sc.eval_genlaguerre(n, a, x)

    assert grad(in_alpha)(alpha) == pytest.approx(first, rel=2e-11, abs=0)
    assert grad(grad(in_alpha))(alpha) == pytest.approx(second, rel=2e-10, abs=0)
