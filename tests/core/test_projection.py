"""Tests for chainrules.core.projection: ProjectTo on leaves, shapes, dtypes and structures."""

import dataclasses
import types
from collections import namedtuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from chainrules.core import projection
from chainrules.core.caches import Bounded
from chainrules.core.errors import ProjectionError
from chainrules.core.projection import ProjectTo, plain_projectors, projector, unbroadcast_axes
from chainrules.core.tangents import (
    MutableTangent,
    NoTangent,
    Tangent,
    ZeroTangent,
    not_implemented,
)
from chainrules.core.thunks import Thunk

Z, N = ZeroTangent(), NoTangent()
Point = namedtuple("Point", "x y")


@dataclasses.dataclass
class Params:
    w: np.ndarray
    n: int


# ---- leaves: type and dtype ---------------------------------------------------------------------

LEAVES = [
    # primal, dx, expected
    ("float <- float", 2.0, 1.5, 1.5),
    ("float <- float64", 2.0, np.float64(1.5), 1.5),
    ("float <- float32", 2.0, np.float32(1.5), 1.5),
    ("float <- int", 2.0, 3, 3.0),
    ("float <- complex", 2.0, 1.5 + 2j, 1.5),
    ("float <- complex128", 2.0, np.complex128(1.5 + 2j), 1.5),
    ("float <- 0-d array", 2.0, np.array(1.5), 1.5),
    ("float <- array (broadcast)", 2.0, np.array([1.0, 2.0]), 3.0),
    ("complex <- complex", 1j, 1 + 2j, 1 + 2j),
    ("complex <- float", 1j, 1.5, 1.5 + 0j),
    ("float32 <- float", np.float32(1), 1.5, np.float32(1.5)),
    ("float64 <- complex", np.float64(1), 1.5 + 2j, np.float64(1.5)),
    ("complex64 <- float", np.complex64(1), 1.5, np.complex64(1.5)),
    ("float32 array <- float64", np.ones(2, np.float32), np.array([1.5, 2.5]),
     np.array([1.5, 2.5], np.float32)),
    ("float64 array <- float32", np.ones(2), np.array([1.5, 2.5], np.float32),
     np.array([1.5, 2.5])),
    ("real array <- complex", np.ones(2), np.array([1 + 1j, 2 - 1j]), np.array([1.0, 2.0])),
    ("complex array <- real", np.ones(2, np.complex64), np.array([1.0, 2.0]),
     np.array([1.0, 2.0], np.complex64)),
    ("0-d array <- float64", np.array(1.0), np.float64(2.0), np.array(2.0)),
    ("0-d array <- complex matrix", np.array(1.0), np.full((2, 3), 1 + 1j), np.array(6.0)),
    ("0-d float32 array <- float32", np.array(1.0, np.float32), np.float32(2.0),
     np.array(2.0, np.float32)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "x", "dx", "expected"), LEAVES, ids=[c[0] for c in LEAVES])
def test_projection_of_a_leaf(name, x, dx, expected):
    result = ProjectTo(x)(dx)
    assert type(result) is type(expected)
    if isinstance(expected, np.ndarray | np.generic):
        assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize(
    "x",
    [3, True, np.int64(3), np.bool_(False), np.arange(3), np.ones(2, bool), "s", None, (1, 2)],
    ids=repr,
)
@pytest.mark.parametrize("dx", [1.0, np.ones(3), Z], ids=["float", "array", "zero"])
def test_no_tangent_for_primals_without_a_tangent_space(x, dx):
    assert ProjectTo(x)(dx) is N


@pytest.mark.parametrize("x", [2.0, np.float32(1), np.ones(2), (1.0, 2), Point(1.0, 2)], ids=repr)
@pytest.mark.parametrize("dx", [Z, N, not_implemented("why")], ids=repr)
def test_zeros_and_not_implemented_pass_through(x, dx):
    assert ProjectTo(x)(dx) is dx


def test_thunks_are_unthunked():
    np.testing.assert_array_equal(
        ProjectTo(np.ones((2, 1)))(Thunk(lambda: np.ones((2, 3)))), [[3.0], [3.0]]
    )
    assert ProjectTo(2.0)(Thunk(lambda: np.float32(1.5))) == 1.5


def test_matching_array_passes_through_unchanged():
    dx = np.ones((2, 2))
    assert ProjectTo(np.zeros((2, 2)))(dx) is dx


