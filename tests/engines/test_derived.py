"""Integers computed from tracked floats: every route from them to float bits raises, in both modes.

Each route is a small fast exp in the style of Schraudolph: the float ``x / ln 2`` is shifted
into the exponent field of a float64 (as an int64), and the integer's bits are read back as a
float. Its derivative would come out silently zero; the engines must raise instead, naming
what happened. The integers stay usable as integers (indices, counts, integer arithmetic).
"""

import copy
import ctypes
import operator
import pickle
import struct

import numpy as np
import pytest

import chainrules as cr
from chainrules.engines import TrackingError, forward, hessian, reverse
from chainrules.engines.derived import DerivedIntegers

SCALE, BIAS = 2.0**52 / np.log(2.0), 1023 * 2.0**52


def exponent_bits(x, cast=lambda t: t.astype(np.int64)):
    return cast(x * SCALE + BIAS)


def through(route, cast=lambda t: t.astype(np.int64)):
    """A fast exp that reads the integers of ``exponent_bits`` as float bits by ``route``."""

    def fast_exp(x):
        return np.sum(route(exponent_bits(x, cast)))

    return fast_exp


def struct_of_int(k):
    return struct.unpack("d", struct.pack("q", int(k.ravel()[0])))[0]


def written_into(write):
    """A route that writes the integers into a plain int64 array, then reads its bits."""

    def route(k):
        a = np.zeros(k.shape, np.int64)
        write(a, k)
        return a.view(np.float64)

    return route


def store_element(a, k):
    a[0] = k[0]


def store_slice(a, k):
    a[:] = k


ROUTES = {
    "view": lambda k: k.view(np.float64),
    "tobytes": lambda k: np.frombuffer(k.tobytes(), np.float64),
    "bytes()": lambda k: np.frombuffer(bytes(k), np.float64),
    "bytearray()": lambda k: np.frombuffer(bytearray(k), np.float64),
    "np.frombuffer": lambda k: np.frombuffer(k, np.float64),
    "np.ndarray(buffer=)": lambda k: np.ndarray(k.shape, np.float64, buffer=k),
    "memoryview": lambda k: np.frombuffer(memoryview(k), np.float64),
    "ctypes.from_buffer": lambda k: ctypes.c_double.from_buffer(k).value,
    ".ctypes": lambda k: k.ctypes.data_as(ctypes.POINTER(ctypes.c_double))[0],
    ".data": lambda k: np.frombuffer(k.data, np.float64),
    "assigning .dtype": lambda k: setattr(k, "dtype", np.float64) or k,
    "getfield": lambda k: k.getfield(np.float64),
    "np.asarray": lambda k: np.asarray(k).view(np.float64),
    "np.array": lambda k: np.array(k).view(np.float64),
    "np.ascontiguousarray": lambda k: np.ascontiguousarray(k).view(np.float64),
    "np.where": lambda k: np.where(True, k, k).view(np.float64),
    "np.concatenate": lambda k: np.concatenate([k.ravel()]).view(np.float64),
    "as_strided": lambda k: np.lib.stride_tricks.as_strided(k, (1,), (8,)).view(np.float64),
    "astype(float) and back": lambda k: k.astype(np.float64).astype(np.int64).view(np.float64),
    "shift and or": lambda k: ((k >> 52) << 52 | (k & 1)).view(np.float64),
    "indexing": lambda k: k.ravel()[0].view(np.float64),
    "iteration": lambda k: np.array(list(k.ravel())).view(np.float64),
    ".flat": lambda k: k.flat[0].view(np.float64),
    ".tolist()": lambda k: np.array(k.tolist(), np.int64).view(np.float64),
    ".item()": lambda k: struct.unpack("d", struct.pack("q", k.ravel()[0].item()))[0],
    "int()": struct_of_int,
    "operator.index": lambda k: struct.unpack("d", struct.pack("q", k.ravel()[0]))[0],
    "copy.copy": lambda k: copy.copy(k).view(np.float64),
    "pickle": lambda k: pickle.loads(pickle.dumps(k)).view(np.float64),
    "a[0] = k": written_into(store_element),
    "a[:] = k": written_into(store_slice),
    "np.copyto": written_into(np.copyto),
    "out=": written_into(lambda a, k: np.add(k, 0, out=a)),
    "np.put": written_into(lambda a, k: np.put(a, [0, 1], k)),
    "ufunc.at": written_into(lambda a, k: np.add.at(a, [0, 1], k)),
    "np.full": lambda k: np.full(k.shape, k, dtype=np.int64).view(np.float64),
    "np.ma.array": lambda k: np.ma.array(k).view(np.float64),
    "np.matrix": lambda k: np.asmatrix(k).view(np.float64),
    "np.ctypeslib.as_ctypes": lambda k: np.frombuffer(np.ctypeslib.as_ctypes(k), np.float64),
}
# The message names what happened; on Python 3.11, which has no __buffer__, NumPy and ctypes
# refuse a value without a buffer in their own words, naming its type.
MESSAGE = r"integers computed from a tracked float|DerivedIntegers"


