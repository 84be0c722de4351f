"""Tests of the gaps of a spectrum: tie tolerance, the split svd couplings, and the error for
second derivatives at ties."""

import numpy as np
import pytest

from chainrules.engines import reverse
from chainrules.rules.numpy.linalg.ties import (
    differences,
    gap_tolerance,
    require_simple_spectrum,
    svd_couplings,
)


def test_differences_and_tolerance():
    s = np.array([3.0, 1.0])
    np.testing.assert_array_equal(differences(s), [[0.0, -2.0], [2.0, 0.0]])
    assert 0 < gap_tolerance(s)[0, 0] < 1e-12


def test_svd_couplings_mask_only_the_undetermined_half():
    """At the tie s_0 = s_1 = 2 only 1 / (s_j - s_i) is masked; 1 / (s_j + s_i) = 1/4 stays;
    both are exact elsewhere and zero on the diagonal; two null values mask both."""
    minus, plus = svd_couplings(np.array([2.0, 2.0, 1.0, 0.0, 0.0]))
    assert minus[0, 1] == 0 and plus[0, 1] == 0.25
    assert minus[2, 0] == 1.0 and plus[2, 0] == 1 / 3
    assert minus[3, 4] == plus[3, 4] == 0
    np.testing.assert_array_equal(np.diag(minus), 0)
    np.testing.assert_array_equal(np.diag(plus), 0)


def test_require_simple_spectrum_needs_a_tracked_cotangent_and_a_tie():
    """A plain cotangent (first order) passes at a tie; a tracked one (a pullback being
    differentiated) passes apart and raises at a tie, null singular values included."""
    tied, apart = np.array([1.0, 1.0]), np.array([2.0, 1.0])
    require_simple_spectrum("eigh", tied, np.ones(2))

    def checked(kind, values, squared=False):
        def f(t):
            require_simple_spectrum(kind, values, t * np.ones(2), squared)
            return t

        return reverse.grad(f)(1.0)

    assert checked("eigh", apart) == 1.0
    with pytest.raises(ValueError, match="eigh of argument a at repeated eigenvalues"):
        checked("eigh", tied)
    with pytest.raises(ValueError, match="svd of argument a at repeated singular values"):
        checked("svd", np.zeros(2), squared=True)
