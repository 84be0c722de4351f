"""Tests of the rules for lpmv, legendre_p, assoc_legendre_p and sph_legendre_p: derivatives in x
(diff_n 0-2, third derivatives exact)."""

import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import RuleKeywordError
from chainrules.core.calls import call
from chainrules.engines import reverse

LEGENDRE = (-0.9, 0.9)
FIRST = (((3,), (3,)),)
FIRST3 = (((3,), (3,), (3,)),)
# SciPy's Legendre functions compute in float64 only (float32 in, float64 out).
FLOAT64 = {"float32": False}
# Near |z| = 1 the derivatives of odd orders grow like powers of 1/(1 - z^2).
NEAR_ONE = ((0.99, 0.999), (-0.999, -0.99))
NEAR_POLES = ((0.01, 0.05), (np.pi - 0.05, np.pi - 0.01))
ORDERS = (-3, 3)
DIFF_N = [{"diff_n": n} for n in (0, 1, 2)]
ASSOC_KEYWORDS = [
    *DIFF_N,
    {"norm": True, "diff_n": 2},
    {"branch_cut": 3, "diff_n": 1},
    {"branch_cut": 3, "norm": True, "diff_n": 2},
]


def near(f, intervals, keywords):
    """Rows of ``f(n, m, x)`` at the first shapes, x in each of ``intervals``, by keywords."""
    return [
        Row(f, ((0, 5), ORDERS, x), integer=(0, 1), kwargs=kw, shapes=FIRST3, **FLOAT64)
        for kw in keywords
        for x in intervals
    ]


ROWS = [
    Row(sc.lpmv, ((0, 3), (0.5, 4.0), LEGENDRE), integer=(0,)),
    Row(sc.lpmv, ((0, 3), (0, 4), LEGENDRE), integer=(0, 1), shapes=FIRST3),
    *(Row(sc.legendre_p, ((0, 5), LEGENDRE), integer=(0,), kwargs=kw, **FLOAT64) for kw in DIFF_N),
    *(
        Row(sc.legendre_p, ((0, 5), z), integer=(0,), kwargs=kw, shapes=FIRST, **FLOAT64)
        for kw in DIFF_N
        for z in NEAR_ONE
    ),
    *(
        Row(
            sc.assoc_legendre_p,
            ((0, 5), ORDERS, (1.1, 3.0) if kw.get("branch_cut") == 3 else LEGENDRE),
            integer=(0, 1),
            complex=True,
            kwargs=kw,
            **FLOAT64,
        )
        for kw in ASSOC_KEYWORDS
    ),
    *near(sc.assoc_legendre_p, NEAR_ONE, (*DIFF_N, {"norm": True, "diff_n": 2})),
    *(
        Row(sc.sph_legendre_p, ((0, 5), ORDERS, (0.2, 3.0)), integer=(0, 1), kwargs=kw, **FLOAT64)
        for kw in DIFF_N
    ),
    *near(sc.sph_legendre_p, NEAR_POLES, DIFF_N),
]
CASES = cases(ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(CASES)


# ---- hard points and exact values -----------------------------------------------------------


def test_legendre_values():
    # lpmv: P_v'(1) = v (v + 1)/2 for m = 0, where the recurrence divides by 1 - x^2.
    assert cr.rrule(sc.lpmv, 0, 2.5, 1.0)[1](1.0)[3] == 2.5 * 3.5 / 2
    assert cr.rrule(sc.lpmv, 0, 3, -1.0)[1](1.0)[3] == 6.0
    _, pullback = cr.rrule(sc.legendre_p, 3, 0.3, diff_n=1)
    assert pullback(np.array([1.0, 0.0]))[2] == sc.legendre_p(3, 0.3, diff_n=1)[1]
    assert pullback(np.array([0.0, 1.0]))[2] == sc.legendre_p(3, 0.3, diff_n=2)[2]
    # Third derivatives: P_3''' = 15; P_3^1 = -3 (5 z^2 - 1) sqrt(1 - z^2)/2 at z = 1/2.
    third_row = np.array([0.0, 0.0, 1.0])
    assert cr.rrule(sc.legendre_p, 3, 0.3, diff_n=2)[1](third_row)[2] == pytest.approx(15.0)
    third = cr.rrule(sc.assoc_legendre_p, 3, 1, 0.5, diff_n=2)[1](third_row)[3]
    assert third == pytest.approx(107 * np.sqrt(3) / 3)
    # At z = 1 Legendre's equation degenerates: order 0 by Gegenbauer, the others NaN.
    assert cr.rrule(sc.assoc_legendre_p, 3, 0, 1.0, diff_n=2)[1](third_row)[3] == 15.0
    assert np.isnan(cr.rrule(sc.assoc_legendre_p, 3, 2, 1.0, diff_n=2)[1](third_row)[3])


def test_legendre_keywords_are_checked():
    with pytest.raises(RuleKeywordError, match="norm"):
        cr.rrule(sc.legendre_p, 2, 0.5, norm=True)
    with pytest.raises(ValueError, match="diff_n"):
        cr.frule((None, None, None, 1.0), sc.assoc_legendre_p, 2, 1, 0.5, diff_n=3)


@pytest.mark.parametrize("k", [0, 1, 2])
def test_legendre_rows_through_the_reverse_engine(k):
    # The last row of diff_n = k is P_3^(k), P_3 = (5 z^3 - 3 z)/2: the engine differentiates
    # it twice more through the rules (k = 2 reaches the third derivative's own derivative).
    z = 0.4
    expected = [15 * z, 15.0, 0.0][k]

    def legendre(x):
        return call(sc.legendre_p, 3, x, diff_n=k)[k]

    def normalized(x):  # order 0, normalized: sqrt((2n + 1)/2) P_n
        return call(sc.assoc_legendre_p, 3, 0, x, norm=True, diff_n=k)[k]

    assert reverse.grad(reverse.grad(legendre))(z) == pytest.approx(expected)
    assert reverse.grad(reverse.grad(normalized))(z) == pytest.approx(np.sqrt(3.5) * expected)


def test_lpmv_second_derivative_at_the_ends():
    # P_2 = (3x^2 - 1)/2: P_2'' = 3 everywhere; the limit v(v+1)/2 of the quotient at x = 1
    # differentiated as x^(v+1) v(v+1)/2 gave 9, and the quotient cancels at 1 - 1e-8.
    from chainrules.engines import reverse

    second = reverse.grad(reverse.grad(lambda x: sc.lpmv(0, 2.0, x)))
    for x in (1.0, 1 - 1e-8, -1.0, -1 + 1e-8):
        assert second(x) == pytest.approx(3.0, rel=1e-13)
    # P_3'' = 15 x.
    third = reverse.grad(reverse.grad(lambda x: sc.lpmv(0, 3.0, x)))
    assert third(1.0) == pytest.approx(15.0, rel=1e-13)
    assert third(-1.0) == pytest.approx(-15.0, rel=1e-13)
