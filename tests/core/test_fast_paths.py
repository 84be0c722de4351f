"""Fast paths give what the rules they stand in for give, bit for bit, and keep the protocol.

Each call below is made through the registry (the fast path, where it takes the call) and
through the registered rule it stands in for (``general_rule``), and the two answers compared:
the value, and the cotangents for cotangents of several kinds (the output's dtype, a Python
float, float32, complex, a thunk, a zero, one of a wrong shape).
"""

import inspect

import numpy as np
import pytest
from chainrules_testing import test_rrule
from fast_path_cases import tripled_with_fast_path

import chainrules as cr
from chainrules.core.errors import (
    ArrayTypeError,
    ProjectionError,
    RuleDefinitionError,
    TangentTypeError,
)
from chainrules.core.fast_paths import FastPullback, general_rule, register_fast_path
from chainrules.core.names import function_name
from chainrules.core.registry import rrule
from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT
from chainrules.core.thunks import Thunk
from chainrules.engines import forward
from chainrules.rules.numpy.products import EAGER_UP_TO

_ORDER = inspect.signature(np.reshape).parameters.get("order")
_REORDERS_BY_POSITION = (
    _ORDER is not None and _ORDER.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
)

rng = np.random.default_rng(0)
m = rng.normal(size=(5, 4))
k = rng.normal(size=12)
t3 = rng.normal(size=(2, 3, 4))
ties = np.array([1.0, 3.0, -2.0, 3.0])
idx = np.array([3, 1, -4, 1])

CALLS = [
    (np.sum, (k,), {}),
    (np.sum, (m,), {}),
    (np.sum, (m, 0), {}),
    (np.sum, (m, -1), {}),
    (np.sum, (t3, (0, 2)), {}),
    (np.sum, (m,), {"axis": 0}),
    (np.sum, (m,), {"axis": 1, "keepdims": True}),
    (np.sum, (m.astype(np.float32),), {}),
    (np.sum, (m.T, 0), {}),  # a strided view
    (np.sum, (m.astype(np.float16), 1), {}),
    (np.mean, (m.astype(np.longdouble),), {}),
    (np.max, (k.astype(np.float16),), {}),
    (np.matmul, (m.astype(np.longdouble), k[:4].astype(np.longdouble)), {}),
    (np.transpose, (m.astype(np.float16),), {}),
    (np.sum, (np.asfortranarray(t3), (1,)), {}),
    (np.sum, (np.array(2.5),), {}),
    (np.sum, (np.zeros(0),), {}),
    (np.ndarray.sum, (m, 1), {}),
    (np.mean, (k,), {}),
    (np.mean, (m, 0), {}),
    (np.mean, (t3,), {"axis": (1, 2), "keepdims": True}),
    (np.mean, (m.astype(np.float32), 1), {}),
    (np.ndarray.mean, (m,), {}),
    (np.max, (k,), {}),
    (np.max, (ties,), {}),
    (np.max, (np.array([1.0, np.nan, 2.0]),), {}),
    (np.max, (np.array([-np.inf, -np.inf]),), {}),
    (np.max, (m.astype(np.float32),), {}),
    (np.max, (m, None), {}),
    (np.min, (ties,), {}),
    (np.amin, (m,), {}),
    (np.ndarray.max, (t3,), {}),
    (np.maximum, (m, rng.normal(size=(5, 4))), {}),
    (np.minimum, (k, 0.0), {}),
    (np.fmax, (ties, ties[::-1].copy()), {}),  # ties: 0.5 each
    (np.fmin, (np.array([1.0, np.nan, 2.0]), np.array([np.nan, 0.0, 3.0])), {}),
    (np.maximum, (m.T, 1), {}),  # a strided view beside an int
    (np.maximum, (m.astype(np.float32), m), {}),  # not taken: the rule's own way
    (np.maximum, (rng.normal(size=300), rng.normal(size=300)), {}),  # thunks
    (np.matmul, (m, m.T), {}),
    (np.matmul, (m, k[:4]), {}),
    (np.matmul, (k[:5], m), {}),
    (np.matmul, (k[:4], k[4:8]), {}),
    (np.matmul, (t3, m.T[:, :4].copy()), {}),
    (np.matmul, (t3[:1], rng.normal(size=(2, 4, 3))), {}),
    (np.matmul, (m.astype(np.float32), m.T.astype(np.float32)), {}),
    (np.ndarray.__matmul__, (m, m.T), {}),
    (np.matmul, (rng.normal(size=(50, 30)), rng.normal(size=(30, 40))), {}),  # thunks
    (np.ndarray.__getitem__, (k, 3), {}),
    (np.ndarray.__getitem__, (k, -1), {}),
    (np.ndarray.__getitem__, (k, idx), {}),
    (np.ndarray.__getitem__, (m, idx), {}),
    (np.ndarray.__getitem__, (m, (idx, np.array([0, 1, 2, 3]))), {}),
    (np.ndarray.__getitem__, (m, (slice(1, 3), 2)), {}),
    (np.ndarray.__getitem__, (t3, (Ellipsis, 0)), {}),
    (np.ndarray.__getitem__, (m, (None, slice(None))), {}),
    (np.ndarray.__getitem__, (k, k > 0), {}),
    (np.ndarray.__getitem__, (k.astype(np.float32), idx), {}),
    (np.ndarray.__getitem__, (rng.normal(size=(300, 300)), idx), {}),  # scattered by bincount
    (np.ndarray.__getitem__, (k[::2], np.array([0, 0, 5])), {}),
    (np.reshape, (m, (20,)), {}),
    (np.reshape, (m, (2, -1)), {"order": "F"}),
    # an order by position (NumPy 2.4's reshape takes one; 2.1's takes it by keyword only):
    # NumPy's function, not the method, computes it
    *([(np.reshape, (m, (2, -1), "F"), {})] if _REORDERS_BY_POSITION else []),
    (np.ndarray.reshape, (m, 4, 5), {}),
    (np.ravel, (m.T,), {}),
    (np.ravel, (m, "F"), {}),
    (np.squeeze, (m[None], 0), {}),
    (np.swapaxes, (t3, 0, 2), {}),
    (np.ndarray.swapaxes, (t3, 2, 1), {}),
    (np.diagonal, (m,), {}),
    (np.diagonal, (t3, 1, 2, 1), {}),
    (np.repeat, (k, 2), {}),
    (np.repeat, (m, 2, 1), {}),
    (np.transpose, (m,), {}),
    (np.transpose, (t3, (1, 2, 0)), {}),
    (np.transpose, (t3,), {"axes": (2, 0, 1)}),
    (np.ndarray.transpose, (t3, 2, 0, 1), {}),
    (np.flip, (m,), {"axis": 0}),
    (np.roll, (k, 3), {}),
    (np.fft.fft, (k,), {}),
    (np.ndarray.item, (m, 3), {}),
]


