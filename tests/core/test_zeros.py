"""Tests for chainrules.core.zeros: zero_tangent of leaves, structures, cycles and aliases."""

import types

import numpy as np
import pytest
from primal_types import Frozen, Mutable, Point

from chainrules.core.tangents import MutableTangent, NoTangent, Tangent

N = NoTangent()


class Node:
    def __init__(self, value, next=None):
        self.value, self.next = value, next


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b


def zero_tangent(x):
    from chainrules.core.zeros import zero_tangent

    return zero_tangent(x)


# ---- leaves -----------------------------------------------------------------------------------

LEAF_ZEROS = [
    ("float", 2.5, 0.0),
    ("complex", 1 + 2j, 0j),
    ("float64 scalar", np.float64(3.0), np.float64(0.0)),
    ("float32 scalar", np.float32(3.0), np.float32(0.0)),
    ("complex64 scalar", np.complex64(1j), np.complex64(0)),
    ("float array", np.ones((2, 3)), np.zeros((2, 3))),
    ("float32 array", np.ones(4, dtype=np.float32), np.zeros(4, dtype=np.float32)),
    ("complex array", np.ones(2, dtype=np.complex128), np.zeros(2, dtype=np.complex128)),
    ("0-d array", np.array(1.0), np.array(0.0)),
]


@pytest.mark.parametrize(("name", "x", "expected"), LEAF_ZEROS, ids=[z[0] for z in LEAF_ZEROS])
def test_zero_of_a_differentiable_leaf(name, x, expected):
    z = zero_tangent(x)
    assert type(z) is type(expected)
    assert np.shape(z) == np.shape(expected)
    assert np.result_type(z) == np.result_type(expected)
    assert not np.any(z)
    assert z is not x


@pytest.mark.parametrize(
    "x",
    [
        1,
        True,
        "name",
        None,
        np.int64(2),
        np.bool_(True),
        np.arange(3),
        np.ones(2, dtype=bool),
        np.sin,
        len,
        b"bytes",
    ],
    ids=repr,
)
def test_no_tangent_for_leaves_without_a_tangent_space(x):
    assert zero_tangent(x) is N


# ---- structures -------------------------------------------------------------------------------


def make_closure(scale, count):
    def closure(x):
        return scale * x * count

    return closure


STRUCTURE_ZEROS = [
    ("tuple", (1.5, 2, "s"), Tangent(tuple, 0.0, N, N)),
    ("list", [1.0, np.ones(2)], MutableTangent(list, 0.0, np.zeros(2))),
    ("dict", {"w": 1.0, "n": 3}, MutableTangent(dict, {"w": 0.0, "n": N})),
    ("namedtuple", Point(1.0, 2), Tangent(Point, x=0.0, y=N)),
    ("dataclass", Mutable(1.0, 2), MutableTangent(Mutable, a=0.0, b=N)),
    ("frozen dataclass", Frozen(1.0, 2), Tangent(Frozen, a=0.0, b=N)),
    ("__dict__", Node(1j), MutableTangent(Node, value=0j, next=N)),
    ("__slots__", Slotted(np.float32(1), 2), MutableTangent(Slotted, a=np.float32(0), b=N)),
    ("closure", make_closure(2.0, 3), Tangent(types.FunctionType, scale=0.0, count=N)),
]


@pytest.mark.parametrize(
    ("name", "x", "expected"), STRUCTURE_ZEROS, ids=[s[0] for s in STRUCTURE_ZEROS]
)
def test_zero_of_a_structure(name, x, expected):
    z = zero_tangent(x)
    assert type(z) is type(expected)
    assert z.primal_type is expected.primal_type
    assert z == expected
    assert sorted(z.keys()) == sorted(expected.keys())


@pytest.mark.parametrize(
    "x",
    [(1, 2), [1, "a"], {"k": 3}, Point(1, 2), make_closure(1, 2), ()],
    ids=["int tuple", "list", "dict", "namedtuple", "int closure", "empty tuple"],
)
def test_structure_with_nothing_differentiable_has_no_tangent(x):
    assert zero_tangent(x) is N


def test_plain_function_has_no_tangent():
    def plain(x):
        return x

    assert zero_tangent(plain) is N


# ---- cycles -------------------------------------------------------------------------------------


