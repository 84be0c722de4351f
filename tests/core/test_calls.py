"""call(f, *args): plain calls, and calls handed to the handler of an argument's type."""

from __future__ import annotations

import math
import types

import numpy as np
import scipy.linalg as sla

from chainrules.core.calls import call, call_handler, register_call_handler
from chainrules.engines import hessian, reverse


class Box:
    def __init__(self, value):
        self.value = value


class SubBox(Box):
    pass


def _unbox(f, args, kwargs):
    def plain(v):
        if isinstance(v, Box):
            return v.value
        if type(v) in (list, tuple):
            return type(v)(plain(e) for e in v)
        return v

    return ("handled", f(*plain(args), **{k: plain(v) for k, v in kwargs.items()}))


register_call_handler(Box, _unbox)


def test_plain_arguments_are_a_plain_call():
    assert call(math.hypot, 3.0, 4.0) == 5.0
    assert call_handler(1.0) is None


def test_the_handler_of_any_argument_applies_the_function():
    assert call(math.hypot, 3.0, Box(4.0)) == ("handled", 5.0)
    assert call(math.hypot, SubBox(3.0), 4.0) == ("handled", 5.0)  # subclasses too
    assert call(sum, [1.0, Box(2.0)]) == ("handled", 3.0)  # inside a list argument
    assert call(np.round, 1.26, decimals=Box(1)) == ("handled", 1.3)  # a keyword value


def test_engines_apply_the_rules_of_what_they_are_handed():
    # expm has no NumPy dispatch: through call, the reverse engine uses expm's rule, and the
    # rule's pullback calls expm again through call, so the Hessian comes from the rules too.
    a = np.array([[0.1, 0.4], [-0.3, 0.2]])

    def f(x):
        return np.sum(call(sla.expm, x.reshape(2, 2))[0])

    g = reverse.grad(f)(a.ravel())
    step = 1e-6
    numeric = [(f(a.ravel() + step * e) - f(a.ravel() - step * e)) / (2 * step) for e in np.eye(4)]
    np.testing.assert_allclose(g, numeric, rtol=1e-7)
    h = hessian(f)(a.ravel())
    numeric_h = [
        (reverse.grad(f)(a.ravel() + step * e) - reverse.grad(f)(a.ravel() - step * e)) / (2 * step)
        for e in np.eye(4)
    ]
    np.testing.assert_allclose(h, numeric_h, rtol=1e-6, atol=1e-9)


def test_a_compiled_routine_refuses_arrays_numpy_does_not_take():
    import math

    import pytest

    from chainrules.core.errors import ArrayTypeError

    class Foreign:
        def __array_namespace__(self, api_version=None):
            return types.SimpleNamespace()

    with pytest.raises(ArrayTypeError, match=r"math\.exp"):
        call(math.exp, Foreign())
