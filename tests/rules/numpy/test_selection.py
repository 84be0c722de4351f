"""Tests of the rules for the functions that return one of their arguments: maximum, minimum,
fmax, fmin, clip and where. (Their rows in the table of binary functions are in
test_arithmetic.py.)"""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.core.fast_paths import FastPullback, general_rule
from chainrules.engines import forward, reverse


@pytest.mark.parametrize("f", [np.maximum, np.minimum, np.fmax, np.fmin])
def test_ties_split_equally(f):
    x1, x2 = np.array([1.0, 2.0, 0.0]), np.array([1.0, 0.0, 2.0])
    winner_is_x1 = f(2.0, 0.0) == 2.0
    _, pullback = cr.rrule(f, x1, x2)
    _, dx1, dx2 = pullback(np.array([4.0, 4.0, 4.0]))
    chosen = [4.0, 0.0] if winner_is_x1 else [0.0, 4.0]
    np.testing.assert_array_equal(dx1, [2.0, chosen[0], chosen[1]])
    np.testing.assert_array_equal(dx2, [2.0, chosen[1], chosen[0]])
    _, dy = cr.frule((NoTangent(), np.full(3, 1.0), np.full(3, 3.0)), f, x1, x2)
    assert dy[0] == 2.0
    assert cr.rrule(f, 1.5, 1.5)[1](1.0) == (NoTangent(), 0.5, 0.5)


def test_nan_goes_where_the_value_comes_from():
    assert cr.rrule(np.maximum, np.nan, 1.0)[1](1.0)[1:] == (1.0, 0.0)
    assert cr.rrule(np.minimum, 1.0, np.nan)[1](1.0)[1:] == (0.0, 1.0)
    assert cr.rrule(np.fmax, np.nan, 1.0)[1](1.0)[1:] == (0.0, 1.0)
    assert cr.rrule(np.fmin, 1.0, np.nan)[1](1.0)[1:] == (1.0, 0.0)


_SELECTION_VALUES = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, 3.0]


_NAN = [*_SELECTION_VALUES, np.nan]


@pytest.mark.parametrize("f", [np.maximum, np.minimum, np.fmax, np.fmin])
@pytest.mark.parametrize("values", [_SELECTION_VALUES, _NAN], ids=["numbers", "with NaN"])
@pytest.mark.parametrize("second", ["array", "row", "0.0", "2", "float32"])
def test_selection_cotangents_of_arrays(f, values, second):
    # Every pair of the values (ties, signed zeros, infinities; NaN on the general way): the
    # cotangent goes to the argument returned, split equally at a tie, NumPy's arrays of
    # real numbers without a NaN taking a way of their own.
    a, b = np.meshgrid(values, values, indexing="ij")
    if second == "row":
        b = b[:1]
    elif second in ("0.0", "2"):
        b = float(second) if second == "0.0" else 2
    elif second == "float32":
        a, b = a.astype(np.float32), b.astype(np.float32)
    dy = np.arange(1.0, 1.0 + a.size).reshape(a.shape)
    with np.errstate(all="raise"):  # the rule computes nothing that warns
        y, pullback = cr.rrule(f, a, b)
        _, da, db = (cr.unthunk(c) for c in pullback(dy))
    assert np.array_equal(y, f(a, b), equal_nan=True)
    bb = np.broadcast_to(b, a.shape)
    first = np.isnan(bb) if f in (np.fmax, np.fmin) else np.isnan(a)
    better = (a > bb) if f in (np.maximum, np.fmax) else (a < bb)
    weight = np.where(a == bb, 0.5, (better | first).astype(float))
    assert np.array_equal(da, (weight * dy).astype(a.dtype))
    if second in ("0.0", "2"):
        assert db == (float(np.sum((1 - weight) * dy)) if second == "0.0" else NoTangent())
    else:
        want = (1 - weight) * dy
        assert np.array_equal(
            db, want.astype(a.dtype) if second != "row" else want.sum(0, keepdims=True)
        )


_SELECTION = [np.maximum, np.minimum, np.fmax, np.fmin]


