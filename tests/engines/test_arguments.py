"""Structured arguments: tuples, dicts, dataclasses, closures, aliasing and cycles."""

import dataclasses
import sys
from collections import namedtuple

import numpy as np

import chainrules as cr
from chainrules.engines import forward, reverse

Point = namedtuple("Point", "x y")


@dataclasses.dataclass(frozen=True)
class Params:
    w: np.ndarray
    b: float
    name: str = "layer"


def test_tuple_cotangent_is_a_tangent():
    g = reverse.grad(lambda t: t[0] * t[1])((2.0, 3.0))
    assert g == cr.Tangent(tuple, 3.0, 2.0)


def test_namedtuple_and_dict():
    assert reverse.grad(lambda p: p.x * p.y)(Point(2.0, 3.0)) == cr.Tangent(Point, x=3.0, y=2.0)
    g = reverse.grad(lambda d: d["a"] * 2.0)({"a": 1.0, "n": 3})
    assert g["a"] == 2.0 and g["n"] == cr.NoTangent()


def test_dataclass_with_non_differentiable_field():
    p = Params(np.array([1.0, 2.0]), 0.5)
    g = reverse.grad(lambda p: np.sum(p.w * p.b))(p)
    assert isinstance(g, cr.Tangent) and g.primal_type is Params
    assert np.allclose(g.w, 0.5) and g.b == 3.0 and g.name == cr.NoTangent()


def test_unused_argument_gets_a_zero_of_its_type():
    g = reverse.grad(lambda x, y: x * 2.0, argnums=(0, 1))(1.0, np.ones(2))
    assert g[0] == 2.0 and np.array_equal(g[1], np.zeros(2))


def test_integer_argument_has_no_tangent():
    assert reverse.grad(lambda x, n: x * n, argnums=1)(2.0, 3) == cr.NoTangent()


def test_one_array_twice_in_a_structure_gets_the_total_derivative_in_both_places():
    a = np.array([1.0, 2.0])
    g = reverse.grad(lambda t: np.sum(t[0] * 3.0 + t[1] * 5.0))((a, a))
    # One array, one variable: both places hold the same total derivative object.
    assert np.allclose(g[0], 8.0) and g[0] is g[1]


def test_equal_floats_in_a_structure_are_separate_leaves():
    v = 1.5
    g = reverse.grad(lambda t: t[0] * 3.0 + t[1] * 5.0)((v, v))
    assert g == cr.Tangent(tuple, 3.0, 5.0)


def test_same_array_as_two_arguments_is_two_variables():
    a = np.array([1.0, 2.0])
    g = reverse.grad(lambda x, y: np.sum(x * 3.0 + y * 5.0), argnums=(0, 1))(a, a)
    assert np.allclose(g[0], 3.0) and np.allclose(g[1], 5.0)


def make_model(w):
    def model(x):
        return np.sum(np.tanh(w * x))

    return model


def make_recursive(w):
    def power(x, n):
        return x if n == 0 else power(w * x, n - 1)  # refers to itself through its cell

    return power


def test_closure_captured_arrays():
    w = np.array([0.1, 0.2])
    g = reverse.grad(lambda m: m(2.0))(make_model(w))
    assert np.allclose(g.w, 2.0 * (1 - np.tanh(2.0 * w) ** 2))


def test_recursive_closure_gives_a_finite_answer():
    power = make_recursive(2.0)
    g = reverse.grad(lambda f: f(3.0, 3))(power)
    # w**3 * x: d/dw = 3 w**2 x = 36; the tangent of `power` holds itself (a cycle).
    assert g.w == 36.0
    assert g.power is g


def test_forward_mode_with_structured_tangents():
    y, dy = forward.jvp(lambda p: p.x * p.y, (Point(2.0, 3.0),), (cr.Tangent(Point, x=1.0, y=0.0),))
    assert (y, dy) == (6.0, 3.0)


def test_structured_result_tangent():
    y, dy = forward.jvp(lambda x: (x * 2.0, "label"), (1.0,), (1.0,))
    assert y == (2.0, "label") and dy == cr.Tangent(tuple, 2.0, cr.NoTangent())


def test_recursive_closure_over_an_array():
    w = np.array([0.5, 2.0])
    g = reverse.grad(lambda f: np.sum(f(np.array([1.0, 3.0]), 3)))(make_recursive(w))
    assert np.allclose(g.w, 3 * w**2 * np.array([1.0, 3.0]))
    assert g.power is g


@dataclasses.dataclass
class Node:
    value: float
    next: "Node | None" = None


LENGTH = 2 * sys.getrecursionlimit()  # deeper than any recursive walk could go


def linked_list(length=LENGTH):
    head = None
    for i in range(length):
        head = Node(float(i), head)
    return head


def total(node):
    s = 0.0
    while node is not None:
        s = s + node.value * node.value
        node = node.next
    return s


def values_of(tangent):
    values = []
    while isinstance(tangent, cr.MutableTangent | cr.Tangent):
        values.append(tangent.value)
        tangent = tangent.next
    return values


def test_a_long_linked_list_is_walked_with_a_work_list_in_reverse_mode():
    head = linked_list()
    g = reverse.grad(total)(head)
    assert values_of(g) == [2.0 * i for i in reversed(range(LENGTH))]
    y, g = reverse.value_and_grad(total)(head)
    assert y == sum(float(i) ** 2 for i in range(LENGTH))


def test_a_long_linked_list_is_walked_with_a_work_list_in_forward_mode():
    head = linked_list()
    tangent = cr.NoTangent()
    for _ in range(LENGTH):
        tangent = cr.Tangent(Node, value=1.0, next=tangent)
    _, dy = forward.jvp(total, (head,), (tangent,))
    assert dy == sum(2.0 * i for i in range(LENGTH))


def test_a_long_linked_list_as_a_result():
    head = linked_list()
    y, _ = reverse.vjp(lambda h: h, head)
    assert y.value == head.value and y is not head
    node, n = y, 0
    while node is not None:
        node, n = node.next, n + 1
    assert n == LENGTH


def test_a_long_linked_list_twice_differentiated():
    head = linked_list()
    second = reverse.grad(lambda h: reverse.grad(total)(h).value * h.value)(head)
    assert second.value == 4.0 * head.value
