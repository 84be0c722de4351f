"""Tests for chainrules.core.names: function_name."""

import math
import operator

import numpy as np
import pytest
import scipy.linalg
import scipy.special

from chainrules.core.names import function_name


def local_function(x):
    return x


class Owner:
    def method(self):
        return self


NAMES = [
    (np.sin, "numpy.sin"),
    (np.sum, "numpy.sum"),
    (np.linalg.solve, "numpy.linalg.solve"),
    (np.fft.fft, "numpy.fft.fft"),
    (np.add.reduce, "numpy.add.reduce"),
    (np.ndarray.sum, "numpy.ndarray.sum"),
    (scipy.special.gammaln, "scipy.special.gammaln"),
    (scipy.special.jv, "scipy.special.jv"),
    (scipy.linalg.expm, "scipy.linalg.expm"),
    (math.exp, "math.exp"),
    (operator.mul, "operator.mul"),
    (local_function, f"{__name__}.local_function"),
    (Owner.method, f"{__name__}.Owner.method"),
]


@pytest.mark.parametrize(("f", "name"), NAMES, ids=[n[1] for n in NAMES])
def test_public_qualified_name(f, name):
    assert function_name(f) == name


def test_name_is_cached_and_stable():
    assert function_name(np.cos) == function_name(np.cos) == "numpy.cos"


def test_bound_method_names_its_owner():
    assert function_name(Owner().method) == f"{__name__}.Owner.method"


def test_object_without_a_name_uses_its_repr():
    class Callable:
        def __call__(self):
            return 1

        def __repr__(self):
            return "<a callable>"

    assert function_name(Callable()).endswith("<a callable>")
