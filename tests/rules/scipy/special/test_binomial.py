"""Tests of the rules for the binomial and negative binomial distribution functions, inverses."""

import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, cotangents, table_tests

from chainrules import NoTangent

ROWS = [
    Row(sc.bdtr, ((0, 4), (5, 9), (0.1, 0.9)), integer=(0, 1)),
    Row(sc.bdtrc, ((0, 4), (5, 9), (0.1, 0.9)), integer=(0, 1)),
    Row(sc.nbdtr, ((0, 4), (1, 6), (0.1, 0.9)), integer=(0, 1)),
    Row(sc.nbdtrc, ((0, 4), (1, 6), (0.1, 0.9)), integer=(0, 1)),
    Row(sc.bdtri, ((0, 4), (5, 9), (0.2, 0.8)), integer=(0, 1)),
    Row(sc.nbdtri, ((0, 4), (1, 6), (0.2, 0.8)), integer=(0, 1)),
]
CASES = cases(ROWS)

test_rrule_distributions_more, test_frule_distributions_more = table_tests(CASES)


# ---- hard points ----------------------------------------------------------------------------


def test_integer_counts_have_no_tangent():
    for f in (sc.bdtr, sc.bdtrc, sc.nbdtr, sc.nbdtrc, sc.bdtri, sc.nbdtri):
        assert cotangents(f, 2, 6, 0.4)[:2] == (NoTangent(), NoTangent())
    assert cotangents(sc.pdtri, 2, 0.4)[0] is NoTangent()


def test_bdtr_with_every_success_is_constant():
    # bdtr(n, n, p) = 1 for every p
    assert cotangents(sc.bdtr, 6, 6, 0.4)[2] == 0.0
    assert cotangents(sc.bdtr, 0, 1, 0.25)[2] == -1.0


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::RuntimeWarning")
@pytest.mark.parametrize(
    ("f", "k", "n", "counts"),
    [
        # SciPy rounds a float k down in bdtr, truncates it in nbdtr, and truncates a float n:
        # the p-derivative is that of the counts it takes (bdtr(0.3, 1.5, p) = 1 - p, whose
        # derivative came out -1.255 for -1)
        (sc.bdtr, 0.3, 1.5, (0, 1)),
        (sc.bdtr, 1.5, 7.5, (1, 7)),
        (sc.bdtrc, 1.5, 7.5, (1, 7)),
        (sc.bdtri, 1.5, 7.5, (1, 7)),
        (sc.nbdtr, -0.7, 1.5, (0, 1)),
        (sc.nbdtr, 1.5, 7.5, (1, 7)),
        (sc.nbdtrc, -0.7, 7.5, (0, 7)),
        (sc.nbdtri, 2.7, 3.2, (2, 3)),
    ],
)
def test_float_counts_are_taken_as_scipy_takes_them(f, k, n, counts):
    assert f(k, n, 0.3) == f(*counts, 0.3)
    assert cotangents(f, k, n, 0.3)[2] == cotangents(f, *counts, 0.3)[2]


def test_negative_shapes_of_the_beta_density_give_nan_not_an_error():
    # bdtr at k = -300 with p fixed: a beta density of shape -299, 301.5 (the large shapes'
    # form raised "math domain error"); SciPy's value is NaN there
    assert np.isnan(sc.bdtr(-300.0, 1.5, 0.3))
    cotangents(sc.bdtr, -300.0, 1.5, 0.3)
