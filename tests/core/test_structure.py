"""Tests for chainrules.core.structure: decompose, rebuild, has_tangent_space, leaves."""

import math
import types

import numpy as np
import pytest
from primal_types import Frozen, Mutable, Point, WithDict, WithSlots

from chainrules.core.structure import (
    decompose,
    has_tangent_space,
    is_differentiable_leaf,
    rebuild,
)
from chainrules.core.tangents import ZeroTangent
from chainrules.core.thunks import Thunk


class SlotsChild(WithSlots):
    __slots__ = ("c",)

    def __init__(self, a, b, c):
        super().__init__(a, b)
        self.c = c


def make_closure(a, b):
    def closure():
        return a * b

    return closure


DECOMPOSITIONS = [
    ("tuple", (1.0, 2), "positional", tuple, ((0, 1.0), (1, 2)), False),
    ("list", [1.0], "positional", list, ((0, 1.0),), True),
    ("dict", {"k": 1.0}, "mapping", dict, (("k", 1.0),), True),
    ("namedtuple", Point(1.0, 2), "named", Point, (("x", 1.0), ("y", 2)), False),
    ("dataclass", Mutable(1.0, 2), "named", Mutable, (("a", 1.0), ("b", 2)), True),
    ("frozen dataclass", Frozen(1.0, 2), "named", Frozen, (("a", 1.0), ("b", 2)), False),
    ("__dict__", WithDict(1.0, 2), "named", WithDict, (("a", 1.0), ("b", 2)), True),
    ("__slots__", WithSlots(1.0, 2), "named", WithSlots, (("a", 1.0), ("b", 2)), True),
    ("inherited __slots__", SlotsChild(1.0, 2, 3.0), "named", SlotsChild,
     (("c", 3.0), ("a", 1.0), ("b", 2)), True),
    ("closure", make_closure(1.0, 2), "named", types.FunctionType, (("a", 1.0), ("b", 2)), False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "primal", "kind", "primal_type", "items", "mutable"),
    DECOMPOSITIONS,
    ids=[d[0] for d in DECOMPOSITIONS],
)
def test_decompose(name, primal, kind, primal_type, items, mutable):
    fields = decompose(primal)
    assert fields.kind == kind
    assert fields.primal_type is primal_type
    assert fields.items == items
    assert fields.mutable is mutable


LEAVES = [
    1.0, 1, True, 1j, "s", b"b", None, Ellipsis, slice(1), range(3), int, math, math.sin, np.sin,
    np.ones(2), np.float32(1), np.dtype("f8"), ZeroTangent(), Thunk(lambda: 1.0),
    (lambda: 1.0), [].append,
]  # fmt: skip


@pytest.mark.parametrize("leaf", LEAVES, ids=repr)
def test_leaves_have_no_fields(leaf):
    assert decompose(leaf) is None


def test_decompose_skips_an_unbound_cell():
    def outer():
        def inner():
            return later

        fields = decompose(inner)
        later = 1.0
        return fields, inner

    fields, inner = outer()
    assert fields.items == ()
    assert decompose(inner).items == (("later", 1.0),)


@pytest.mark.parametrize(
    ("leaf", "differentiable"),
    [
        (1.0, True),
        (1j, True),
        (1, False),
        (True, False),
        (np.float32(1.0), True),
        (np.int64(1), False),
        (np.ones(2), True),
        (np.ones(2, dtype=np.complex64), True),
        (np.ones(2, dtype=int), False),
        (np.ones(2, dtype=bool), False),
        ("s", False),
    ],
    ids=repr,
)
def test_is_differentiable_leaf(leaf, differentiable):
    assert is_differentiable_leaf(leaf) is differentiable


def test_has_tangent_space_walks_cycles():
    cyclic = [1, "a"]
    cyclic.append(cyclic)
    assert has_tangent_space(cyclic) is False
    cyclic.append((2, [3.5]))
    assert has_tangent_space(cyclic) is True


def test_has_tangent_space_memo_answers_for_the_whole_graph():
    inner = (1, 2)
    known = {}
    assert has_tangent_space([inner, "x"], known) is False
    assert known[id(inner)] is False


def test_has_tangent_space_answers_for_every_node_it_walks():
    leaf_owner = [2.5]
    cycle = [1, leaf_owner]
    cycle.append(cycle)
    dead_end = (1, "s")
    root = {"cycle": cycle, "dead": dead_end}
    known = {}
    assert has_tangent_space(root, known)
    assert known[id(root)] and known[id(cycle)] and known[id(leaf_owner)]
    assert not known[id(dead_end)] and not known[id("s")]


def test_has_tangent_space_trusts_earlier_answers():
    inner = (1.0,)
    known = {id(inner): False}
    assert not has_tangent_space([inner], known)
    assert not has_tangent_space(inner, known)


def test_has_tangent_space_of_a_deep_chain():
    head = (1.0,)
    for _ in range(5000):
        head = (1, head)
    known = {}
    assert has_tangent_space(head, known)
    assert all(known.values()) is False  # the integers have none
    assert sum(known.values()) == 5002  # every tuple and the float


REBUILDS = [
    ("tuple", (1.0, 2.0), {1: 5.0}, (1.0, 5.0)),
    ("list", [1.0, 2.0], {0: 5.0}, [5.0, 2.0]),
    ("dict", {"a": 1.0, "b": 2.0}, {"b": 5.0}, {"a": 1.0, "b": 5.0}),
    ("namedtuple", Point(1.0, 2.0), {"y": 5.0}, Point(1.0, 5.0)),
    ("frozen dataclass", Frozen(1.0, 2), {"a": 5.0}, Frozen(5.0, 2)),
    ("dataclass", Mutable(1.0, 2), {"a": 5.0}, Mutable(5.0, 2)),
]


@pytest.mark.parametrize(
    ("name", "primal", "values", "expected"), REBUILDS, ids=[r[0] for r in REBUILDS]
)
def test_rebuild_replaces_fields_and_leaves_the_primal(name, primal, values, expected):
    before = decompose(primal).items
    result = rebuild(primal, values)
    assert result == expected and type(result) is type(expected)
    assert decompose(primal).items == before


def test_rebuild_objects_with_dict_and_slots():
    for cls in (WithDict, WithSlots):
        primal = cls(1.0, 2)
        result = rebuild(primal, {"a": 5.0})
        assert (result.a, result.b) == (5.0, 2) and primal.a == 1.0


def test_rebuild_closure_swaps_cell_contents():
    closure = make_closure(3.0, 2.0)
    rebuilt = rebuild(closure, {"a": 10.0})
    assert rebuilt() == 20.0 and closure() == 6.0
    assert rebuilt.__name__ == closure.__name__


def test_rebuild_of_a_leaf_is_an_error():
    with pytest.raises(TypeError, match="float is a leaf"):
        rebuild(1.0, {})
