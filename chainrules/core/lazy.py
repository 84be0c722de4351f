"""Lazy arrays (dask): recognised without importing dask, and never computed by a rule.

A dask array is a graph of NumPy computations on chunks. Rules compute through its array
namespace, so what they return is a graph too, with the primal's chunks, and nothing runs
until the user asks (``.compute()``, ``dask.compute``), on whatever scheduler the user runs.
Three things would compute one while a rule runs, pulling the whole array into memory:
``np.asarray`` (and every compiled routine that coerces its input), a NumPy function that dask
does not implement (dask then computes the arguments and warns), and a branch on the data
(``if (x > 0).all():``). Rules avoid them; where a rule cannot, ``require_numpy`` refuses dask
arrays with an ``ArrayTypeError`` naming the function. Registration runs every rule given a
dask array through ``lazily`` (``chainrules.core.protocol``), so that a computation that slips
through, or a failure of dask's namespace (a function it lacks), is a ``LazyArrayError``
naming the function and saying why, raised while the rule runs, never a silent computation.

>>> import numpy as np
>>> is_lazy(np.ones(2)), is_lazy(2.0)
(False, False)
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .errors import ChainRulesError, LazyArrayError
from .names import function_name

__all__ = [
    "computation_refused",
    "is_lazy",
    "lazily",
    "per_block",
    "lazy_like",
    "lazy_pullback",
    "lazy_type_name",
    "per_chunk",
]

_LAZY: dict[type, bool] = {}


def is_lazy(x: Any) -> bool:
    """Whether ``x`` is a dask array (without importing dask, cached by type).

    >>> is_lazy([1.0])
    False
    """
    cls = type(x)
    answer = _LAZY.get(cls)
    if answer is None:
        answer = _LAZY[cls] = cls.__module__.startswith("dask.") and hasattr(cls, "__dask_graph__")
    return answer


def lazy_type_name(x: Any) -> str:
    """``'dask array'`` for a dask array, else the name of ``x``'s type.

    >>> lazy_type_name(1.0)
    'float'
    """
    return "dask array" if is_lazy(x) else type(x).__name__


def _refusing_scheduler(culprit: Callable[[], str | None], previous: Any) -> Callable:
    """A dask scheduler that raises for a computation asked by ``culprit()``, else delegates."""

    def refuse_or_delegate(graph: Any, keys: Any, **kwargs: Any) -> Any:
        asked_by = culprit()
        if asked_by is not None:
            raise LazyArrayError(
                f"{asked_by} computed a dask array while it was being differentiated "
                f"(np.asarray, a NumPy function that dask does not implement, or a branch on "
                f"the data), which would pull the whole array into memory; only the user's "
                f".compute() computes"
            )
        return previous(graph, keys, **kwargs)

    refuse_or_delegate.chainrules_refusing = True  # type: ignore[attr-defined]
    return refuse_or_delegate


@contextlib.contextmanager
def computation_refused(culprit: Callable[[], str | None]) -> Iterator[None]:
    """Within the block, a dask computation raises ``LazyArrayError`` naming ``culprit()``.

    ``culprit()`` is asked when something computes: the name of the function whose rule asked
    for it (``'the rule for numpy.median'``), or ``None`` for a computation of the user's own,
    which then runs on the scheduler in force before the block (a ``dask.distributed`` client
    among them). Outside a program that imported dask, the block costs nothing.
    """
    if "dask" not in sys.modules:
        yield
        return
    import dask
    import dask.base

    previous = dask.base.get_scheduler()
    if getattr(previous, "chainrules_refusing", False):  # a nested differentiation
        yield
        return
    if previous is None:
        import dask.threaded

        previous = dask.threaded.get
    with dask.config.set(scheduler=_refusing_scheduler(culprit, previous)):
        yield


def lazily(f: Any, rule: Callable, args: tuple, kwargs: dict, what: str = "rule") -> Any:
    """``rule(*args, **kwargs)`` for ``f`` given dask arrays: where it would compute them, or
    fails on them, a ``LazyArrayError`` naming ``f`` and saying why (the failure chained)."""
    name = f"the {what} for {function_name(f)}"
    try:
        with computation_refused(lambda: name):
            return rule(*args, **kwargs)
    except ChainRulesError:
        raise
    except (TypeError, ValueError, AttributeError, NotImplementedError, IndexError) as error:
        raise LazyArrayError(
            f"{name} cannot run on dask arrays: {type(error).__name__}: {error}"
        ) from error


def lazy_pullback(f: Any, pullback: Callable, y: Any) -> Callable:
    """``pullback`` of the output ``y``, run by ``lazily`` (its name kept). A NumPy cotangent
    of a dask output becomes a dask array with its chunks first, so that the cotangents stay
    lazy (``pullback(1.0)`` of a sum is not a NumPy array the size of its input)."""

    @functools.wraps(pullback)
    def pullback_lazily(dy: Any) -> Any:
        return lazily(f, pullback, (lazy_like(y, dy),), {}, "pullback")

    return pullback_lazily


def lazy_like(y: Any, dy: Any) -> Any:
    """``dy`` as a dask array with ``y``'s chunks where ``y`` is a dask array and ``dy`` a
    NumPy array or a number; inside tuples and lists, element by element.

    >>> import pytest
    >>> da = pytest.importorskip("dask.array")
    >>> lazy_like(da.zeros(4, chunks=2), np.ones(4)).chunks
    ((2, 2),)
    """
    if is_lazy(y):
        if isinstance(dy, np.ndarray | np.generic | float | complex):
            import dask.array

            return dask.array.from_array(np.asarray(dy), chunks=y.chunks)
        return dy
    if type(y) in (tuple, list) and type(dy) is type(y) and len(dy) == len(y):
        return type(y)(lazy_like(a, b) for a, b in zip(y, dy, strict=True))
    return dy


def per_chunk(f: Any, args: tuple, kwargs: dict) -> tuple:
    """The outputs of the elementwise ``f`` (a ufunc with several outputs, which dask does not
    apply to its arrays) on dask ``args``, chunk by chunk: exact, as each element depends on
    its own inputs only.

    >>> import pytest
    >>> da = pytest.importorskip("dask.array")
    >>> mantissa, exponent = per_chunk(np.frexp, (da.ones(4, chunks=2),), {})
    >>> mantissa.chunks, exponent.compute().tolist()
    (((2, 2),), [1, 1, 1, 1])
    """
    import dask.array

    nout = f.nout
    signature = ",".join(["()"] * len(args)) + "->" + ",".join(["()"] * nout)
    dtypes = [np.dtype(t) for t in f(*(np.ones((), getattr(a, "dtype", float)) for a in args))]
    return tuple(
        dask.array.apply_gufunc(
            lambda *chunks: f(*chunks, **kwargs),
            signature,
            *args,
            output_dtypes=dtypes,
            vectorize=False,
            allow_rechunk=True,  # arguments of other chunks met as elementwise operations do
        )
    )


def per_block(f: Callable, *args: Any) -> Any:
    """``f(*args)`` for an elementwise ``f`` that dask does not apply itself (a routine of the
    rules' own, computed on NumPy values), as a dask array computed block by block: exact, as
    each element depends on its own inputs only. Numbers among ``args`` are broadcast.

    >>> import pytest
    >>> da = pytest.importorskip("dask.array")
    >>> out = per_block(lambda v, x: np.asarray(v, dtype=float) * x, 2.0, da.arange(4.0, chunks=2))
    >>> out.chunks, out.compute().tolist()
    (((2, 2),), [0.0, 2.0, 4.0, 6.0])
    """
    import dask.array

    arrays = dask.array.broadcast_arrays(*(dask.array.asarray(a) for a in args))
    dtype = np.asarray(f(*(np.ones((), a.dtype) for a in arrays))).dtype
    return dask.array.map_blocks(f, *arrays, dtype=dtype)
