"""Tests for chainrules.core.tangents: the zero algebra table, Tangent, MutableTangent."""

import copy
import operator
import pickle
import types

import numpy as np
import pytest
from primal_types import Frozen, Mutable, Point, WithDict, WithSlots

from chainrules.core.algebra import tangents_equal
from chainrules.core.tangents import (
    MutableTangent,
    NoTangent,
    NotImplementedTangent,
    Tangent,
    ZeroTangent,
    not_implemented,
)
from chainrules.core.thunks import Thunk, unthunk

Z, N = ZeroTangent(), NoTangent()


# ---- the zero algebra table -------------------------------------------------------------------

# Every kind of tangent the table speaks of, as a factory so each test gets a fresh object.
OPERANDS = {
    "array": lambda: np.array([1.0, -2.0]),
    "float32 array": lambda: np.array([1.5, 2.5], dtype=np.float32),
    "complex array": lambda: np.array([1 + 2j, -1j]),
    "python float": lambda: 1.5,
    "python complex": lambda: 1.5 - 2j,
    "numpy float64": lambda: np.float64(-0.5),
    "numpy float32": lambda: np.float32(2.5),
    "numpy complex128": lambda: np.complex128(1 + 1j),
    "thunk": lambda: Thunk(lambda: np.array([3.0, 4.0])),
    "positional Tangent": lambda: Tangent(tuple, 1.0, np.array([2.0])),
    "named Tangent": lambda: Tangent(Point, x=1.0, y=-3.0),
}

ZEROS = {"ZeroTangent": Z, "NoTangent": N}

# (cell, operation, what the result is): "x" means the operand itself (the very object),
# "-x" its negation, "zero" the zero of the row.
CELLS = [
    ("zero + x", lambda z, x: z + x, "x"),
    ("x + zero", lambda z, x: x + z, "x"),
    ("x - zero", lambda z, x: x - z, "x"),
    ("zero - x", lambda z, x: z - x, "-x"),
    ("zero * x", lambda z, x: z * x, "zero"),
    ("x * zero", lambda z, x: x * z, "zero"),
    ("zero / x", lambda z, x: z / x, "zero"),
    ("zero @ x", lambda z, x: z @ x, "zero"),
    ("x @ zero", lambda z, x: x @ z, "zero"),
]


@pytest.mark.parametrize("zero_name", ZEROS)
@pytest.mark.parametrize("operand", OPERANDS)
@pytest.mark.parametrize(("cell", "op", "expected"), CELLS, ids=[c[0] for c in CELLS])
def test_zero_with_any_tangent(zero_name, operand, cell, op, expected):
    zero, x = ZEROS[zero_name], OPERANDS[operand]()
    result = op(zero, x)
    if expected == "x":
        assert result is x
    elif expected == "-x":
        assert tangents_equal(result, -unthunk(x))
        assert type(unthunk(result)) is type(unthunk(-unthunk(x)))
    else:
        assert result is zero


ZERO_PAIRS = [
    ("Z + Z", operator.add, Z, Z, Z),
    ("N + N", operator.add, N, N, N),
    ("Z + N", operator.add, Z, N, N),
    ("N + Z", operator.add, N, Z, N),
    ("Z - N", operator.sub, Z, N, N),
    ("N - Z", operator.sub, N, Z, N),
    ("Z - Z", operator.sub, Z, Z, Z),
    ("Z * Z", operator.mul, Z, Z, Z),
    ("N * N", operator.mul, N, N, N),
    ("Z * N", operator.mul, Z, N, N),
    ("N * Z", operator.mul, N, Z, N),
    ("Z @ N", operator.matmul, Z, N, N),
]


@pytest.mark.parametrize(("cell", "op", "a", "b", "expected"), ZERO_PAIRS, ids=lambda v: v)
def test_zero_meets_zero(cell, op, a, b, expected):
    assert op(a, b) is expected


@pytest.mark.parametrize(
    ("op", "zero"),
    [(operator.neg, Z), (operator.pos, Z), (operator.neg, N), (operator.pos, N)],
)
def test_unary_operators_keep_the_zero(op, zero):
    assert op(zero) is zero


@pytest.mark.parametrize("zero", [Z, N])
def test_zero_singleton_falsy_and_inert(zero):
    cls = type(zero)
    assert cls() is zero
    assert not zero
    assert copy.copy(zero) is zero and copy.deepcopy(zero) is zero
    assert pickle.loads(pickle.dumps(zero)) is zero
    assert zero[3] is zero and zero.conj() is zero and zero.T is zero and zero.mT is zero
    assert zero.real is zero and zero.imag is zero
    assert repr(zero) == f"{cls.__name__}()"


