"""The whole rule table through the torch adapter: gradcheck, then gradgradcheck, on one small
float64 sample of every function (``sweep``), unless its ``Limit`` says torch stops earlier.

A limit is checked as strictly as a pass: the order after it must fail, so that a limit
cannot outlive its reason. Each passing check is recorded for the coverage report's torch
column.
"""

import pytest

torch = pytest.importorskip("torch")

import scipy.linalg  # noqa: E402
from sweep import SAMPLES, check_to_limit, sample_call, swept_functions  # noqa: E402

from chainrules._compat import available  # noqa: E402
from chainrules.adapters import torch as cr_torch  # noqa: E402
from chainrules.core.names import function_name  # noqa: E402

ENGINE = "torch"
FUNCTIONS = swept_functions()


def test_every_swept_function_has_a_sample():
    missing = [function_name(f) for f in FUNCTIONS if f not in SAMPLES]
    assert not missing, f"functions with rules but no sweep sample: {', '.join(missing)}"


def test_every_sample_is_of_a_swept_function():
    stale = [function_name(f) for f in SAMPLES if available(f) and f not in FUNCTIONS]
    assert not stale, f"samples of functions the sweep does not reach: {', '.join(stale)}"


def torch_call(f):
    """The sample of ``f`` as a function of its differentiated tensors, and those tensors."""
    call, leaves = sample_call(f, cr_torch.wrap)

    def run(*tensors):
        y = call(*tensors)
        if isinstance(y, tuple | list):  # the tensors among the results (not flags, labels)
            return tuple(o for o in y if isinstance(o, torch.Tensor))
        return y

    return run, tuple(torch.tensor(a, requires_grad=True) for a in leaves)


CHECKS = {1: torch.autograd.gradcheck, 2: torch.autograd.gradgradcheck}

# gradcheck runs a backward pass twice and, by default, wants the same bits both times. SciPy's
# logm and fractional_matrix_power choose their algorithm's steps from 1-norm estimates drawn
# with NumPy's global random state (scipy.sparse.linalg.onenormest, on matrices of more than a
# few rows: the block matrices of the derivatives), so two evaluations of their derivatives
# differ in the last bits (up to 7e-16 seen here on values of order 1): allowed 1e-13.
NONDETERMINISTIC = {scipy.linalg.logm: 1e-13, scipy.linalg.fractional_matrix_power: 1e-13}


@pytest.mark.parametrize("f", FUNCTIONS, ids=function_name)
def test_second_order(f):
    if f not in SAMPLES:
        pytest.fail(f"{function_name(f)} has no sweep sample")
    run, inputs = torch_call(f)

    nondet_tol = NONDETERMINISTIC.get(f, 0.0)

    def check(order):
        assert CHECKS[order](run, inputs, fast_mode=True, nondet_tol=nondet_tol)

    def reaches(order):
        try:
            return CHECKS[order](
                run, inputs, fast_mode=True, nondet_tol=nondet_tol, raise_exception=False
            )
        except Exception:  # refused: an error of the rules, of SciPy or of torch
            return False

    check_to_limit(f, ENGINE, check, reaches)
