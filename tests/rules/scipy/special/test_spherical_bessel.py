"""Tests of the rules for the spherical Bessel functions and their derivatives."""

import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent

X = (0.5, 4.5)
FIRST = (((3,), (3,)),)

SPHERICAL = [sc.spherical_jn, sc.spherical_yn, sc.spherical_in, sc.spherical_kn]

ROWS = [
    *(Row(f, ((0, 4), X), integer=(0,), complex=True) for f in SPHERICAL),
    # Negative real z: SciPy reflects it; so do the rules on the engine's arrays (jn, in).
    *(
        Row(f, ((0, 4), (-4.5, -0.5)), integer=(0,), shapes=FIRST, kwargs=kwargs)
        for f in (sc.spherical_jn, sc.spherical_yn, sc.spherical_in)
        for kwargs in ({}, {"derivative": True})
    ),
    *(
        Row(f, ((0, 4), X), integer=(0,), complex=True, kwargs={"derivative": True})
        for f in SPHERICAL
    ),
]
CASES = cases(ROWS)

test_rrule_bessel_more, test_frule_bessel_more = table_tests(CASES)


# ---- hard points and exact values -----------------------------------------------------------


def test_spherical_derivative_at_zero():
    # j_1(z) ~ z/3 near 0; j_0'' (0) = -1/3, from the recurrence without division by z.
    assert cr.rrule(sc.spherical_jn, 1, 0.0)[1](1.0)[2] == pytest.approx(1 / 3)
    dz = cr.rrule(sc.spherical_jn, 0, 0.0, derivative=True)[1](1.0)[2]
    assert dz == pytest.approx(-1 / 3)
    assert cr.rrule(sc.spherical_in, 0, 0.0, True)[1](1.0)[1:] == (NoTangent(), 1 / 3, NoTangent())


def test_spherical_derivatives_at_small_arguments():
    # SciPy's derivative=True cancels at small z (spherical_in(1, 1e-200, True) = 1, true
    # 1/3); the rules' recurrences on the values do not.
    import scipy.special._ufuncs as ufuncs

    from chainrules.engines import reverse

    for name, sign in (("_spherical_in", 1), ("_spherical_jn", -1)):
        ufunc = getattr(ufuncs, name)
        second = reverse.grad(reverse.grad(lambda z, u=ufunc: u(0, z)))
        assert second(1e-200) == pytest.approx(sign / 3, rel=1e-14)
        slope = reverse.grad(lambda z, u=ufunc: u(1, z))
        assert slope(1e-200) == pytest.approx(1 / 3, rel=1e-14)
