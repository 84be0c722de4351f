"""The fitted polynomials reach the accuracy the kernels are built on."""

import numpy as np
import pytest
from numpy.polynomial import polynomial

from chainrules.fastmath import _polynomials

# (name, reference, interval, relative error reached, float32 / float64); float32 includes
# the rounding of the coefficients to float32
CASES = [
    ("expm1", _polynomials._expm1_over_x, (-0.35, 0.35), (1.2e-7, 5e-15)),
    ("log", _polynomials._atanh_sqrt_over_sqrt, (0.0, 0.0294), (1.2e-7, 5e-15)),
    ("erf_small", _polynomials._erf_sqrt_over_sqrt, (0.0, 1.0), (1.2e-7, 5e-15)),
]


@pytest.mark.parametrize(("index", "dtype"), [(0, np.float32), (1, np.float64)])
@pytest.mark.parametrize(("name", "f", "interval", "errors"), CASES, ids=[c[0] for c in CASES])
def test_fit_reaches_the_dtype_rounding(name, f, interval, errors, index, dtype):
    c = _polynomials.coefficients(dtype)[name]
    assert {type(v) for v in c} == {dtype}
    x = np.linspace(*interval, 1001)
    approx = polynomial.polyval(x, np.array(c, dtype=np.float64))
    assert np.max(np.abs(approx / f(x) - 1)) < errors[index]


def test_erf_tail_has_absolute_accuracy():
    c = _polynomials.coefficients(np.float64)["erf_tail"]
    u = np.linspace(1 / 5.93, 1.0, 1001)
    assert (
        np.max(np.abs(polynomial.polyval(u, np.array(c)) - _polynomials._erfcx_of_reciprocal(u)))
        < 1e-12
    )
