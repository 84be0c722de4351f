"""Tests of the rules for scipy.linalg.block_diag, toeplitz and circulant."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, check_column_and_row, ids, sample

import chainrules as cr


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_block_diag(dtype):
    blocks = [sample((2, 2), dtype), sample((3,), dtype, 1), sample((1, 2), dtype, 2)]
    test_rrule(scipy.linalg.block_diag, *blocks)
    test_frule(scipy.linalg.block_diag, *blocks)
    test_rrule(scipy.linalg.block_diag, sample((2, 2), dtype), 2.0)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_toeplitz(dtype):
    check_column_and_row(scipy.linalg.toeplitz, dtype)


def test_toeplitz_ignores_the_first_entry_of_r():
    _, pullback = cr.rrule(scipy.linalg.toeplitz, np.ones(2), np.ones(3))
    assert pullback(np.ones((2, 3)))[2][0] == 0.0


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_circulant(dtype):
    c = sample((4,), dtype)
    test_rrule(scipy.linalg.circulant, c)
    test_frule(scipy.linalg.circulant, c)
