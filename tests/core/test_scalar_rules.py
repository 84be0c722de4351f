"""scalar_rules: the rules scalar_rule builds keep alive only what their partials read, give
thunks for large outputs, and let go of what an engine will not ask for; their frules on real
arguments give what the general way gives."""

import gc
import weakref

import numpy as np
import pytest

import chainrules as cr
from chainrules.core import several_input_rules
from chainrules.core.define import scalar_rule
from chainrules.core.several_input_rules import LAZY_FROM
from chainrules.core.tangents import NO_TANGENT, NotImplementedTangent
from chainrules.core.thunks import Thunk, eager_thunks
from chainrules.engines import reverse


def _alive_after_rrule(f, *args):
    """Whether ``f``'s output and each argument are still alive while only the pullback is."""
    y, pullback = cr.rrule(f, *args)
    refs = [weakref.ref(y), *(weakref.ref(a) for a in args if isinstance(a, np.ndarray))]
    del y, args
    gc.collect()
    return pullback, [r() is not None for r in refs]


def test_a_pullback_keeps_alive_only_what_its_partials_read():
    # sin' = cos(x): the output is let go of; add's partials are constants: nothing is kept.
    _, alive = _alive_after_rrule(np.sin, np.linspace(0.0, 1.0, 5))
    assert alive == [False, True]
    _, alive = _alive_after_rrule(np.add, np.ones(5), np.ones(5))
    assert alive == [False, False, False]
    pullback, alive = _alive_after_rrule(np.multiply, np.ones(5), np.full(5, 2.0))
    assert alive == [False, True, True]
    assert [np.asarray(c).tolist() for c in pullback(np.ones(5))[1:]] == [[2.0] * 5, [1.0] * 5]


def test_large_outputs_give_thunks_small_ones_numbers():
    small, large = np.ones(LAZY_FROM - 1), np.ones(LAZY_FROM)
    _, pullback = cr.rrule(np.multiply, small, 3.0)
    assert not any(isinstance(c, Thunk) for c in pullback(small))
    _, pullback = cr.rrule(np.multiply, large, 3.0)
    dx, dc = pullback(large)[1:]
    assert isinstance(dx, Thunk) and isinstance(dc, Thunk)
    assert np.array_equal(cr.unthunk(dx), np.full(LAZY_FROM, 3.0))
    assert cr.unthunk(dc) == float(LAZY_FROM)


def test_what_an_engine_will_not_ask_for_is_let_go_of_and_never_a_number():
    x, c = np.linspace(0.0, 1.0, 4), np.full(4, 2.0)
    _, pullback = cr.rrule(np.multiply, x, c)
    pullback.needed((1,))  # the cotangent of x only: c's partial (x) is not needed
    assert pullback.args[0] is None and pullback.args[1] is c
    result = pullback(np.ones(4))
    assert np.array_equal(result[1], c)
    assert isinstance(result[2], NotImplementedTangent)
    assert "argument 2 of numpy.multiply" in result[2].info
    assert result[0] is NO_TANGENT


@pytest.mark.parametrize(
    "args",
    [
        (np.linspace(0.1, 1.0, LAZY_FROM), np.full(LAZY_FROM, 2.0)),  # float64: a class of its own
        (np.linspace(0.1, 1.0, LAZY_FROM), 2.0),
        (np.linspace(0.1, 1.0, LAZY_FROM, dtype=np.float32), np.full(LAZY_FROM, 2.0)),  # general
    ],
    ids=["arrays", "array and float", "float32 and float64"],
)
def test_told_every_cotangent_is_asked_for_a_pullback_gives_numbers(args):
    dy = np.linspace(-1.0, 1.0, LAZY_FROM)
    _, lazy = cr.rrule(np.multiply, *args)
    thunks = lazy(dy)
    assert all(isinstance(c, Thunk) for c in thunks[1:])
    _, pullback = cr.rrule(np.multiply, *args)
    pullback.needed((1, 2))
    assert pullback.args[0] is args[0] and pullback.args[1] is args[1]  # nothing let go of
    numbers = pullback(dy)
    assert numbers[0] is NO_TANGENT
    for number, thunk in zip(numbers[1:], thunks[1:], strict=True):
        expected = cr.unthunk(thunk)
        assert type(number) is type(expected) and np.array_equal(number, expected)


