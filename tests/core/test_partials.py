"""partials: what a scalar_rule row's partials are and which of their values they read."""

import numpy as np
import pytest

from chainrules.core.partials import constant, picked, reads, unit_sign


def test_reads_follows_the_code_of_a_partial():
    assert reads(lambda x1, x2, y: x2, 2) == (False, True, False)
    assert reads(lambda x, y: y, 1) == (False, True)
    assert reads(lambda x, y: (lambda: x)(), 1) == (True, False)  # read by a function inside
    assert reads(constant(-1.0), 2) == (False, False, False)
    assert reads(np.cos, 1) == (True, True)  # not a plain function: taken to read all
    assert reads(lambda *a: a[0], 1) == (True, True)
    assert reads(lambda x, y: x, 2) == (True, True, True)  # the wrong arity: taken to read all


def test_picked_finds_a_partial_that_is_one_of_the_arguments():
    assert picked(lambda x1, x2, y: x2, 2) == 1  # multiply's partial in x1
    assert picked(lambda a, b, c, y: a, 3) == 0
    assert picked(lambda x1, x2, y: y, 2) is None  # the output: not an argument
    assert picked(lambda x1, x2, y: +x2, 2) is None  # any work on it
    assert picked(lambda x1, x2, y: (x2, x1)[0], 2) is None
    assert picked(constant(1.0), 2) is None
    assert picked(np.positive, 1) is None  # not a plain function
    assert picked(lambda x, y: x, 2) is None  # the wrong arity
    outer = 2.0
    assert picked(lambda x1, x2, y: outer, 2) is None  # a captured value, not an argument


@pytest.mark.parametrize(
    ("partial", "sign"),
    [
        (constant(1.0), 1),
        (constant(1), 1),
        (constant(-1.0), -1),
        (constant(2.0), 0),
        (constant(1j), 0),  # not real: the product, with its conjugation, is taken
        (lambda x, y: 1.0, 0),  # a function is never read for its value
        (None, 0),
    ],
)
def test_unit_sign_recognises_only_the_constants_one_and_minus_one(partial, sign):
    assert unit_sign(partial) == sign


def test_a_constant_gives_its_value_whatever_it_is_called_with():
    half = constant(0.5)
    assert half(1.0, 2.0, 3.0) == 0.5 and half() == 0.5
    assert repr(half) == "constant(0.5)"