def test_zero_types_are_distinct():
    assert Z is not N
    assert not isinstance(Z, NoTangent) and not isinstance(N, ZeroTangent)


def test_array_ufunc_defers_to_zero():
    # NumPy must not broadcast the zero into an object array.
    x = np.ones((2, 2))
    assert x * Z is Z
    assert np.float64(2.0) * N is N
    assert x @ Z is Z


# ---- NotImplementedTangent --------------------------------------------------------------------


def test_not_implemented_absorbs_all_but_zeros():
    t = not_implemented("derivative in the order")
    assert isinstance(t, NotImplementedTangent)
    assert t.info == "derivative in the order"
    assert t + 1.0 is t and 1.0 + t is t and np.ones(2) + t is t
    assert t - 2.0 is t and 2.0 - t is t
    assert t * 3.0 is t and 3.0 * t is t
    assert t / 2.0 is t and -t is t and t.conj() is t
    assert t * Z is Z and Z * t is Z and N * t is N
    assert Z + t is t and t + Z is t
    assert repr(t) == "NotImplementedTangent('derivative in the order')"


# ---- Tangent over each kind of primal ---------------------------------------------------------


def _closure_type():
    a, b = 1.0, 2.0

    def f():
        return a + b

    return type(f)


NAMED_PRIMAL_TYPES = {
    "namedtuple": Point,
    "dataclass": Mutable,
    "frozen dataclass": Frozen,
    "object with __dict__": WithDict,
    "object with __slots__": WithSlots,
    "closure": _closure_type(),
}


def _fields(primal_type):
    return ("x", "y") if primal_type is Point else ("a", "b")


@pytest.mark.parametrize("kind", NAMED_PRIMAL_TYPES)
def test_named_tangent_field_access_and_missing_field(kind):
    primal_type = NAMED_PRIMAL_TYPES[kind]
    first, second = _fields(primal_type)
    t = Tangent(primal_type, **{first: 2.0})
    assert getattr(t, first) == 2.0
    assert getattr(t, second) is Z
    assert t[first] == 2.0 and t[second] is Z
    assert t.primal_type is primal_type
    assert dict(t.items()) == {first: 2.0}


@pytest.mark.parametrize("kind", NAMED_PRIMAL_TYPES)
def test_named_tangent_addition_over_union_of_fields(kind):
    primal_type = NAMED_PRIMAL_TYPES[kind]
    first, second = _fields(primal_type)
    a = Tangent(primal_type, **{first: 1.0})
    b = Tangent(primal_type, **{first: 0.5, second: np.array([3.0])})
    total = a + b
    assert type(total) is Tangent and total.primal_type is primal_type
    assert getattr(total, first) == 1.5
    np.testing.assert_array_equal(getattr(total, second), [3.0])
    assert a == Tangent(primal_type, **{first: 1.0})  # the operands are unchanged


@pytest.mark.parametrize("kind", NAMED_PRIMAL_TYPES)
def test_named_tangent_equality(kind):
    primal_type = NAMED_PRIMAL_TYPES[kind]
    first, second = _fields(primal_type)
    t = Tangent(primal_type, **{first: 1.0, second: np.array([1.0, 2.0])})
    assert t == Tangent(primal_type, **{first: 1.0, second: np.array([1.0, 2.0])})
    assert t != Tangent(primal_type, **{first: 1.0, second: np.array([1.0, 3.0])})
    # An absent field equals an explicit zero.
    assert Tangent(primal_type, **{first: 1.0}) == Tangent(primal_type, **{first: 1.0, second: Z})
    assert Tangent(primal_type, **{first: 1.0}) == Tangent(
        primal_type, **{first: 1.0, second: np.zeros(2)}
    )
    assert t != Tangent(tuple, 1.0, 2.0)


REPRS = [
    (Tangent(Point, x=1.0, y=2.0), "Tangent[Point](x=1.0, y=2.0)"),
    (Tangent(Mutable, a=1.0), "Tangent[Mutable](a=1.0)"),
    (Tangent(WithSlots, b=Z), "Tangent[WithSlots](b=ZeroTangent())"),
    (Tangent(tuple, 1.0, N), "Tangent[tuple](1.0, NoTangent())"),
    (Tangent(list, 1.0), "Tangent[list](1.0)"),
    (Tangent(dict, {"k": 1.0}), "Tangent[dict]({'k': 1.0})"),
    (Tangent(types.FunctionType, a=1.0), "Tangent[function](a=1.0)"),
    (MutableTangent(WithDict, a=0.0), "MutableTangent[WithDict](a=0.0)"),
]