def _selection_arguments(values, second, layout):
    """Every pair of ``values`` as two (n, n) float64 arrays in ``layout`` (C, F, or a view with
    a stride of 2), the second replaced by a number (``second``) or taken first."""
    a, b = np.meshgrid(values, values, indexing="ij")
    if layout == "F":
        a, b = np.asfortranarray(a), np.asfortranarray(b)
    elif layout == "strided":
        a, b = (np.repeat(x, 2, axis=1)[:, ::2] for x in (a, b))
    number = {"0.0": 0.0, "2": 2, "float64(3)": np.float64(3.0), "-inf": -np.inf}.get(second)
    if second == "number first":
        return 1.0, b
    return (a, b) if number is None else (a, number)


def _bit_for_bit(got, want, where):
    """The same types and numbers, signs of zeros and NaNs' places included."""
    assert type(got) is type(want), (where, type(got), type(want))
    if isinstance(got, np.ndarray | np.generic | float):
        got, want = np.asarray(got), np.asarray(want)
        assert got.dtype == want.dtype and got.shape == want.shape, where
        assert np.array_equal(got, want, equal_nan=True), where
        assert np.array_equal(np.signbit(got), np.signbit(want)), where
    else:
        assert got == want, where


@pytest.mark.parametrize("f", _SELECTION)
@pytest.mark.parametrize("values", [_SELECTION_VALUES, _NAN], ids=["numbers", "with NaN"])
@pytest.mark.parametrize("second", ["array", "0.0", "2", "float64(3)", "-inf", "number first"])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_selection_fast_path_gives_what_its_rule_gives(f, values, second, layout):
    # Float64 arrays beside an array of their shape or a number take a fast path, which must
    # give the registered rule's numbers bit for bit (signed zeros; NaN where a cotangent is
    # infinite and the weight 0) for every kind of cotangent, and write to nothing.
    x1, x2 = _selection_arguments(values, second, layout)
    before = [np.copy(x) for x in (x1, x2)]
    y, pullback = cr.rrule(f, x1, x2)
    y_rule, pullback_rule = general_rule(f)(x1, x2)
    _bit_for_bit(y, y_rule, "value")
    assert pullback.__name__ == pullback_rule.__name__ == f"{f.__name__}_pullback"
    rng = np.random.default_rng(3)
    dy = rng.normal(size=y.shape)
    dy[0, 0], dy[1, 1], dy[2, 0] = -0.0, 5e-324, -np.inf
    for kind in (dy, -dy, dy.astype(np.float32), dy + 0.5j, cr.Thunk(lambda: dy), ZeroTangent()):
        given = np.copy(kind) if isinstance(kind, np.ndarray) else kind
        with np.errstate(invalid="ignore"):  # inf * 0 where a weight is 0, as the rule's
            got = pullback(kind)
            want = pullback_rule(kind)
            for i, (g, w) in enumerate(zip(got, want, strict=True)):
                _bit_for_bit(cr.unthunk(g), cr.unthunk(w), f"cotangent {i} of {type(kind)}")
                _bit_for_bit(cr.unthunk(g), cr.unthunk(w), f"cotangent {i} unthunked again")
        if isinstance(kind, np.ndarray):
            assert np.array_equal(kind, given)
    for x, x_before in zip((x1, x2), before, strict=True):
        assert np.array_equal(x, x_before, equal_nan=True)


@pytest.mark.parametrize("f", _SELECTION)
def test_selection_fast_path_takes_its_calls(f):
    # Float64 arrays (not 0-d) beside an array of their shape or a real number; any other call
    # takes the registered rule: float32, broadcasting, 0-d, a keyword.
    x = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
    taken = [(x, x[::-1]), (x, 0.0), (x, 0), (x, np.float64(0.5)), (-0.5, x)]
    others = [(x.astype(np.float32), 0.0), (x, x[0]), (np.array(1.0), 0.0), (x, x.astype(int))]
    for fast, calls in ((True, taken), (False, others)):
        for args in calls:
            assert isinstance(cr.rrule(f, *args)[1], FastPullback) is fast
    assert not isinstance(cr.rrule(f, x, x, dtype=np.float64)[1], FastPullback)
    _, pullback = cr.rrule(f, x, 0)
    assert pullback(np.ones((2, 3)))[2] is NoTangent() and pullback(ZeroTangent())[2] is NoTangent()
    assert pullback(ZeroTangent())[1] is ZeroTangent()


