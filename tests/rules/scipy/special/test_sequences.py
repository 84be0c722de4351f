"""Tests of the rules for lqn, lqmn, pbdn_seq, pbdv_seq, pbvv_seq, riccati_jn, riccati_yn, lmbda:
sequences of degrees, orders."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules._compat import SCIPY_VERSION


# (function, arguments): the last argument is the variable; |z| close to 1 is Legendre's edge.
def near_one(z):
    """``z`` within about 1e-3 of the singular points +-1, moved along a tangent of that scale:
    finite differences (and their largest trial steps) then stay on ``z``'s side."""
    dz = 1e-4 * np.sign(z)
    return with_tangent(z, float(dz) if np.ndim(z) == 0 else dz)


ROWS = [
    (sc.lqn, (3, np.array([0.3, -0.8, 1.5]))),
    (sc.lqn, (3, np.array([0.3 + 0.2j, 2.0 - 1.0j]))),
    (sc.lqn, (2, near_one(np.array([0.999, -0.9995])))),
    (sc.lqn, (2, near_one(1.001))),
    (sc.lqn, (0, 0.5)),
    (sc.lqmn, (2, 3, np.array([0.3, -0.8, 1.5]))),
    (sc.lqmn, (2, 3, np.array([0.3 + 0.2j, -1.2 + 0.5j]))),
    (sc.lqmn, (1, 2, near_one(0.999))),
    (sc.lqmn, (3, 3, near_one(np.array([1.0005, -0.998])))),
    (sc.pbdn_seq, (3, 0.7)),
    (sc.pbdn_seq, (-1, 1.7)),
    (sc.pbdn_seq, (5, -2.2)),
    (sc.pbdv_seq, (2.3, 0.7)),
    # SciPy's orders are v - int(v), ..., v only from v = 0 up (it raises for negative v that
    # are not integers): the orders 0 and -2 as integers, without tangent
    (sc.pbdv_seq, (0, -1.2)),
    (sc.pbdv_seq, (-2, 0.4)),
    (sc.pbdv_seq, (0.4, -1.2)),
    (sc.pbdv_seq, (3, 1.9)),
    (sc.pbvv_seq, (2.3, 0.7)),
    (sc.pbvv_seq, (4, -1.1)),
]
IDS = [
    f"{f.__name__}{args[:-1]}-{np.ndim(np.asarray(getattr(args[-1], 'primal', args[-1])))}d"
    for f, args in ROWS
]
# SciPy 1.16's lqmn leaves part of its derivative uninitialized for complex z (two calls on the
# same input differ); SciPy 1.17 fills it.
LQMN_COMPLEX = pytest.mark.skipif(
    SCIPY_VERSION < (1, 17), reason="SciPy < 1.17: lqmn's derivative at complex z is garbage"
)
# SciPy takes one scalar x (no array, not even 0-d) and computes on NumPy values only: these
# rows are Python and NumPy scalars, without second order.
SCALAR_ROWS = [
    (sc.riccati_jn, 3, 1.3),
    # SciPy's riccati_jn is NaN at a float32 scalar: float64 only.
    (sc.riccati_jn, 0, 0.4),
    (sc.riccati_yn, 3, 1.3),
    (sc.riccati_yn, 0, np.float32(2.1)),
    (sc.lmbda, 2, 1.3),
    (sc.lmbda, 2.4, 0.8),
    (sc.lmbda, 0.6, np.float32(2.2)),
]
FIRST_ORDER_ONLY = (sc.riccati_jn, sc.riccati_yn, sc.lmbda)
CASES = [
    pytest.param(
        f, args, id=name, marks=LQMN_COMPLEX if f is sc.lqmn and np.iscomplexobj(args[-1]) else ()
    )
    for (f, args), name in zip(ROWS, IDS, strict=True)
] + [pytest.param(f, (v, x), id="-".join(map(repr, (f, v, x)))) for f, v, x in SCALAR_ROWS]


def _with_order_fixed(args):
    # A real top order v moves every order of the sequence; the frule's second-order check
    # differentiates in v through its forward mode, which needs the third derivative in the
    # order (not given): it holds v fixed.
    return (with_tangent(args[0], ZeroTangent()), *args[1:]) if isinstance(args[0], float) else args


@pytest.mark.parametrize(("f", "args"), CASES)
def test_rrule_sequences(f, args):
    test_rrule(f, *args, check_second_order=f not in FIRST_ORDER_ONLY)


@pytest.mark.parametrize(("f", "args"), CASES)
def test_frule_sequences(f, args):
    second = f not in FIRST_ORDER_ONLY
    test_frule(f, *args, check_second_order=False)
    if second:
        test_frule(f, *_with_order_fixed(args), check_second_order=True)


