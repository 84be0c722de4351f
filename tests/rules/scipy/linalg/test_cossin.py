"""Tests of the rules for scipy.linalg.cossin."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import with_tangent
from fdm import central_fdm
from samples import DTYPES, check_both, draw, ids

import chainrules as cr
from chainrules.rules.matrices import mH

SMALL_STEPS = central_fdm(5, 1)  # pivoting and singular vectors are piecewise constant


# ---- cossin -------------------------------------------------------------------------------

# Partitions (m, p, q): no identity block, and identity blocks of order one.
PARTITIONS = [(4, 2, 2), (5, 2, 2), (5, 2, 3), (5, 3, 2)]


def unitary(m, dtype, seed=0):
    """A unitary matrix and a tangent of the unitary group there."""
    x, _ = np.linalg.qr(draw((m, m), dtype, seed))
    s = draw((m, m), dtype, seed + 1)
    return x, x @ (s - mH(s))


def zeros(y):
    """The zero cotangent of an array, or of a tuple of them, as arrays."""
    return cr.Tangent(tuple, *map(np.zeros_like, y)) if isinstance(y, tuple) else np.zeros_like(y)


def test_cossin_angles():
    """LAPACK's signs (and phases) of the columns of U and V jump under rounding, so the
    harness checks the cotangents of the middle factor; the next test covers U and V."""
    dtypes = [np.float64, np.complex128, np.float32, np.complex64]
    for (m, p, q), dtype in zip(PARTITIONS, dtypes, strict=True):
        x, dx = unitary(m, dtype)
        for separate, swap_sign, compute_u in ((False, False, True), (True, True, False)):
            flags = (separate, swap_sign, compute_u)
            u, middle, vh = scipy.linalg.cossin(x, p, q, *flags)
            dy = cr.Tangent(tuple, zeros(u), draw(middle.shape, seed=2), zeros(vh))
            kwargs = {"output_tangent": dy, "fdm": SMALL_STEPS, "check_second_order": False}
            check_both(scipy.linalg.cossin, with_tangent(x, dx), p, q, *flags, **kwargs)


@pytest.mark.parametrize("swap_sign", [False, True])
@pytest.mark.parametrize("partition", PARTITIONS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_cossin_factors_on_sign_free_losses(partition, dtype, swap_sign):
    """sum(w1 |U|^2) + sum(w2 |V^H|^2) + sum(w3 CS) does not see the signs or phases of
    the columns: both rules against finite differences along exp of a skew direction."""
    m, p, q = partition
    x, dx = unitary(m, dtype, seed=3)
    w1, w2, w3 = (np.abs(draw((m, m), seed=k)) for k in (5, 6, 7))

    def loss(y):
        u, middle, vh = scipy.linalg.cossin(y, p, q, swap_sign=swap_sign)
        return np.sum(w1 * np.abs(u) ** 2) + np.sum(w2 * np.abs(vh) ** 2) + np.sum(w3 * middle)

    h = 1e-6
    step = scipy.linalg.expm(h * (mH(x) @ dx))
    fd = (loss(x @ step) - loss(x @ mH(step))) / (2 * h)
    (u, _, vh), tangent = cr.frule((None, dx), scipy.linalg.cossin, x, p, q, swap_sign=swap_sign)
    g = (2 * w1 * u, w3, 2 * w2 * vh)
    np.testing.assert_allclose(
        sum(np.real(np.vdot(a, b)) for a, b in zip(g, tangent, strict=True)), fd, rtol=1e-6
    )
    _, pullback = cr.rrule(scipy.linalg.cossin, x, p, q, swap_sign=swap_sign)
    np.testing.assert_allclose(np.real(np.vdot(pullback(g)[1], dx)), fd, rtol=1e-6)


def test_cossin_at_repeated_cosines_has_no_derivative():
    c, s = np.cos(0.4) * np.eye(2), np.sin(0.4) * np.eye(2)
    x = np.block([[c, -s], [s, c]])
    with pytest.raises(ValueError, match="repeated cosines"):
        cr.rrule(scipy.linalg.cossin, x, 2, 2)