def test_the_projectors_of_torch_tensors_are_shared_by_shape_and_dtype():
    torch = pytest.importorskip("torch")
    from chainrules.core.namespace import array_namespace

    def tensor(*shape, dtype=torch.float64):
        return torch.ones(shape, dtype=dtype)

    array_namespace(tensor(3))  # tensors met, as every rule on them meets them
    p = projector(tensor(3))
    assert projector(torch.zeros(3, dtype=torch.float64)) is p
    assert projector(tensor(4)) is not p and projector(tensor(3, dtype=torch.float32)) is not p
    assert not projector(tensor(3, dtype=torch.int64)).has_tangent_space
    dy = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    assert p(dy) is dy  # a cotangent that fits comes as it is
    assert p(tensor(2, 3)).tolist() == [2.0, 2.0, 2.0]
    assert p(tensor(3, dtype=torch.float32)).dtype == torch.float64
    real = p(torch.full((3,), 1 + 2j, dtype=torch.complex128))
    assert real.dtype == torch.float64 and real.tolist() == [1.0, 1.0, 1.0]


def test_projector_keeps_no_reference_to_the_primal():
    x = np.ones((3, 3))
    project = ProjectTo(x)
    assert all(getattr(project, name, None) is not x for name in ("shape", "dtype"))
    assert repr(project) == "ProjectTo(array shape=(3, 3) dtype=float64)"


# ---- shapes: un-broadcasting ------------------------------------------------------------------

UNBROADCAST = [
    ("leading axis", (3,), (2, 3), np.full(3, 2.0)),
    ("two leading axes", (3,), (4, 2, 3), np.full(3, 8.0)),
    ("size-1 axis", (3, 1), (3, 4), np.full((3, 1), 4.0)),
    ("leading and size-1", (3, 1), (2, 3, 4), np.full((3, 1), 8.0)),
    ("all size-1", (1, 1), (2, 3), np.full((1, 1), 6.0)),
    ("0-d", (), (2, 5), np.array(10.0)),
    ("same", (2, 2), (2, 2), np.ones((2, 2))),
]


@pytest.mark.parametrize(
    ("name", "shape", "dx_shape", "expected"), UNBROADCAST, ids=[u[0] for u in UNBROADCAST]
)
def test_unbroadcast_sums_ones(name, shape, dx_shape, expected):
    result = ProjectTo(np.zeros(shape))(np.ones(dx_shape))
    assert result.shape == shape
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize(
    ("shape", "dx_shape"),
    [((3,), (4,)), ((2, 3), (3,)), ((2, 3), (3, 2)), ((2, 1), (3, 1)), ((3,), (3, 2)), ((3,), ())],
    ids=repr,
)
def test_irreducible_shape_raises_naming_both(shape, dx_shape):
    with pytest.raises(ValueError) as info:
        ProjectTo(np.zeros(shape))(np.ones(dx_shape))
    assert isinstance(info.value, ProjectionError)
    assert str(dx_shape) in str(info.value) and str(shape) in str(info.value)


def test_a_scalar_is_not_a_tangent_of_an_array():
    with pytest.raises(ProjectionError, match=r"shape \(\) cannot be projected onto shape \(2,\)"):
        ProjectTo(np.ones(2))(1.5)


def test_unbroadcast_axes():
    assert unbroadcast_axes((3, 1), (2, 3, 4)) == (0, 2)
    assert unbroadcast_axes((), (2,)) == (0,)
    assert unbroadcast_axes((2,), (2,)) == ()


# ---- structures -------------------------------------------------------------------------------


def test_tuple_projects_field_by_field():
    project = ProjectTo((np.ones(2, np.float32), 3, 2.0))
    result = project((np.ones((3, 2)), 7.0, 1 + 1j))
    assert type(result) is Tangent and result.primal_type is tuple
    assert result[0].dtype == np.float32
    np.testing.assert_array_equal(result[0], [3.0, 3.0])
    assert result[1] is N and result[2] == 1.0 and type(result[2]) is float


def test_namedtuple_from_a_tangent_with_a_missing_field():
    result = ProjectTo(Point(np.ones(2), 1.0))(Tangent(Point, x=np.ones((2, 2))))
    assert result.primal_type is Point
    np.testing.assert_array_equal(result.x, [2.0, 2.0])
    assert result.y is Z


def test_dict_projects_by_key():
    result = ProjectTo({"a": 1.0, "n": 2})({"a": np.float32(2.5), "n": 1.0})
    assert result == Tangent(dict, {"a": 2.5, "n": N})
    assert type(result["a"]) is float


