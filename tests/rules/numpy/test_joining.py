"""Tests of the rules for joining and splitting arrays: concatenate, stack, split, block..."""

from typing import Any

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import ARRAY_DTYPES as DTYPES
from samples import A, check_call
from samples import Call as Row
from samples import ids as dtype_id

import chainrules as cr
from chainrules import NoTangent, Tangent, ZeroTangent
from chainrules.core.errors import RuleKeywordError

X = A((2, 3, 4))
ROWS = [
    Row(np.concatenate, ([X, A((1, 3, 4))],)),
    Row(np.concatenate, ([X, A((2, 3, 2))],), {"axis": -1}),
    Row(np.concatenate, ([X, A((5,))],), {"axis": None}),
    Row(np.concat, ((X, X),), {"axis": 1}),
    Row(np.stack, ([X, X, X],)),
    Row(np.stack, ([A((3,)), A((3,))],), {"axis": -1}),
    Row(np.hstack, ([A((3,)), A((2,))],)),
    Row(np.hstack, ([A((2, 3)), A((2, 1))],)),
    Row(np.vstack, ([A((3,)), A((2, 3))],)),
    Row(np.dstack, ([A((3,)), A((1, 3))],)),
    Row(np.column_stack, ([A((3,)), A((3, 2))],)),
    Row(np.split, (X, 3), {"axis": 1}),
    Row(np.split, (X, [1, 3], -1)),
    Row(np.array_split, (X, 3), {"axis": 2}),
    Row(np.hsplit, (X, [1])),
    Row(np.vsplit, (X, 2)),
    Row(np.dsplit, (X, 2)),
    Row(np.unstack, (X,), {"axis": 1}),
    Row(np.block, ([[A((2, 2)), A((2, 3))], [A((1, 5))]],)),
    Row(np.block, ([A((3,)), A((2,))],)),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("row", ROWS, ids=repr)
def test_rules(row: Row, dtype: Any) -> None:
    check_call(row, dtype)


def test_exact_values() -> None:
    x = np.arange(6.0).reshape(2, 3)
    # Sequence arguments get a structural tangent of their own type.
    _, pullback = cr.rrule(np.concatenate, (x, x[:1]))
    cotangent = pullback(np.arange(9.0).reshape(3, 3))[1]
    assert isinstance(cotangent, Tangent)
    np.testing.assert_array_equal(cotangent[1], [[6.0, 7.0, 8.0]])
    # Unused outputs of a split take a zero cotangent; the input gets zeros there.
    _, pullback = cr.rrule(np.split, x, 2)
    dx = pullback([ZeroTangent(), np.ones((1, 3))])[1]
    np.testing.assert_array_equal(dx, [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    # Each block of np.block gets its own part of the cotangent.
    _, pullback = cr.rrule(np.block, [[np.zeros((1, 1)), np.zeros((1, 2))], [np.zeros((1, 3))]])
    blocks = pullback(np.arange(6.0).reshape(2, 3))[1]
    np.testing.assert_array_equal(blocks[0][1], [[1.0, 2.0]])
    np.testing.assert_array_equal(blocks[1][0], [[3.0, 4.0, 5.0]])


def test_row_stack() -> None:
    x = np.ones((2, 3))
    with pytest.warns(DeprecationWarning):
        test_rrule(np.row_stack, [x, x[:1]], seed=1)
    with pytest.warns(DeprecationWarning):
        test_frule(np.row_stack, [x, x[:1]], seed=1)


def test_second_order() -> None:
    x = np.random.default_rng(0).standard_normal((2, 3))
    test_rrule(np.concatenate, [x, x], check_second_order=True, seed=1)
    test_rrule(np.split, x, 3, with_tangent(1, NoTangent()), check_second_order=True, seed=1)


def test_zero_cotangent_and_dtype() -> None:
    x = np.ones((2, 3), dtype=np.float32)
    _, pullback = cr.rrule(np.stack, [x, x])
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    assert all(d.dtype == np.float32 for d in pullback(np.ones((2, 2, 3)))[1])


def test_unsupported_keyword() -> None:
    with pytest.raises(RuleKeywordError, match=r"numpy\.concatenate.*'out'"):
        cr.rrule(np.concatenate, [np.ones(2)], out=np.ones(2))


# ---- concatenate and stack of NumPy arrays: the cotangent's views, projected -----------------

JOINS = {
    "concat-list": (np.concatenate, list, [(2, 3), (4, 3)], {}),
    "concat-tuple-axis": (np.concatenate, tuple, [(2, 3), (2, 1), (2, 2)], {"axis": 1}),
    "concat-negative-axis": (np.concatenate, list, [(2, 3, 1), (2, 3, 2)], {"axis": -1}),
    "concat-flat": (np.concatenate, list, [(2, 3), (4,)], {"axis": None}),
    "concat-empty": (np.concatenate, list, [(0, 3), (2, 3)], {}),
    "stack": (np.stack, list, [(2, 3), (2, 3), (2, 3)], {}),
    "stack-tuple-axis": (np.stack, tuple, [(2, 3), (2, 3)], {"axis": 1}),
    "stack-negative-axis": (np.stack, list, [(2, 3), (2, 3)], {"axis": -1}),
}


def _split_reference(f: Any, dy: Any, shapes: list, axis: Any) -> list[Any]:
    """The pieces of ``dy`` that each joined array became, cut with NumPy's own split."""
    if f is np.stack:
        return [np.take(dy, i, axis=axis) for i in range(len(shapes))]
    if axis is None:
        cuts = np.cumsum([np.prod(s) for s in shapes])[:-1]
        return [p.reshape(s) for p, s in zip(np.split(dy, cuts), shapes, strict=True)]
    cuts = np.cumsum([s[axis] for s in shapes])[:-1]
    return np.split(dy, cuts, axis=axis)


@pytest.mark.parametrize(
    "dtypes",
    [
        (np.float64, np.float64),
        (np.float32, np.float32),
        (np.float32, np.float64),
        (np.float64, np.complex128),
    ],
    ids=lambda d: "-".join(np.dtype(t).name for t in d),
)
@pytest.mark.parametrize("case", JOINS.values(), ids=JOINS.keys())
def test_join_cotangent_values(case: tuple, dtypes: tuple) -> None:
    f, sequence, shapes, kwargs = case
    x_dtype, dy_dtype = dtypes
    rng = np.random.default_rng(0)
    arrays = sequence(rng.standard_normal(s).astype(x_dtype) for s in shapes)
    y, pullback = cr.rrule(f, arrays, **kwargs)
    np.testing.assert_array_equal(y, f(arrays, **kwargs))
    dy = rng.standard_normal(y.shape).astype(dy_dtype)
    if dy_dtype == np.complex128:
        dy = dy + 1j * rng.standard_normal(y.shape)
    cotangent = pullback(dy)[1]
    assert type(cotangent) is (cr.MutableTangent if sequence is list else Tangent)
    assert cotangent.primal_type is sequence and len(cotangent) == len(arrays)
    axis = kwargs.get("axis", 0)
    for d, a, piece in zip(cotangent, arrays, _split_reference(f, dy, shapes, axis), strict=True):
        # Each piece is a copy of dy's elements: exact (a complex one gives its real part).
        assert d.dtype == a.dtype and d.shape == a.shape
        np.testing.assert_array_equal(d, piece.real.astype(a.dtype))


def test_join_with_other_arguments_takes_the_rule() -> None:
    x = np.arange(6.0).reshape(2, 3)
    calls = [
        ((np.int64(1),), {}),
        ((1,), {}),
        ((), {"axis": 1, "dtype": np.float32}),
        ((), {"dtype": np.float32}),
    ]
    for args, kwargs in calls:
        y, pullback = cr.rrule(np.concatenate, [x, x + 1], *args, **kwargs)
        assert y.dtype == np.concatenate([x, x + 1], *args, **kwargs).dtype
        dy = np.arange(12.0, dtype=y.dtype).reshape(y.shape)
        cotangents = pullback(dy)
        axis = args[0] if args else kwargs.get("axis", 0)
        np.testing.assert_array_equal(cotangents[1][1], np.split(dy, 2, axis=axis)[1])
        assert cotangents[2:] == (NoTangent(),) * len(args)
    # An integer array among floats: no cotangent for it.
    _, pullback = cr.rrule(np.stack, (x, np.ones((2, 3), dtype=int)))
    d = pullback(np.ones((2, 2, 3)))[1]
    np.testing.assert_array_equal(d[0], np.ones((2, 3)))
    assert d[1] == NoTangent()


@pytest.mark.parametrize("f", [np.concatenate, np.stack])
def test_join_of_one_array(f: Any) -> None:
    # An array is joined along its first axis, as a sequence of its rows; its cotangent is one
    # array again.
    x = np.arange(6.0).reshape(2, 3)
    test_rrule(f, x, seed=1)
    y, pullback = cr.rrule(f, x, axis=-1)
    dx = pullback(np.arange(y.size, dtype=float).reshape(y.shape))[1]
    assert type(dx) is np.ndarray
    np.testing.assert_array_equal(
        dx, np.arange(6.0).reshape(3, 2).T if f is np.stack else [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    )


def _join_layouts(dtype: Any) -> dict[str, np.ndarray]:
    """The same values of ``dtype`` in C order, in Fortran order and as a strided view."""
    x = np.random.default_rng(7).standard_normal((3, 4)).astype(dtype)
    wide = np.zeros((3, 8), dtype)
    wide[:, ::2] = x
    return {"C": x, "F": np.asfortranarray(x), "strided": wide[:, ::2]}


@pytest.mark.parametrize("axis", [-3, -2, -1, 0, 1, 2])
@pytest.mark.parametrize("sequence", [list, tuple], ids=lambda s: s.__name__)
@pytest.mark.parametrize(
    "dtypes", [("float64",) * 3, ("float32",) * 3, ("float32", "float64", "float32")]
)
def test_stack_fast_path(axis: int, sequence: type, dtypes: tuple) -> None:
    layouts = [
        _join_layouts(d)[layout] for d, layout in zip(dtypes, ("C", "F", "strided"), strict=True)
    ]
    arrays = sequence(layouts)
    kept = [a.copy() for a in arrays]
    y, pullback = cr.rrule(np.stack, arrays, axis=axis)
    expected = np.stack(arrays, axis=axis)
    assert y.dtype == expected.dtype and np.array_equal(y, expected)  # NumPy's own, exactly
    dy = np.arange(y.size, dtype=np.float64).reshape(y.shape)
    dy_kept = dy.copy()
    cotangent = pullback(dy)[1]
    for d, a, i in zip(cotangent, arrays, range(len(arrays)), strict=True):
        # dy's elements, copied or viewed, cast to each array's dtype: exact (small integers)
        assert d.dtype == a.dtype and d.shape == a.shape
        np.testing.assert_array_equal(d, np.take(dy, i, axis=axis).astype(a.dtype))
    assert all(np.array_equal(a, k) for a, k in zip(arrays, kept, strict=True))
    assert np.array_equal(dy, dy_kept)


def test_stack_errors_are_numpys() -> None:
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match="same shape"):
        cr.rrule(np.stack, [x, np.ones((3, 2))])
    for axis in (3, -4):
        with pytest.raises(np.exceptions.AxisError):
            cr.rrule(np.stack, [x, x], axis=axis)


def test_concatenate_cotangent_of_arrays_of_two_dtypes() -> None:
    # the pieces of dy keep dy's dtype only where the arrays all have it
    a, b = np.ones((2, 3), np.float32), np.ones((2, 2))
    _, pullback = cr.rrule(np.concatenate, [a, b], 1)
    dy = np.arange(10.0).reshape(2, 5) / 3
    da, db = pullback(dy)[1]
    assert da.dtype == np.float32 and db.dtype == np.float64
    np.testing.assert_array_equal(da, (dy[:, :3]).astype(np.float32))
    np.testing.assert_array_equal(db, dy[:, 3:])
    # the first array of dy's dtype, another not: each piece still takes its array's dtype
    _, pullback = cr.rrule(np.concatenate, [b, a], 1)
    db, da = pullback(dy)[1]
    assert db.dtype == np.float64 and da.dtype == np.float32
    np.testing.assert_array_equal(da, (dy[:, 2:]).astype(np.float32))
    # one dtype throughout: views of dy, which the pullback leaves as they are
    _, pullback = cr.rrule(np.concatenate, [b, b], 0)
    dy = np.arange(8.0).reshape(4, 2)
    _, d1 = pullback(dy)[1]
    np.testing.assert_array_equal(d1, dy[2:])
    np.testing.assert_array_equal(dy, np.arange(8.0).reshape(4, 2))