def _ids(call):
    f, args, kwargs = call
    shapes = ",".join(str(getattr(a, "shape", a)) for a in args)
    return f"{function_name(f)}({shapes}){'' if not kwargs else kwargs}"


def _same(a, b, where):
    assert type(a) is type(b), (where, type(a), type(b))
    if isinstance(a, tuple):
        assert len(a) == len(b), where
        for i, (ai, bi) in enumerate(zip(a, b, strict=True)):
            _same(ai, bi, f"{where}[{i}]")
    elif isinstance(a, np.ndarray | np.generic):
        assert a.dtype == b.dtype and a.shape == b.shape, (where, a.dtype, b.dtype)
        np.testing.assert_array_equal(a, b, err_msg=where, strict=True)
    else:
        assert a == b or (a != a and b != b), (where, a, b)


def _cotangents_for(y):
    """Cotangents of several kinds for an output like ``y``."""
    shape, dtype = np.shape(y), np.asarray(y).dtype
    dy = rng.normal(size=shape).astype(dtype)
    if dtype.kind == "c":
        dy = dy + 1j * rng.normal(size=shape)
    kinds = [dy, dy.real.astype(np.float32), dy + 0.5j, Thunk(lambda: dy), ZERO_TANGENT]
    if shape == ():
        kinds += [float(dy.real), np.float64(dy.real)]
    return kinds


def _unthunked(cotangents):
    return tuple(cr.unthunk(c) for c in cotangents)


