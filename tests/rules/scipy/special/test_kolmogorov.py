"""Tests of the rules for the Kolmogorov-Smirnov distribution functions smirnov and kolmogorov."""

import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, midpoint, table_tests

SCIPY_DENSITY = "the derivative is SciPy's own density ufunc, which has no rule"
ROWS = [
    Row(sc.smirnov, ((1, 6), (0.05, 0.9)), integer=(0,), second_order=False, reason=SCIPY_DENSITY),
    Row(sc.kolmogorov, ((0.3, 2.0),), second_order=False, reason=SCIPY_DENSITY),
]
CASES = cases(ROWS)

test_rrule_distributions_more, test_frule_distributions_more = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_distributions_more(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)