def test_the_reverse_engine_gets_numbers_where_it_tracks_every_argument(monkeypatch):
    unthunked = []
    for thunk_class in (several_input_rules._Cotangent, several_input_rules._RealCotangent):

        def counted(self, original=thunk_class.unthunk):
            unthunked.append(self.i)
            return original(self)

        monkeypatch.setattr(thunk_class, "unthunk", counted)
    x, c = np.linspace(0.1, 1.0, LAZY_FROM), np.full(LAZY_FROM, 3.0)
    dx, dc = reverse.grad(lambda x, c: np.sum(x * c), argnums=(0, 1))(x, c)
    assert unthunked == []  # no thunk made, none unthunked
    assert np.array_equal(dx, c) and np.array_equal(dc, x)
    _, pullback = cr.rrule(np.multiply, x, c)
    cr.unthunk(pullback(np.ones(LAZY_FROM))[1])
    assert unthunked == [0]  # the counting sees a thunk unthunked


def test_the_reverse_engine_lets_constant_arguments_cotangents_go():
    seen = []

    def f(x):
        y = np.sin(x)
        seen.append(weakref.ref(y.value))
        return np.sum(y * 2.0)

    grad = reverse.grad(f)(np.linspace(0.0, 1.0, 8))
    gc.collect()
    assert seen[0]() is None  # sin's output: read by no partial the engine asks for
    np.testing.assert_allclose(grad, 2.0 * np.cos(np.linspace(0.0, 1.0, 8)), rtol=1e-15)


@pytest.mark.parametrize("n", [1, LAZY_FROM + 1])
def test_gradients_agree_below_and_above_the_thunk_size(n):
    x = np.linspace(0.1, 1.0, n)
    grad = reverse.grad(lambda x: np.sum(np.sin(x) * 1.01 + 0.1))(x)
    np.testing.assert_allclose(grad, 1.01 * np.cos(x), rtol=1e-15)


# ---- real scalars: a class per function and argument types ----------------------------------

REAL_SCALARS = [0.75, np.float64(0.75), 3]
BINARY = [np.add, np.subtract, np.multiply, np.divide, np.arctan2, np.hypot, np.power]