def differentiate(mode, f, x):
    if mode == "reverse":
        return reverse.grad(f)(x)
    if mode == "forward":
        return forward.jvp(f, (x,), (np.ones_like(x),))
    if mode == "reverse over reverse":
        return reverse.grad(lambda t: np.sum(reverse.grad(f)(t)))(x)
    return hessian(f)(x)  # forward over reverse


MODES = ["reverse", "forward", "reverse over reverse", "forward over reverse"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.asmatrix
@pytest.mark.parametrize("route", sorted(ROUTES))
def test_every_route_from_integers_to_float_bits_raises(route, mode):
    # NumPy asks for __array_interface__ expecting an AttributeError when there is none.
    expected = AttributeError if route == "np.ctypeslib.as_ctypes" else TypeError
    with pytest.raises(expected, match=MESSAGE):
        differentiate(mode, through(ROUTES[route]), np.array([0.5, 1.5]))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "cast",
    [
        lambda t: np.floor(t).astype(np.int64),
        lambda t: np.rint(t).astype(np.int64),
        lambda t: np.trunc(t).astype(np.int64),
        lambda t: (t // 1.0).astype(np.int64),
        lambda t: np.round(t).astype(np.uint64),
    ],
    ids=["floor", "rint", "trunc", "floor_divide", "round"],
)
def test_rounding_before_the_cast_is_caught_in_both_modes(cast, mode):
    # floor and rint have a zero derivative; their results stay tracked in both modes, so the
    # integers cast from them are marked in forward mode exactly as in reverse mode.
    with pytest.raises(TrackingError, match="integers computed from a tracked float"):
        differentiate(mode, through(ROUTES["view"], cast), np.array([0.5, 1.5]))


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_a_scalar_fast_exp_raises(mode):
    def fast_exp(x):
        return (x * SCALE + BIAS).astype(np.int64).view(np.float64) * 1.0

    with pytest.raises(TrackingError, match=r"\.view\(float64\)"):
        differentiate(mode, fast_exp, 0.5)


TRACKED_ROUTES = {
    "bytes()": lambda x: np.frombuffer(bytes(x), np.int64),
    "memoryview": lambda x: np.frombuffer(memoryview(x), np.int64),
    "np.frombuffer": lambda x: np.frombuffer(x, np.int64),
    "np.ndarray(buffer=)": lambda x: np.ndarray((2,), np.int64, buffer=x),
    "assigning .dtype": lambda x: setattr(x, "dtype", np.int64) or x,
    ".data": lambda x: np.frombuffer(x.data, np.int64),
    ".ctypes": lambda x: x.ctypes.data,
    "pickle": lambda x: np.frombuffer(pickle.dumps(x)[-16:], np.int64),
    "np.float64()": lambda x: np.float64(x[0]).view(np.int64),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("route", sorted(TRACKED_ROUTES))
def test_every_route_from_a_tracked_float_to_its_bits_raises(route, mode):
    def f(x):
        return np.sum(TRACKED_ROUTES[route](x) * 1.0)

    with pytest.raises(TypeError, match=r"tracked value|Tracked|Dual"):
        differentiate(mode, f, np.array([0.5, 1.5]))


def lookup(x):
    """Integers as integers: indices of tracked and plain arrays and of Python lists."""
    k = np.floor(x * 2.0).astype(np.int64)  # [1, 3]
    table = np.array([10.0, 20.0, 30.0, 40.0])
    coefficients = [1.0, 2.0, 3.0, 4.0]
    i = np.argmax(x)
    return x[i] * table[k][1] + x[k[0] - 1] * coefficients[k[1]] + np.sum(table[k[0] :] * x[0])


def test_integers_used_as_integers_keep_working():
    x = np.array([0.5, 1.5])
    expected = np.array([4.0 + 90.0, 40.0])  # d/dx of x1*40 + x0*4 + 90*x0
    assert np.allclose(reverse.grad(lookup)(x), expected)
    assert np.isclose(forward.jvp(lookup, (x,), (np.array([1.0, 0.0]),))[1], expected[0])
    assert np.isclose(forward.jvp(lookup, (x,), (np.array([0.0, 1.0]),))[1], expected[1])


def test_ignore_derivatives_gives_plain_integers_for_a_loop_count():
    def power(x):
        n = cr.ignore_derivatives(np.floor(x).astype(np.int64))
        y = 1.0
        for _ in range(int(n)):
            y = y * x
        return y

    assert reverse.grad(power)(3.5) == 3 * 3.5**2
    assert forward.jvp(power, (3.5,), (1.0,))[1] == 3 * 3.5**2


def test_a_loop_count_without_ignore_derivatives_says_what_to_do():
    def power(x):
        y = 1.0
        for _ in range(np.floor(x).astype(np.int64)):
            y = y * x
        return y

    with pytest.raises(TrackingError, match=r"operator\.index.*ignore_derivatives\(k\)"):
        reverse.grad(power)(3.5)


def test_arithmetic_keeps_the_mark_and_booleans_are_plain():
    seen = {}

    def f(x):
        k = x.astype(np.int64)
        seen["sum"], seen["float"], seen["mask"] = k.sum(), k * 0.5, k > 0
        seen["frexp"] = np.frexp(x)[1]
        return np.sum(x)

    reverse.grad(f)(np.array([1.5, 2.5]))
    assert isinstance(seen["sum"], DerivedIntegers)
    assert isinstance(seen["float"], DerivedIntegers)
    assert isinstance(seen["frexp"], DerivedIntegers)
    assert type(seen["mask"]) is np.ndarray


def test_results_leave_the_engine_as_plain_values():
    y, _ = forward.jvp(lambda x: (x * 2.0, np.argmax(x)), (np.ones(2),), (np.ones(2),))
    assert type(y[1]) is np.int64


@pytest.mark.parametrize(
    "f",
    [np.frompyfunc(lambda a: a * 2.0, 1, 1), np.vectorize(lambda a: a * 2.0, otypes=[object])],
    ids=["frompyfunc", "vectorize(otypes=object)"],
)
@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_python_object_results_raise_naming_the_function(f, mode):
    def g(x):
        return np.sum(f(x).astype(np.float64))

    with pytest.raises(TypeError, match=r"<lambda>.*Python objects|vectorize"):
        differentiate(mode, g, np.array([0.5, 1.5]))


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_vectorize_raises_naming_it(mode):
    f = np.vectorize(lambda a: a * 2.0)
    with pytest.raises(TypeError, match=r"vectorize"):
        differentiate(mode, lambda x: np.sum(f(x)), np.array([0.5, 1.5]))


def test_struct_and_operator_index_of_integers_raise():
    def f(x):
        k = x.astype(np.int64)
        operator.index(k[0])
        return x[0]

    with pytest.raises(TrackingError, match=r"operator\.index"):
        reverse.grad(f)(np.array([1.0, 2.0]))