@pytest.mark.parametrize(("tangent", "text"), REPRS, ids=[r[1] for r in REPRS])
def test_repr(tangent, text):
    assert repr(tangent) == text


def test_positional_tangent_of_tuple_and_list():
    t = Tangent(tuple, 1.0, 2.0)
    assert t[0] == 1.0 and t[1] == 2.0 and len(t) == 2 and list(t) == [1.0, 2.0]
    assert t.is_positional and list(t.keys()) == [0, 1]
    assert t + Tangent(tuple, 1.0, 1.0) == Tangent(tuple, 2.0, 3.0)
    assert Tangent(list, 1.0) + Tangent(list, 2.0) == Tangent(list, 3.0)
    with pytest.raises(AttributeError):
        t.x  # noqa: B018
    with pytest.raises(ValueError, match="different layouts"):
        t + Tangent(tuple, 1.0)


def test_mapping_tangent_of_dict():
    t = Tangent(dict, {"a": 1.0})
    assert t["a"] == 1.0 and t["missing"] is Z
    total = t + Tangent(dict, {"b": 2.0})
    assert total == Tangent(dict, {"a": 1.0, "b": 2.0})
    assert total.backing == {"a": 1.0, "b": 2.0}


@pytest.mark.parametrize(
    ("args", "fields"),
    [((dict, {"a": 1.0}, {"b": 2.0}), {}), ((tuple,), {"a": 1.0}), ((Point, 1.0), {})],
    ids=["dict with two mappings", "tuple with names", "namedtuple with positions"],
)
def test_constructor_rejects_the_wrong_layout(args, fields):
    with pytest.raises(TypeError):
        Tangent(*args, **fields)


def test_scalar_multiplication_negation_and_conj():
    t = Tangent(Point, x=1.0, y=1j)
    assert 2.0 * t == Tangent(Point, x=2.0, y=2j)
    assert t * 2.0 == Tangent(Point, x=2.0, y=2j)
    assert t / 2.0 == Tangent(Point, x=0.5, y=0.5j)
    assert -t == Tangent(Point, x=-1.0, y=-1j)
    assert t.conj() == Tangent(Point, x=1.0, y=-1j)
    assert t - t == Tangent(Point, x=0.0, y=0j)


def test_tangent_is_immutable_and_unhashable():
    t = Tangent(Point, x=1.0)
    with pytest.raises(AttributeError, match="MutableTangent"):
        t.x = 2.0
    with pytest.raises(TypeError):
        hash(t)


def test_mutable_tangent_sets_fields():
    t = MutableTangent(WithDict, a=1.0)
    t.b = 2.0
    t["a"] = 5.0
    assert (t.a, t.b) == (5.0, 2.0)
    assert t == Tangent(WithDict, a=5.0, b=2.0)
    positional = MutableTangent(list, 1.0, 2.0)
    positional[1] = 7.0
    assert tuple(positional) == (1.0, 7.0)
    with pytest.raises(AttributeError, match="by index"):
        positional.x = 1.0


def test_addition_keeps_the_tangent_class():
    total = MutableTangent(WithDict, a=1.0) + MutableTangent(WithDict, b=1.0)
    assert type(total) is MutableTangent and total == Tangent(WithDict, a=1.0, b=1.0)


COPIES = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda t: pickle.loads(pickle.dumps(t)),
}
COPIED = [
    Tangent(tuple, 1.0, np.array([2.0])),
    Tangent(Point, x=1.0),
    Tangent(dict, {"k": 1.0}),
    MutableTangent(Mutable, a=np.ones(2)),
    MutableTangent(list, 1.0, 2.0),
]


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("tangent", COPIED, ids=repr)
def test_tangents_copy_and_pickle(how, tangent):
    result = COPIES[how](tangent)
    assert result is not tangent
    assert type(result) is type(tangent) and result.primal_type is tangent.primal_type
    assert result == tangent


def test_copy_of_a_mutable_tangent_has_its_own_fields():
    original = MutableTangent(WithDict, a=1.0)
    shallow = copy.copy(original)
    shallow.b = 2.0
    assert original.b is Z and shallow.b == 2.0


def test_deepcopy_of_a_cyclic_tangent():
    original = MutableTangent(WithDict, a=np.ones(2))
    original.b = original
    result = copy.deepcopy(original)
    assert result.b is result and result.a is not original.a
    np.testing.assert_array_equal(result.a, [1.0, 1.0])


def test_repr_of_a_cyclic_tangent_terminates():
    t = MutableTangent(WithDict, a=1.0)
    t.b = t
    assert repr(t) == "MutableTangent[WithDict](a=1.0, b=Tangent[...])"