def test_recursive_closure_gives_a_finite_answer():
    def make_power(scale):
        def power(x, n):
            return scale * x if n == 0 else power(x, n - 1)

        return power

    power = make_power(2.0)
    z = zero_tangent(power)
    assert set(z.keys()) == {"power", "scale"}
    assert z.scale == 0.0
    assert z.power is z  # the self-reference becomes a self-reference of the tangent
    assert repr(z) == "Tangent[function](power=Tangent[...], scale=0.0)"


def test_recursive_closure_over_integers_only():
    def make_countdown(step):
        def countdown(n):
            return n if n <= 0 else countdown(n - step)

        return countdown

    assert zero_tangent(make_countdown(1)) is N


def test_cyclic_object_graph():
    a = Node(1.0)
    b = Node(2.0, a)
    a.next = b
    z = zero_tangent(a)
    assert isinstance(z, MutableTangent)
    assert z.value == 0.0 and z.next.value == 0.0
    assert z.next.next is z


def test_list_that_contains_itself():
    items = [1.0]
    items.append(items)
    z = zero_tangent(items)
    assert z[0] == 0.0
    assert z[1] is z


def test_dict_that_contains_itself():
    d = {"w": np.ones(2)}
    d["self"] = d
    z = zero_tangent(d)
    np.testing.assert_array_equal(z["w"], [0.0, 0.0])
    assert z["self"] is z


DEPTH = 5000  # well past the interpreter's recursion limit


def zero_of_a_deep_chain(value):
    """``zero_tangent`` of DEPTH nodes holding ``value`` before a last one holding 1.0."""
    head = Node(1.0)
    for _ in range(DEPTH):
        head = Node(value, head)
    return zero_tangent(head)


def test_deep_chain_does_not_hit_the_recursion_limit():
    z = zero_of_a_deep_chain(1.0)
    for _ in range(DEPTH):
        z = z.next
    assert z.value == 0.0 and z.next is N


def test_deep_chain_with_one_float_at_its_end():
    z = zero_of_a_deep_chain(1)
    for _ in range(DEPTH):
        assert z.value is N
        z = z.next
    assert z.value == 0.0


def test_deeply_nested_lists():
    nested = [1.0]
    for _ in range(DEPTH):
        nested = [nested, 2]
    z = zero_tangent(nested)
    for _ in range(DEPTH):
        assert z[1] is N
        z = z[0]
    assert tuple(z) == (0.0,)


# ---- aliasing -----------------------------------------------------------------------------------


def test_one_array_held_twice_gets_one_tangent():
    shared = np.ones(3)
    z = zero_tangent((shared, shared, np.ones(3)))
    assert z[0] is z[1]
    assert z[0] is not z[2]
    np.testing.assert_array_equal(z[0], np.zeros(3))


def test_one_object_reached_from_two_fields_gets_one_tangent():
    shared = Node(1.0)
    z = zero_tangent({"left": shared, "right": [shared]})
    assert z["left"] is z["right"][0]
    assert isinstance(z["left"], MutableTangent)


def test_closure_and_container_sharing_an_array():
    weights = np.ones(2)
    closure = make_closure(weights, 1)
    z = zero_tangent((closure, weights))
    assert z[0].scale is z[1]


def test_separate_calls_give_separate_tangents():
    x = np.ones(2)
    assert zero_tangent(x) is not zero_tangent(x)


# ---- is_zero, vanishes, densify: one meaning each ------------------------------------------


def test_is_zero_is_by_type_and_vanishes_by_value():
    from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT
    from chainrules.core.zeros import is_zero, vanishes

    for zero in (ZERO_TANGENT, NO_TANGENT, None):
        assert is_zero(zero) and vanishes(zero)
    assert not is_zero(0.0) and vanishes(0.0)
    assert not is_zero(np.zeros(2)) and vanishes(np.zeros(2))
    assert not vanishes(np.array([0.0, 1e-300]))


def test_densify_and_float_zeros():
    from chainrules.core.tangents import ZERO_TANGENT
    from chainrules.core.zeros import densify, float_zeros

    dense = densify(ZERO_TANGENT, np.ones((2, 1), dtype=np.complex64))
    assert dense.shape == (2, 1) and dense.dtype == np.complex64 and not dense.any()
    assert densify(ZERO_TANGENT, [1, 2]).dtype == np.float64  # integers: float zeros
    t = np.ones(3)
    assert densify(t, np.ones(3)) is t
    assert float_zeros((2,), np.dtype(np.int32), 1.0).dtype == np.float64
