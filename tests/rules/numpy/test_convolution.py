"""Tests of the rules for np.convolve and np.correlate, in every mode and length order."""

from typing import Any

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent, unthunk

CASES = [
    (f, lengths, mode, dtype)
    for f in (np.convolve, np.correlate)
    for lengths in [(5, 3), (3, 5), (4, 4), (1, 3)]
    for mode in ("full", "same", "valid")
    for dtype in (np.float64, np.complex128)
]


def sample(n: int, dtype: Any, rng: np.random.Generator) -> np.ndarray:
    x = rng.standard_normal(n)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(n)
    return np.asarray(x, dtype=dtype)


def case_id(case: tuple) -> str:
    f, lengths, mode, dtype = case
    return f"{f.__name__}-{lengths[0]}x{lengths[1]}-{mode}-{np.dtype(dtype).name}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_modes(case: tuple) -> None:
    f, (n, m), mode, dtype = case
    rng = np.random.default_rng(0)
    a, v = sample(n, dtype, rng), sample(m, dtype, rng)
    test_rrule(f, a, v, with_tangent(mode, NoTangent()), seed=1)
    test_frule(f, a, v, fkwargs={"mode": mode}, seed=1)


def test_defaults_and_exact_values() -> None:
    a, v = np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0])
    _, pullback = cr.rrule(np.correlate, a, v)  # mode "valid"
    np.testing.assert_array_equal(unthunk(pullback(np.array([1.0, 10.0]))[1]), [0.0, 1.0, 10.0])
    _, pullback = cr.rrule(np.convolve, a, v)  # mode "full"
    assert pullback(ZeroTangent())[1:] == (ZeroTangent(), ZeroTangent())


def test_second_order() -> None:
    rng = np.random.default_rng(0)
    a, v = sample(5, np.float64, rng), sample(3, np.float64, rng)
    test_rrule(np.convolve, a, v, with_tangent("same", NoTangent()), check_second_order=True)
    test_rrule(np.correlate, a, v, check_second_order=True, seed=1)


# ---- 0-d arguments, and "same" with the longer array second ----------------------------------

EDGE_CONVOLUTIONS = [
    # f, a, v, mode: NumPy's convolve takes a 0-d argument as one element; correlate's "same"
    # centres the other way when the longer array comes second and the shorter has even length.
    (np.convolve, np.array(2.0), np.array([0.5, 1.25, -0.75]), "full"),
    (np.convolve, np.array([0.5, 1.25, -0.75]), np.array(-1.5), "same"),
    (np.convolve, np.array(2.0), np.array(3.0), "valid"),
    (np.correlate, np.array([0.5, 1.25]), np.array([1.0, -2.0, 0.25, 3.0]), "same"),
    (
        np.correlate,
        np.array([0.5, 1.25, 2.0, -1.0]),
        np.array([1.0, -2.0, 0.25, 3.0, 0.5, 1.5]),
        "same",
    ),
    (np.correlate, np.array([0.5 + 1j, 1.25]), np.array([1.0, -2.0j, 0.25]), "same"),
]


@pytest.mark.parametrize("f, a, v, mode", EDGE_CONVOLUTIONS, ids=range(len(EDGE_CONVOLUTIONS)))
def test_edge_shapes(f, a, v, mode):
    test_rrule(f, a, v, mode)
    test_frule(f, a, v, mode)


def test_correlate_same_with_the_longer_array_second_values():
    # Here "same" starts one place into "full" (NumPy swaps the arguments, then reverses):
    # its first element is 0.25 a0 + 3 a1 (full's first is 3 a0). Exact products of binary
    # fractions: compared exactly.
    a, v = np.array([0.5, 1.25]), np.array([1.0, -2.0, 0.25, 3.0])
    _, pullback = cr.rrule(np.correlate, a, v, "same")
    da = unthunk(pullback(np.array([1.0, 0.0, 0.0, 0.0]))[1])
    np.testing.assert_array_equal(da, [0.25, 3.0])
