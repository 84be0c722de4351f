"""Tests of the hypergeometric functions on jets: the regions of 2F1 and their seams."""

import mpmath as M
import numpy as np
import pytest

from chainrules.rules.scipy.special.hypergeometric_jets import hyp0f1_jet, hyp1f1_jet, hyp2f1_jet
from chainrules.rules.scipy.special.jets import parameter_jets


def _hyp2f1(a, b, c, z):
    return hyp2f1_jet(*parameter_jets(a, b, c), np.asarray(z))


# both sides of each seam: |z| = 1/2 (series / ODE), |1 - z| = 1 (Pfaff), near and at z = 1
@pytest.mark.parametrize("z", [0.49, 0.51, -0.99, -1.01, 1 - 1e-12, 0.6 + 0.79j, 0.5 + 0.5j])
def test_hyp2f1_across_its_seams(z):
    a, b, c = 0.7, 1.3, 2.9
    found = _hyp2f1(a, b, c, z)
    with M.workdps(30):
        f = lambda *p: M.hyp2f1(*p, z)
        for i in range(3):
            order = tuple(int(i == j) for j in range(3))
            exact = complex(M.diff(f, (a, b, c), order))
            # the ODE's tolerance 1e-11: measured 1e-12 at worst here
            assert complex(found.gradient[i]) == pytest.approx(exact, rel=1e-10)


def test_hyp2f1_degenerate_exponent_is_smooth():
    # c - a - b = 0, 1, 2: no special case; the derivatives either side of each agree
    for gap in (0.0, 1.0, 2.0):
        left = _hyp2f1(0.5, 0.5, 1.0 + gap - 1e-7, 0.99).gradient
        right = _hyp2f1(0.5, 0.5, 1.0 + gap + 1e-7, 0.99).gradient
        np.testing.assert_allclose(left, right, rtol=1e-5)


def test_confluent_and_bessel_series():
    (a,) = parameter_jets(0.5)
    found = hyp1f1_jet(a, 1.5, np.asarray(-30.0))
    with M.workdps(30):
        assert float(found.gradient[0]) == pytest.approx(
            float(M.diff(lambda p: M.hyp1f1(p, 1.5, -30), 0.5)), rel=1e-13
        )
    (v,) = parameter_jets(1.5)
    found = hyp0f1_jet(v, np.asarray(4.0))
    with M.workdps(30):
        assert float(found.hessian[0, 0]) == pytest.approx(
            float(M.diff(lambda p: M.hyp0f1(p, 4), 1.5, 2)), rel=1e-13
        )
