"""The stable sorting order by packed keys, and applying a permutation along an axis."""

import numpy as np
import pytest

from chainrules.rules.numpy import permutations
from chainrules.rules.numpy.permutations import Permutation, inverse_permutation, stable_order

RNG = np.random.default_rng(7)


@pytest.fixture(params=["packed", "by size"])
def packing(request, monkeypatch):
    """A test with packed keys and flat positions from 2 elements on, then with the size that
    chooses them."""
    if request.param == "packed":
        monkeypatch.setattr(permutations, "PACKED_FROM", 2)
    return request.param


def _normal(shape):
    return RNG.standard_normal(shape)


def _tied(shape):
    return np.round(RNG.standard_normal(shape), 1)


def _special(shape):
    """NaNs of both signs, zeros of both signs, infinities, among ordinary values."""
    x = RNG.standard_normal(shape)
    flat = x.reshape(-1)
    flat[::7], flat[::11], flat[::13] = np.nan, -0.0, 0.0
    flat[::17], flat[::19], flat[::23] = -np.inf, np.inf, -np.abs(np.nan)
    return x


def _dense_and_far(shape):
    """Neighbouring floats near 1 with a far value: float64 keys collide in their dropped bits."""
    x = 1.0 + np.arange(int(np.prod(shape))) * 2.0**-52
    x[::5] = -1e300
    RNG.shuffle(x)
    return x.reshape(shape)


DATA = [_normal, _tied, _special, _dense_and_far]
LAYOUTS = [((2,), 0), ((1000,), 0), ((9000,), 0), ((40, 30), 0), ((100, 90), 1), ((4, 5, 6), 1)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128], ids=str)
@pytest.mark.parametrize("data", DATA, ids=lambda f: f.__name__)
@pytest.mark.parametrize(("shape", "axis"), LAYOUTS, ids=str)
def test_stable_order_is_numpys_stable_argsort(shape, axis, data, dtype, packing):
    with np.errstate(invalid="ignore", over="ignore"):
        x = data(shape).astype(dtype)
    expected = np.argsort(x, axis=axis, kind="stable")
    order, ordered = stable_order(x, axis)
    np.testing.assert_array_equal(order, expected)
    taken = np.take_along_axis(x, expected, axis=axis)
    assert ordered.tobytes() == taken.tobytes()  # bit for bit: -0.0 and each NaN where it was


def test_non_contiguous_input(packing):
    x = _special((30, 40))[::2, ::-3]
    order, ordered = stable_order(x, 0)
    np.testing.assert_array_equal(order, np.argsort(x, axis=0, kind="stable"))
    assert ordered.tobytes() == np.take_along_axis(x, order, axis=0).tobytes()


def _collision():
    """1 + 2**-52 before 1, with keys spanning the whole range: their packed keys agree."""
    return np.array([1.0 + 2.0**-52, 1.0, -1e300, 1e300, 1.0 + 2.0**-52, 1.0])


def test_keys_that_collide_are_put_right(monkeypatch):
    monkeypatch.setattr(permutations, "PACKED_FROM", 2)
    untangled = []
    untangle = permutations._untangle
    monkeypatch.setattr(
        permutations, "_untangle", lambda *args: untangled.append(args) or untangle(*args)
    )
    x = _collision()
    order, _ = stable_order(x, 0)
    assert untangled  # the packed sort left 1 + 2**-52 before 1: the case this test is about
    np.testing.assert_array_equal(order, [2, 1, 5, 0, 4, 3])


def test_many_collisions_fall_back_to_one_stable_argsort(monkeypatch):
    monkeypatch.setattr(permutations, "PACKED_FROM", 2)
    monkeypatch.setattr(permutations, "_UNTANGLE_AT_MOST", 0)
    for x, axis in [
        (_collision(), 0),
        (_dense_and_far((40, 30)), 1),
        (_dense_and_far((40, 30)), 0),
    ]:
        order, _ = stable_order(x, axis)
        np.testing.assert_array_equal(order, np.argsort(x, axis=axis, kind="stable"))


@pytest.mark.parametrize(
    ("shape", "axis"), [((7,), 0), ((3, 4, 5), 0), ((3, 4, 5), 1), ((3, 4, 5), 2)]
)
def test_scatter_undoes_gather(shape, axis, packing):
    order = np.argsort(_normal(shape), axis=axis)
    permutation = Permutation(order, axis, False, shape)
    v = _normal(shape)
    gathered = permutation.gather(v)
    np.testing.assert_array_equal(gathered, np.take_along_axis(v, order, axis=axis))
    np.testing.assert_array_equal(permutation.scatter(gathered), v)
    np.testing.assert_array_equal(permutation.scatter(gathered[..., ::1].T.T), v)  # any layout


def test_a_flattened_permutation_keeps_the_shape(packing):
    x = _normal((3, 4))
    order, _ = stable_order(x.reshape(-1), 0)
    permutation = Permutation(order, 0, True, x.shape)
    np.testing.assert_array_equal(permutation.gather(x), np.sort(x, axis=None))
    np.testing.assert_array_equal(permutation.scatter(permutation.gather(x)), x)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_inverse_permutation(axis):
    order = np.argsort(_normal((3, 4, 5)), axis=axis)
    inverse = inverse_permutation(order, axis)
    assert np.array_equal(
        np.take_along_axis(order, inverse, axis=axis),
        np.broadcast_to(
            np.arange(order.shape[axis]).reshape([-1 if i == axis else 1 for i in range(3)]),
            order.shape,
        ),
    )
