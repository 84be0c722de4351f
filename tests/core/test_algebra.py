"""Tests for chainrules.core.algebra: add, add_, tangents_equal, and the algebra's properties."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from chainrules.core.algebra import add, add_, tangents_equal
from chainrules.core.tangents import (
    MutableTangent,
    NoTangent,
    NotImplementedTangent,
    Tangent,
    ZeroTangent,
    not_implemented,
)
from chainrules.core.thunks import InplaceableThunk, Thunk, unthunk

Z, N = ZeroTangent(), NoTangent()


@dataclasses.dataclass
class Box:
    a: float
    b: float


@dataclasses.dataclass
class Other:
    a: float


# ---- add ----------------------------------------------------------------------------------------

ADD_TABLE = [
    ("zero + array", Z, np.array([1.0]), np.array([1.0])),
    ("array + zero", np.array([1.0]), N, np.array([1.0])),
    ("Z + N", Z, N, N),
    ("N + Z", N, Z, N),
    ("float + float", 1.5, 2.0, 3.5),
    ("float + array", 1.0, np.array([1.0, 2.0]), np.array([2.0, 3.0])),
    ("complex + float", 1j, 2.0, 2 + 1j),
    ("thunk + float", Thunk(lambda: 2.0), 1.0, 3.0),
    ("float + thunk", 1.0, Thunk(lambda: 2.0), 3.0),
    ("thunk + thunk", Thunk(lambda: 2.0), Thunk(lambda: 5.0), 7.0),
    ("tuple + tuple", (1.0, 2.0), (3.0, Z), (4.0, 2.0)),
    ("list + list", [1.0], [2.0], [3.0]),
    ("Tangent + Tangent", Tangent(tuple, 1.0, 2.0), Tangent(tuple, 1.0, 1.0),
     Tangent(tuple, 2.0, 3.0)),
    ("named over the union", Tangent(Box, a=1.0), Tangent(Box, b=2.0), Tangent(Box, a=1.0, b=2.0)),
    ("Tangent + tuple", Tangent(tuple, 1.0, 2.0), (1.0, Z), Tangent(tuple, 2.0, 2.0)),
    ("list + Tangent", [1.0], Tangent(list, 2.0), Tangent(list, 3.0)),
    ("dict + Tangent", {"a": 1.0}, Tangent(dict, {"b": 2.0}), Tangent(dict, {"a": 1.0, "b": 2.0})),
    ("Tangent + thunk of Tangent", Tangent(Box, a=1.0), Thunk(lambda: Tangent(Box, a=2.0)),
     Tangent(Box, a=3.0)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "a", "b", "expected"), ADD_TABLE, ids=[r[0] for r in ADD_TABLE])
def test_add_table(name, a, b, expected):
    result = add(a, b)
    assert type(unthunk(result)) is type(expected)
    assert tangents_equal(result, expected)


def test_add_with_a_zero_returns_the_other_as_given():
    t = Thunk(lambda: 1.0)
    assert add(Z, t) is t and add(t, N) is t
    x = np.ones(2)
    assert add(x, Z) is x and add(N, x) is x


def test_add_never_mutates_its_arguments():
    a, b = np.ones(2), np.full(2, 2.0)
    total = add(a, b)
    assert total is not a and total is not b
    np.testing.assert_array_equal(a, [1.0, 1.0])
    np.testing.assert_array_equal(b, [2.0, 2.0])
    acc = MutableTangent(Box, a=1.0)
    add(acc, Tangent(Box, a=1.0))
    assert acc.a == 1.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (not_implemented("why"), 1.0),
        (np.ones(2), not_implemented("why")),
        (not_implemented("why"), Tangent(Box, a=1.0)),
        (Thunk(lambda: 1.0), not_implemented("why")),
        (Z, not_implemented("why")),
        (not_implemented("why"), N),
    ],
    ids=["NI + float", "array + NI", "NI + Tangent", "thunk + NI", "Z + NI", "NI + N"],
)
def test_add_propagates_not_implemented(a, b):
    result = add(a, b)
    assert isinstance(result, NotImplementedTangent) and result.info == "why"


def test_add_rejects_mismatched_structures():
    with pytest.raises(ValueError, match="lengths 2 and 1"):
        add((1.0, 2.0), (1.0,))
    with pytest.raises(TypeError, match="structural Tangent cannot be added to ndarray"):
        add(Tangent(Box, a=1.0), np.ones(2))
    with pytest.raises(ValueError, match="different layouts"):
        add(Tangent(tuple, 1.0), Tangent(tuple, 1.0, 2.0))
    with pytest.raises(ValueError, match="different layouts"):
        add(Tangent(tuple, 1.0), (1.0, 2.0))
    with pytest.raises(TypeError, match="cannot be added to dict"):
        add(Tangent(Box, a=1.0), {"a": 1.0})
    with pytest.raises(TypeError, match="tangents of different types"):
        add(Tangent(Box, a=1.0), Tangent(Other, a=1.0))


def test_positional_tangents_of_tuples_and_lists_add():
    assert add(Tangent(tuple, 1.0), Tangent(list, 2.0)) == Tangent(tuple, 3.0)


# ---- add_ ---------------------------------------------------------------------------------------


def test_add_in_place_into_a_writeable_array():
    acc = np.array([1.0, 2.0])
    result = add_(acc, np.array([10.0, 20.0]))
    assert result is acc
    np.testing.assert_array_equal(acc, [11.0, 22.0])
    assert add_(acc, 1.0) is acc
    np.testing.assert_array_equal(acc, [12.0, 23.0])


def test_add_in_place_broadcasts_the_increment():
    acc = np.zeros((2, 3))
    assert add_(acc, np.array([1.0, 2.0, 3.0])) is acc
    np.testing.assert_array_equal(acc, [[1.0, 2.0, 3.0]] * 2)


@pytest.mark.parametrize(
    ("acc", "t", "expected"),
    [
        (np.zeros(2, dtype=np.float32), np.ones(2), np.ones(2)),  # float64 does not fit
        (np.zeros(2), np.ones((3, 2)), np.ones((3, 2))),  # the sum is larger than acc
        (np.zeros(2), np.array([1j, 2j]), np.array([1j, 2j])),  # complex does not fit
        (1.0, 2.0, 3.0),  # Python numbers are immutable
    ],
    ids=["float32 += float64", "grows", "real += complex", "python float"],
)
def test_add_copies_when_acc_cannot_hold_the_sum(acc, t, expected):
    before = np.copy(acc)
    result = add_(acc, t)
    assert result is not acc
    assert tangents_equal(result, expected) and np.shape(result) == np.shape(expected)
    assert np.result_type(result) == np.result_type(expected)
    np.testing.assert_array_equal(acc, before)


def test_add_copies_into_a_read_only_array():
    acc = np.ones(2)
    acc.flags.writeable = False
    result = add_(acc, np.ones(2))
    assert result is not acc
    np.testing.assert_array_equal(result, [2.0, 2.0])
    np.testing.assert_array_equal(acc, [1.0, 1.0])


@pytest.mark.parametrize("zero", [Z, N], ids=["ZeroTangent", "NoTangent"])
def test_add_into_a_zero_copies_so_the_incoming_array_is_never_mutated(zero):
    incoming = np.array([1.0, 2.0])
    acc = add_(zero, incoming)
    assert acc is not incoming
    np.testing.assert_array_equal(acc, incoming)
    acc = add_(acc, np.array([5.0, 5.0]))
    np.testing.assert_array_equal(incoming, [1.0, 2.0])
    np.testing.assert_array_equal(acc, [6.0, 7.0])


def test_add_with_zeros_on_either_side():
    acc = np.ones(2)
    assert add_(acc, Z) is acc and add_(acc, N) is acc
    assert add_(Z, Z) is Z and add_(Z, N) is N and add_(N, Z) is N
    assert add_(Z, 2.0) == 2.0
    assert add_(Z, Thunk(lambda: 4.0)) == 4.0


def test_add_inplaceable_thunk_writes_into_acc():
    calls = []

    def add_fn(a):
        calls.append("add_fn")
        return np.add(a, 1.0, out=a)

    def value():
        calls.append("thunk")
        return np.ones(2)

    acc = np.zeros(2)
    result = add_(acc, InplaceableThunk(add_fn, Thunk(value)))
    assert result is acc and calls == ["add_fn"]
    np.testing.assert_array_equal(acc, [1.0, 1.0])
    # Into a zero, the value is computed (and copied) instead.
    result = add_(Z, InplaceableThunk(add_fn, Thunk(value)))
    np.testing.assert_array_equal(result, [1.0, 1.0])
    assert calls == ["add_fn", "thunk"]


def test_add_plain_thunk_into_an_array():
    acc = np.zeros(2)
    assert add_(acc, Thunk(lambda: np.full(2, 3.0))) is acc
    np.testing.assert_array_equal(acc, [3.0, 3.0])


def test_add_into_a_mutable_tangent_in_place():
    shared = np.zeros(2)
    acc = MutableTangent(Box, a=shared)
    result = add_(acc, Tangent(Box, a=np.ones(2), b=2.0))
    assert result is acc
    assert acc.a is shared  # the array field was accumulated in place too
    np.testing.assert_array_equal(shared, [1.0, 1.0])
    assert acc.b == 2.0


def test_add_thunk_of_a_tangent_into_a_mutable_tangent_evaluates_once():
    calls = []

    def value():
        calls.append(1)
        return Tangent(Box, a=2.0)

    acc = MutableTangent(Box, a=1.0)
    assert add_(acc, Thunk(value)) is acc
    assert acc.a == 3.0 and calls == [1]


def test_add_into_an_immutable_tangent_makes_a_new_one():
    acc = Tangent(Box, a=1.0)
    result = add_(acc, Tangent(Box, a=1.0))
    assert result is not acc and result == Tangent(Box, a=2.0) and acc.a == 1.0


def test_add_propagates_not_implemented_in_place():
    assert isinstance(add_(np.zeros(2), not_implemented("x")), NotImplementedTangent)
    assert isinstance(add_(not_implemented("x"), np.zeros(2)), NotImplementedTangent)
    assert isinstance(add_(Z, not_implemented("x")), NotImplementedTangent)


# ---- tangents_equal -----------------------------------------------------------------------------

EQUALITY = [
    ("Z == zeros", Z, np.zeros(3), True),
    ("N == 0.0", N, 0.0, True),
    ("Z == ones", Z, np.ones(1), False),
    ("Z == N", Z, N, False),
    ("thunk == value", Thunk(lambda: 2.0), 2.0, True),
    ("arrays", np.array([1.0, 2.0]), np.array([1.0, 2.0]), True),
    ("NaN != NaN", np.array([np.nan]), np.array([np.nan]), False),
    ("shapes differ", np.ones(2), np.ones(3), False),
    ("Z == zero Tangent", Z, Tangent(Box, a=0.0), True),
    ("NI != NI", not_implemented("a"), not_implemented("a"), False),
    ("Tangent != array", Tangent(tuple, 1.0), np.ones(1), False),
    ("primal types differ", Tangent(Box, a=1.0), Tangent(dict, {"a": 1.0}), False),
]


@pytest.mark.parametrize(("name", "a", "b", "equal"), EQUALITY, ids=[e[0] for e in EQUALITY])
def test_tangents_equal(name, a, b, equal):
    assert tangents_equal(a, b) is equal
    assert tangents_equal(b, a) is equal


def test_tangents_equal_on_cyclic_tangents():
    a, b = MutableTangent(Box, a=1.0), MutableTangent(Box, a=1.0)
    a.b, b.b = a, b
    assert tangents_equal(a, b)
    zero_cycle = MutableTangent(Box, a=0.0)
    zero_cycle.b = zero_cycle
    assert tangents_equal(Z, zero_cycle) and not tangents_equal(Z, a)


def test_tangents_equal_on_deep_tangents():
    def chain(last):
        t = Tangent(tuple, last)
        for _ in range(5000):  # well past the interpreter's recursion limit
            t = Tangent(tuple, 1.0, t)
        return t

    assert chain(2.0) == chain(2.0)
    assert chain(2.0) != chain(3.0)
    assert tangents_equal(chain(Z), chain(0.0))


# ---- properties -------------------------------------------------------------------------------

finite = {"allow_nan": False, "allow_infinity": False}
arrays = st.one_of(
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3), elements=st.floats(**finite)),
    hnp.arrays(np.float32, hnp.array_shapes(max_dims=2), elements=st.floats(width=32, **finite)),
    hnp.arrays(np.complex128, hnp.array_shapes(max_dims=2), elements=st.complex_numbers(**finite)),
)
scalars = st.one_of(
    st.floats(**finite),
    st.complex_numbers(**finite),
    st.floats(**finite).map(np.float64),
    st.floats(width=32, **finite).map(np.float32),
)
tangents = st.one_of(
    arrays,
    scalars,
    arrays.map(lambda a: Thunk(lambda: a)),
    st.tuples(scalars, arrays).map(lambda fields: Tangent(tuple, *fields)),
    st.fixed_dictionaries({"a": scalars}, optional={"b": arrays}).map(lambda f: Tangent(Box, **f)),
)
zeros = st.sampled_from([Z, N])
property_settings = settings(max_examples=60, deadline=None)


@property_settings
@given(x=tangents, zero=zeros)
def test_zeros_are_the_additive_identity(x, zero):
    assert add(zero, x) is x and add(x, zero) is x
    assert zero + x is x and x + zero is x
    assert tangents_equal(add_(zero, x), x)


@property_settings
@given(x=tangents, zero=zeros)
def test_zeros_absorb_multiplication(x, zero):
    assert zero * x is zero and x * zero is zero
    assert zero / x is zero


@property_settings
@given(x=tangents, zero=zeros)
def test_addition_commutes_with_zeros(x, zero):
    assert tangents_equal(add(zero, x), add(x, zero))
    assert tangents_equal(zero + x, x + zero)
    assert tangents_equal(zero - x, -unthunk(x))


@property_settings
@given(a=zeros, b=zeros)
def test_zeros_commute_with_each_other(a, b):
    assert add(a, b) is add(b, a) is (a + b)
    assert (a * b) is (b * a) is (a + b)
    assert (N in (a, b)) is (a + b is N)


# ---- deep structures: a work list, never recursion ------------------------------------------


def _chain(n, value):
    """The tangent of a linked list of ``n`` nodes, each field ``value``, built from the tail."""
    t = ZeroTangent()
    for _ in range(n):
        t = Tangent(Link, value=value, next=t)
    return t


@dataclasses.dataclass
class Link:
    value: float
    next: object = None


def test_deep_tangents_add_without_recursion():
    total = add(_chain(3000, 1.0), _chain(3000, 2.0))
    depth = 0
    while isinstance(total, Tangent):
        assert total.value == 3.0
        total, depth = total.next, depth + 1
    assert depth == 3000


def test_deep_mutable_tangents_accumulate_in_place_without_recursion():
    acc = MutableTangent(Link, value=0.0, next=ZeroTangent())
    head = acc
    for _ in range(2999):
        nxt = MutableTangent(Link, value=0.0, next=ZeroTangent())
        acc["next"] = nxt
        acc = nxt
    assert add_(head, _chain(3000, 1.5)) is head
    node, count = head, 0
    while isinstance(node, MutableTangent):
        assert node["value"] == 1.5
        node, count = node["next"], count + 1
    assert count == 3000


def test_the_repr_of_a_deep_tangent_is_shown_in_part():
    text = repr(_chain(3000, 1.0))
    assert text.startswith("Tangent[Link](value=1.0, next=Tangent[Link](")
    assert "(...)" in text and len(text) < 2000