@pytest.mark.parametrize("call", CALLS, ids=_ids)
def test_a_fast_path_gives_what_its_rule_gives(call) -> None:
    f, args, kwargs = call
    before = [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
    y, pullback = cr.rrule(f, *args, **kwargs)
    general = general_rule(f)
    y_rule, pullback_rule = general(*args, **kwargs)
    _same(y, y_rule, "value")
    assert pullback.__name__ == pullback_rule.__name__
    for dy in _cotangents_for(y):
        given = np.copy(dy) if isinstance(dy, np.ndarray) else dy
        _same(_unthunked(pullback(dy)), _unthunked(pullback_rule(dy)), f"cotangent of {dy!r}")
        if isinstance(dy, np.ndarray):
            np.testing.assert_array_equal(dy, given)  # the cotangent is not written to
    for a, b in zip(args, before, strict=True):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("call", CALLS, ids=_ids)
def test_a_fast_pullback_is_differentiable_in_its_cotangent(call) -> None:
    """A pullback is linear in its cotangent: an engine differentiating it there (as a
    Hessian-vector product does) gets the pullback of the tangent, as from the rule."""
    f, args, kwargs = call
    y, pullback = cr.rrule(f, *args, **kwargs)
    _, pullback_rule = general_rule(f)(*args, **kwargs)
    dy, t = (np.asarray(rng.normal(size=np.shape(y))).astype(np.asarray(y).dtype) for _ in "12")
    for p in (pullback, pullback_rule):
        dx, dx_dot = forward.jvp(lambda c, p=p: p(c)[1], (dy,), (t,))
        _same(np.asarray(dx), np.asarray(cr.unthunk(pullback(dy)[1])), "value")
        # Equal but for rounding: the engine's tangent of dy / n may be formed as t * (1 / n).
        np.testing.assert_allclose(dx_dot, cr.unthunk(pullback(t)[1]), rtol=1e-15, atol=0)


# Functions whose calls above all take the fast path, but for a NaN maximum and large factors.
_TAKEN_BY_FAST_PATHS = (
    np.sum,
    np.mean,
    np.max,
    np.matmul,
    np.transpose,
    np.reshape,
    np.ravel,
    np.squeeze,
    np.swapaxes,
    np.ndarray.swapaxes,
    np.diagonal,
    np.repeat,
)


@pytest.mark.parametrize(
    "call",
    [c for c in CALLS if c[0] in _TAKEN_BY_FAST_PATHS],
    ids=_ids,
)
def test_a_fast_path_takes_its_calls(call) -> None:
    """The calls that take the fast path get its pullback; the others (a NaN maximum, factors
    large enough for thunks) the rule's."""
    f, args, kwargs = call
    _, pullback = cr.rrule(f, *args, **kwargs)
    nan = any(isinstance(a, np.ndarray) and np.isnan(a).any() for a in args)
    large = f is np.matmul and sum(a.size for a in args) > EAGER_UP_TO
    assert isinstance(pullback, FastPullback) is (not nan and not large)


@pytest.mark.parametrize(
    ("f", "args", "shape"),
    [
        (np.sum, (m,), ()),
        (np.mean, (m, 0), (4,)),
        (np.max, (k,), ()),
        (np.matmul, (m, m.T), (5, 5)),
        (np.ndarray.__getitem__, (m, idx), (4, 4)),
        (np.transpose, (m,), (4, 5)),
    ],
)
def test_fast_pullbacks_check_their_cotangents(f, args, shape) -> None:
    _, pullback = cr.rrule(f, *args)
    name = function_name(f)
    assert pullback.__name__ == f"{f.__name__}_pullback"
    with pytest.raises(ProjectionError, match=rf"{name}.*shape \(3, 7\) for an output of shape"):
        pullback(np.ones((3, 7)))
    with pytest.raises(TangentTypeError, match=f"{name} was given None"):
        pullback(None)
    with pytest.raises(TangentTypeError, match=f"{name} was given a cotangent of type list"):
        pullback([1.0] * (shape[0] if shape else 1))
    zeros = pullback(ZERO_TANGENT)
    assert zeros[0] is NO_TANGENT and all(z in (ZERO_TANGENT, NO_TANGENT) for z in zeros)
    assert len(zeros) == len(args) + 1


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix
def test_arrays_fast_paths_do_not_take_are_checked_by_the_rule() -> None:
    with pytest.raises(ArrayTypeError, match=r"numpy\.sum: argument 1 is a masked array"):
        cr.rrule(np.sum, np.ma.masked_array([1.0, 2.0], mask=[0, 1]))
    with pytest.raises(ArrayTypeError, match=r"numpy\.matmul: argument 2 is an np\.matrix"):
        cr.rrule(np.matmul, np.eye(2), np.matrix(np.eye(2)))
    with pytest.raises(ArrayTypeError, match="argument 2 is a masked array"):
        cr.rrule(np.ndarray.__getitem__, k, np.ma.masked_array([0, 1], mask=[0, 1]))
    # Integer arrays, lists and keywords the fast paths leave alone reach the rule.
    assert not isinstance(cr.rrule(np.sum, np.arange(3))[1], FastPullback)
    assert not isinstance(cr.rrule(np.ndarray.__getitem__, k, [0, 1])[1], FastPullback)
    y, pullback = cr.rrule(np.sum, m, where=m > 0)
    assert not isinstance(pullback, FastPullback) and y == m[m > 0].sum()
    y, pullback = cr.rrule(np.sum, m, keepdims=1)
    assert not isinstance(pullback, FastPullback) and y.shape == (1, 1)


# ---- a fast path of one's own -----------------------------------------------------------------


scale3 = tripled_with_fast_path("scale3")


def test_a_fast_path_of_ones_own() -> None:
    _, pullback = cr.rrule(scale3, np.ones(3))
    assert type(pullback).__name__ == "scale3_pullback" and isinstance(pullback, FastPullback)
    np.testing.assert_array_equal(pullback(np.ones(3))[1], [3.0, 3.0, 3.0])
    assert not isinstance(cr.rrule(scale3, 2.0)[1], FastPullback)
    test_rrule(scale3, np.array([1.0, -2.0]))
    assert rrule.methods(scale3)[0].rule is scale3.rule  # what introspection sees


def test_a_fast_path_needs_a_single_rule() -> None:
    def unknown(x):
        return x

    with pytest.raises(RuleDefinitionError, match=r"unknown.*no single rrule"):
        register_fast_path(unknown, lambda general, cls: general, FastPullback)