def test_selection_fast_path_in_the_engines():
    # An engine tracking one argument says so (needed): the other's cotangent is then left as a
    # thunk, computed only when asked for; the numbers are those of the weights either way.
    rng = np.random.default_rng(4)
    x, c = rng.normal(size=(4, 5)), rng.normal(size=(4, 5))
    c[0, :2] = x[0, :2]  # ties
    weight = np.where(x == c, 0.5, (x > c).astype(float))
    grad = reverse.grad(lambda x: np.sum(np.maximum(x, c) * c))(x)
    assert np.array_equal(grad, weight * c)
    grad = reverse.grad(lambda c: np.sum(np.maximum(x, c) * x))(c)
    assert np.array_equal(grad, (1 - weight) * x)
    grad_x, grad_c = reverse.grad(lambda x, c: np.sum(np.minimum(x, c)), argnums=(0, 1))(x, c)
    assert np.array_equal(grad_x, 1 - weight) and np.array_equal(grad_c, weight)
    y, pullback = cr.rrule(np.fmax, x, c)
    pullback.needed((2,))
    _, dx, dc = pullback(np.ones_like(y))
    assert isinstance(dx, cr.Thunk) and np.array_equal(cr.unthunk(dx), weight)
    assert np.array_equal(dc, 1 - weight)
    test_rrule(np.maximum, x, c + 0.1)
    test_rrule(np.minimum, x, 0.25, check_second_order=True)


def test_selection_fast_pullback_is_differentiable_in_its_cotangent():
    # As a Hessian-vector product differentiates it: linear in the cotangent, as the rule's.
    rng = np.random.default_rng(5)
    x, c = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    dy, t = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    for args in ((x, c), (x, 0.0)):
        _, pullback = cr.rrule(np.maximum, *args)
        for i in (1, 2):

            def cotangent(d, pullback=pullback, i=i):
                return cr.unthunk(pullback(d)[i])

            value, tangent = forward.jvp(cotangent, (dy,), (t,))
            assert np.array_equal(value, cr.unthunk(pullback(dy)[i]))
            assert np.array_equal(tangent, cr.unthunk(pullback(t)[i]))


def test_clip_inside_outside_and_at_the_bounds():
    a = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    _, pullback = cr.rrule(np.clip, a, -1.0, 1.0)
    _, da, dlo, dhi = pullback(np.arange(1.0, 6.0))
    # At exactly a bound the cotangent goes to a; beyond it, to the bound (summed), computed
    # when asked for.
    np.testing.assert_array_equal(da, [0.0, 2.0, 3.0, 4.0, 0.0])
    assert isinstance(dlo, cr.Thunk) and isinstance(dhi, cr.Thunk)
    assert (cr.unthunk(dlo), cr.unthunk(dhi)) == (1.0, 5.0)
    _, dy = cr.frule((NoTangent(), np.arange(1.0, 6.0), 10.0, 100.0), np.clip, a, -1.0, 1.0)
    np.testing.assert_array_equal(dy, [10.0, 2.0, 3.0, 4.0, 100.0])
    assert tuple(map(cr.unthunk, cr.rrule(np.clip, np.nan, -1.0, 1.0)[1](1.0)[1:])) == (
        1.0,
        0.0,
        0.0,
    )


def test_clip_array_bounds_are_differentiable():
    rng = np.random.default_rng(1)
    a = rng.uniform(-2.0, 2.0, (2, 5))
    lo, hi = rng.uniform(-1.0, 0.0, 5), rng.uniform(0.0, 1.0, (2, 1))
    for f in (test_rrule, test_frule):
        f(np.clip, a, lo, hi, check_second_order=True)
        f(np.clip, a, -1.0, 1.0)
        f(np.clip, a, None, hi)
        f(np.clip, a, lo, None)
        f(np.clip, a, np.full(5, 0.5), np.full((2, 1), -0.5))  # lo > hi: the result is hi
        f(np.clip, a.astype(np.float32), -1.0, 1.0)
        f(np.clip, 0.3, -1.0, 0.1)


