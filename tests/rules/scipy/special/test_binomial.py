"""Tests of the rules for the binomial and negative binomial distribution functions, inverses."""

import pytest
import scipy.special as sc
from samples import Row, case_id, cases, check_frule, check_rrule

import chainrules as cr
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


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_distributions_more(case):
    check_rrule(case)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_distributions_more(case):
    check_frule(case)


# ---- hard points ----------------------------------------------------------------------------


def cotangents(f, *args):
    return tuple(cr.unthunk(g) for g in cr.rrule(f, *args)[1](1.0)[1:])


def test_integer_counts_have_no_tangent():
    for f in (sc.bdtr, sc.bdtrc, sc.nbdtr, sc.nbdtrc, sc.bdtri, sc.nbdtri):
        assert cotangents(f, 2, 6, 0.4)[:2] == (NoTangent(), NoTangent())
    assert cotangents(sc.pdtri, 2, 0.4)[0] is NoTangent()


def test_bdtr_with_every_success_is_constant():
    # bdtr(n, n, p) = 1 for every p
    assert cotangents(sc.bdtr, 6, 6, 0.4)[2] == 0.0
    assert cotangents(sc.bdtr, 0, 1, 0.25)[2] == -1.0
