"""dtypes: one meaning of "complex", "carries a tangent", and dtype casts, for every array type."""

import numpy as np
import pytest

from chainrules.core.dtypes import (
    cast,
    conj,
    has_tangent,
    is_complex,
    is_complex_dtype,
    value_dtype,
)
from chainrules.core.tangents import ZERO_TANGENT


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (1.0, False),
        (1j, True),
        (np.float32(1), False),
        (np.complex64(1), True),
        (np.ones(2), False),
        (np.ones(2, dtype=complex), True),
        (3, False),
        ([1j], False),
    ],
)
def test_is_complex(x, expected):
    assert is_complex(x) is expected


def test_is_complex_dtype_of_other_libraries():
    torch = pytest.importorskip("torch")
    assert is_complex_dtype(torch.complex64) and not is_complex_dtype(torch.float32)
    assert is_complex(torch.ones(1, dtype=torch.complex128))


def test_conj_leaves_reals_and_zeros_alone():
    x = np.array([1 + 2j])
    assert conj(2.0) == 2.0 and conj(ZERO_TANGENT) is ZERO_TANGENT
    assert conj(x).tolist() == [1 - 2j] and x.tolist() == [1 + 2j]  # not mutated


def test_has_tangent():
    assert has_tangent(1.0) and has_tangent(np.ones(1, dtype=np.float32))
    assert not has_tangent(1) and not has_tangent(np.ones(1, dtype=int))
    assert not has_tangent(np.ones(1, dtype=bool))


def test_cast_copies_only_when_the_dtype_changes():
    x = np.ones(2)
    assert cast(x, np.float64) is x
    assert cast(x, np.float32).dtype == np.float32


def test_value_dtype():
    assert value_dtype(2) == np.dtype(int) and value_dtype([1.5]) == np.float64
    assert value_dtype(np.ones(1, dtype=np.complex64)) == np.complex64


def test_is_complex_dtype_answers_the_same_when_asked_again():
    class Unhashable:  # a dtype-like object that cannot key a dictionary
        __hash__ = None

        def __str__(self):
            return "complex64"

    for _ in range(2):
        assert is_complex_dtype(np.dtype("c16")) and not is_complex_dtype(np.dtype("f8"))
        assert is_complex_dtype(Unhashable()) and not is_complex_dtype("float32")
        assert is_complex(np.complex64(1j)) and not is_complex(np.float32(1.0))
