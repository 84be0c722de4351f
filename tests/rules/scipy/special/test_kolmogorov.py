"""Tests of the rules for the Kolmogorov-Smirnov distribution functions smirnov and kolmogorov."""

import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, midpoint, table_tests

SCIPY_DENSITY = "the derivative is SciPy's own density ufunc, which has no rule"
ROWS = [
    Row(sc.smirnov, ((1, 6), (0.05, 0.9)), integer=(0,), second_order=False, reason=SCIPY_DENSITY),
    Row(sc.kolmogorov, ((0.3, 2.0),)),
]
CASES = cases(ROWS)

test_rrule_distributions_more, test_frule_distributions_more = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_distributions_more(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


@pytest.mark.parametrize("x", [0.5, 1.0, 1.5])
def test_kolmogorov_derivatives_against_series(x):
    # x = 1 is where the two series switch (and where SciPy's _kolmogp loses three digits)
    import mpmath

    from chainrules.engines import reverse

    def survival(t):
        return 2 * mpmath.nsum(lambda k: (-1) ** (k - 1) * mpmath.exp(-2 * k * k * t * t), [1, 60])

    with mpmath.workdps(40):
        first, second = (float(mpmath.diff(survival, x, n)) for n in (1, 2))
    assert float(reverse.grad(sc.kolmogorov)(x)) == pytest.approx(first, rel=1e-14)
    assert float(reverse.grad(reverse.grad(sc.kolmogorov))(x)) == pytest.approx(second, rel=1e-13)


@pytest.mark.parametrize("x", [-1.0, 0.0, 0.01, 40.0, float("inf")])
def test_kolmogorov_derivative_where_it_vanishes(x):
    from chainrules.engines import reverse

    assert float(reverse.grad(sc.kolmogorov)(x)) == 0.0
