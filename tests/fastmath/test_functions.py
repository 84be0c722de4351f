"""The public fast functions: values at hard points, dtypes, shapes, reductions, dispatch."""

import math

import numpy as np
import pytest
import scipy.special as sc

from chainrules import fastmath
from chainrules.fastmath.accuracy import ACCURACY
from chainrules.fastmath.functions import EXACT, KERNEL_FUNCTIONS

F32, F64 = np.float32, np.float64
INF, NAN = np.inf, np.nan
ELEMENTWISE = [n for n in EXACT if n not in ("pow", "softmax", "log_softmax", "logsumexp")]

# name, input, exact expected output (float32 and float64 alike)
HARD_POINTS = [
    ("exp", [0.0, NAN, INF, -INF, 1000.0, -1000.0], [1.0, NAN, INF, 0.0, INF, 0.0]),
    ("expm1", [0.0, NAN, INF, -INF, -1000.0], [0.0, NAN, INF, -1.0, -1.0]),
    ("sqrt", [0.0, 4.0, INF, -1.0, NAN], [0.0, 2.0, INF, NAN, NAN]),
    ("rsqrt", [0.0, 4.0, INF, 1.0], [INF, 0.5, 0.0, 1.0]),
    ("tanh", [0.0, NAN, INF, -INF, 50.0], [0.0, NAN, 1.0, -1.0, 1.0]),
    ("sigmoid", [0.0, NAN, INF, -INF], [0.5, NAN, 1.0, 0.0]),
    ("softplus", [NAN, INF, -INF], [NAN, INF, 0.0]),
    ("gelu", [0.0, NAN, INF, -INF], [0.0, NAN, INF, 0.0]),
    ("erf", [0.0, NAN, INF, -INF, 10.0], [0.0, NAN, 1.0, -1.0, 1.0]),
    ("log", [0.0, 1.0, INF, -1.0, NAN], [-INF, 0.0, INF, NAN, NAN]),
    ("log2", [0.0, 1.0, 8.0, INF, -1.0], [-INF, 0.0, 3.0, INF, NAN]),
    ("log1p", [0.0, -1.0, INF, -2.0], [0.0, -INF, INF, NAN]),
    ("exp2", [0.0, 3.0, INF, -INF], [1.0, 8.0, INF, 0.0]),
]


