"""Walking primals: copies, perturbations, upcasts and differences, on cycles and aliases."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from chainrules_testing.primals import (
    copy_primal,
    first_difference,
    iter_leaf_tangents,
    iter_leaves,
    needs_upcast,
    perturb,
    upcast,
)
from chainrules_testing.tangents import rand_tangent
from harness_cases import linked_list

from chainrules import Tangent


@dataclass(frozen=True)
class Frozen:
    w: np.ndarray


class Node:
    def __init__(self, w):
        self.w = w
        self.next = self


def test_copy_primal_copies_arrays_and_keeps_aliasing():
    w = np.ones(2)
    x = {"a": w, "b": w, "t": (w, 1)}
    c = copy_primal(x)
    assert c["a"] is c["b"] is c["t"][0] and c["a"] is not w


def test_copy_primal_copies_cycles_and_closure_cells():
    node = Node(np.zeros(2))
    copied = copy_primal(node)
    assert copied.next is copied and copied.w is not node.w

    def make(a):
        return lambda: a

    f = make(np.zeros(1))
    assert copy_primal(f)() is not f()


def test_perturb_moves_along_the_tangent_leaf_by_leaf():
    x = (1.0, np.array([1.0, 2.0]), 3, Frozen(np.zeros(1)))
    dx = Tangent(tuple, 2.0, np.ones(2), None, Tangent(Frozen, w=np.ones(1)))
    moved = perturb(x, dx, 0.5)
    assert moved[0] == 2.0 and np.array_equal(moved[1], [1.5, 2.5]) and moved[2] == 3
    assert np.array_equal(moved[3].w, [0.5]) and np.array_equal(x[3].w, [0.0])


def test_perturb_keeps_cycles():
    node = Node(1.0)
    moved = perturb(node, None, 1.0)
    assert moved.next is moved and moved is not node


def test_perturb_keeps_numpy_scalar_types():
    assert type(perturb(np.float32(1.0), np.float32(1.0), 0.5)) is np.float32


def test_upcast_widens_narrow_floats():
    x = {"a": np.ones(2, dtype=np.float32), "b": np.complex64(1j), "c": np.ones(1)}
    wide = upcast(x)
    assert [wide[k].dtype for k in "abc"] == [np.float64, np.complex128, np.float64]
    assert needs_upcast(x) and not needs_upcast(wide)


def test_first_difference_names_the_path_and_element():
    a = {"w": [np.zeros((2, 2)), 1.0]}
    b = {"w": [np.array([[0.0, 0.0], [0.0, 1.0]]), 1.0]}
    assert first_difference(a, b, "args[0]") == "args[0]['w'][0][1, 1]"
    assert first_difference(a, copy_primal(a)) is None
    assert first_difference(np.array([np.nan]), np.array([np.nan])) is None
    assert first_difference(np.ones(1), np.ones(1, dtype=np.float32), "x") == "x"


def test_leaves_are_listed_with_paths_once_each():
    w = np.ones(1)
    x = Frozen(w)
    assert [p for p, _ in iter_leaves({"a": w, "b": x}, "y")] == ["y['a']"]


def test_leaf_tangents_can_follow_every_reference():
    w = np.ones(1)
    t = Tangent(tuple, 1.0, 2.0)
    once = [p for p, _, _ in iter_leaf_tangents((w, w), t, "x")]
    every = [part for _, _, part in iter_leaf_tangents((w, w), t, "x", every_reference=True)]
    assert once == ["x[0]"] and every == [1.0, 2.0]


def test_a_linked_list_of_a_thousand_nodes_is_walked_without_recursion():
    shared = np.ones(2)
    head = linked_list(1000, shared=shared)
    copied = copy_primal(head)
    moved = perturb(head, rand_tangent(head, rng=0), 0.5)
    assert first_difference(copied, head) is None
    for walked in (copied, moved, upcast(head)):
        last, length = walked, 1
        while last.next is not None:
            last, length = last.next, length + 1
        assert length == 1000 and last.value is walked.value  # aliasing kept
    assert copied.value is not shared and moved.next.value != head.next.value
    assert len(list(iter_leaves(head))) == 1000  # 999 floats, one shared array