@pytest.mark.parametrize("bounds", [(-1.0, 1.0), (-1, 2), (np.float64(0.5), 1.0), (1.0, -1.0)])
@pytest.mark.parametrize("dy_kind", ["finite", "with inf", "float32"])
def test_clip_cotangent_of_arrays(bounds, dy_kind):
    # a at, inside and beyond each bound, and NaN; lo > hi (the result is hi everywhere)
    # takes the general way, as does a cotangent holding an infinity, whose product with a
    # clipped element's 0 would be NaN.
    lo, hi = bounds
    a = np.array([[-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, np.nan, 1.5, -0.0]] * 2)
    dy = np.arange(1.0, 1.0 + a.size).reshape(a.shape)
    if dy_kind == "with inf":
        dy[0, 0] = np.inf
    elif dy_kind == "float32":
        a, dy = a.astype(np.float32), dy.astype(np.float32)
    with np.errstate(invalid="ignore"):
        raised = np.maximum(a, lo)
    to_hi = raised > hi
    to_lo = (a < lo) & ~to_hi
    _, pullback = cr.rrule(np.clip, a, lo, hi)
    _, da, dlo, dhi = pullback(dy)
    assert da.dtype == a.dtype
    assert np.array_equal(da, np.where(to_lo | to_hi, 0.0, dy).astype(a.dtype))
    for d, mask in ((dlo, to_lo), (dhi, to_hi)):
        if isinstance(bounds[0], int):
            assert d == NoTangent()
        else:
            assert cr.unthunk(d) == pytest.approx(float(np.sum(np.where(mask, dy, 0.0))))


def test_clip_bounds_without_tangent():
    rng = np.random.default_rng(1)
    a = rng.uniform(-2.0, 2.0, (2, 5))
    no = NoTangent()
    for f in (test_rrule, test_frule):
        f(np.clip, a, np.int64(-1), 1)
        f(np.clip, a, fkwargs={"min": -1.0, "max": 0.5})
    assert cr.rrule(np.clip, a, -1, 1)[1](np.ones((2, 5)))[2:] == (no, no)
    assert cr.rrule(np.clip, a, None, 1.0)[1](np.ones((2, 5)))[2] is no


def test_where():
    rng = np.random.default_rng(2)
    condition = rng.uniform(size=(2, 3)) > 0.5
    x, y = rng.standard_normal((2, 3)), rng.standard_normal(3)
    test_rrule(np.where, condition, x, y, check_second_order=True)
    test_frule(np.where, condition, x, y, check_second_order=True)
    test_rrule(np.where, condition, x + 1j * y, 1.0)
    _, pullback = cr.rrule(np.where, np.array([True, False]), 1.0, np.array([2.0, 3.0]))
    _, dcondition, dx, dy = pullback(np.array([5.0, 7.0]))
    assert dcondition is NoTangent()
    assert (dx, dy.tolist()) == (5.0, [0.0, 7.0])
    indices, pullback = cr.rrule(np.where, np.array([0.0, 1.0]))
    assert indices[0].tolist() == [1]
    assert pullback(ZeroTangent()) == (NoTangent(), NoTangent())


def test_where_takes_a_numpy_mask_beside_arrays_of_another_namespace():
    torch = pytest.importorskip("torch")
    x, y = torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0, 4.0])
    out, pullback = cr.rrule(np.where, np.array([True, False]), x, y)
    assert out.tolist() == [1.0, 4.0]
    assert pullback(torch.ones(2))[2].tolist() == [1.0, 0.0]


def test_clip_with_out_by_position_has_no_rule():
    x = np.array([-1.0, 0.5, 2.0])
    assert cr.rrule(np.clip, x, 0.0, 1.0, np.empty(3)) is None
