"""Tests of the rules for NumPy's polynomial functions."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent

rng = np.random.default_rng(0)
P = rng.normal(size=4)
Q = rng.normal(size=2)
Z = P + 1j * P[::-1]
X = rng.normal(size=(2, 3))
U, V = rng.normal(size=5), rng.normal(size=3)
FIT_X = np.linspace(-1.0, 1.0, 7) + 0.05 * rng.normal(size=7)
FIT_Y, FIT_Y2 = rng.normal(size=7), rng.normal(size=(7, 2))

# function, args, keywords
CASES = [
    (np.polyadd, (P, Q), {}),
    (np.polyadd, (Z, Q), {}),
    (np.polyadd, (2.5, Q), {}),
    (np.polysub, (Q, P), {}),
    (np.polyder, (P,), {}),
    (np.polyder, (P, 2), {}),
    (np.polyder, (P,), {"m": 5}),
    (np.polyint, (P,), {}),
    (np.polyint, (P, 2, Q), {}),
    (np.polyint, (P,), {"k": 3.0}),
    (np.polymul, (P, Q), {}),
    (np.polymul, (Z, Q), {}),
    (np.polyval, (P, X), {}),
    (np.polyval, (P, 0.3), {}),
    (np.polyval, (Z, X - 0.5j), {}),
    (np.polyval, (P.astype(np.float32), X.astype(np.float32)), {}),
    (np.vander, (Q,), {}),
    (np.vander, (P, 3, True), {}),
    (np.vander, (P,), {"N": 2}),
    (np.roots, (np.poly([0.5, -1.0, 2.0]),), {}),
    (np.roots, (np.array([1.0, 0.0, 1.0, 1.0]),), {}),
    (np.roots, (Z,), {}),
    (np.poly, (np.array([0.5, -1.0, 2.0]),), {}),
    (np.poly, (np.array([0.5 + 1j, -1.0, 2.0j]),), {}),
    (np.polydiv, (U, V), {}),
    (np.polydiv, (V, U), {}),
    (np.polydiv, (U + 1j * U[::-1], V), {}),
    (np.polydiv, (np.polymul([1.0, 2.0], [1.0, 3.0, 4.0]), np.array([1.0, 2.0])), {}),
    (np.polyfit, (FIT_X, FIT_Y, 2), {}),
    (np.polyfit, (FIT_X, FIT_Y2, 3), {}),
    (np.polyfit, (FIT_X, FIT_Y + 1j * FIT_Y[::-1], 2), {}),
]


@pytest.mark.parametrize(
    "f, args, kwargs", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _, _) in enumerate(CASES)]
)
def test_rules(f, args, kwargs):
    test_rrule(f, *args, fkwargs=kwargs)
    test_frule(f, *args, fkwargs=kwargs)


def test_polyval_values():
    y, pullback = cr.rrule(np.polyval, np.array([1.0, 0.0, -1.0]), 2.0)
    assert y == 3.0
    _, dp, dx = pullback(1.0)
    assert np.array_equal(dp, [4.0, 2.0, 1.0])
    assert dx == 4.0  # p'(2) = 2 * 2


def test_vander_at_zero():
    # d/dx x^0 is 0, and d/dx x^1 is 1, at x = 0 as well.
    _, pullback = cr.rrule(np.vander, np.array([0.0]), 3)
    assert np.array_equal(pullback(np.ones((1, 3)))[1], [1.0])


def test_roots_move_against_the_derivative():
    # x^2 - c has roots +-sqrt(c): d/dc sqrt(c) = 1 / (2 sqrt(c)) = 1/4 at c = 4.
    z, pullback = cr.rrule(np.roots, np.array([1.0, 0.0, -4.0]))
    assert np.allclose(np.sort(z), [-2.0, 2.0])
    dp = pullback(np.where(z > 0, 1.0, 0.0))[1]
    assert np.allclose(dp, [-1.0, -0.5, -0.25])


def test_poly_values():
    # poly([a, b]) = [1, -(a + b), a b]: d/da = [0, -1, b].
    _, pullback = cr.rrule(np.poly, np.array([2.0, 3.0]))
    assert np.array_equal(pullback(np.array([5.0, 1.0, 1.0]))[1], [2.0, 1.0])


def test_polydiv_exact_division():
    # u = q v exactly: the remainder [0.] is trimmed, its cotangent still counts. With
    # v = [1, 1], r = u0 - u1 + u2 (the value of u at -1).
    (q, r), pullback = cr.rrule(np.polydiv, np.array([1.0, 3.0, 2.0]), np.array([1.0, 1.0]))
    assert np.array_equal(q, [1.0, 2.0]) and np.array_equal(r, [0.0])
    _, du, dv = pullback(cr.Tangent(tuple, np.zeros(2), np.ones(1)))
    assert np.array_equal(du, [1.0, -1.0, 1.0])
    assert np.array_equal(dv, [1.0, -1.0])


def test_poly1d_has_no_rule():
    assert cr.rrule(np.polyval, np.poly1d([1.0, 2.0]), 3.0) is None
    assert cr.rrule(np.polyadd, np.poly1d([1.0]), np.array([1.0])) is None


def test_polyfit_options_have_no_rule():
    with pytest.raises(cr.RuleKeywordError, match="w"):
        cr.rrule(np.polyfit, FIT_X, FIT_Y, 2, w=np.ones(7))


def test_integer_exponent_has_no_tangent():
    _, pullback = cr.rrule(np.polyder, P, 2)
    assert pullback(np.ones(2))[2] == NoTangent()


def test_poly_of_two_roots_second_order():
    # poly of the roots without one of them is poly of one root, whose rows once lost their
    # length when poly of no roots (the 0-d 1.0) appeared in the second-order pullback.
    r = np.array([0.5, 2.0])
    test_rrule(np.poly, r, check_second_order=True)
    test_frule(np.poly, r, check_second_order=True)
    _, pullback = cr.rrule(np.poly, r)
    # c = [1, -(r0 + r1), r0 r1]: dc/dr0 = [0, -1, r1], dc/dr1 = [0, -1, r0].
    np.testing.assert_array_equal(pullback(np.array([0.0, 1.0, 1.0]))[1], [1.0, -0.5])