@pytest.mark.parametrize("dtype", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize(("name", "x", "expected"), HARD_POINTS, ids=[r[0] for r in HARD_POINTS])
def test_hard_points_are_exact(name, x, expected, dtype, every_choice):
    f = getattr(fastmath, name)
    with np.errstate(all="ignore"):
        y = f(np.array(x, dtype))
    assert y.dtype == dtype
    np.testing.assert_array_equal(y, np.array(expected, dtype))


@pytest.mark.parametrize(
    ("x", "p", "expected"),
    [
        (0.0, 2.0, 0.0),
        (0.0, -1.0, INF),
        (0.0, 0.0, 1.0),
        (NAN, 0.0, 1.0),
        (1.0, INF, 1.0),
        (4.0, 0.5, 2.0),
        (-1.0, 2.0, NAN),
    ],
)
def test_pow_kernel_hard_points(x, p, expected):
    for dtype in (F32, F64):
        with np.errstate(all="ignore"):
            y = KERNEL_FUNCTIONS["pow"](np.array([x, x], dtype), np.array([p, p], dtype))
        np.testing.assert_allclose(y, [expected, expected], rtol=1e-6 if dtype is F32 else 1e-15)


@pytest.mark.parametrize("name", ELEMENTWISE)
@pytest.mark.parametrize(
    ("x", "dtype"),
    [(0.5, F64), (np.float32(0.5), F32), (np.full((2, 3), 0.5, F32), F32), (np.arange(1, 4), F64)],
    ids=["float", "float32-scalar", "float32-2d", "int"],
)
def test_dtype_and_shape_follow_numpy(name, x, dtype, every_choice):
    y = getattr(fastmath, name)(x)
    twin = EXACT[name](np.asarray(x, dtype))
    assert y.dtype == dtype and np.shape(y) == np.shape(twin)
    assert isinstance(y, np.ndarray) == isinstance(twin, np.ndarray)


def test_noncontiguous_input_and_broadcasting_pow(every_choice):
    x = np.linspace(0.1, 2.0, 12).reshape(3, 4)[:, ::2]
    np.testing.assert_allclose(fastmath.exp(x), np.exp(x), rtol=1e-14)
    y = fastmath.pow(x, np.array([2.0, 3.0], F32))
    assert y.dtype == F64
    np.testing.assert_allclose(y, x ** np.array([2.0, 3.0]), rtol=1e-14)
    assert fastmath.pow(np.float32(2.0), 3.0).dtype == F32


def test_complex_input_is_refused():
    with pytest.raises(TypeError, match=r"fastmath\.exp takes real input"):
        fastmath.exp(np.array([1j]))


REDUCTIONS = [
    (fastmath.softmax, sc.softmax, {}),
    (fastmath.log_softmax, sc.log_softmax, {}),
    (fastmath.logsumexp, sc.logsumexp, {}),
    (fastmath.logsumexp, sc.logsumexp, {"keepdims": True}),
]


@pytest.mark.parametrize("dtype", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize(("fast", "twin", "kwargs"), REDUCTIONS, ids=lambda v: str(v)[:24])
def test_reductions_match_their_twins(fast, twin, kwargs, axis, dtype, every_choice):
    x = np.random.default_rng(1).normal(size=(3, 5)).astype(dtype) * 4
    y, expected = fast(x, axis=axis, **kwargs), twin(x, axis=axis, **kwargs)
    assert np.shape(y) == np.shape(expected) and y.dtype == expected.dtype
    np.testing.assert_allclose(y, expected, rtol=3e-6 if dtype is F32 else 1e-14, atol=1e-7)


def test_reductions_of_infinite_rows_follow_scipy(every_choice):
    x = np.array([[-INF, -INF], [0.0, -INF]])
    np.testing.assert_array_equal(fastmath.logsumexp(x, axis=1), [-INF, 0.0])
    np.testing.assert_array_equal(fastmath.softmax(x[1:], axis=1), [[1.0, 0.0]])


def test_empty_and_zero_dimensional_inputs_use_the_twin(every_choice):
    assert fastmath.logsumexp(np.float64(2.0)) == 2.0
    assert fastmath.softmax(np.zeros((0, 3)), axis=1).shape == (0, 3)


class Wrapped:
    """A foreign array that takes NumPy's calls through ``__array_function__``."""

    def __init__(self, value):
        self.value = value

    def __array_function__(self, func, types, args, kwargs):
        return ("dispatched", func, kwargs)


@pytest.mark.parametrize(
    ("f", "args", "kwargs"),
    [(fastmath.exp, (), {}), (fastmath.pow, (2.0,), {}), (fastmath.softmax, (), {"axis": 0})],
)
def test_foreign_arrays_receive_the_call(f, args, kwargs):
    assert f(Wrapped(1.0), *args, **kwargs) == ("dispatched", f, kwargs)


def test_gelu_is_the_tanh_form(every_choice):
    x = np.array([-3.0, -0.5, 0.7, 2.0])
    z = math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)
    np.testing.assert_allclose(fastmath.gelu(x), 0.5 * x * (1 + np.tanh(z)), rtol=1e-13)


class Subclass(np.ndarray):
    pass


@pytest.mark.parametrize(
    "x", [[0.0, 1.0], np.array([0.0, 1.0]).view(Subclass)], ids=["list", "ndarray-subclass"]
)
def test_lists_and_ndarray_subclasses_compute_as_arrays(x, every_choice):
    exp_bound, softmax_bound = ACCURACY["exp"][F64], ACCURACY["softmax"][F64]
    np.testing.assert_allclose(fastmath.exp(x), np.exp([0.0, 1.0]), rtol=exp_bound.max_relative)
    y = fastmath.softmax(x)
    np.testing.assert_allclose(y, sc.softmax([0.0, 1.0]), rtol=softmax_bound.max_relative)
