"""Tests of the rules for tile, repeat, pad, flips, rolls, rotations, diagonals, insert, delete."""

from typing import Any

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import ARRAY_DTYPES as DTYPES
from samples import A, build
from samples import Call as Row
from samples import ids as dtype_id

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules._compat import NUMPY_VERSION
from chainrules.rules.numpy.arrangement import embed_diagonal

X, M, V = A((3, 4, 5)), A((4, 5)), A((4,))
PAD = ((1, 2), (0, 3), (2, 2))
ROWS = [
    Row(np.flip, (X,)),
    Row(np.flip, (X,), {"axis": (0, 2)}),
    Row(np.fliplr, (M,)),
    Row(np.flipud, (X,)),
    Row(np.tril, (X, -1)),
    Row(np.triu, (M,), {"k": 2}),
    Row(np.rot90, (X,)),
    Row(np.rot90, (X, 3, (2, 0))),
    Row(np.roll, (X, 2)),
    Row(np.roll, (X, (1, -2)), {"axis": (0, 2)}),
    Row(np.tile, (X, 2)),
    Row(np.tile, (V, (2, 1, 3))),
    Row(np.tile, (X, (2, 1))),
    Row(np.repeat, (X, 3)),
    Row(np.repeat, (X, 2), {"axis": 1}),
    Row(np.repeat, (X, [1, 0, 3, 2]), {"axis": -2}),
    Row(np.ndarray.repeat, (X, 2, 0)),
    Row(np.diagonal, (X,)),
    Row(np.diagonal, (X, 1, 2, 0)),
    Row(np.diagonal, (X, -1, -1, 1)),
    Row(np.ndarray.diagonal, (M, 2)),
    Row(np.diag, (V,)),
    Row(np.diag, (V, -2)),
    Row(np.diag, (M,)),
    Row(np.diag, (M, 2)),
    Row(np.diag, (M, -3)),
    Row(np.diagflat, (M, 1)),
    *(Row(np.pad, (X, PAD, mode)) for mode in ("constant", "edge", "reflect", "symmetric", "wrap")),
    Row(np.pad, (X, 2), {"mode": "constant", "constant_values": 3.0}),
    Row(np.pad, (X, PAD, "mean")),
    Row(np.pad, (X, PAD, "mean"), {"stat_length": ((1, 2), (2, 1), (3, 3))}),
    Row(np.pad, (X, PAD, "linear_ramp"), {"end_values": 5.0}),
    Row(np.pad, (X, PAD, "reflect"), {"reflect_type": "odd"}),
    Row(np.pad, (X, PAD, "symmetric"), {"reflect_type": "odd"}),
    Row(np.pad, (V, 7), {"mode": "reflect"}),
    Row(np.resize, (X, (7, 11))),
    Row(np.resize, (V, (3,))),
    Row(np.delete, (X, [0, 2]), {"axis": 1}),
    Row(np.delete, (X, 5)),
    Row(np.append, (X, A((1, 4, 5))), {"axis": 0}),
    Row(np.append, (X, V)),
    Row(np.insert, (X, 1, A((1,))), {"axis": 1}),
    Row(np.insert, (X, [1, 1, 3], A(()))),
    Row(np.insert, (V, 2, A((2,)))),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("row", ROWS, ids=repr)
def test_rules(row: Row, dtype: Any) -> None:
    args = [build(a, dtype, np.random.default_rng(0)) for a in row.args]
    test_rrule(row.f, *args, fkwargs=row.kwargs, seed=1)
    test_frule(row.f, *args, fkwargs=row.kwargs, seed=1)


def test_second_order() -> None:
    x = np.random.default_rng(0).standard_normal((3, 4))
    for f, args in [(np.tile, (x, 2)), (np.diagonal, (x, 1)), (np.repeat, (x, [1, 2, 0, 1], 1))]:
        test_rrule(f, *args, check_second_order=True, seed=1)


def test_exact_values() -> None:
    # Copies sum back: each element of x appears three times in tile(x, 3).
    _, pullback = cr.rrule(np.tile, np.array([1.0, 2.0]), 3)
    np.testing.assert_array_equal(pullback(np.arange(6.0))[1], [6.0, 9.0])
    # Unequal repeats: segment sums, zero for an element repeated zero times.
    _, pullback = cr.rrule(np.repeat, np.ones(3), [2, 0, 1])
    np.testing.assert_array_equal(pullback(np.array([1.0, 2.0, 4.0]))[1], [3.0, 0.0, 4.0])
    # Reflect padding reads interior elements twice.
    _, pullback = cr.rrule(np.pad, np.zeros(3), 1, "reflect")
    np.testing.assert_array_equal(pullback(np.ones(5))[1], [1.0, 3.0, 1.0])
    # The padding value is a constant: no tangent flows from it.
    _, dy = cr.frule(
        (NoTangent(), np.ones(2), NoTangent()),
        np.pad,
        np.zeros(2),
        1,
        "constant",
        constant_values=5.0,
    )
    np.testing.assert_array_equal(dy, [0.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(
        embed_diagonal(np.array([1.0, 2.0]), 3, 2, offset=-1), [[0, 0], [1, 0], [0, 2]]
    )


def test_pad_modes() -> None:
    # Not linear: engines trace into np.pad for these.
    x = np.ones(4)
    assert cr.rrule(np.pad, x, 1, "maximum") is None
    assert cr.frule((NoTangent(), x, NoTangent(), NoTangent()), np.pad, x, 1, "median") is None
    # "empty" leaves the padding undefined: it takes no tangent and gives no cotangent.
    _, pullback = cr.rrule(np.pad, np.zeros(3), 1, "empty")
    np.testing.assert_array_equal(pullback(np.ones(5))[1], [1.0, 1.0, 1.0])
    _, dy = cr.frule((NoTangent(), np.ones(2), NoTangent(), NoTangent()), np.pad, x[:2], 1, "empty")
    np.testing.assert_array_equal(dy, [0.0, 1.0, 1.0, 0.0])
    # Each side of [a, b] is padded by (a + b) / 2: with the interior, 2 per element.
    _, pullback = cr.rrule(np.pad, np.zeros(2), 1, "mean")
    np.testing.assert_array_equal(pullback(np.ones(4))[1], [2.0, 2.0])


def test_zero_cotangent_and_dtype() -> None:
    x = np.ones((2, 3), dtype=np.float32)
    for f, args in [(np.flip, ()), (np.tile, (2,)), (np.resize, ((4, 4),))]:
        y, pullback = cr.rrule(f, x, *args)
        assert pullback(ZeroTangent())[1] == ZeroTangent()
        assert pullback(np.ones_like(y))[1].dtype == np.float32


def test_insert_index_has_no_tangent() -> None:
    x = np.arange(4.0)
    test_rrule(np.insert, x, with_tangent(1, NoTangent()), 9.0, seed=1)


TRIM_V = np.array([0.0, 0.0, 10.0, 0.0, 20.0, 0.0])
TRIM_M = np.array([[0.0, 0.0, 0.0], [0.0, 15.0, 0.0], [0.0, 0.0, 20.0]])
N_D_TRIM = pytest.mark.skipif(
    NUMPY_VERSION < (2, 2), reason="np.trim_zeros takes n-d arrays and axis= from NumPy 2.2 on"
)


@pytest.mark.parametrize(
    ("x", "args", "kwargs"),
    [
        (TRIM_V, (), {}),
        (TRIM_V, ("f",), {}),
        pytest.param(TRIM_M, (), {}, marks=N_D_TRIM),
        pytest.param(TRIM_M, ("b",), {"axis": -1}, marks=N_D_TRIM),
    ],
    ids=["1d", "1d-front", "2d", "2d-back-axis"],
)
def test_trim_zeros(x, args, kwargs) -> None:
    # Trimming is discontinuous where it removes zeros: perturb only the kept elements.
    kept = with_tangent(x, np.where(x != 0, 0.01, 0.0))
    test_rrule(np.trim_zeros, kept, *args, fkwargs=kwargs, seed=1)
    test_frule(np.trim_zeros, kept, *args, fkwargs=kwargs, seed=1)


def test_trim_zeros_cotangent_on_the_kept_slice() -> None:
    # Zeros inside the kept slice get their cotangent; trimmed ones get zero.
    v = TRIM_V
    _, pullback = cr.rrule(np.trim_zeros, v)
    np.testing.assert_array_equal(pullback(np.ones(3))[1], [0.0, 0.0, 1.0, 1.0, 1.0, 0.0])
