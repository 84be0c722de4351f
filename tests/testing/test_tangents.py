"""rand_tangent over every kind of primal, cycles and aliasing; with_tangent; inner."""

from __future__ import annotations

import types
from collections import namedtuple
from dataclasses import dataclass

import numpy as np
import pytest
from chainrules_testing import rand_tangent, with_tangent
from chainrules_testing.tangents import abs_inner, copy_tangent, inner
from harness_cases import linked_list

from chainrules import MutableTangent, NoTangent, Tangent, ZeroTangent

Pair = namedtuple("Pair", "a b")


@dataclass(frozen=True)
class Frozen:
    w: np.ndarray
    n: int


@dataclass
class Mutable:
    w: float


class Plain:
    def __init__(self, w):
        self.w = w


class Slotted:
    __slots__ = ("w",)

    def __init__(self, w):
        self.w = w


def _closure(a):
    return lambda x: a * x


LEAVES = [
    # primal                                      expected type / dtype
    (1.5, float),
    (1 + 2j, complex),
    (np.float32(1.0), np.float32),
    (np.complex64(1j), np.complex64),
    *[(np.ones((2, 3), dtype=d), np.dtype(d)) for d in ("f2", "f4", "f8", "c8", "c16")],
]


@pytest.mark.parametrize(("x", "kind"), LEAVES, ids=repr)
def test_leaves_keep_their_type_shape_and_dtype(x, kind):
    t = rand_tangent(x, rng=0)
    if isinstance(kind, np.dtype):
        assert (t.shape, t.dtype) == (x.shape, kind)
        if kind.kind == "c":
            assert np.all(t.imag != 0)
    else:
        assert type(t) is kind


@pytest.mark.parametrize("x", [3, True, "name", np.arange(3), None, np.array([True])])
def test_values_without_a_tangent_space_give_no_tangent(x):
    assert rand_tangent(x, rng=0) is NoTangent()


STRUCTURES = [
    # primal                                       tangent type   its primal type  fields
    ((1.0, 2), Tangent, tuple, [0, 1]),
    ([1.0, np.ones(2)], MutableTangent, list, [0, 1]),
    ({"a": 1.0, "n": 3}, MutableTangent, dict, ["a", "n"]),
    (Pair(1.0, np.ones(2)), Tangent, Pair, ["a", "b"]),
    (Frozen(np.ones(2), 3), Tangent, Frozen, ["w", "n"]),
    (Mutable(2.0), MutableTangent, Mutable, ["w"]),
    (Plain(2.0), MutableTangent, Plain, ["w"]),
    (Slotted(2.0), MutableTangent, Slotted, ["w"]),
    (_closure(2.0), Tangent, types.FunctionType, ["a"]),
]


@pytest.mark.parametrize(("x", "cls", "primal_type", "keys"), STRUCTURES, ids=repr)
def test_structures_give_structural_tangents(x, cls, primal_type, keys):
    t = rand_tangent(x, rng=0)
    assert type(t) is cls and t.primal_type is primal_type
    assert list(t.keys()) == keys


def test_integer_fields_get_no_tangent():
    t = rand_tangent(Frozen(np.ones(2), 3), rng=0)
    assert t.n is NoTangent() and t.w.shape == (2,)


def test_a_self_referencing_list_ends():
    x = [1.0]
    x.append(x)
    t = rand_tangent(x, rng=0)
    assert t[1] is t


def test_an_object_cycle_ends():
    a, b = Plain(1.0), Plain(2.0)
    a.w, b.w = b, a
    a.v = 0.5
    t = rand_tangent(a, rng=0)
    assert t.w.w is t and isinstance(t.v, float)


def test_a_recursive_closure_ends():
    def outer(scale):
        def f(n):
            return scale if n == 0 else f(n - 1)

        return f

    f = outer(1.5)
    t = rand_tangent(f, rng=0)
    assert t.f is t and isinstance(t.scale, float)


def test_a_linked_list_of_a_thousand_nodes_gets_a_tangent_without_recursion():
    head = linked_list(1000)
    t = rand_tangent(head, rng=0)
    length = 0
    while isinstance(t, Tangent):
        assert isinstance(t.value, float)
        t, length = t.next, length + 1
    assert length == 1000 and t is NoTangent()  # the last node's next is None


def test_a_linked_list_keeps_its_aliasing_and_the_seed_its_draw():
    shared = np.ones(2)
    head = linked_list(1000, shared=shared)
    t = rand_tangent(head, rng=3)
    last = t
    while isinstance(last.next, Tangent):
        last = last.next
    assert last.value is t.value and t.value.shape == (2,)
    again = rand_tangent(linked_list(1000, shared=np.ones(2)), rng=3)
    assert np.array_equal(again.value, t.value) and again.next.value == t.next.value


def test_a_deep_tangent_is_copied_without_recursion():
    t = rand_tangent(linked_list(1000), rng=0)
    c = copy_tangent(t)
    assert c is not t and c.next.next.value == t.next.next.value


def test_inner_products_neither_overflow_nor_underflow_inside():
    big = np.array([1e300, 1e300])
    assert inner(big, np.array([1e8, -1e8 + 1.0])) == pytest.approx(1e300, rel=1e-6)
    tiny = np.array([4e-322, 4e-322])
    assert inner(tiny, np.array([0.3, 0.3])) == pytest.approx(0.6 * 4e-322, rel=0.05)
    assert inner(big, np.ones(2), -1000) == pytest.approx(2e300 * 2.0**-1000, rel=1e-12)
    assert inner(np.array([1e308]), np.array([10.0])) == np.inf  # a result beyond the range


def test_aliased_arrays_share_one_tangent():
    w = np.ones(3)
    t = rand_tangent({"a": w, "b": w, "c": np.ones(3)}, rng=0)
    assert t["a"] is t["b"] and t["a"] is not t["c"]


def test_the_seed_fixes_the_draw():
    x = {"a": np.ones(4), "b": (1.0, 2j)}
    first, second = rand_tangent(x, rng=7), rand_tangent(x, rng=7)
    assert np.array_equal(first["a"], second["a"]) and first["b"] == second["b"]
    assert not np.array_equal(first["a"], rand_tangent(x, rng=8)["a"])


def test_with_tangent_supplies_the_tangent():
    dx = np.zeros(2)
    assert rand_tangent(with_tangent(np.ones(2), dx), rng=0) is dx
    assert with_tangent(1.0, NoTangent()).tangent is NoTangent()


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (np.array([1.0, 2.0]), np.array([3.0, 4.0]), 11.0),
        (1j, 1j, 1.0),
        (np.array([1 + 1j]), np.array([1 - 1j]), 0.0),
        (Tangent(tuple, 1.0, ZeroTangent()), Tangent(tuple, 2.0, 5.0), 2.0),
        (NoTangent(), np.ones(3), 0.0),
        (np.ones(2, dtype=np.float32), np.ones(2), 2.0),
    ],
)
def test_inner_is_the_real_inner_product(a, b, expected):
    assert inner(a, b) == expected


def test_abs_inner_bounds_inner():
    a, b = np.array([1.0, -2.0]), np.array([3.0, 4.0])
    assert (inner(a, b), abs_inner(a, b)) == (-5.0, 11.0)


def test_copy_tangent_copies_arrays_and_keeps_cycles():
    t = MutableTangent(Plain, w=np.ones(2))
    t.me = t
    c = copy_tangent(t)
    assert c.me is c and c.w is not t.w and np.array_equal(c.w, t.w)