def test_mutable_primal_gives_a_mutable_tangent():
    result = ProjectTo(Params(np.ones(2), 3))(Tangent(Params, w=np.array([1 + 1j, 2j])))
    assert type(result) is MutableTangent
    np.testing.assert_array_equal(result.w, [1.0, 0.0])
    assert result.n is N


class Slotted:
    __slots__ = ("count", "scale")

    def __init__(self, scale, count):
        self.scale, self.count = scale, count


def make_closure(scale, count):
    def closure(x):
        return scale * x * count

    return closure


@pytest.mark.parametrize(
    "primal",
    [Slotted(np.ones(2, np.float32), 3), make_closure(np.ones(2, np.float32), 3)],
    ids=["__slots__", "closure"],
)
def test_objects_and_closures_project_by_field_name(primal):
    dx = Tangent(type(primal) if isinstance(primal, Slotted) else types.FunctionType,
                 scale=np.array([[1.0, 2.0], [3.0, 4.0]]), count=5.0)  # fmt: skip
    result = ProjectTo(primal)(dx)
    assert result.primal_type is dx.primal_type
    assert result.scale.dtype == np.float32
    np.testing.assert_array_equal(result.scale, [4.0, 6.0])
    assert result.count is N


def test_structure_projection_of_a_cyclic_primal_terminates():
    cyclic = [1.0]
    cyclic.append(cyclic)
    project = ProjectTo(cyclic)
    assert repr(project) == "ProjectTo(list structure)"
    result = project(Tangent(list, 2.0, Z))
    assert result[0] == 2.0 and result[1] is Z


def test_deep_structure_projects_without_recursion():
    depth = 5000  # well past the interpreter's recursion limit
    primal = [np.ones(2, np.float32)]
    dx = Tangent(list, np.ones((3, 2)))
    for _ in range(depth):
        primal, dx = [primal, 1], Tangent(list, dx, 7.0)
    result = ProjectTo(primal)(dx)
    for _ in range(depth):
        assert result[1] is N
        result = result[0]
    assert result[0].dtype == np.float32
    np.testing.assert_array_equal(result[0], [3.0, 3.0])


def test_one_tangent_object_reached_twice_projects_once():
    shared = Tangent(tuple, 1.0)
    result = ProjectTo(((2.0,), (3.0,)))(Tangent(tuple, shared, shared))
    assert result[0] is result[1] and result[0] == Tangent(tuple, 1.0)


@pytest.mark.parametrize(
    ("x", "dx"),
    [
        ((1.0, 2.0), (1.0,)),
        ((1.0, 2.0), Tangent(dict, {"a": 1.0})),
        ((1.0, 2.0), np.ones(2)),
        (2.0, Tangent(tuple, 1.0)),
        (np.ones(2), Tangent(tuple, 1.0)),
    ],
    ids=["short tuple", "mapping for tuple", "array for tuple", "Tangent for float",
         "Tangent for array"],
)  # fmt: skip
def test_structure_mismatch_raises(x, dx):
    with pytest.raises(ProjectionError):
        ProjectTo(x)(dx)


# ---- properties -------------------------------------------------------------------------------


@st.composite
def broadcast_pair(draw, dtype=np.float64):
    """A primal shape and the shape of a tangent broadcast from it, with integer-valued data."""
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3))
    lead = draw(st.lists(st.integers(1, 3), max_size=2))
    grown = [draw(st.integers(1, 3)) if n == 1 else n for n in shape]
    dx_shape = (*lead, *grown)
    # Small integers keep every sum exact, so the comparisons below can be exact too.
    values = hnp.arrays(np.float64, dx_shape, elements=st.integers(-8, 8).map(float))
    dx = draw(values)
    v = draw(hnp.arrays(np.float64, shape, elements=st.integers(-8, 8).map(float)))
    return np.zeros(shape, dtype=dtype), dx, v


property_settings = settings(max_examples=60, deadline=None)


@property_settings
@given(pair=broadcast_pair())
def test_unbroadcast_is_the_adjoint_of_broadcast_to(pair):
    x, dx, v = pair
    projected = ProjectTo(x)(dx)
    assert projected.shape == x.shape
    assert np.vdot(projected, v) == np.vdot(dx, np.broadcast_to(v, dx.shape))


@property_settings
@given(pair=broadcast_pair())
def test_unbroadcast_matches_an_explicit_axis_reduction(pair):
    x, dx, _ = pair
    lead = dx.ndim - x.ndim
    reference = np.add.reduce(dx, axis=tuple(range(lead))) if lead else dx
    for axis, n in enumerate(x.shape):
        if n == 1:
            reference = np.add.reduce(reference, axis=axis, keepdims=True)
    np.testing.assert_array_equal(ProjectTo(x)(dx), reference)