@pytest.mark.parametrize("f", BINARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", REAL_SCALARS, ids=lambda a: type(a).__name__)
@pytest.mark.parametrize("b", [*REAL_SCALARS, -2.5], ids=repr)
def test_real_scalars_give_what_0d_arrays_give(f, a, b):
    # The scalar path (NumPy's scalar arithmetic for add, subtract, multiply and divide)
    # against the general one at 0-d arrays: the same numbers, bit for bit, of the arguments'
    # own types.
    y, pullback = cr.rrule(f, a, b)
    expected = f(a, b)
    assert type(y) is type(expected) and np.array_equal(y, expected, equal_nan=True)
    dy = np.float64(1.25)
    got = pullback(dy)
    arrays = cr.rrule(f, np.asarray(a, dtype=float), np.asarray(b, dtype=float))[1](np.asarray(dy))
    assert got[0] is NO_TANGENT
    for c, arg, reference in zip(got[1:], (a, b), arrays[1:], strict=True):
        if type(arg) is int:
            assert c is NO_TANGENT
            continue
        assert type(c) is type(arg)
        assert np.array_equal(c, reference, equal_nan=True)


def test_real_scalar_pullbacks_take_any_cotangent():
    # A zero, a thunk, a 0-d array and a complex number leave the scalar path for the general
    # one: the same answers as before the path existed.
    _, pullback = cr.rrule(np.multiply, 2.0, np.float64(3.0))
    assert pullback(cr.ZeroTangent())[1:] == (cr.ZeroTangent(), cr.ZeroTangent())
    assert pullback(Thunk(lambda: 2.0))[1:] == (6.0, np.float64(4.0))
    assert pullback(np.array(2.0))[1:] == (6.0, np.float64(4.0))
    assert pullback(1j)[1:] == (0.0, np.float64(0.0))  # projected onto the reals
    with pytest.raises(cr.ChainRulesError, match=r"numpy\.multiply"):
        pullback(np.ones(3))
    _, pullback = cr.rrule(np.sin, 0.5)
    assert pullback(np.array(2.0))[1] == 2.0 * np.cos(0.5)
    with pytest.raises(cr.ChainRulesError, match=r"numpy\.sin"):
        pullback(np.ones(2))


@pytest.mark.parametrize("x", [0.5, np.float64(0.5), -0.0])
@pytest.mark.parametrize("f", [np.sin, np.exp, np.negative, np.positive, np.log1p])
def test_unary_real_scalars_keep_their_type(f, x):
    y, pullback = cr.rrule(f, x)
    assert type(y) is type(f(x)) and y == f(x)
    dx = pullback(np.float64(1.5))[1]
    assert type(dx) is type(x)
    reference = cr.rrule(f, np.asarray(x))[1](np.asarray(1.5))[1]
    assert dx == reference and np.signbit(dx) == np.signbit(reference)


def test_cotangent_thunks_compute_when_unthunked_and_at_once_when_eager():
    x, c = np.linspace(0.0, 1.0, LAZY_FROM), np.full(LAZY_FROM, 2.0)
    _, pullback = cr.rrule(np.multiply, x, c)
    dx, dc = pullback(np.ones(LAZY_FROM))[1:]
    assert isinstance(dx, Thunk) and "argument 1 of multiply_pullback" in repr(dx)
    np.testing.assert_array_equal(cr.unthunk(dx), c)
    np.testing.assert_array_equal(cr.unthunk(dc), x)
    with eager_thunks():
        dx, dc = pullback(np.ones(LAZY_FROM))[1:]
    np.testing.assert_array_equal(dx, c)
    np.testing.assert_array_equal(dc, x)


def test_a_failure_of_dask_inside_an_elementwise_rule_names_the_function():
    da = pytest.importorskip("dask.array")
    x = da.from_array(np.linspace(0.1, 1.0, 6), chunks=3)
    unknown = x[x > 0.5]  # a size dask does not know
    with pytest.raises(cr.ChainRulesError, match=r"numpy\.arctan2"):
        cr.rrule(np.arctan2, unknown, x)  # dask: operands could not be broadcast together
    with pytest.raises(cr.ChainRulesError, match=r"numpy\.arctan2"):
        cr.frule((cr.NoTangent(), cr.ZeroTangent(), cr.ZeroTangent()), np.arctan2, unknown, x)


# ---- 0-d arrays: the partials and products on NumPy's scalars -------------------------------
#
# The pullbacks evaluate a 0-d array's partials and products on NumPy's scalars (three times
# faster): the same numbers as on the 0-d arrays themselves, in a 0-d array of the argument's
# dtype.

UNARY_0D = [np.sin, np.exp, np.tanh, np.sqrt, np.log1p, np.reciprocal, np.negative, np.positive]
DTYPES_0D = [np.float64, np.float32, np.complex128]


def _assert_same_0d(got, reference, dtype):
    assert type(got) is np.ndarray and got.shape == () and got.dtype == reference.dtype
    if np.dtype(dtype).kind == "c":
        # NumPy's complex product of two scalars and of two arrays may round differently (a
        # fused multiply-add in one and not the other): one part in 1e15
        np.testing.assert_allclose(got, reference, rtol=1e-15, atol=0)
    else:
        assert np.array_equal(got, reference, equal_nan=True)  # float products: bit for bit


@pytest.mark.parametrize("f", UNARY_0D, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x_dtype", DTYPES_0D, ids=lambda t: t.__name__)
@pytest.mark.parametrize("dy_dtype", DTYPES_0D, ids=lambda t: t.__name__)
def test_unary_0d_arrays_give_what_their_partial_on_0d_arrays_gives(f, x_dtype, dy_dtype):
    x, dy = np.array(0.625, x_dtype), np.array(1.375, dy_dtype)
    y, pullback = cr.rrule(f, x)
    assert type(y) is type(f(x)) and np.array_equal(y, f(x))
    dx = pullback(dy)[1]
    d = type(pullback).partial(x, y)  # the partial on the 0-d array itself
    reference = cr.ProjectTo(x)((np.conj(d) if np.iscomplexobj(x) else d) * dy)
    _assert_same_0d(dx, reference, np.result_type(x_dtype, dy_dtype))
    assert dx is not dy
    assert np.array_equal(x, np.array(0.625, x_dtype)) and np.array_equal(dy, 1.375)


# A one-input ufunc's rule computes a 0-d float64 array's value on its NumPy scalar (the same
# loop, without the 0-d array's way through the ufunc): the value must be the function's on the
# 0-d array, of its type and bit for bit, at ordinary and extreme points alike.

POINTS_0D = [
    *(0.0, -0.0, 0.625, -0.625, 1.0, -1.0, 3.5, -40.0),
    *(1e-300, 1e300, np.inf, -np.inf, np.nan),
]


def test_one_input_ufunc_rules_give_a_0d_arrays_value_bit_for_bit():
    ufuncs = [
        info.function
        for info in cr.registered_functions()
        if info.rrule and isinstance(info.function, np.ufunc) and info.function.nin == 1
    ]
    assert len(ufuncs) > 100  # NumPy's and scipy.special's
    compared = 0
    for f in ufuncs:
        for v in POINTS_0D:
            x = np.array(v)
            with np.errstate(all="ignore"):
                try:
                    expected = f(x)
                except TypeError:  # no float64 loop
                    break
                y = cr.rrule(f, x)[0]
            assert type(y) is type(expected), (f, v)
            assert np.asarray(y).tobytes() == np.asarray(expected).tobytes(), (f, v, y, expected)
            compared += 1
    assert compared > 1000


@pytest.mark.parametrize(("f", "v"), [(np.log, 0.0), (np.sqrt, -1.0), (np.arccosh, 0.5)])
def test_a_0d_arrays_floating_point_errors_are_the_functions(f, v):
    with np.errstate(all="raise"), pytest.raises(FloatingPointError):
        f(np.array(v))
    with np.errstate(all="raise"), pytest.raises(FloatingPointError):
        cr.rrule(f, np.array(v))
    with pytest.warns(RuntimeWarning):
        cr.rrule(f, np.array(v))


@pytest.mark.parametrize("f", BINARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    ("a_dtype", "b_dtype", "dy_dtype"),
    [
        (np.float64, np.float64, np.float64),
        (np.float32, np.float64, np.float32),
        (np.float32, np.float32, np.complex128),
        (np.complex128, np.float64, np.complex128),
    ],
    ids=lambda t: t.__name__,
)
def test_several_input_0d_arrays_give_what_their_partials_on_0d_arrays_give(
    f, a_dtype, b_dtype, dy_dtype
):
    if f in (np.arctan2, np.hypot) and np.dtype(a_dtype).kind == "c":
        pytest.skip(f"{f.__name__} takes no complex numbers")
    a, b, dy = np.array(0.625, a_dtype), np.array(1.75, b_dtype), np.array(1.375, dy_dtype)
    y, pullback = cr.rrule(f, a, b)
    assert np.array_equal(y, f(a, b))
    complex_case = np.iscomplexobj(a) or np.iscomplexobj(y)
    for c, arg, partial in zip(pullback(dy)[1:], (a, b), type(pullback).row, strict=True):
        d = partial(a, b, y)  # on the 0-d arrays themselves
        reference = cr.ProjectTo(arg)((np.conj(d) if complex_case else d) * dy)
        _assert_same_0d(c, reference, arg.dtype)
    assert np.array_equal(a, np.array(0.625, a_dtype)) and np.array_equal(dy, 1.375)


def test_0d_float64_pullbacks_take_any_cotangent():
    # A 0-d float64 array's pullback has a path of its own for a 0-d float64 cotangent; a zero,
    # a thunk, a float and an array of another shape take the general way, as before.
    x = np.array(0.5)
    _, pullback = cr.rrule(np.sin, x)
    expected = np.array(np.cos(0.5) * 2.0)
    for dy in (np.array(2.0), Thunk(lambda: np.array(2.0)), 2.0, np.float64(2.0)):
        dx = pullback(dy)[1]
        assert type(dx) is np.ndarray and dx.shape == () and dx.dtype == np.float64
        assert dx == expected
    assert pullback(cr.ZeroTangent())[1] == cr.ZeroTangent()
    with pytest.raises(cr.ChainRulesError, match=r"numpy\.sin"):
        pullback(np.ones(2))


@pytest.mark.parametrize("f", BINARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "b",
    [np.array(1.75), 1.75, np.float64(1.75), 3, np.array(1.75, np.float32), np.ones(2)],
    ids=lambda b: f"{type(b).__name__}{getattr(b, 'shape', '')}",
)
@pytest.mark.parametrize(
    "dy", [np.array(1.375), np.float64(1.375), 1.375], ids=lambda d: type(d).__name__
)
def test_0d_float64_arrays_beside_real_scalars_give_what_their_partials_give(f, b, dy):
    # A 0-d float64 array first, with a real scalar or another 0-d float64 array, takes a class
    # of its own per combination of types; the other combinations the general way. Either
    # way: the partials on the arguments themselves, times the cotangent, projected onto each
    # argument (values whose products are exact, so that any order of rounding agrees).
    a = np.array(0.625)
    y, pullback = cr.rrule(f, a, b)
    expected = f(a, b)
    assert type(y) is type(expected) and np.array_equal(y, expected, equal_nan=True)
    if np.shape(y):
        dy = np.broadcast_to(dy, np.shape(y))
    _assert_partials_times(pullback(dy)[1:], pullback, (a, b), y, dy)
    assert np.array_equal(a, 0.625) and np.all(dy == 1.375)


def _assert_partials_times(cotangents, pullback, args, y, dy):
    """Each cotangent (unthunked): its partial on ``args`` themselves times ``dy``, projected
    onto its argument, of the argument's type, shape and dtype; none for an integer."""
    for c, arg, partial in zip(cotangents, args, type(pullback).row, strict=True):
        c = cr.unthunk(c)
        if type(arg) is int:
            assert c is NO_TANGENT
            continue
        reference = cr.ProjectTo(arg)(partial(*args, y) * dy)
        assert type(c) is type(arg) and np.shape(c) == np.shape(arg)
        assert np.result_type(c) == np.result_type(arg)
        assert np.array_equal(c, reference, equal_nan=True)


def test_0d_float64_several_input_pullbacks_take_any_cotangent():
    # The class of 0-d float64 arrays takes a real cotangent straight through; a zero, a
    # thunk, another dtype and a complex number the general way, as before the class existed.
    _, pullback = cr.rrule(np.multiply, np.array(2.0), np.array(3.0))
    assert type(pullback).__mro__[1].__name__ == "_RealSingleOutputPullback"
    assert pullback(cr.ZeroTangent())[1:] == (cr.ZeroTangent(), cr.ZeroTangent())
    for dy in (Thunk(lambda: np.array(2.0)), np.array(2.0, np.float32), np.float32(2.0), 2.0):
        dx1, dx2 = pullback(dy)[1:]
        for c, value in ((dx1, 6.0), (dx2, 4.0)):
            assert type(c) is np.ndarray and c.dtype == np.float64 and c.shape == () and c == value
    assert pullback(1j)[1:] == (np.array(0.0), np.array(0.0))  # projected onto the reals
    with pytest.raises(cr.ChainRulesError, match=r"numpy\.multiply"):
        pullback(np.ones(3))


# ---- float64 arrays: a class per function ------------------------------------------------------


@pytest.mark.parametrize("f", UNARY_0D, ids=lambda f: f.__name__)
def test_unary_float64_arrays_give_what_their_partial_gives(f):
    # A float64 array with a float64 result takes a class of its own: a float64 cotangent of
    # the output's shape straight through; the others (float32, complex, a thunk, a zero, a
    # wrong shape) the general way. Cotangent values exact in float32 and float64 alike.
    x, dy = np.linspace(0.25, 0.75, 5), np.linspace(-1.0, 1.0, 5)
    y, pullback = cr.rrule(f, x)
    assert np.array_equal(y, f(x))
    assert type(pullback).__mro__[1].__name__ == "_RealArrayUnaryPullback"
    reference = type(pullback).partial(x, y) * dy
    for given in (dy, dy.astype(np.float32), dy + 0.5j, Thunk(lambda: dy)):
        dx = pullback(given)[1]
        assert type(dx) is np.ndarray and dx.dtype == np.float64 and dx.shape == x.shape
        assert np.array_equal(dx, reference)
    assert pullback(cr.ZeroTangent())[1] == cr.ZeroTangent()
    with pytest.raises(cr.ChainRulesError, match=rf"numpy\.{f.__name__}"):
        pullback(np.ones(3))
    assert np.array_equal(x, np.linspace(0.25, 0.75, 5)) and np.array_equal(dy[0], -1.0)


def _turned(x):
    return 2.0 * x


# a real function whose partial is written in complex numbers, not real at real points
scalar_rule(_turned, lambda x, y: (2.0 + 1.5j) + 0.0 * x)


def test_a_complex_partial_at_real_points_gives_its_real_part():
    # On float64 arrays the partial's product with the cotangent is complex; the cotangent of
    # the real argument is that product's real part, as projection makes it on every path.
    x, dy = np.linspace(0.25, 0.75, 5), np.linspace(-1.0, 1.0, 5)
    y, pullback = cr.rrule(_turned, x)
    assert np.array_equal(y, 2.0 * x) and type(pullback).__mro__[1].__name__ == (
        "_RealArrayUnaryPullback"
    )
    dx = pullback(dy)[1]
    assert type(dx) is np.ndarray and dx.dtype == np.float64 and dx.shape == x.shape
    assert np.array_equal(dx, 2.0 * dy)


ARRAY_PARTNERS = [
    np.linspace(-1.5, 1.75, 12).reshape(3, 4),  # the same shape
    np.linspace(0.5, 2.0, 4),  # broadcast along the first axis
    np.array([[0.5], [1.25], [2.0]]),  # and along the second
    np.array(1.75),  # a 0-d float64 array
    1.75,
    np.float64(-0.5),
    3,
    np.full(4, 1.5, np.float32),  # not float64: the general way
]


@pytest.mark.parametrize("f", BINARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("b", ARRAY_PARTNERS, ids=lambda b: f"{type(b).__name__}{np.shape(b)}")
@pytest.mark.parametrize("large", [False, True], ids=["numbers", "thunks"])
def test_float64_arrays_beside_real_scalars_give_what_their_partials_give(f, b, large):
    # A float64 array first, beside float64 arrays (broadcast or not) and real scalars, takes a
    # class of its own per combination of types. Each cotangent: the partial on the arguments
    # themselves times the cotangent, projected (un-broadcast) onto its argument, computed as
    # the general way computes it, so equal bit for bit; unthunked where the output is large.
    a = np.linspace(0.25, 3.0, 12).reshape(3, 4)
    if large:  # rows repeated until the output has LAZY_FROM elements
        reps = (LAZY_FROM // a.size + 1, 1)
        a, b = np.tile(a, reps), (np.tile(b, reps) if np.ndim(b) == 2 else b)
    y, pullback = cr.rrule(f, a, b)
    assert np.array_equal(y, f(a, b), equal_nan=True)
    general = np.result_type(b) != np.float64 or type(b) is int
    arrays_class = type(pullback).__mro__[1].__name__ == "_RealArraySingleOutputPullback"
    assert arrays_class or general
    dy = np.linspace(-2.0, 2.0, y.size).reshape(y.shape)
    cotangents = pullback(dy)[1:]
    if large:  # thunks, but for a cotangent that is dy itself (in the class of float64 arrays),
        # which costs nothing to give
        for c, arg in zip(cotangents, (a, b), strict=True):
            plus = f is np.add or (f is np.subtract and arg is a)  # a partial of 1
            free = plus and np.shape(arg) == y.shape and arrays_class
            assert c is dy if free else (c is NO_TANGENT or isinstance(c, Thunk))
    _assert_partials_times(cotangents, pullback, (a, b), y, dy)
    assert np.array_equal(dy[0, 0], -2.0) and np.array_equal(a[0, 0], 0.25)


def test_float64_array_several_input_pullbacks_take_any_cotangent():
    # The class of float64 arrays takes a float64 cotangent of the output's shape straight
    # through; a zero, a thunk, float32 and complex cotangents the general way, and a wrong
    # shape is refused naming the function. What an engine will not ask for is let go of.
    m, v = np.linspace(0.5, 3.0, 6).reshape(2, 3), np.array([0.5, 1.0, 2.0])
    _, pullback = cr.rrule(np.multiply, m, v)
    assert type(pullback).__mro__[1].__name__ == "_RealArraySingleOutputPullback"
    zeros = pullback(cr.ZeroTangent())[1:]
    assert all(isinstance(z, cr.ZeroTangent) for z in zeros)
    dy = np.full((2, 3), 2.0)
    expected = (dy * v, np.sum(dy * m, axis=0))
    for given in (dy, Thunk(lambda: dy), dy.astype(np.float32), dy + 0.25j):
        for c, reference in zip(pullback(given)[1:], expected, strict=True):
            assert type(c) is np.ndarray and c.dtype == np.float64
            assert np.array_equal(c, reference)
    with pytest.raises(cr.ChainRulesError, match=r"numpy\.multiply"):
        pullback(np.ones(3))
    pullback.needed((2,))  # v's cotangent only: m's partial (v) is let go of
    assert pullback.args[1] is None and pullback.args[0] is m
    dm, dv = pullback(dy)[1:]
    assert isinstance(dm, NotImplementedTangent) and np.array_equal(dv, expected[1])


def test_subtract_of_float64_arrays_negates_exactly():
    # The sign of a unit partial is applied after un-broadcasting: -sum(dy), exactly.
    m, v = np.ones((4, 3)), np.ones(3)
    dy = np.array([[0.1, 0.2, 0.3]] * 4)
    dm, dv = cr.rrule(np.subtract, m, v)[1](dy)[1:]
    assert np.array_equal(dm, dy) and np.array_equal(dv, -np.sum(dy, axis=0))
    dm, dv = cr.rrule(np.subtract, v, m)[1](dy)[1:]
    assert np.array_equal(dm, np.sum(dy, axis=0)) and np.array_equal(dv, -dy)


def test_float64_arrays_are_un_broadcast_as_planned_once_per_pair_of_shapes():
    # The rule decides which axes each argument's cotangent sums over, once per pair of shapes:
    # None for an argument of the output's shape (or a number), else its shape and the axes.
    m, v = np.linspace(0.5, 3.0, 12).reshape(3, 4), np.linspace(1.0, 2.0, 4)
    _, first = cr.rrule(np.multiply, m, v)
    _, again = cr.rrule(np.multiply, m + 1.0, v * 2.0)
    assert first.plan is again.plan and first.plan == (None, ((4,), (0,)))
    assert cr.rrule(np.multiply, m, m)[1].plan is None
    assert cr.rrule(np.multiply, m, 2.0)[1].plan is None
    column, row = np.linspace(1.0, 2.0, 3).reshape(3, 1), np.linspace(-1.0, 1.0, 4)
    _, both = cr.rrule(np.subtract, column, row)  # each argument broadcast
    assert both.plan == (((3, 1), (1,)), ((4,), (0,)))
    dy = np.linspace(-2.0, 2.0, 12).reshape(3, 4)
    d_column, d_row = both(dy)[1:]
    assert d_column.shape == (3, 1) and np.array_equal(d_column, np.sum(dy, axis=1, keepdims=True))
    assert d_row.shape == (4,) and np.array_equal(d_row, -np.sum(dy, axis=0))


def test_float64_arrays_whose_result_is_not_float64_take_the_general_way():
    # The class of float64 arrays is for float64 results: a function giving float32 of them
    # gets the general pullback, projected onto each float64 argument.
    from chainrules.core.several_input_rules import single_output_rrule

    def mul32(a, b):
        return np.multiply(a, b).astype(np.float32)

    rule = single_output_rrule(mul32, (lambda a, b, y: b, lambda a, b, y: a))
    m, v = np.linspace(0.5, 3.0, 6).reshape(2, 3), np.array([0.5, 1.0, 2.0])
    y, pullback = rule(m, v)
    assert y.dtype == np.float32 and np.array_equal(y, (m * v).astype(np.float32))
    assert "_RealArraySingleOutputPullback" not in [c.__name__ for c in type(pullback).__mro__]
    dm, dv = pullback(np.full((2, 3), 2.0, np.float32))[1:]
    assert dm.dtype == np.float64 and np.array_equal(dm, 2.0 * np.broadcast_to(v, (2, 3)))
    assert dv.dtype == np.float64 and np.array_equal(dv, np.sum(2.0 * m, axis=0))


def test_a_pair_of_float64_arrays_with_another_result_is_computed_once_after_the_first_call():
    # The pairs' way computes, finds a result that is not float64, and hands the call to the
    # general way, which computes again; it remembers, so that later calls compute once.
    from chainrules.core.several_input_rules import single_output_rrule

    calls = []

    def mul32(a, b):
        calls.append(1)
        return np.multiply(a, b).astype(np.float32)

    rule = single_output_rrule(mul32, (lambda a, b, y: b, lambda a, b, y: a))
    m, v = np.linspace(0.5, 3.0, 6).reshape(2, 3), np.array([0.5, 1.0, 2.0])
    first, _ = rule(m, v)
    assert len(calls) <= 2
    calls.clear()
    again, _ = rule(m, v)
    assert len(calls) == 1 and np.array_equal(first, again)


# frules on real arguments: floats, NumPy float64 scalars and arrays, with real tangents of
# their arguments' kinds or zeros, take a way of their own (scalar_frules._real) that skips
# the tangents' checks and the output's projector; a tangent wrapped in a thunk takes the
# general way. Both must give the same value and the same tangent, of the same type.
_V = np.linspace(0.1, 0.9, 5)
_REAL_FRULE_CALLS = {
    "sin(float)": (np.sin, (0.7,), (1.3,)),
    "sin(float64)": (np.sin, (np.float64(0.7),), (np.float64(1.3),)),
    "sin(array)": (np.sin, (_V,), (_V * 2.0,)),
    "sin(0-d array)": (np.sin, (np.array(0.7),), (np.array(1.3),)),
    "exp(array)": (np.exp, (_V,), (_V * 1.5,)),
    "multiply(array, float)": (np.multiply, (_V, 1.01), (_V, None)),
    "multiply(float, array)": (np.multiply, (1.01, _V), (cr.ZeroTangent(), _V)),
    "multiply(array, array)": (np.multiply, (_V, _V[::-1]), (_V, _V * 3.0)),
    "add(array, float)": (np.add, (_V, 0.1), (_V, cr.ZeroTangent())),
    "subtract(float, array)": (np.subtract, (0.1, _V), (0.5, _V)),
    "power(array, int)": (np.power, (_V, 3), (_V, cr.NoTangent())),
    "arctan2(float, float)": (np.arctan2, (0.3, -0.7), (1.0, 2.0)),
    "hypot(array, row broadcast)": (np.hypot, (_V[:, None], _V), (_V[:, None], _V)),
    "sqrt(-1.0), nan": (np.sqrt, (-1.0,), (1.0,)),
}


@pytest.mark.parametrize("name", list(_REAL_FRULE_CALLS))
def test_real_arguments_frule_gives_what_the_general_way_gives(name, monkeypatch):
    from chainrules.core import scalar_frules

    f, args, tangents = _REAL_FRULE_CALLS[name]
    wrapped = tuple(
        t if t is None or isinstance(t, cr.ZeroTangent | cr.NoTangent) else Thunk(lambda t=t: t)
        for t in tangents
    )
    with np.errstate(invalid="ignore"):
        general_y, general_dy = cr.frule((cr.NoTangent(), *wrapped), f, *args)
    projections = []
    fit = scalar_frules.fit_to_output
    monkeypatch.setattr(
        scalar_frules, "fit_to_output", lambda dy, y: projections.append(1) or fit(dy, y)
    )
    with np.errstate(invalid="ignore"):
        y, dy = cr.frule((cr.NoTangent(), *tangents), f, *args)
    assert type(y) is type(general_y) and np.array_equal(y, general_y, equal_nan=True)
    assert type(dy) is type(general_dy)
    assert np.array_equal(dy, general_dy, equal_nan=True)  # the same sums in the same order
    if name != "hypot(array, row broadcast)":  # a tangent to broadcast: projected on both ways
        assert not projections  # the real arguments' way was taken
