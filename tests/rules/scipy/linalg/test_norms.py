"""Tests of the rules for scipy.linalg.norm."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, sample

import chainrules as cr

NORM = [
    {},
    {"ord": 1},
    {"ord": "fro"},
    {"ord": "nuc"},
    {"ord": 2},
    {"ord": np.inf, "axis": 1},
    {"axis": 0, "keepdims": True},
]


@pytest.mark.parametrize("kwargs", NORM, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_norm(kwargs, dtype):
    a = sample((3, 4), dtype)
    test_rrule(scipy.linalg.norm, a, fkwargs=kwargs)
    test_frule(scipy.linalg.norm, a, fkwargs=kwargs)


def test_norm_at_zero_is_zero():
    _, pullback = cr.rrule(scipy.linalg.norm, np.zeros(3))
    np.testing.assert_array_equal(pullback(1.0)[1], np.zeros(3))
