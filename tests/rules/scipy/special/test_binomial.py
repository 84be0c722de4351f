"""Tests of the rules for the binomial and negative binomial distribution functions, inverses."""

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
