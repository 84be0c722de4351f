"""Levels keep nested differentiations apart: the classic perturbation-confusion cases."""

import numpy as np
import pytest

from chainrules.engines import EscapedValueError, forward, reverse
from chainrules.engines.levels import Level


def d_reverse(f):
    return reverse.grad(f)


def d_forward(f):
    return lambda x: forward.jvp(f, (x,), (1.0,))[1]


MODES = {"reverse": d_reverse, "forward": d_forward}


@pytest.mark.parametrize("outer", MODES)
@pytest.mark.parametrize("inner", MODES)
def test_x_times_derivative_of_x_plus_y(outer, inner):
    # d/dx [x * d/dy (x + y)] = 1, not 2: inside the inner derivative x is a constant.
    d_out, d_in = MODES[outer], MODES[inner]
    assert d_out(lambda x: x * d_in(lambda y: x + y)(1.0))(1.0) == 1.0


@pytest.mark.parametrize("outer", MODES)
@pytest.mark.parametrize("inner", MODES)
def test_inner_derivative_of_product_with_captured_x(outer, inner):
    # d/dx [d/dy (x * y)] at any point = d/dx x = 1.
    d_out, d_in = MODES[outer], MODES[inner]
    assert d_out(lambda x: d_in(lambda y: x * y)(2.0))(3.0) == 1.0


def test_levels_are_ordered_by_creation():
    a, b = Level("a"), Level("b")
    assert a.order < b.order


def test_escaped_value_raises():
    kept = []

    def leaky(x):
        kept.append(x)
        return x * 2.0

    reverse.grad(leaky)(1.0)
    with pytest.raises(EscapedValueError, match="after that differentiation finished"):
        np.sin(kept[0])


def test_open_levels_are_local_to_a_thread_and_a_task():
    import asyncio
    import threading

    from chainrules.engines.levels import open_levels

    inside, seen = threading.Event(), threading.Event()
    counts = {}

    def slow(x):
        counts["inside"] = open_levels()
        inside.set()
        seen.wait(timeout=10)
        return x * x

    worker = threading.Thread(target=lambda: reverse.grad(slow)(2.0))
    worker.start()
    inside.wait(timeout=10)
    counts["other thread"] = open_levels()
    seen.set()
    worker.join(timeout=10)
    assert counts == {"inside": 1, "other thread": 0}

    async def differentiate(started, release):
        def f(x):
            return x * x

        with Level("task"):
            started.set()
            await release.wait()
        return reverse.grad(f)(3.0)

    async def look():
        started, release = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(differentiate(started, release))
        await started.wait()
        here = open_levels()  # the task holds a level open; this task sees none
        release.set()
        return here, await task

    assert asyncio.run(look()) == (0, 6.0)
    assert open_levels() == 0
