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


def _interval(name, dtype):
    if name == "erf_tail":
        return 1.0 / _polynomials.ERF_LIMIT[dtype], 1.0
    return _polynomials._TABLE[name][1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_frozen_coefficients_are_the_fit(dtype):
    # A fresh fit rounds differently on other BLAS kernels and NumPy SIMD levels (its values
    # move by about 1e-16): the frozen polynomials agree with it to 1e-13 of their size.
    frozen = _polynomials.FROZEN[dtype.__name__]
    fresh = _polynomials.fitted(dtype)
    assert frozen.keys() == fresh.keys()
    for name, c in fresh.items():
        assert len(frozen[name]) == len(c)
        x = np.linspace(*_interval(name, dtype), 1001)
        ours, theirs = polynomial.polyval(x, np.array(frozen[name])), polynomial.polyval(x, c)
        assert np.max(np.abs(ours - theirs)) <= 1e-13 * np.max(np.abs(theirs)), name


def test_frozen_source_writes_the_fit_exactly():
    namespace: dict = {}
    exec(compile(_polynomials.frozen_source(), "<frozen_source>", "exec"), namespace)
    for dtype in (np.float32, np.float64):
        written = namespace["FROZEN"][dtype.__name__]
        for name, c in _polynomials.fitted(dtype).items():
            assert written[name] == tuple(float(v) for v in c)