# ---- the equations the rules rest on --------------------------------------------------------


def _second_derivative(f, *args):
    """``w''`` of the rule: the cotangent of ``z`` for a unit cotangent on ``w'``."""
    y, pullback = cr.rrule(f, *args)
    return pullback((ZeroTangent(), np.ones_like(y[1])))[-1]


def _second_derivatives(f, *args):
    """``w''`` of the rule, entry by entry: the frule's tangent of ``w'`` for ``dz = 1``."""
    tangents = (None,) + (0,) * (len(args) - 1) + (1.0,)
    return cr.frule(tangents, f, *args)[1][1]


@pytest.mark.parametrize("z", [0.4, 0.999, -0.9999, 1.002, 3.0])
def test_legendre_q_second_derivative(z):
    # Legendre's equation, against central differences of SciPy's Q'.
    h = 1e-5 * min(1.0, abs(abs(z) - 1))
    for f, integers in ((sc.lqn, (3,)), (sc.lqmn, (2, 3))):
        expected = (f(*integers, z + h)[1] - f(*integers, z - h)[1]) / (2 * h)
        np.testing.assert_allclose(_second_derivatives(f, *integers, z), expected, rtol=1e-6)


def test_legendre_q_at_the_edge():
    # Q is infinite at z = 1 (SciPy returns 1e300), so is Q''; a zero cotangent on Q' stays 0.
    assert _second_derivative(sc.lqn, 2, 1.0) == np.inf
    y, pullback = cr.rrule(sc.lqn, 2, 1.0)
    assert pullback((np.array([0.0, 1.0, 0.0]), np.zeros(3)))[2] == y[1][1]


@pytest.mark.parametrize(("f", "v", "x"), [(sc.pbdv_seq, 2.3, 0.7), (sc.pbvv_seq, 3, -1.4)])
def test_weber_equation(f, v, x):
    # w'' = (x^2/4 - nu - 1/2) w for D_nu and V_nu, nu = v - int(v) + k.
    w = f(v, x)[0]
    orders = v - int(v) + np.arange(len(w))
    assert _second_derivative(f, v, x) == pytest.approx(np.sum((x * x / 4 - orders - 0.5) * w))
    assert _second_derivative(sc.pbdn_seq, 2, x) == pytest.approx(
        np.sum((x * x / 4 - np.arange(3) - 0.5) * sc.pbdn_seq(2, x)[0])
    )


def test_order_tangents():
    # a real top order moves every order of the sequence: the sum of their order derivatives
    got = cr.unthunk(cr.rrule(sc.pbdv_seq, 2.5, 0.3)[1]((np.ones(3), np.zeros(3)))[1])
    with mpmath.workdps(30):
        exact = sum(mpmath.diff(lambda v: mpmath.pcfd(v, 0.3), 0.5 + k) for k in range(3))
    assert got == pytest.approx(float(exact), rel=1e-10)
    assert cr.rrule(sc.pbdv_seq, 2, 0.3)[1]((np.ones(3), np.ones(3)))[1] is NoTangent()
    assert (
        cr.rrule(sc.lqmn, 1, 2, 0.3)[1]((np.ones((2, 3)), ZeroTangent()))[:3] == (NoTangent(),) * 3
    )


@pytest.mark.parametrize(
    ("f", "args", "match"),
    [
        (sc.pbdn_seq, (-2, 0.5), "n <= -2"),
        (sc.pbdn_seq, (2, 0.5 + 0.1j), "off the real axis"),
        (sc.pbdv_seq, (-0.5, 0.5), "negative non-integer"),
        (sc.pbvv_seq, (-1.5, 0.5), "negative non-integer"),
    ],
)
def test_refused_where_scipy_departs_from_its_definition(f, args, match):
    # SciPy's values there are other functions than documented (D_0 = exp(-|z|^2/4), repeated
    # or shifted orders): a derivative would be of the wrong function.
    with pytest.raises(ValueError, match=match):
        cr.rrule(f, *args)


def test_sequences_at_zero():
    # (x j_1)'' (0) = 2/3; lambda_v'' (0) = -1/(2 (v + 1)), summed over v = 0, 1, 2.
    slopes = (ZeroTangent(), np.array([0.0, 1.0, 0.0]))
    assert cr.rrule(sc.riccati_jn, 2, 0.0)[1](slopes)[2] == pytest.approx(2 / 3)
    all_slopes = (ZeroTangent(), np.ones(3))
    assert cr.rrule(sc.lmbda, 2, 0.0)[1](all_slopes)[2] == pytest.approx(-1 / 2 - 1 / 4 - 1 / 6)
