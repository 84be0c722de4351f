"""Tests of the rules for ellip_harm, ellip_harm_2 and ellip_normal."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, RuleKeywordError

# SciPy's own quadratures in ellip_harm_2 and ellip_normal warn of roundoff at 1e-10 or so.
pytestmark = pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")

NUMPY_ONLY = "the Lamé coefficients, hence the h2 and k2 derivatives, are computed on NumPy values"
S = np.array([0.4, 2.5, 3.4])  # below h, between h and k, beyond k (h2 = 5, k2 = 8)
OUTSIDE = np.array([3.0, 3.7, 6.0])  # ellip_harm_2 is defined beyond k

# (function, arguments, keywords, why second order is off): integer h2, k2 have no tangent,
# which leaves s alone, whose derivative engines differentiate again.
ROWS = [
    (sc.ellip_harm, (5.0, 8.0, 3, 4, S), {}, NUMPY_ONLY),
    (sc.ellip_harm, (5, 8, 3, 4, S), {}, ""),
    (sc.ellip_harm, (5, 8, 4, 9, S, -1, -1), {}, ""),
    (sc.ellip_harm, (1.2, 4.0, 5, 11, S), {"signn": -1}, NUMPY_ONLY),
    (
        sc.ellip_harm,
        (np.array([5.0, 1.2]), np.array([[8.0], [9.0]]), 2, np.array([2, 5]), 2.2),
        {},
        NUMPY_ONLY,
    ),
    (sc.ellip_harm, (0.3, 9.0, 0, 1, S), {}, NUMPY_ONLY),
    (sc.ellip_harm_2, (5.0, 8.0, 2, 3, OUTSIDE), {}, NUMPY_ONLY),
    (sc.ellip_harm_2, (5, 8, 3, 5, OUTSIDE), {}, ""),
    (sc.ellip_harm_2, (1.2, 4.0, np.array([1, 3]), np.array([2, 6]), 2.5), {}, NUMPY_ONLY),
    (sc.ellip_normal, (5.0, 8.0, 3, 4), {}, NUMPY_ONLY),
    (
        sc.ellip_normal,
        (np.array([1.2, 0.5]), 4.0, np.array([[1], [2]]), np.array([2, 3])),
        {},
        NUMPY_ONLY,
    ),
]
IDS = [f"{f.__name__}-{i}" for i, (f, *_) in enumerate(ROWS)]


@pytest.mark.parametrize(("f", "args", "kwargs", "reason"), ROWS, ids=IDS)
def test_rrule_ellipsoidal(f, args, kwargs, reason):
    test_rrule(f, *args, fkwargs=kwargs, check_second_order=not reason)


@pytest.mark.parametrize(("f", "args", "kwargs", "reason"), ROWS, ids=IDS)
def test_frule_ellipsoidal(f, args, kwargs, reason):
    test_frule(f, *args, fkwargs=kwargs, check_second_order=not reason)


def test_second_kind_derivative_in_s():
    # F' = F E'/E - (2n+1) / (E sqrt((s^2 - h2)(s^2 - k2))), the integral's lower limit.
    h2, k2, n, p, s = 5.0, 8.0, 3, 4, 3.3
    f, e = sc.ellip_harm_2(h2, k2, n, p, s), sc.ellip_harm(h2, k2, n, p, s)
    de = cr.rrule(sc.ellip_harm, h2, k2, n, p, s)[1](1.0)[5]
    expected = f * de / e - (2 * n + 1) / (e * np.sqrt((s * s - h2) * (s * s - k2)))
    assert cr.rrule(sc.ellip_harm_2, h2, k2, n, p, s)[1](1.0)[5] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("n", "p", "slopes"),
    [
        (0, 1, lambda h2, k2: (0.0, 0.0)),  # 4 pi
        (1, 1, lambda h2, k2: (k2, h2)),  # 4 pi h2 k2 / 3
        (1, 2, lambda h2, k2: (k2 - 2 * h2, h2)),  # 4 pi h2 (k2 - h2) / 3
        (1, 3, lambda h2, k2: (-k2, 2 * k2 - h2)),  # 4 pi k2 (k2 - h2) / 3
    ],
)
def test_normalization_closed_forms(n, p, slopes):
    h2, k2 = 1.2, 4.0
    cotangents = cr.rrule(sc.ellip_normal, h2, k2, n, p)[1](1.0)
    expected = [(4 * np.pi / 3 if n else 1.0) * s for s in slopes(h2, k2)]
    assert [cr.unthunk(c) for c in cotangents[1:3]] == pytest.approx(expected, abs=1e-12)


def test_degree_order_and_signs_have_no_tangent():
    cotangents = cr.rrule(sc.ellip_harm, 5.0, 8.0, 2, 3, 1.5, -1, 1)[1](1.0)
    assert cotangents[3:5] == (NoTangent(), NoTangent())
    assert cotangents[6:] == (NoTangent(), NoTangent())
    assert cr.rrule(sc.ellip_normal, 5, 8, 2, 3)[1](1.0)[1:] == (NoTangent(),) * 4


def test_cusp_and_keywords():
    # sqrt|s^2 - h2| has a cusp at s^2 = h2 (type L): no derivative there.
    assert np.isnan(cr.rrule(sc.ellip_harm, 4.0, 9.0, 1, 2, 2.0)[1](1.0)[5])
    # s by keyword is bound to its position, so it gets its cotangent there
    y, pullback = cr.rrule(sc.ellip_harm, 5.0, 8.0, 1, 1, s=2.0)
    y_positional, pullback_positional = cr.rrule(sc.ellip_harm, 5.0, 8.0, 1, 1, 2.0)
    assert y == y_positional
    assert pullback(1.0) == pullback_positional(1.0)
    with pytest.raises(RuleKeywordError, match="t"):
        cr.rrule(sc.ellip_harm, 5.0, 8.0, 1, 1, 2.0, t=1.0)
