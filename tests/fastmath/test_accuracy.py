"""The stated accuracy table: every kernel meets it, and every function has an exact twin."""

import inspect

import numpy as np
import pytest

from chainrules import fastmath
from chainrules.fastmath import functions
from chainrules.fastmath.accuracy import ACCURACY, DOMAINS, TWINS, measure, sample

CASES = [(name, dtype) for name, dtypes in functions.KERNEL_DTYPES.items() for dtype in dtypes]


@pytest.mark.parametrize(("name", "dtype"), CASES, ids=[f"{n}-{d.__name__}" for n, d in CASES])
def test_kernel_meets_its_stated_accuracy(name, dtype):
    stated = ACCURACY[name][dtype]
    measured = measure(name, dtype, n=2 * 10**4)
    assert measured.max_relative <= stated.max_relative
    assert measured.max_ulps <= stated.max_ulps


def test_every_public_function_has_one_exact_twin():
    public = {
        f
        for name, f in vars(fastmath).items()
        if inspect.isfunction(f) and f.__module__ == functions.__name__ and not name.startswith("_")
    }
    assert public == set(TWINS) == set(fastmath.FUNCTIONS)
    assert len(set(TWINS.values())) == len(TWINS)
    assert set(ACCURACY) == set(DOMAINS) == {f.__name__ for f in TWINS}


def test_a_function_without_kernel_for_a_dtype_is_its_twin():
    for name, dtypes in functions.KERNEL_DTYPES.items():
        for dtype in {np.float32, np.float64} - set(dtypes):
            assert ACCURACY[name][dtype] == (0.0, 0.0)
            args = sample(name, dtype, n=64)
            kwargs = {"axis": -1} if name in ("softmax", "log_softmax", "logsumexp") else {}
            np.testing.assert_array_equal(
                getattr(fastmath, name)(*args, **kwargs), functions.EXACT[name](*args, **kwargs)
            )
