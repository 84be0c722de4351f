"""The rule table on dask arrays: what the dask sweep (``tests/dask/test_sweep.py``) shares.

Every swept function's sample (``sweep``) is called with its differentiated arrays as dask
arrays of two chunks per axis (``chunked``), while any computation fails the test
(``nothing_computes``). What comes back is either lazy (dask arrays with the primal's chunks,
computed afterwards and compared with the NumPy rule's values) or a ``ChainRulesError`` that
names the function.

>>> import numpy as np
>>> chunked(np.zeros((3, 2))).chunks
((2, 1), (1, 1))
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import dask
import dask.array as da
import numpy as np

from chainrules.core.tangents import AbstractZero, Tangent
from chainrules.core.thunks import unthunk

__all__ = [
    "ComputedError",
    "chunked",
    "computed",
    "lazy_leaves",
    "map_arrays",
    "nothing_computes",
]


class ComputedError(AssertionError):
    """A dask array was computed where nothing may be."""


def chunked(a: np.ndarray) -> Any:
    """``a`` as a dask array of two chunks along every axis longer than one."""
    return da.from_array(a, chunks=tuple(max(1, (n + 1) // 2) for n in a.shape))


@contextlib.contextmanager
def nothing_computes() -> Iterator[None]:
    """Within the block, any dask computation raises ``ComputedError``."""

    def refuse(graph: Any, keys: Any, **kwargs: Any) -> Any:
        raise ComputedError("a dask array was computed while the rule ran")

    with dask.config.set(scheduler=refuse):
        yield


def map_arrays(fn: Callable[[Any], Any], t: Any) -> Any:
    """``t`` with ``fn`` applied to each array or number inside tuples, lists and ``Tangent``s
    (thunks unthunked)."""
    t = unthunk(t)
    if isinstance(t, Tangent):
        backing = t.backing
        if isinstance(backing, tuple):
            backing = tuple(map_arrays(fn, e) for e in backing)
        else:
            backing = {k: map_arrays(fn, v) for k, v in backing.items()}
        return Tangent._from_backing(t.primal_type, t._kind, backing)
    if type(t) is tuple or type(t) is list:
        return type(t)(map_arrays(fn, e) for e in t)
    if isinstance(t, tuple) and hasattr(type(t), "_fields"):
        return type(t)(*(map_arrays(fn, e) for e in t))
    if isinstance(t, AbstractZero) or t is None or isinstance(t, str | int | bool):
        return t
    return fn(t)


def lazy_leaves(t: Any) -> list[Any]:
    """The dask arrays inside ``t`` (as ``map_arrays`` walks it)."""
    found: list[Any] = []
    map_arrays(lambda a: found.append(a) if isinstance(a, da.Array) else None, t)
    return found


def computed(t: Any) -> Any:
    """``t`` with every dask array inside computed, in one pass (the synchronous scheduler)."""
    arrays = lazy_leaves(t)
    values = iter(dask.compute(*arrays, scheduler="sync"))
    return map_arrays(lambda a: next(values) if isinstance(a, da.Array) else a, t)
