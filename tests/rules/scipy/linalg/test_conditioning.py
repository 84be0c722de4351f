"""Tests of the rules for scipy.linalg.expm_cond."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, sample

import chainrules as cr

# Second derivative: not available, because the rules build the Kronecker form, its SVD and
# their inner products on NumPy values (float()), which an engine's tracked values cannot pass.
NUMPY_ONLY = False


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_expm_cond(dtype, n):
    a = 0.7 * sample((n, n), dtype)
    test_rrule(scipy.linalg.expm_cond, a, check_second_order=NUMPY_ONLY)
    test_frule(scipy.linalg.expm_cond, a, check_second_order=NUMPY_ONLY)


def test_expm_cond_of_a_non_normal_matrix():
    a = np.triu(sample((3, 3), seed=1)) + np.diag([0.1, -0.4, 0.9])
    test_rrule(scipy.linalg.expm_cond, a, check_second_order=NUMPY_ONLY)
    test_frule(scipy.linalg.expm_cond, a, check_second_order=NUMPY_ONLY)


def test_expm_cond_is_scale_free_along_a_for_a_scalar():
    # For a 1x1 a, K = exp(a), kappa = |a|: d kappa / d a = sign(a).
    _, pullback = cr.rrule(scipy.linalg.expm_cond, np.array([[-0.5]]))
    np.testing.assert_allclose(pullback(1.0)[1], [[-1.0]], rtol=1e-12)


def test_expm_cond_of_a_stack_is_refused():
    a = 0.3 * sample((2, 3, 3))
    with pytest.raises(ValueError, match=r"expm_cond.*argument A.*stacks.*\(2, 3, 3\)"):
        cr.rrule(scipy.linalg.expm_cond, a)
    with pytest.raises(ValueError, match=r"expm_cond.*argument A.*stacks"):
        cr.frule((None, a), scipy.linalg.expm_cond, a)
