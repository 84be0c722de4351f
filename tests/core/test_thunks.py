"""Tests for chainrules.core.thunks: Thunk, InplaceableThunk, unthunk and the eager switch."""

import asyncio
import contextvars
import threading

import numpy as np
import pytest

from chainrules.core.tangents import Tangent, ZeroTangent
from chainrules.core.thunks import (
    InplaceableThunk,
    Thunk,
    eager_thunks,
    thunks_are_eager,
    unthunk,
)


class Counter:
    """A thunk body that counts its evaluations."""

    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self):
        self.calls += 1
        return self.value


def test_thunk_is_lazy_and_evaluates_at_each_unthunk():
    body = Counter(np.array([1.0, 2.0]))
    t = Thunk(body)
    assert body.calls == 0
    np.testing.assert_array_equal(unthunk(t), [1.0, 2.0])
    np.testing.assert_array_equal(t.unthunk(), [1.0, 2.0])
    assert body.calls == 2


@pytest.mark.parametrize("value", [3.0, np.ones(2), ZeroTangent(), "text", None])
def test_unthunk_leaves_non_thunks_alone(value):
    assert unthunk(value) is value


def test_unthunk_of_nested_thunks_gives_the_value():
    assert unthunk(Thunk(lambda: Thunk(lambda: 2.0)).unthunk()) == 2.0
    inplaceable = InplaceableThunk(lambda a: a, Thunk(lambda: 4.0))
    assert unthunk(inplaceable) == 4.0


def test_unthunk_of_a_structural_tangent_unthunks_its_fields():
    t = Tangent(tuple, Thunk(lambda: 1.0), 2.0)
    assert tuple(unthunk(t)) == (1.0, 2.0)
    plain = Tangent(tuple, 1.0, 2.0)
    assert unthunk(plain) is plain


ARITHMETIC = [
    ("t + 1", lambda t: t + 1.0, 3.0),
    ("1 + t", lambda t: 1.0 + t, 3.0),
    ("t - 1", lambda t: t - 1.0, 1.0),
    ("1 - t", lambda t: 1.0 - t, -1.0),
    ("t * 3", lambda t: t * 3.0, 6.0),
    ("3 * t", lambda t: 3.0 * t, 6.0),
    ("t / 4", lambda t: t / 4.0, 0.5),
    ("-t", lambda t: -t, -2.0),
    ("t + t", lambda t: t + Thunk(lambda: 1.0), 3.0),
]


@pytest.mark.parametrize(("name", "op", "expected"), ARITHMETIC, ids=[a[0] for a in ARITHMETIC])
def test_thunk_arithmetic_uses_the_value(name, op, expected):
    assert op(Thunk(lambda: 2.0)) == expected


def test_thunk_matmul_and_conj():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    t = Thunk(lambda: a)
    np.testing.assert_array_equal(t @ np.eye(2), a)
    np.testing.assert_array_equal(np.eye(2) @ t, a)
    assert Thunk(lambda: 1 + 2j).conj() == 1 - 2j
    np.testing.assert_array_equal(Thunk(lambda: np.array([1j])).conj(), [-1j])
    assert Thunk(lambda: 2.0).conj() == 2.0


def test_thunk_times_a_zero_is_not_evaluated():
    body = Counter(1.0)
    t = Thunk(body)
    assert t * ZeroTangent() is ZeroTangent()
    assert t + ZeroTangent() is t
    assert body.calls == 0


def test_thunk_in_an_array_operation_defers_to_the_thunk():
    # __array_ufunc__ = None: NumPy hands the operation to the thunk instead of an object array.
    result = np.ones(2) + Thunk(lambda: np.array([1.0, 2.0]))
    assert type(result) is np.ndarray
    np.testing.assert_array_equal(result, [2.0, 3.0])


def test_inplaceable_thunk_add_into_mutates_the_accumulator():
    acc = np.array([1.0, 1.0])
    t = InplaceableThunk(lambda a: np.add(a, 2.0, out=a), Thunk(lambda: np.full(2, 2.0)))
    assert t.add_into(acc) is acc
    np.testing.assert_array_equal(acc, [3.0, 3.0])
    np.testing.assert_array_equal(unthunk(t), [2.0, 2.0])
    np.testing.assert_array_equal(t + 1.0, [3.0, 3.0])


def test_repr_names_the_body():
    def dx_of_solve():
        return 1.0

    assert repr(Thunk(dx_of_solve)) == "Thunk('test_repr_names_the_body.<locals>.dx_of_solve')"
    assert repr(InplaceableThunk(lambda a: a, 1.0)) == "InplaceableThunk(1.0)"


# ---- the eager switch -------------------------------------------------------------------------


def test_eager_thunks_evaluates_at_construction():
    body = Counter(5.0)
    assert not thunks_are_eager()
    with eager_thunks():
        assert thunks_are_eager()
        assert Thunk(body) == 5.0
        assert body.calls == 1
        assert InplaceableThunk(lambda a: a, Thunk(lambda: 7.0)) == 7.0
    assert not thunks_are_eager()
    assert isinstance(Thunk(body), Thunk)


def test_eager_thunks_nests_and_can_be_switched_off_inside():
    with eager_thunks():
        with eager_thunks(False):
            assert not thunks_are_eager()
            assert isinstance(Thunk(lambda: 1.0), Thunk)
        assert thunks_are_eager()
    assert not thunks_are_eager()


def test_eager_thunks_resets_after_an_exception():
    with pytest.raises(RuntimeError), eager_thunks():
        raise RuntimeError("inside")
    assert not thunks_are_eager()


def test_eager_switch_is_per_thread():
    seen = {}
    entered, checked = threading.Event(), threading.Event()

    def eager_worker():
        with eager_thunks():
            entered.set()
            checked.wait(5)
            seen["worker"] = thunks_are_eager()

    def lazy_worker():
        entered.wait(5)
        seen["other thread"] = thunks_are_eager()
        seen["other thread's thunk"] = type(Thunk(lambda: 1.0)).__name__
        checked.set()

    threads = [threading.Thread(target=eager_worker), threading.Thread(target=lazy_worker)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == {"worker": True, "other thread": False, "other thread's thunk": "Thunk"}
    assert not thunks_are_eager()


def test_eager_switch_follows_the_context():
    with eager_thunks():
        context = contextvars.copy_context()
    assert not thunks_are_eager()
    assert context.run(thunks_are_eager)


def test_eager_switch_is_per_asyncio_task():
    async def eager_task(started, release):
        with eager_thunks():
            started.set()
            await release.wait()
            return thunks_are_eager()

    async def lazy_task(started, release):
        await started.wait()
        answer = thunks_are_eager()
        release.set()
        return answer

    async def main():
        started, release = asyncio.Event(), asyncio.Event()
        return await asyncio.gather(eager_task(started, release), lazy_task(started, release))

    assert asyncio.run(main()) == [True, False]
