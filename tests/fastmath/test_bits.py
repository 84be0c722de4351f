"""Bit-level primitives: compiled and plain-Python versions agree."""

import numpy as np
import pytest

from chainrules.fastmath import _bits

CASES = [
    (np.float32, 3.0, 0.75, 2.0),
    (np.float32, 1.5, 0.75, 1.0),
    (np.float64, 1e-300, None, None),
    (np.float64, 0.7, 1.4, -1.0),
    (np.float64, 12.0, 0.75, 4.0),
]


@pytest.mark.parametrize(("dtype", "x", "m", "e"), CASES)
def test_split_exponent_scalar(dtype, x, m, e):
    got_m, got_e = _bits.split_exponent_scalar(dtype(x))
    assert got_m.dtype == dtype and got_e.dtype == dtype
    assert got_m * dtype(2.0) ** got_e == dtype(x)
    assert 1 / np.sqrt(2) <= got_m < np.sqrt(2)
    if m is not None:
        assert (got_m, got_e) == (m, e)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("k", [-126.0, -1.0, 0.0, 5.0, 127.0])
def test_pow2_scalar(dtype, k):
    assert _bits.pow2_scalar(dtype(k)) == dtype(2.0) ** dtype(k)


@pytest.mark.skipif(not _bits.COMPILED, reason="numba is not installed")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_versions_agree(dtype):
    import numba

    @numba.njit
    def each(x, k):
        return _bits.split_exponent(x), _bits.pow2(k), _bits.float_bits(x)

    for x, k in [(3.0, -3.0), (0.7, 10.0), (1e-30, 0.0), (-2.0, 1.0)]:
        (m, e), p, bits = each(dtype(x), dtype(k))
        if x > 0:
            assert (m, e) == _bits.split_exponent_scalar(dtype(x))
        assert p == _bits.pow2_scalar(dtype(k))
        assert bits == _bits.float_bits_scalar(dtype(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_bits_order_positive_values_and_put_the_others_outside(dtype):
    bits = [int(_bits.float_bits_scalar(dtype(v))) for v in (0.0, 1e-30, 1.0, 3.0, np.inf, np.nan)]
    assert bits == sorted(bits) and len(set(bits)) == len(bits)
    assert int(_bits.float_bits_scalar(dtype(-1.0))) < 0 < int(_bits.float_bits_scalar(dtype(1.0)))