@property_settings
@given(pair=broadcast_pair(np.float32))
def test_projection_keeps_float32(pair):
    x, dx, _ = pair
    assert ProjectTo(x)(dx).dtype == np.float32


tangent_like = st.one_of(
    st.floats(-1e6, 1e6),
    st.complex_numbers(max_magnitude=1e6),
    hnp.arrays(np.complex128, (2, 3), elements=st.complex_numbers(max_magnitude=1e6)),
    hnp.arrays(np.float32, (3,), elements=st.floats(-1e6, 1e6, width=32)),
)
primals = st.sampled_from(
    [
        2.0,
        1j,
        np.float32(1),
        np.complex64(1),
        np.zeros(3),
        np.zeros((2, 1), np.float32),
        np.zeros((2, 3), np.complex128),
        np.zeros(()),
    ]
)


@property_settings
@given(x=primals, dx=tangent_like)
def test_projection_is_idempotent(x, dx):
    project = ProjectTo(x)
    try:
        once = project(dx)
    except ProjectionError:
        return
    twice = project(once)
    assert type(twice) is type(once)
    np.testing.assert_array_equal(twice, once)


@property_settings
@given(dx=hnp.arrays(np.complex128, (2, 3), elements=st.complex_numbers(max_magnitude=1e6)))
def test_projection_onto_a_real_array_takes_the_real_part(dx):
    result = ProjectTo(np.zeros((2, 3)))(dx)
    assert result.dtype == np.float64
    np.testing.assert_array_equal(result, dx.real)


@property_settings
@given(dx=st.one_of(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6).map(np.float32),
                    st.complex_numbers(max_magnitude=1e6).map(np.complex128)))  # fmt: skip
def test_projection_onto_a_python_float_gives_a_python_float(dx):
    result = ProjectTo(1.0)(dx)
    assert type(result) is float and result == np.real(dx)


@property_settings
@given(
    w=hnp.arrays(np.float64, (2, 2), elements=st.floats(-1e6, 1e6)),
    b=st.floats(-1e6, 1e6),
)
def test_structure_projection_is_field_by_field_and_idempotent(w, b):
    primal = Params(np.zeros(2, np.float32), 1)
    project = ProjectTo(primal)
    once = project(Tangent(Params, w=w, n=b))
    np.testing.assert_array_equal(once.w, w.sum(axis=0).astype(np.float32))
    assert once.n is N
    assert project(once) == once


# What ufuncs take directly, and what they do not (plain_projectors answers None).
PLAIN_ARGUMENTS = [
    1.5, 2, 1j, np.float64(1.5), np.float32(1.5), np.ones(3), np.ones((2, 1), np.float32),
    np.ones(3, complex), np.array(1.0), np.arange(3), np.ones(2, bool),
    np.array(["a"]), np.zeros(2, "datetime64[s]"),
]  # fmt: skip
NOT_PLAIN = [True, np.ones(2, object), [1.0], np.int64(2), np.ma.ones(2), np.complex128(1j)]


@pytest.mark.parametrize("a", PLAIN_ARGUMENTS, ids=repr)
@pytest.mark.parametrize("b", [*PLAIN_ARGUMENTS, None], ids=repr)
def test_plain_projectors_are_projector_of_each_in_one_pass(a, b, monkeypatch):
    # Shared by their caches (1,024 entries, started afresh when full): empty ones, so that
    # neither starts afresh between the calls compared here.
    monkeypatch.setattr(projection, "_array_projectors", Bounded(1024))
    monkeypatch.setattr(projection, "_projector_tuples", Bounded(1024))
    args = (a,) if b is None else (a, b)
    kind, projectors = plain_projectors(args)
    assert projectors == tuple(map(projector, args))
    assert all(p is projector(x) for p, x in zip(projectors, args, strict=True))  # shared
    assert kind == int(any(np.iscomplexobj(x) for x in args))
    assert plain_projectors(args)[1] is plain_projectors(args)[1]  # the tuple too


@pytest.mark.parametrize("odd", NOT_PLAIN, ids=repr)
def test_plain_projectors_refuse_what_ufuncs_do_not_take_directly(odd):
    assert plain_projectors((odd,)) is None
    assert plain_projectors((np.ones(2), odd)) is None
    assert plain_projectors((odd, 1.0)) is None
