"""Tests of the rules for np.fft: every transform, with n / s, axis / axes and every norm."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from samples import sample

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

F = np.fft
NORMS = [None, "backward", "ortho", "forward"]
# (transform, input shape, keyword arguments, whether the input may be complex)
ROWS = [
    (F.fft, (3, 8), {}, True),
    (F.fft, (3, 8), {"n": 5, "axis": 0}, True),
    (F.ifft, (3, 7), {"n": 10}, True),
    (F.fftn, (3, 4, 5), {}, True),
    (F.fftn, (3, 4, 5), {"s": (6, 2), "axes": (0, 2)}, True),
    (F.ifftn, (3, 4, 5), {"s": (3, 7), "axes": (1, 2)}, True),
    (F.fft2, (3, 4, 5), {}, True),
    (F.ifft2, (3, 4, 5), {"axes": (0, 2)}, True),
    (F.rfft, (3, 8), {}, False),
    (F.rfft, (3, 7), {}, False),
    (F.rfft, (3, 8), {"n": 5, "axis": 0}, False),
    (F.rfft, (3, 8), {"n": 11}, False),
    (F.irfft, (3, 5), {}, True),
    (F.irfft, (3, 5), {"n": 9}, True),
    (F.irfft, (3, 5), {"n": 4}, True),
    (F.irfft, (3, 5), {"n": 12, "axis": 1}, True),
    (F.rfftn, (3, 4, 5), {}, False),
    (F.rfftn, (3, 4, 5), {"s": (5, 7), "axes": (2, 0)}, False),
    (F.rfft2, (3, 4, 6), {"s": (3, 3)}, False),
    (F.irfftn, (3, 4, 5), {}, True),
    (F.irfftn, (3, 4, 5), {"s": (5, 7), "axes": (2, 0)}, True),
    (F.irfft2, (3, 4, 5), {"s": (2, 6)}, True),
    (F.hfft, (3, 5), {}, True),
    (F.hfft, (5, 3), {"n": 7, "axis": 0}, True),
    (F.ihfft, (3, 8), {}, False),
    (F.ihfft, (3, 7), {"n": 4}, False),
]
CASES = [
    (row, norm, dtype)
    for row in ROWS
    for norm in NORMS
    for dtype in [np.float64, *([np.complex128] if row[3] else [])]
] + [(row, "ortho", np.float32) for row in ROWS[::4]]


def case_id(case: tuple) -> str:
    (f, shape, kwargs, _), norm, dtype = case
    return f"{f.__name__}{shape}{kwargs or ''}-{norm}-{np.dtype(dtype).name}".replace(" ", "")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_transforms(case: tuple) -> None:
    (f, shape, kwargs, _), norm, dtype = case
    x = sample(shape, dtype)
    fkwargs = {**kwargs, "norm": norm}
    test_rrule(f, x, fkwargs=fkwargs, seed=1)
    test_frule(f, x, fkwargs=fkwargs, seed=1)


def test_shifts() -> None:
    x = sample((3, 4), np.complex128)
    for f, kwargs in [(F.fftshift, {}), (F.ifftshift, {"axes": 1}), (F.fftshift, {"axes": (0,)})]:
        test_rrule(f, x, fkwargs=kwargs, seed=1)
        test_frule(f, x, fkwargs=kwargs, seed=1)


def test_real_transform_weights() -> None:
    # rfft keeps half the spectrum: DC and Nyquist stand for one bin each, the others for a
    # conjugate pair, so a unit cotangent on bin 1 pulls back to cos(2 pi k / n).
    _, pullback = cr.rrule(F.rfft, np.zeros(4))
    np.testing.assert_allclose(pullback(np.array([1.0, 0.0, 0.0]))[1], [1.0, 1.0, 1.0, 1.0])
    np.testing.assert_allclose(
        pullback(np.array([0.0, 1.0, 0.0]))[1], [1.0, 0.0, -1.0, 0.0], atol=1e-15
    )
    np.testing.assert_allclose(pullback(np.array([0.0, 0.0, 1.0]))[1], [1.0, -1.0, 1.0, -1.0])
    # irfft: the imaginary parts of DC and Nyquist do not reach the output.
    _, pullback = cr.rrule(F.irfft, np.zeros(3, dtype=complex))
    da = pullback(np.array([1.0, 2.0, 3.0, 4.0]))[1]
    np.testing.assert_allclose(da.imag[[0, 2]], 0.0)
    np.testing.assert_allclose(da, [10.0 / 4, 2 * (-2.0 + 2.0j) / 4, -2.0 / 4])


def test_second_order() -> None:
    x = sample((4, 6), np.float64)
    test_rrule(F.rfft, x, fkwargs={"norm": "ortho"}, check_second_order=True, seed=1)
    test_rrule(F.irfftn, x, check_second_order=True, seed=1)


def test_zero_cotangent_and_dtype() -> None:
    x = sample((8,), np.float32)
    y, pullback = cr.rrule(F.rfft, x)
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    assert pullback(np.ones_like(y))[1].dtype == np.float32


def test_frequencies_are_non_differentiable() -> None:
    y, pullback = cr.rrule(F.fftfreq, 4, 0.5)
    np.testing.assert_array_equal(y, [0.0, 0.5, -1.0, -0.5])
    assert pullback(np.ones(4)) == (NoTangent(), NoTangent(), NoTangent())
    assert cr.frule((NoTangent(), NoTangent()), F.rfftfreq, 4)[1] == NoTangent()
