"""Default tolerances by the narrowest float dtype, and the acceptance formula."""

from __future__ import annotations

import numpy as np
import pytest
from chainrules_testing.tolerances import (
    FD_ERROR_FACTOR,
    ROUNDING_FACTOR,
    tolerance_for,
    working_dtype,
)

TABLE = [
    # values                                              dtype      rtol
    ((1.0,), np.float64, 1e-7),
    ((np.ones(2), 2j), np.float64, 1e-7),
    ((np.ones(2, dtype=np.float32), 1.0), np.float32, 1e-3),
    ((np.ones(2, dtype=np.complex64),), np.float32, 1e-3),
    ((np.ones(2, dtype=np.float16), np.ones(1, dtype=np.float32)), np.float16, 1e-2),
    ((3, "a", np.arange(2)), np.float64, 1e-7),
]


@pytest.mark.parametrize(("values", "dtype", "rtol"), TABLE, ids=repr)
def test_defaults_follow_the_narrowest_dtype(values, dtype, rtol):
    assert working_dtype(*values) == np.dtype(dtype)
    tol = tolerance_for(*values)
    assert (tol.rtol, tol.atol) == (rtol, 0.0)


def test_given_tolerances_replace_the_defaults():
    tol = tolerance_for(np.ones(1, dtype=np.float32), rtol=1e-2, atol=1e-5)
    assert (tol.rtol, tol.atol) == (1e-2, 1e-5)


def test_allowed_error_adds_every_term():
    tol = tolerance_for(1.0, atol=1e-12)
    eps = np.finfo(np.float64).eps
    allowed = tol.allowed(2.0, -3.0, magnitude=10.0, fd_error=1e-9)
    assert allowed == pytest.approx(
        1e-12 + 3e-7 + ROUNDING_FACTOR * eps * 10.0 + FD_ERROR_FACTOR * 1e-9
    )


def test_a_relative_error_of_1e_6_is_outside_the_float64_tolerance():
    tol = tolerance_for(np.ones(3))
    assert abs(1.000001 - 1.0) > 5 * tol.allowed(1.000001, 1.0, magnitude=1.0, fd_error=1e-12)
