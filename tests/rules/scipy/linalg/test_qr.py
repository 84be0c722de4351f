"""Tests of the rules for scipy.linalg.qr and rq."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, sample

import chainrules as cr

SHAPES = [(3, 3), (4, 2), (2, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("mode", ["economic", "r", "full"])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_qr(shape, mode, dtype):
    a = sample(shape, dtype)
    if mode == "full" and shape[0] > shape[1]:
        _, pullback = cr.rrule(scipy.linalg.qr, a, mode=mode)
        with pytest.raises(ValueError, match="not determined"):
            pullback(cr.Tangent(tuple, np.ones((4, 4)), np.ones((4, 2))))
        return
    test_rrule(scipy.linalg.qr, a, fkwargs={"mode": mode}, check_second_order=True)
    test_frule(scipy.linalg.qr, a, fkwargs={"mode": mode})


@pytest.mark.parametrize(
    ("shape", "mode"),
    [((3, 3), "full"), ((2, 4), "economic"), ((4, 2), "economic"), ((4, 2), "r")],
    ids=str,
)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_rq(dtype, shape, mode):
    a = sample(shape, dtype)
    # Second order: tracked values are factored by the namespace's qr, with LAPACK's RQ signs.
    test_rrule(scipy.linalg.rq, a, fkwargs={"mode": mode})
    test_frule(scipy.linalg.rq, a, fkwargs={"mode": mode})


def test_rq_of_undetermined_factors_raises():
    with pytest.raises(ValueError, match="economic"):
        cr.rrule(scipy.linalg.rq, sample((2, 4)))


@pytest.mark.parametrize("f", [scipy.linalg.qr, scipy.linalg.rq], ids=lambda f: f.__name__)
def test_qr_and_rq_of_a_stack_return_scipy_list(f):
    a = sample((2, 3, 3)) + 3 * np.eye(3)
    y, _ = cr.rrule(f, a)
    assert type(y) is type(f(a)) is list
    test_rrule(f, a, check_second_order=False)
    test_frule(f, a)
