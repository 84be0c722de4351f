"""Tests of the rules for spheroidal wave functions: characteristic values, angular, radial."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent
from chainrules.rules.scipy.special import spheroidal

M, N = (0, 2), (2, 4)  # n >= m for every draw
C = (0.5, 4.0)
INTEGER_C = (1, 4)
ANGLE = (-0.9, 0.9)
PROLATE_X = (1.1, 3.0)
OBLATE_X = (0.2, 3.0)
# SciPy's radial functions of the second kind are accurate there (elsewhere their values
# miss the spheroidal equation by up to order one for m >= 1).
SECOND_KIND_X = (2.5, 5.0)
# SciPy's float32 loops of the spheroidal functions never return: float64 only.
NUMERIC_C = (
    "the derivative in c comes from an eigenproblem solved on NumPy values, so it does not "
    "differentiate again; second order is checked at integer c (no tangent)"
)

CV = [sc.pro_cv, sc.obl_cv]
FIRST_KIND = [
    (sc.pro_ang1, ANGLE),
    (sc.obl_ang1, ANGLE),
    (sc.pro_rad1, PROLATE_X),
    (sc.obl_rad1, OBLATE_X),
]

ROWS = [
    *(
        Row(f, (M, N, C), integer=(0, 1), float32=False, second_order=False, reason=NUMERIC_C)
        for f in CV
    ),
    *(
        Row(f, (M, N, C, x), integer=(0, 1), float32=False, second_order=False, reason=NUMERIC_C)
        for f, x in FIRST_KIND
    ),
    *(Row(f, (M, N, INTEGER_C, x), integer=(0, 1, 2), float32=False) for f, x in FIRST_KIND),
    # The derivative in c of the second kind is NotImplementedTangent: c is an integer here.
    *(
        Row(f, (M, N, INTEGER_C, SECOND_KIND_X), integer=(0, 1, 2), float32=False)
        for f in (sc.pro_rad2, sc.obl_rad2)
    ),
    Row(sc.pro_rad2, ((0, 0), (0, 3), INTEGER_C, (1.05, 2.5)), integer=(0, 1, 2), float32=False),
]
CASES = cases(ROWS)

test_rrule_spheroidal, test_frule_spheroidal = table_tests(CASES)


# The *_cv variants are the functions only on the curve cv = pro_cv(m, n, c): their
# derivatives in c and cv are NotImplementedTangent, and the frule is checked with those
# tangents zero (its second-order check would move them).
GIVEN_CV = [
    (sc.pro_ang1_cv, sc.pro_cv, ANGLE),
    (sc.obl_ang1_cv, sc.obl_cv, ANGLE),
    (sc.pro_rad1_cv, sc.pro_cv, PROLATE_X),
    (sc.obl_rad1_cv, sc.obl_cv, OBLATE_X),
    (sc.pro_rad2_cv, sc.pro_cv, SECOND_KIND_X),
    (sc.obl_rad2_cv, sc.obl_cv, SECOND_KIND_X),
]
ON_THE_CURVE = "a tangent in c or cv gives NotImplementedTangent, and this check moves them"


def _given_cv_args(cv_of, interval, shape, seed=0):
    rng = np.random.default_rng(seed)
    m = rng.integers(0, 3, shape)
    n = m + rng.integers(0, 3, shape)
    c = rng.uniform(*C, shape)
    x = rng.uniform(*interval, shape)
    return m, n, c, cv_of(m, n, c), x


@pytest.mark.parametrize("shape", [(3,), ()], ids=repr)
@pytest.mark.parametrize(("f", "cv_of", "interval"), GIVEN_CV, ids=repr)
def test_rrule_given_cv(f, cv_of, interval, shape):
    test_rrule(f, *_given_cv_args(cv_of, interval, shape))


@pytest.mark.parametrize("shape", [(3,), ()], ids=repr)
@pytest.mark.parametrize(("f", "cv_of", "interval"), GIVEN_CV, ids=repr)
def test_frule_given_cv(f, cv_of, interval, shape):
    m, n, c, cv, x = _given_cv_args(cv_of, interval, shape)
    fixed_c, fixed_cv = with_tangent(c, ZeroTangent()), with_tangent(cv, ZeroTangent())
    test_frule(f, m, n, fixed_c, fixed_cv, x, check_second_order=False)  # ON_THE_CURVE


SEQUENCES = [(sc.pro_cv_seq, 0, 3, 1.7), (sc.pro_cv_seq, 2, 5, 3.2), (sc.obl_cv_seq, 1, 4, 2.5)]
SCALARS_ONLY = "SciPy's *_cv_seq take Python scalars only"


@pytest.mark.parametrize(("f", "m", "n", "c"), SEQUENCES, ids=repr)
def test_rrule_cv_sequences(f, m, n, c):
    test_rrule(f, m, n, c, check_second_order=False)  # SCALARS_ONLY


@pytest.mark.parametrize(("f", "m", "n", "c"), SEQUENCES, ids=repr)
def test_frule_cv_sequences(f, m, n, c):
    test_frule(f, m, n, c, check_second_order=False)  # SCALARS_ONLY


# ---- identities and values ------------------------------------------------------------------


def _central(g, t, h=1e-6):
    return (np.asarray(g(t + h)) - np.asarray(g(t - h))) / (2 * h)


def _cotangent(f, args, output, position):
    seeds = (1.0, ZeroTangent()) if output == 0 else (ZeroTangent(), 1.0)
    return cr.unthunk(cr.rrule(f, *args)[1](seeds)[position])


def _angular_bend(sign):
    def bend(w, wp, cv, m, c, x):
        return (2 * x * wp - (cv - sign * c * c * x * x - m * m / (1 - x * x)) * w) / (1 - x * x)

    return bend


def _oblate_radial_bend(w, wp, cv, m, c, x):
    return (-2 * x * wp + (cv - c * c * x * x - m * m / (x * x + 1)) * w) / (x * x + 1)


def _prolate_radial_bend(w, wp, cv, m, c, x):
    # The prolate equation again, written for x > 1.
    return (-2 * x * wp + (cv - c * c * x * x + m * m / (x * x - 1)) * w) / (x * x - 1)


EQUATIONS = [
    # (f, m, n, c, x, w'' from the spheroidal equation)
    (sc.pro_ang1, 1, 3, 2.0, 0.4, _angular_bend(1.0)),
    (sc.obl_ang1, 2, 3, 1.5, -0.6, _angular_bend(-1.0)),
    (sc.pro_rad1, 0, 2, 3.0, 1.7, _prolate_radial_bend),
    (sc.obl_rad1, 1, 2, 2.0, 0.8, _oblate_radial_bend),
    (sc.pro_rad2, 0, 1, 1.5, 1.3, _prolate_radial_bend),
    (sc.obl_rad2, 1, 3, 2.0, 3.5, _oblate_radial_bend),
]


@pytest.mark.parametrize(("f", "m", "n", "c", "x", "bend"), EQUATIONS, ids=repr)
def test_spheroidal_equation(f, m, n, c, x, bend):
    # The second derivative from the equation, against central differences of SciPy's slope.
    (w, wp), _ = cr.rrule(f, m, n, c, x)
    cv = (sc.pro_cv if f.__name__.startswith("pro") else sc.obl_cv)(m, n, c)
    assert _cotangent(f, (m, n, c, x), 0, 4) == wp
    expected = bend(w, wp, cv, m, c, x)
    assert _cotangent(f, (m, n, c, x), 1, 4) == pytest.approx(expected, rel=1e-12)
    numeric = _central(lambda s: f(m, n, c, s)[1], x)
    assert expected == pytest.approx(numeric, rel=1e-7)


@pytest.mark.parametrize("c", [0.3, 1.0, 2.5, 6.0])
@pytest.mark.parametrize(("m", "n"), [(0, 0), (0, 1), (1, 3), (2, 6)])
def test_hellmann_feynman(m, n, c):
    # dcv/dc = +-2c v' X2 v (prolate +, oblate -), against central differences of SciPy.
    for f in (sc.pro_cv, sc.obl_cv):
        slope = cr.unthunk(cr.rrule(f, m, n, c)[1](1.0)[3])
        assert slope == pytest.approx(_central(lambda s, f=f: f(m, n, s), c), rel=1e-6)


def test_characteristic_values_small_c():
    # cv(0, 0, c) = c^2/3 + ... (prolate), -c^2/3 + ... (oblate); stationary at c = 0.
    assert cr.unthunk(cr.rrule(sc.pro_cv, 0, 0, 0.01)[1](1.0)[3]) == pytest.approx(0.02 / 3, 1e-4)
    assert cr.unthunk(cr.rrule(sc.obl_cv, 0, 0, 0.01)[1](1.0)[3]) == pytest.approx(-0.02 / 3, 1e-4)
    assert cr.unthunk(cr.rrule(sc.pro_cv, 1, 2, 0.0)[1](1.0)[3]) == 0.0
    # The Legendre-basis eigenvalue is SciPy's characteristic value.
    cv = spheroidal.legendre_slopes(2, 5, 3.5, spheroidal.OBLATE)[3][0]
    assert cv == pytest.approx(sc.obl_cv(2, 5, 3.5), rel=1e-12)


def test_sequence_entries():
    # Each entry of pro_cv_seq has the slope of pro_cv for its n.
    _, pullback = cr.rrule(sc.pro_cv_seq, 1, 4, 2.2)
    for k, n in enumerate(range(1, 5)):
        entry = cr.unthunk(pullback(np.eye(4)[k])[3])
        assert entry == pytest.approx(cr.unthunk(cr.rrule(sc.pro_cv, 1, n, 2.2)[1](1.0)[3]))
    assert pullback(np.ones(4))[1:3] == (NoTangent(), NoTangent())


IN_C = [
    (sc.pro_ang1, 0, 2, 2.5, 0.3),
    (sc.pro_ang1, 1, 4, 1.2, -0.7),
    (sc.obl_ang1, 2, 3, 3.0, 0.5),
    (sc.pro_rad1, 1, 1, 2.0, 1.4),
    (sc.pro_rad1, 2, 5, 3.5, 2.2),
    (sc.obl_rad1, 0, 3, 1.5, 0.6),
]


@pytest.mark.parametrize(("f", "m", "n", "c", "x"), IN_C, ids=repr)
def test_derivatives_in_c(f, m, n, c, x):
    # Legendre (spherical Bessel for the radial functions) series with the eigenvector's
    # derivative, against central differences of SciPy, value and slope.
    numeric = _central(lambda s: f(m, n, s, x), c)
    for output in (0, 1):
        actual = _cotangent(f, (m, n, c, x), output, 3)
        assert actual == pytest.approx(numeric[output], rel=1e-6, abs=1e-9)


def test_not_implemented_arguments():
    _, pullback = cr.rrule(sc.pro_rad2, 0, 1, 1.5, 2.0)
    assert isinstance(pullback((1.0, 1.0))[3], NotImplementedTangent)
    cv = sc.obl_cv(1, 2, 1.5)
    grads = cr.rrule(sc.obl_ang1_cv, 1, 2, 1.5, cv, 0.3)[1]((1.0, 1.0))
    assert isinstance(grads[3], NotImplementedTangent)
    assert isinstance(grads[4], NotImplementedTangent)
    assert "obl_ang1" in grads[3].info
    tangents = (None, NoTangent(), NoTangent(), 0.0, 1.0, 0.0)
    assert isinstance(
        cr.frule(tangents, sc.obl_ang1_cv, 1, 2, 1.5, cv, 0.3)[1], NotImplementedTangent
    )
